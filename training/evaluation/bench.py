"""Speed of every game on each engine (Python, and native where it is built): random legal
play through the AEC env and the engine alone (mask and apply from Python), random playouts in
one call (``state.playout``), ``clone`` and ``view(seat).observation()``; and (two players)
what a search agent spends its time on: full playouts from a position (clone, then random play
to the end from Python) and determinizations (``rules.sample_state`` of a view).

The yardstick is PettingZoo's ``connect_four_v3.raw_env()``, measured in the same process
the same way (observation and mask every step). Rates are steps per second of *CPU time*
(``time.process_time``), and each figure is the best of ``repeats`` runs, interleaved with
Connect Four runs, so that other programs on a shared machine move the ratio as little as
possible. The ratio is game steps/s over Connect Four steps/s.

    python -m boardgame_envs.training.evaluation.bench --seconds 3 --out bench_results/bench.json
"""

from __future__ import annotations

import json
import platform
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from boardgame_envs.agents.settings import game_settings, has_heuristic, reference_agent
from boardgame_envs.core.native import native_games, native_module
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import GAMES, game_info, raw_env
from boardgame_envs.training.cli_args import (
    POSITIVE,
    at_least,
    check_fields,
    check_output_file,
    parse_args,
)

CLOCK_EVERY = 200  # steps between clock reads: reading the CPU clock is slow on some VMs
IN_PLAY_GAMES = 10  # heuristic games of each in-play measurement


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
    engines: str = "all"
    """"python", "native" or "all" (both where the native engine is built)"""
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
        if self.engines not in ("all", "python", "native"):
            raise InvalidConfigError(
                f"--engines {self.engines!r} is not allowed; allowed: all, python, native"
            )
        if self.out:
            check_output_file("--out", self.out)


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
    """Steps/s of uniformly random legal play on the rules engine alone (the moves drawn
    with Python's ``random``: a numpy draw per step would cost more than a native step)."""
    moves = random.Random(seed)
    state = rules.new_state(num_players, seed=seed)
    steps = 0
    start = time.process_time()
    while steps % CLOCK_EVERY or time.process_time() - start < seconds:
        if state.is_terminal():
            state = rules.new_state(num_players, seed=moves.randrange(2**31))
            continue
        state.apply(moves.choice(state.legal_actions()))
        steps += 1
    return steps / (time.process_time() - start)


def playout_rate(rules, num_players: int, seconds: float, seed: int) -> float:
    """Decisions/s of ``state.playout`` (random play to the end in one call) from new deals."""
    decisions = 0
    game = 0
    start = time.process_time()
    while game < 3 or time.process_time() - start < seconds:
        state = rules.new_state(num_players, seed=seed + game)
        decisions += state.playout(seed=seed + game)
        game += 1
    return decisions / (time.process_time() - start)


def clone_rate(positions: list, seconds: float) -> float:
    done = 0
    start = time.process_time()
    while done % CLOCK_EVERY or time.process_time() - start < seconds:
        positions[done % len(positions)].clone()
        done += 1
    return done / (time.process_time() - start)


def observation_rate(positions: list, seconds: float) -> float:
    """``view(seat).observation()`` per second, every seat of each position in turn."""
    done = 0
    start = time.process_time()
    while done % CLOCK_EVERY or time.process_time() - start < seconds:
        state = positions[done % len(positions)]
        state.view(done % state.num_players).observation()
        done += 1
    return done / (time.process_time() - start)


def search_positions(rules, count: int, seed: int, num_players: int = 2) -> list:
    """Two-player positions a quarter and halfway into seeded random games."""
    rng = np.random.default_rng(seed)
    found = []
    for g in range(count):
        states, state = [], rules.new_state(num_players, seed=seed + g)
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


