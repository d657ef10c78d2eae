"""Speed of every game: random legal play through the AEC env and the engine alone.

The yardstick is PettingZoo's ``connect_four_v3.raw_env()``, measured in the same process
the same way (observation and mask every step), before and after the games so that a
machine slowing down shows. The ratio is game steps/s over Connect Four steps/s.

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
from training.cli_args import parse_args


@dataclass
class Args:
    games: str = "all"
    """comma-separated game ids, or "all" """
    seconds: float = 2.0
    """time per measurement"""
    seed: int = 0
    """seed of the random play"""
    out: str = "bench_results/bench.json"
    """JSON file for the results ("" = print only)"""


def random_play_aec(env, seconds: float, seed: int) -> float:
    """Steps/s of uniformly random legal play, observing the mover at every step."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.reset(seed=int(rng.integers(2**31)))
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        steps += 1
    return steps / (time.perf_counter() - start)


def random_play_engine(rules, num_players: int, seconds: float, seed: int) -> float:
    """Steps/s of uniformly random legal play on the rules engine alone."""
    rng = np.random.default_rng(seed)
    state = rules.new_state(num_players, seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = rules.new_state(num_players, seed=int(rng.integers(2**31)))
            continue
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    return steps / (time.perf_counter() - start)


def connect_four_rate(seconds: float, seed: int) -> float:
    from pettingzoo.classic import connect_four_v3

    return random_play_aec(connect_four_v3.raw_env(), seconds, seed)


def main(args: Args) -> dict:
    ids = list(GAMES) if args.games == "all" else [g.strip() for g in args.games.split(",")]
    for game in ids:
        game_info(game)  # unknown ids fail before any measurement
    yardstick_before = connect_four_rate(args.seconds, args.seed)
    rows = []
    for game in ids:
        rules = game_info(game).rules()
        for n in range(rules.min_players, rules.max_players + 1):
            aec = random_play_aec(raw_env(game, n), args.seconds, args.seed)
            engine = random_play_engine(rules, n, args.seconds, args.seed)
            rows.append(
                {
                    "game": game,
                    "num_players": n,
                    "aec_steps_per_s": round(aec),
                    "engine_steps_per_s": round(engine),
                }
            )
    yardstick_after = connect_four_rate(args.seconds, args.seed)
    yardstick = (yardstick_before + yardstick_after) / 2
    for row in rows:
        row["ratio_to_connect_four"] = round(row["aec_steps_per_s"] / yardstick, 3)

    print(
        f"connect_four_v3 raw_env: {yardstick:,.0f} steps/s "
        f"(before {yardstick_before:,.0f}, after {yardstick_after:,.0f})"
    )
    print(f"{'game':<22}{'players':>8}{'AEC steps/s':>14}{'ratio':>8}{'engine steps/s':>16}")
    for row in rows:
        print(
            f"{row['game']:<22}{row['num_players']:>8}{row['aec_steps_per_s']:>14,}"
            f"{row['ratio_to_connect_four']:>8.2f}{row['engine_steps_per_s']:>16,}"
        )
    report = {
        "args": asdict(args),
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
