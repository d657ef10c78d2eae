"""The SB3 recipe against the one-file PPO (examples/cleanrl_ppo.py), timed on one machine.

Trains Factors and Multiples twice, one run after the other: the shipped policy's recipe
(``boardgame-envs train factors_multiples``: a copy of the heuristic, then MaskablePPO) and
the one-file PPO (its own copy of the heuristic, then PPO on the batched env). Each run is
a child process; its CPU time (user and system, from ``getrusage``) and wall time are
measured. Then both policies play the heuristic on the same fresh deals (game g dealt from
``seed + g``, seats rotated, the library's tournament), and a table gives the CPU-minutes,
the wall minutes and the win share with its 95% interval.

    python scripts/compare_ppo.py                          # the full budgets: about an hour
    python scripts/compare_ppo.py --sb3-steps 400000 --cleanrl-steps 400000 --games 400
    python scripts/compare_ppo.py --sb3-run DIR --sb3-cpu-min 29.5 \
        --cleanrl-policy RUN/policy.pt --cleanrl-cpu-min 12.0   # runs made before: compare

``--sb3-run`` and ``--cleanrl-policy`` reuse finished runs (their CPU-minutes measured as
they ran, e.g. by ``/usr/bin/time``) in place of training them again.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "cleanrl_ppo.py"
GAME = "factors_multiples"


def timed(command: list[str], log: Path) -> dict:
    """Run ``command`` to the end (its output to ``log``): its CPU and wall minutes."""
    before, started = resource.getrusage(resource.RUSAGE_CHILDREN), time.perf_counter()
    with log.open("w") as out:
        subprocess.run(command, stdout=out, stderr=subprocess.STDOUT, check=True, cwd=REPO)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"cpu_min": cpu / 60, "wall_min": (time.perf_counter() - started) / 60}


def against_heuristic(spec: str, games: int, seed: int, workers: int) -> dict:
    """``spec``'s win share against the heuristic, with its 95% interval."""
    from boardgame_envs.training.evaluation import evaluate

    agents = {"policy": spec, "heuristic": "heuristic"}
    result = evaluate(GAME, agents, games=games, seed=seed, workers=workers).result(
        "policy", "heuristic"
    )
    low, high = result.ci95
    return {"win_share": result.win_share, "low": low, "high": high, "games": result.games}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sb3-steps", type=int, default=0, help="0: the recipe's 3.5M")
    parser.add_argument("--cleanrl-steps", type=int, default=0, help="0: the example's 3.5M")
    parser.add_argument("--sb3-run", default="", help="a finished run of the recipe to reuse")
    parser.add_argument("--sb3-cpu-min", type=float, default=0.0, help="that run's CPU-minutes")
    parser.add_argument("--cleanrl-policy", default="", help="a finished one-file run's policy")
    parser.add_argument("--cleanrl-cpu-min", type=float, default=0.0, help="its CPU-minutes")
    parser.add_argument("--games", type=int, default=2000, help="deals against the heuristic")
    parser.add_argument("--seed", type=int, default=8_600_000_000, help="deal g is seed + g")
    parser.add_argument("--workers", type=int, default=2, help="processes playing the games")
    parser.add_argument("--out", default="runs/compare_ppo", help="where the runs go")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    cli = [sys.executable, "-m", "boardgame_envs.training.cli"]
    rows = {}

    if args.sb3_run:
        sb3_dir, sb3 = Path(args.sb3_run).resolve(), {"cpu_min": args.sb3_cpu_min, "wall_min": None}
    else:
        sb3_dir = out / "sb3_recipe"
        steps = ["--timesteps", str(args.sb3_steps)] if args.sb3_steps else []
        command = [*cli, "train", GAME, "--seed", "0", "--out-dir", str(out)]
        command += ["--run-name", sb3_dir.name, "--no-progress", *steps]
        sb3 = timed(command, out / "sb3_recipe.log")
    rows["SB3 recipe (MaskablePPO)"] = (sb3, f"ppo:{sb3_dir}")

    if args.cleanrl_policy:
        policy = str(Path(args.cleanrl_policy).resolve())
        cleanrl = {"cpu_min": args.cleanrl_cpu_min, "wall_min": None}
    else:
        steps = ["--total-timesteps", str(args.cleanrl_steps)] if args.cleanrl_steps else []
        command = [sys.executable, str(EXAMPLE), "--eval-games", "0", "--out-dir", str(out)]
        cleanrl = timed([*command, *steps], out / "cleanrl_ppo.log")
        policy = (out / "cleanrl_ppo.log").read_text().rsplit("saved ", 1)[1].split()[0]
    os.environ["CLEANRL_PPO_POLICY"] = policy  # read by SavedPolicy, in the workers too
    rows["one-file PPO (examples/cleanrl_ppo.py)"] = (cleanrl, f"{EXAMPLE}:SavedPolicy")

    report = {}
    print(f"| run | CPU min | wall min | against the heuristic ({args.games:,} deals, "
          f"seeds {args.seed:,} +) |")  # fmt: skip
    print("|---|---:|---:|---|")
    for name, (timing, spec) in rows.items():
        strength = against_heuristic(spec, args.games, args.seed, args.workers)
        report[name] = {**timing, **strength, "agent": spec}
        wall = "–" if timing["wall_min"] is None else f"{timing['wall_min']:.1f}"
        print(f"| {name} | {timing['cpu_min']:.1f} | {wall} | {strength['win_share']:.3f} "
              f"[{strength['low']:.3f}, {strength['high']:.3f}] |", flush=True)  # fmt: skip
    (out / "compare_ppo.json").write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