def determinizations_rate(
    rules, positions: list, seconds: float, seed: int, engine_generator: bool = False
) -> float:
    """Determinizations/s: ``sample_state`` of the mover's view of each position, from a
    numpy generator, or (``engine_generator``, native engine) from the engine's own ``Pcg64``
    as the search draws them."""
    if engine_generator and rules.engine == "native":
        rng = native_module().Pcg64.from_seed(seed)
    else:
        rng = np.random.default_rng(seed)
    views = [p.view(p.current_player) for p in positions]
    done = 0
    start = time.process_time()
    while done % CLOCK_EVERY or time.process_time() - start < seconds:
        rules.sample_state(views[done % len(views)], rng)
        done += 1
    return done / (time.process_time() - start)


def heuristic_rate(game: str, engine: str, positions: list, seconds: float) -> float:
    """Heuristic decisions/s: the game's heuristic on the engine's views (made beforehand)
    of the mover in each position: the reference on the Python engine, the compiled twin
    on the native one."""
    from boardgame_envs.agents.specs import make_agent

    agent = make_agent("heuristic", game, seed=0, engine=engine)
    views = [p.view(p.current_player) for p in positions if len(p.legal_actions()) > 1]
    done = 0
    start = time.process_time()
    while done % CLOCK_EVERY or time.process_time() - start < seconds:
        agent.act(views[done % len(views)])
        done += 1
    return done / (time.process_time() - start)


def heuristic_in_play_rate(game: str, engine: str, games: int, seed: int) -> float:
    """Heuristic decisions/s in play: ``games`` heuristic-against-heuristic games, each
    decision with a choice made on the view just made of a new position (the heuristics'
    memos help only as much as they do in a game, unlike :func:`heuristic_rate`'s views,
    decided again and again). Each decision is timed on the wall clock, less the clock's
    own cost."""
    from boardgame_envs.agents.specs import make_agent

    rules = game_info(game).rules(engine)
    agent = make_agent("heuristic", game, seed=0, engine=engine)
    clock = time.perf_counter_ns
    spent = decisions = 0
    for g in range(games):
        state = rules.new_state(2, seed=seed + g)
        while not state.is_terminal():
            view = state.view(state.current_player)
            if len(view.legal_actions()) < 2:  # no choice: timed nowhere else either
                state.apply(agent.act(view))
                continue
            before = clock()
            move = agent.act(view)
            spent += clock() - before
            decisions += 1
            state.apply(move)
    return decisions / max(1e-9 * (spent - decisions * clock_cost()), 1e-9)


def clock_cost(reads: int = 100_000) -> float:
    """Nanoseconds between two back-to-back ``perf_counter_ns`` reads (the least of 3)."""
    clock, costs = time.perf_counter_ns, []
    for _ in range(3):
        total = 0
        for _ in range(reads):
            before = clock()
            total += clock() - before
        costs.append(total / reads)
    return min(costs)


def search_rate(game: str, engine: str, positions: list) -> float:
    """Search iterations/s of the default search settings (``ismcts:preset=v1``, without the
    time cap: its iteration budgets decide) deciding in each position, on ``engine``."""
    from boardgame_envs.agents.search import ISMCTSAgent, parse_options

    preset = "preset=v1," if "v1" in game_settings(game).search_presets else ""
    options, _ = parse_options(f"{preset}seconds=0", game)
    agent = ISMCTSAgent(game, options, seed=0, engine=engine)
    rules = game_info(game).rules(engine)
    views = [
        rules.from_dict(p.to_dict()).view(p.current_player)
        for p in positions
        if len(p.legal_actions()) > 1
    ]
    iterations = 0
    start = time.process_time()
    for view in views:
        agent.act(view)
        iterations += max(agent.last_iterations, 1)
    return iterations / (time.process_time() - start)


def heuristic_playout_rate(positions: list, seconds: float, seed: int) -> float:
    """Decisions/s of heuristic playouts to the end (the search's rollouts): the native
    engine's ``playout(policy="heuristic")``, the reference heuristic move by move on the
    Python engine."""
    from boardgame_envs.agents.heuristic import heuristic_playout

    decisions, done = 0, 0
    start = time.process_time()
    while done < 5 or time.process_time() - start < seconds:
        decisions += heuristic_playout(positions[done % len(positions)].clone(), seed + done)
        done += 1
    return decisions / (time.process_time() - start)


