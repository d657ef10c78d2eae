"""The scaling figures of docs/results.md: league games/s and PPO learner steps/s for 1 and 2
workers, local and Ray, on this machine.

    python scripts/scaling.py league cornucopia heuristic,random 300
    python scripts/scaling.py train cornucopia 16384

A league is timed from its first game to its last, training after one untimed rollout
(``bench.learner_rate``); starting the workers or Ray is not counted. The 1-minute load
average before each run is printed beside it.
"""

from __future__ import annotations

import os
import sys
import time

SETTINGS = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]
LEAGUE_SEED = 5_000_000


def league_rate(game: str, agents: str, games: int, backend: str, workers: int) -> float:
    from boardgame_envs.training.evaluation.league import Args, run_league

    if backend == "ray":
        from boardgame_envs.training.parallel import connect_ray

        connect_ray("", workers)
    args = Args(
        game=game,
        agents=agents,
        games=games,
        seed=LEAGUE_SEED,
        workers=workers,
        backend=backend,
        progress=False,
    )
    started = time.perf_counter()
    tournament = run_league(args)
    played = sum(r.games for r in tournament.results) // 2  # two-player rows come in pairs
    return played / (time.perf_counter() - started)


def learner_rate(game: str, steps: int, backend: str, workers: int) -> float:
    from boardgame_envs.training.evaluation.bench import learner_rate

    return learner_rate(game, steps, backend=backend, workers=workers)


def main(argv: list[str]) -> None:
    kind, game, *rest = argv
    for backend, workers in SETTINGS:
        load = os.getloadavg()[0]
        if kind == "league":
            rate = league_rate(game, rest[0], int(rest[1]), backend, workers)
            unit = "games/s"
        else:
            rate = learner_rate(game, int(rest[0]), backend, workers)
            unit = "learner steps/s"
        print(f"{backend:5} {workers} worker(s): {rate:,.1f} {unit} (load {load:.1f})", flush=True)
        if backend == "ray":
            import ray

            ray.shutdown()


if __name__ == "__main__":
    main(sys.argv[1:])
