"""Pinned runs: the same commands before and after a refactoring, compared byte for byte.

Runs, into ``OUT/``, one file per run (timings stripped):

- one ``eval`` per game with every agent kind at a fixed seed (random, heuristic, ismcts at
  ``seconds=0``, the shipped ``ppo:``, ``net:`` and ``ismcts-net:`` agents);
- one short ``train`` per algorithm (PPO and expert iteration), and the trained weights' digest;
- one ``league``;
- the batched env's first 1,000 steps per game (observations, rewards, ends: a digest).

Usage::

    python scripts/pinned_runs.py OUT [--only eval,train,league,vec] [--games g1,g2]
    diff -r before/ after/          # nothing but an empty diff means no behaviour changed

The command line is found as ``boardgame-envs`` beside this interpreter.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

GAMES = ["factors_multiples", "cornucopia", "carcassonne_castle", "tahiti", "wasabi"]
CLI = str(Path(sys.executable).parent / "boardgame-envs")

#: Lines or parts of lines that are timings or paths, not outcomes.
_VOLATILE = [
    (re.compile(r"\d+(\.\d+)?\s*(ms|s|min|µs)\b(/decision| a decision)?"), "<time>"),
    (re.compile(r"[\d.]+\s*(it|games|steps|decisions)/s"), "<rate>"),
    (re.compile(r"\d{8}-\d{6}"), "<stamp>"),
    (re.compile(r"/tmp/\S+"), "<tmp>"),
    (re.compile(r"\bin [\d.]+ ?(s|min|h)\b"), "in <time>"),
]


def _clean(text: str) -> str:
    lines = []
    timed_table = False  # a table whose last column is seconds per decision
    for line in text.splitlines():
        if line.startswith("|"):
            timed_table = timed_table or "s/decision" in line
            if timed_table:
                line = line.rstrip().rstrip("|").rsplit("|", 1)[0] + "|"
        else:
            timed_table = False
        for pattern, repl in _VOLATILE:
            line = pattern.sub(repl, line)
        lines.append(line.rstrip())
    return "\n".join(lines) + "\n"


def _run(args: list[str], out: Path, name: str) -> None:
    print(f"[pinned] {name}", flush=True)
    proc = subprocess.run(args, capture_output=True, text=True)
    text = f"exit {proc.returncode}\n" + proc.stdout
    if proc.returncode:
        text += "\n--- stderr ---\n" + proc.stderr[-4000:]
    (out / f"{name}.txt").write_text(_clean(text))


def run_evals(out: Path, games: list[str]) -> None:
    for game in games:
        agents = [
            "random",
            "heuristic",
            "ismcts:seconds=0,iterations=40",
            f"ppo:{game}",
            f"net:{game}",
            f"ismcts-net:{game},seconds=0,iterations=24",
        ]
        _run(
            [CLI, "eval", "--game", game, "--agents", ",".join(agents), "--games", "4"]
            + ["--seed", "1234", "--no-progress", "--workers", "2"],
            out,
            f"eval-{game}",
        )


def _weights_digest(path: Path) -> str:
    import torch

    if path.suffix == ".zip":
        import zipfile

        with zipfile.ZipFile(path) as archive:
            data = archive.read("policy.pth")
        state = torch.load(__import__("io").BytesIO(data), map_location="cpu")
    else:
        state = torch.load(path, map_location="cpu", weights_only=False)
        state = state.get("state_dict", state) if isinstance(state, dict) else state
    digest = hashlib.sha256()
    for key in sorted(k for k in state if hasattr(state[k], "numpy")):
        digest.update(key.encode())
        digest.update(state[key].detach().cpu().numpy().tobytes())
    return digest.hexdigest()[:16]


def run_trains(out: Path, games: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for game in games:
            run = f"ppo-{game}"
            _run(
                [CLI, "train", "--game", game, "--timesteps", "2048", "--n-envs", "4"]
                + ["--n-steps", "256", "--batch-size", "256", "--imitation-games", "4"]
                + ["--imitation-epochs", "1", "--eval-every", "0", "--no-progress"]
                + ["--out-dir", tmp, "--run-name", run, "--seed", "3"],
                out,
                f"train-ppo-{game}",
            )
            _digest_models(Path(tmp) / run, out / f"train-ppo-{game}.txt")
            run = f"exit-{game}"
            _run(
                [CLI, "train", "--algo", "exit", "--game", game, "--iterations", "1"]
                + ["--games-per-iteration", "2", "--search", "ismcts:seconds=0,iterations=8"]
                + ["--imitation-games", "2", "--epochs", "1", "--eval-every", "0"]
                + ["--no-progress", "--out-dir", tmp, "--run-name", run, "--seed", "3"],
                out,
                f"train-exit-{game}",
            )
            _digest_models(Path(tmp) / run, out / f"train-exit-{game}.txt")


def _digest_models(run_dir: Path, report: Path) -> None:
    lines = []
    for path in sorted(run_dir.rglob("*")):
        if path.suffix in (".zip", ".pt") and path.is_file():
            try:
                lines.append(f"{path.relative_to(run_dir)} {_weights_digest(path)}")
            except Exception as error:  # noqa: BLE001 - recorded, compared like the rest
                lines.append(f"{path.relative_to(run_dir)} unreadable: {error}")
    with report.open("a") as file:
        file.write("--- weights ---\n" + "\n".join(lines) + "\n")


def run_league(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _run(
            [CLI, "league", "--game", "wasabi", "--agents", "heuristic,random,ismcts:seconds=0"]
            + ["--games", "6", "--seed", "77", "--no-progress", "--out", tmp, "--workers", "2"],
            out,
            "league-wasabi",
        )
        for name in ("results.csv", "results.md"):
            if (Path(tmp) / name).exists():
                (out / f"league-wasabi-{name}").write_text(_clean((Path(tmp) / name).read_text()))


_VEC_SNIPPET = """
import hashlib, sys
import numpy as np
import boardgame_envs
game = sys.argv[1]
from boardgame_envs.vector import make_vec
env = make_vec(game, 8, opponent="heuristic", seed=11)
rng = np.random.default_rng(5)
obs = env.reset()
digest = hashlib.sha256()
for step in range(1000):
    masks = np.asarray(env.action_masks())
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
    obs, rewards, dones, infos = env.step(actions)
    for part in (obs if isinstance(obs, dict) else {"o": obs}).values():
        digest.update(np.ascontiguousarray(part).tobytes())
    digest.update(np.asarray(rewards, dtype=np.float64).tobytes())
    digest.update(np.asarray(dones).tobytes())
print(game, digest.hexdigest())
"""


def run_vec(out: Path, games: list[str]) -> None:
    for game in games:
        _run([sys.executable, "-c", _VEC_SNIPPET, game], out, f"vec-{game}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--only", default="eval,train,league,vec")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games = args.games.split(",")
    parts = args.only.split(",")
    if "vec" in parts:
        run_vec(out, games)
    if "eval" in parts:
        run_evals(out, games)
    if "league" in parts:
        run_league(out)
    if "train" in parts:
        run_trains(out, games)


if __name__ == "__main__":
    main()
