"""Speed of every game: random legal play through the AEC env and the engine alone, and
(two players) what a search agent spends its time on: full playouts from a position (clone,
then random play to the end) and determinizations (``rules.sample_state`` of a view).

The yardstick is PettingZoo's ``connect_four_v3.raw_env()``, measured in the same process
the same way (observation and mask every step). Rates are steps per second of *CPU time*
(``time.process_time``), and each figure is the best of ``repeats`` runs, interleaved with
Connect Four runs, so that other programs on a shared machine move the ratio as little as
possible. The ratio is game steps/s over Connect Four steps/s.

    python -m training.bench --seconds 3 --out bench_results/bench.json
"""

from __future__ import annotations

import json
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from boardgame_envs.registry import GAMES, game_info, raw_env
from training.cli_args import POSITIVE, at_least, check_fields, parse_args

CLOCK_EVERY = 200  # steps between clock reads: reading the CPU clock is slow on some VMs


@dataclass
class Args:
    games: str = "all"
    """comma-separated game ids, or "all" """
    seconds: float = 1.0
    """CPU time per measurement"""
    repeats: int = 3
    """measurements of each figure; the best is kept"""
    seed: int = 0
    """seed of the random play"""
    out: str = "bench_results/bench.json"
    """JSON file for the results ("" = print only)"""
    learner_steps: int = 16_384
    """PPO learner steps timed per game (2 players, ``train``'s defaults for the game: its
    opponents, network and workers), after one untimed rollout; 0: skip"""

    def __post_init__(self) -> None:
        check_fields(
            self,
            {
                "seconds": POSITIVE,
                "repeats": at_least(1),
                "seed": at_least(0),
                "learner_steps": at_least(0),
            },
        )


def random_play_aec(env, seconds: float, seed: int) -> float:
    """Steps/s of uniformly random legal play, observing the mover at every step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while steps % CLOCK_EVERY or time.process_time() - start < seconds:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.process_time() - start)


def random_play_engine(rules, num_players: int, seconds: float, seed: int) -> float:
    """Steps/s of uniformly random legal play on the rules engine alone."""
    rng = np.random.default_rng(seed)
    state = rules.new_state(num_players, seed=seed)
    steps = 0
    start = time.process_time()
    while steps % CLOCK_EVERY or time.process_time() - start < seconds:
        if state.is_terminal():
            state = rules.new_state(num_players, seed=int(rng.integers(2**31)))
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    return steps / (time.process_time() - start)


def search_positions(rules, count: int, seed: int) -> list:
    """Two-player positions a quarter and halfway into seeded random games."""
    rng = np.random.default_rng(seed)
    found = []
    for g in range(count):
        states, state = [], rules.new_state(2, seed=seed + g)
        while not state.is_terminal():
            states.append(state.clone())
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        found += [states[len(states) // 4], states[len(states) // 2]]
    return found


def playouts_rate(positions: list, seconds: float, seed: int) -> float:
    """Playouts/s: clone a position, then uniformly random legal play to the end."""
    rng = np.random.default_rng(seed)
    done = 0
    start = time.process_time()
    while done < 5 or time.process_time() - start < seconds:
        state = positions[done % len(positions)].clone()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        done += 1
    return done / (time.process_time() - start)


def determinizations_rate(rules, positions: list, seconds: float, seed: int) -> float:
    """Determinizations/s: ``sample_state`` of the mover's view of each position."""
    rng = np.random.default_rng(seed)
    views = [p.view(p.current_player) for p in positions]
    done = 0
    start = time.process_time()
    while done % CLOCK_EVERY or time.process_time() - start < seconds:
        rules.sample_state(views[done % len(views)], rng)
        done += 1
    return done / (time.process_time() - start)