def single_agent_rate(game: str, engine: str, seconds: float, seed: int) -> float:
    """Learner steps/s of one single-agent env (mask appended to the observation) with
    the heuristic as the opponent (random play in a game without one), the learner playing
    uniformly random legal moves."""
    from boardgame_envs.registry import make_single_agent

    opponent = reference_agent(game)
    env = make_single_agent(game, opponent=opponent, engine=engine, observe_mask=True)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.process_time()
    while steps % CLOCK_EVERY or time.process_time() - start < seconds:
        legal = np.flatnonzero(env.action_masks())
        _, _, terminated, truncated, _ = env.step(int(legal[rng.integers(len(legal))]))
        if terminated or truncated:
            env.reset()
        steps += 1
    return steps / (time.process_time() - start)


VEC_ENVS = 64


def vector_rate(game: str, seconds: float, seed: int) -> float:
    """Learner steps/s (summed over the envs) of ``make_vec`` with ``VEC_ENVS`` envs and
    heuristic opponents, the learners playing uniformly random legal moves."""
    from boardgame_envs.vector import make_vec

    env = make_vec(game, VEC_ENVS, opponent=reference_agent(game), seed=seed)
    rng = np.random.default_rng(seed)
    env.reset()
    steps = 0
    start = time.process_time()
    while steps < 10 * VEC_ENVS or time.process_time() - start < seconds:
        masks = env.action_masks()
        env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        steps += VEC_ENVS
    return steps / (time.process_time() - start)


def learner_rate(game: str, steps: int, **train_args) -> float:
    """PPO learner steps per second of wall-clock time (the env workers run in processes of
    their own) with ``train``'s defaults for ``game``, timed after one rollout (which
    starts the workers and first fills the rollout buffer)."""
    import torch

    from boardgame_envs.training.ppo import envs, train
    from boardgame_envs.training.ppo.model import new_model

    args = train.Args(game=game, progress=False, **train_args)
    torch.set_num_threads(args.torch_threads)
    env = envs.make_vec_env(args, None)
    try:
        model = new_model(args, env)
        model.learn(model.n_steps * model.n_envs)
        done, started = model.num_timesteps, time.perf_counter()
        model.learn(steps, reset_num_timesteps=False)  # (whole rollouts: steps or more)
        return (model.num_timesteps - done) / (time.perf_counter() - started)
    finally:
        env.close()


def network_rates(game: str, seconds: float, repeats: int, seed: int) -> dict[str, int]:
    """Forward passes/s of the game's policy-value network (default shape, 2 players) on
    one view at a time, as the ``net:`` and ``ismcts-net:`` agents run it: torch on one
    thread, and the numpy copy the agents use on the CPU."""
    import torch

    from boardgame_envs.agents.policy_value import (
        NumpyForward,
        PolicyValueNet,
        encode_view,
        one_blas_thread,
    )
    from boardgame_envs.agents.ppo import one_torch_thread

    torch.manual_seed(seed)
    net = PolicyValueNet(game, 2).eval()
    rules = game_info(game).rules("native" if game in native_games() else "python")
    views = [encode_view(p.view(p.current_player)) for p in search_positions(rules, 4, seed)]
    forward = NumpyForward(net)

    def rate(evaluate) -> float:
        done = 0
        start = time.process_time()
        while done % 50 or time.process_time() - start < seconds:
            evaluate(*views[done % len(views)])
            done += 1
        return done / (time.process_time() - start)

    def with_torch(observation: np.ndarray, mask: np.ndarray) -> None:
        net.evaluate(observation[None], mask[None])

    with one_torch_thread(), one_blas_thread():
        return {
            "torch": round(best(lambda r: rate(with_torch), repeats)),
            "numpy": round(best(lambda r: rate(forward.evaluate), repeats)),
        }