def learner_rate(game: str, steps: int, **train_args) -> float:
    """PPO learner steps per second of wall-clock time (the env workers run in processes of
    their own) with ``train``'s defaults for ``game``, timed after one rollout (which
    starts the workers and first fills the rollout buffer)."""
    import torch

    from training import train_ppo

    args = train_ppo.Args(game=game, progress=False, **train_args)
    torch.set_num_threads(args.torch_threads)
    env = train_ppo.make_vec_env(args, None)
    try:
        model = train_ppo.new_model(args, env)
        model.learn(model.n_steps * model.n_envs)
        done, started = model.num_timesteps, time.perf_counter()
        model.learn(steps, reset_num_timesteps=False)  # (whole rollouts: steps or more)
        return (model.num_timesteps - done) / (time.perf_counter() - started)
    finally:
        env.close()


def connect_four_rate(seconds: float, seed: int) -> float:
    import pettingzoo

    raw = pettingzoo.make("aec", "classic/connect_four-v3").unwrapped  # connect_four_v3.raw_env
    return random_play_aec(raw, seconds, seed)


def main(args: Args) -> dict:
    ids = list(GAMES) if args.games == "all" else [g.strip() for g in args.games.split(",")]
    for game in ids:
        game_info(game)  # unknown ids fail before any measurement
    rows, yardsticks = [], []
    for game in ids:
        rules = game_info(game).rules()
        for n in range(rules.min_players, rules.max_players + 1):
            aec, engine, c4 = [], [], []
            for r in range(args.repeats):
                c4.append(connect_four_rate(args.seconds, args.seed + r))
                aec.append(random_play_aec(raw_env(game, n), args.seconds, args.seed + r))
                engine.append(random_play_engine(rules, n, args.seconds, args.seed + r))
            yardsticks.append(max(c4))
            row = {
                "game": game,
                "num_players": n,
                "aec_steps_per_s": round(max(aec)),
                "engine_steps_per_s": round(max(engine)),
                "connect_four_steps_per_s": round(max(c4)),
                "ratio_to_connect_four": round(max(aec) / max(c4), 3),
            }
            if n == 2:
                positions = search_positions(rules, 4, args.seed)
                row["playouts_per_s"] = round(
                    max(
                        playouts_rate(positions, args.seconds, args.seed + r)
                        for r in range(args.repeats)
                    ),
                    1,
                )
                row["determinizations_per_s"] = round(
                    max(
                        determinizations_rate(rules, positions, args.seconds, args.seed + r)
                        for r in range(args.repeats)
                    )
                )
            rows.append(row)
    learner = (
        {game: round(learner_rate(game, args.learner_steps)) for game in ids}
        if args.learner_steps
        else {}
    )
    yardstick = max(yardsticks)
    print(
        f"connect_four_v3 raw_env: {yardstick:,.0f} steps/s of CPU time (best of "
        f"{len(yardsticks) * args.repeats} runs); ratios use the runs beside each game"
    )
    print(
        f"{'game':<22}{'players':>8}{'AEC steps/s':>14}{'ratio':>8}{'engine steps/s':>16}"
        f"{'playouts/s':>12}{'determinizations/s':>20}"
    )
    for row in rows:
        search = (
            f"{row['playouts_per_s']:>12,.1f}{row['determinizations_per_s']:>20,}"
            if "playouts_per_s" in row
            else ""
        )
        print(
            f"{row['game']:<22}{row['num_players']:>8}{row['aec_steps_per_s']:>14,}"
            f"{row['ratio_to_connect_four']:>8.2f}{row['engine_steps_per_s']:>16,}{search}"
        )
    if learner:
        print(
            f"PPO learner steps/s (2 players, train's defaults per game, {args.learner_steps:,}"
            " steps after one rollout, wall-clock):"
        )
        for game, rate in learner.items():
            print(f"{game:<22}{rate:>8,}")
    report = {
        "args": asdict(args),
        "learner_steps_per_s": learner,
        "machine": {"python": platform.python_version(), "processor": platform.machine()},
        "connect_four_steps_per_s": round(yardstick),
        "results": rows,
    }
    if args.out:
        path = Path(args.out)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report, indent=2))
        print(f"wrote {path}")
    return report


if __name__ == "__main__":
    main(parse_args(Args))