#: The leaves a pass in the batched guided search's figure (``ismcts-net:...,batch=16``).
NET_SEARCH_BATCH = 16


def net_search_rates(game: str, repeats: int, seed: int) -> dict[str, int]:
    """Tree iterations/s (CPU time) of the search guided by the game's shipped network
    (``ismcts-net:<game>`` at its defaults, 256 iterations a decision, the heuristic's
    checks outside the tree off) with the network reading one leaf a pass (``batch=1``)
    and ``NET_SEARCH_BATCH`` leaves a pass."""
    from boardgame_envs.agents.policy_value import shipped_nets
    from boardgame_envs.agents.specs import make_agent

    if game not in shipped_nets():
        return {}
    rules = game_info(game).rules("native" if game in native_games() else "python")
    views = [
        p.view(p.current_player)
        for p in search_positions(rules, 4, seed)
        if len(p.legal_actions()) > 1
    ]
    tree_only = "seconds=0,iterations=256,verify=0,guard=0,late=0,mid=0"

    def rate(batch: int) -> float:
        agent = make_agent(f"ismcts-net:{game},{tree_only},batch={batch}", game, seed=seed)
        iterations = 0
        start = time.process_time()
        for view in views:
            agent.act(view)
            iterations += agent.last_iterations
        return iterations / (time.process_time() - start)

    return {
        "one": round(best(lambda r: rate(1), repeats)),
        "batched": round(best(lambda r: rate(NET_SEARCH_BATCH), repeats)),
    }


def connect_four_rate(seconds: float, seed: int) -> float:
    import pettingzoo

    raw = pettingzoo.make("aec", "classic/connect_four-v3").unwrapped  # connect_four_v3.raw_env
    return random_play_aec(raw, seconds, seed)


def engines_of(game: str, wanted: str) -> list[str]:
    available = ["python"] + (["native"] if game in native_games() else [])
    return available if wanted == "all" else [e for e in available if e == wanted]


def best(measure, repeats: int, digits: int = 0) -> float:
    return round(max(measure(r) for r in range(repeats)), digits or None)


def measure_row(game: str, engine: str, n: int, args: Args, c4: list[float]) -> dict:
    """One game, engine and player count; Connect Four runs interleaved into ``c4``."""
    rules = game_info(game).rules(engine)
    aec, steps = [], []
    for r in range(args.repeats):
        c4.append(connect_four_rate(args.seconds, args.seed + r))
        env = raw_env(game, n, engine=engine)
        aec.append(random_play_aec(env, args.seconds, args.seed + r))
        steps.append(random_play_engine(rules, n, args.seconds, args.seed + r))
    positions = search_positions(rules, 4, args.seed, n)
    row = {
        "game": game,
        "engine": engine,
        "num_players": n,
        "aec_steps_per_s": round(max(aec)),
        "connect_four_steps_per_s": round(max(c4[-args.repeats :])),
        "ratio_to_connect_four": round(max(aec) / max(c4[-args.repeats :]), 3),
        "engine_steps_per_s": round(max(steps)),
        "playout_decisions_per_s": best(
            lambda r: playout_rate(rules, n, args.seconds, args.seed + 1000 * r), args.repeats
        ),
        "clones_per_s": best(lambda r: clone_rate(positions, args.seconds), args.repeats),
        "observations_per_s": best(
            lambda r: observation_rate(positions, args.seconds), args.repeats
        ),
    }
    if n == 2:
        row["playouts_per_s"] = best(
            lambda r: playouts_rate(positions, args.seconds, args.seed + r), args.repeats, 1
        )
        row["determinizations_per_s"] = best(
            lambda r: determinizations_rate(rules, positions, args.seconds, args.seed + r),
            args.repeats,
        )
        row["search_determinizations_per_s"] = best(
            lambda r: determinizations_rate(rules, positions, args.seconds, args.seed + r, True),
            args.repeats,
        )
        if has_heuristic(game):
            row["heuristic_decisions_per_s"] = best(
                lambda r: heuristic_rate(game, engine, positions, args.seconds), args.repeats
            )
            row["heuristic_in_play_per_s"] = best(
                lambda r: heuristic_in_play_rate(game, engine, IN_PLAY_GAMES, args.seed + 1000 * r),
                args.repeats,
            )
            row["heuristic_playout_decisions_per_s"] = best(
                lambda r: heuristic_playout_rate(positions, args.seconds, args.seed + r),
                args.repeats,
            )
        row["single_agent_steps_per_s"] = best(
            lambda r: single_agent_rate(game, engine, args.seconds, args.seed + r),
            args.repeats,
        )
        row["search_iterations_per_s"] = best(
            lambda r: search_rate(game, engine, positions), args.repeats
        )
        if engine == "native":
            row["vector_steps_per_s"] = best(
                lambda r: vector_rate(game, args.seconds, args.seed + r), args.repeats
            )
    return row


COLUMNS = [  # (key, heading, width)
    ("aec_steps_per_s", "AEC steps/s", 13),
    ("ratio_to_connect_four", "xC4", 7),
    ("engine_steps_per_s", "steps/s", 11),
    ("playout_decisions_per_s", "playout/s", 12),
    ("clones_per_s", "clones/s", 11),
    ("observations_per_s", "obs/s", 11),
]


def speed_up(ratio: float, width: int) -> str:
    return f"{ratio:>{width - 1}.1f}x"


def print_table(rows: list[dict]) -> None:
    """Each game and player count: a row per engine, then native/python ratios."""
    head = "".join(f"{h:>{w}}" for _, h, w in COLUMNS)
    print(f"{'game':<20}{'n':>2} {'engine':<8}{head}")
    for row in rows:
        cells = "".join(
            f"{row[k]:>{w}.2f}" if k == "ratio_to_connect_four" else f"{row[k]:>{w},.0f}"
            for k, _, w in COLUMNS
        )
        print(f"{row['game']:<20}{row['num_players']:>2} {row['engine']:<8}{cells}")
        python = next(
            (
                r
                for r in rows
                if r["engine"] == "python"
                and (r["game"], r["num_players"]) == (row["game"], row["num_players"])
            ),
            None,
        )
        if row["engine"] == "native" and python is not None:
            ratios = "".join(
                f"{'':>{w}}"
                if k == "ratio_to_connect_four"
                else f"{row[k] / python[k]:>{w - 1}.1f}x"
                for k, _, w in COLUMNS
            )
            print(f"{'':<20}{'':>2} {'speed-up':<8}{ratios}")
    searched = [r for r in rows if "playouts_per_s" in r]
    if searched:
        print_agent_table(searched)


AGENT_COLUMNS = [  # (key, heading, width): search and training paths, 2 players
    ("playouts_per_s", "playouts/s", 12),
    ("determinizations_per_s", "determ./s", 11),
    ("search_determinizations_per_s", "search det./s", 14),
    ("heuristic_decisions_per_s", "heur./s", 10),
    ("heuristic_in_play_per_s", "heur.play/s", 12),
    ("heuristic_playout_decisions_per_s", "heur.playout/s", 15),
    ("single_agent_steps_per_s", "1-env/s", 10),
    ("vector_steps_per_s", f"vec{VEC_ENVS}/s", 11),
    ("search_iterations_per_s", "search it/s", 12),
]


def print_agent_table(rows: list[dict]) -> None:
    """Search and training paths (2 players): a row per engine, then native/python ratios;
    the batched env (native only) is compared with the Python engine's single env."""
    head = "".join(f"{h:>{w}}" for _, h, w in AGENT_COLUMNS)
    print(f"\n{'search, training (2p)':<22} {'engine':<8}{head}")
    for row in rows:
        cells = "".join(
            f"{row[k]:>{w},.0f}" if k in row else f"{'-':>{w}}" for k, _, w in AGENT_COLUMNS
        )
        print(f"{row['game']:<22} {row['engine']:<8}{cells}")
        python = next(
            (r for r in rows if r["engine"] == "python" and r["game"] == row["game"]), None
        )
        if row["engine"] == "native" and python is not None:
            # the batched env against the Python engine's single env (same opponents)
            base = {"vector_steps_per_s": "single_agent_steps_per_s"}
            ratios = "".join(
                speed_up(row[k] / python[base.get(k, k)], w) if k in row else f"{'':>{w}}"
                for k, _, w in AGENT_COLUMNS
            )
            print(f"{'':<22} {'speed-up':<8}{ratios}")


def print_ratio_table(
    title: str,
    rates: dict[str, dict],
    columns: list[tuple[str, str, int]],
    faster: str,
    slower: str,
) -> None:
    """A rate per game in each of ``columns`` (key, heading, width), then the speed-up of
    the ``faster`` path over the ``slower`` one."""
    print(f"\n{title}")
    print(f"{'game':<22}" + "".join(f"{h:>{w}}" for _, h, w in columns) + f"{'speed-up':>10}")
    for game, row in rates.items():
        cells = "".join(f"{row[k]:>{w},}" for k, _, w in columns)
        print(f"{game:<22}{cells}{speed_up(row[faster] / row[slower], 10)}")


def main(args: Args) -> dict:
    ids = list(GAMES) if args.games == "all" else [g.strip() for g in args.games.split(",")]
    for game in ids:
        game_info(game)  # unknown ids fail before any measurement
    rows, c4 = [], []
    for game in ids:
        info = game_info(game)
        rules = info.rules("python")
        for n in range(rules.min_players, rules.max_players + 1):
            for engine in engines_of(game, args.engines):
                rows.append(measure_row(game, engine, n, args, c4))
    learner = {
        game: {
            "compiled_batch": round(learner_rate(game, args.learner_steps)),
            "env_per_game": round(learner_rate(game, args.learner_steps, vector=False)),
        }
        for game in (ids if args.learner_steps else [])
    }
    networks = {game: network_rates(game, args.seconds, args.repeats, args.seed) for game in ids}
    guided = {game: net_search_rates(game, args.repeats, args.seed) for game in ids}
    guided = {game: rates for game, rates in guided.items() if rates}
    yardstick = max(c4)
    print(
        f"connect_four_v3 raw_env: {yardstick:,.0f} steps/s of CPU time (best of {len(c4)} "
        "runs); xC4 is the AEC rate over the Connect Four runs beside it. Rates per second of "
        "CPU time: AEC steps (observation and mask every step), engine steps (mask + apply "
        "from Python), decisions of random playouts in one call, clones, view observations."
    )
    print_table(rows)
    if learner:
        print_ratio_table(
            f"PPO learner steps/s (2 players, train's defaults per game, {args.learner_steps:,}"
            " steps after one rollout, wall-clock): the envs as one compiled batch (train's "
            "default) and as one env per game (--vector false)",
            learner,
            [("compiled_batch", "batch", 8), ("env_per_game", "per game", 10)],
            faster="compiled_batch",
            slower="env_per_game",
        )
    print_ratio_table(
        "Policy-value network forward passes/s (one view a call, the game's default shape, "
        "CPU time): torch on one thread, and the numpy copy that net: and ismcts-net: use",
        networks,
        [("torch", "torch", 8), ("numpy", "numpy", 10)],
        faster="numpy",
        slower="torch",
    )
    if guided:
        print_ratio_table(
            "Guided search (ismcts-net, the shipped network) tree iterations/s, CPU time: "
            f"the network reading one leaf a pass (batch=1, the default) and {NET_SEARCH_BATCH}"
            f" (batch={NET_SEARCH_BATCH}: the same numpy sums over a batch, one GPU call on a GPU)",
            guided,
            [("one", "batch=1", 10), ("batched", f"batch={NET_SEARCH_BATCH}", 10)],
            faster="batched",
            slower="one",
        )
    report = {
        "args": asdict(args),
        "learner_steps_per_s": learner,
        "network_forward_per_s": networks,
        "net_search_iterations_per_s": guided,
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
