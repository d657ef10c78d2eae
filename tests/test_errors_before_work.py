"""Errors before work: every command checks all its arguments (output paths and agents
included) before the first game; a bad one is one line on stderr, exit code 2, nothing
printed on stdout, nothing written, within seconds (docs/benchmarking.md: "errors come
before any game is played")."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from boardgame_envs import InvalidConfigError
from boardgame_envs.training import cli_args

#: Seconds a refused command may take (most take about 0.3 s; train imports torch: ~2 s).
LIMIT_S = 15

EVAL = ["eval", "wasabi", "--agents", "heuristic,random", "--games", "2"]
EVAL += ["--no-progress"]
LEAGUE = ["league", "wasabi", "--agents", "heuristic,random", "--games", "2"]
LEAGUE += ["--no-progress"]
WATCH = ["watch", "wasabi", "--agents", "heuristic,random", "--pace", "0", "--seed", "1"]
BENCH = ["bench", "--games", "wasabi", "--seconds", "0.01", "--repeats", "1"]
BENCH += ["--learner-steps", "0"]
TRAIN = ["train", "wasabi", "--timesteps", "64", "--n-envs", "1", "--n-steps", "64"]
TRAIN += ["--eval-every", "0", "--no-progress"]
EXIT = ["train", "--algo", "exit", "wasabi", "--iterations", "1"]
EXIT += ["--games-per-iteration", "1", "--eval-every", "0", "--no-progress"]
LEADERBOARD = ["leaderboard", "--games", "wasabi", "--agents", "heuristic,random"]
LEADERBOARD += ["--two-player-games", "2", "--large-table-games", "1", "--no-progress"]
BENCHMARK = ["benchmark", "heuristic", "--games", "2", "--large-table-games", "20"]
BENCHMARK += ["--no-progress"]
RECORD = "{record}"  # replaced by a saved game's record, outside the command's folder
REPLAY = ["replay", RECORD, "--pace", "0"]

# In the command's folder: "existing.txt" (a file), "folder" and "folder.html" (folders).
CASES = {
    # a bad output path: a file where a folder is needed, a folder where a file is, a
    # path under a parent that cannot be made
    "eval-out-file": (EVAL + ["--out", "existing.txt"], "--out"),
    "eval-out-unwritable": (EVAL + ["--out", "/proc/x/y"], "--out"),
    "eval-save-games-file": (EVAL + ["--save-games", "existing.txt"], "--save-games"),
    "league-out-file": (LEAGUE + ["--out", "existing.txt"], "--out"),
    "league-out-unwritable": (LEAGUE + ["--out", "/proc/x/y"], "--out"),
    "watch-out-folder": (WATCH + ["--out", "folder.html"], "--out"),
    "watch-out-unwritable": (WATCH + ["--out", "/proc/x/y.html"], "--out"),
    "watch-save-folder": (WATCH + ["--save", "folder"], "--save"),
    "watch-save-unwritable": (WATCH + ["--save", "/proc/x/y.json"], "--save"),
    "replay-out-folder": (REPLAY + ["--out", "folder.html"], "--out"),
    "replay-out-unwritable": (REPLAY + ["--out", "/proc/x/y.html"], "--out"),
    "bench-out-folder": (BENCH + ["--out", "folder"], "--out"),
    "bench-out-unwritable": (BENCH + ["--out", "/proc/x/y.json"], "--out"),
    "train-out-dir-file": (TRAIN + ["--out-dir", "existing.txt"], "--out-dir"),
    "train-out-dir-unwritable": (TRAIN + ["--out-dir", "/proc/x/y"], "--out-dir"),
    "exit-out-dir-file": (EXIT + ["--out-dir", "existing.txt"], "--out-dir"),
    "exit-out-dir-unwritable": (EXIT + ["--out-dir", "/proc/x/y"], "--out-dir"),
    "leaderboard-out-file": (LEADERBOARD + ["--out", "existing.txt"], "--out"),
    "leaderboard-out-unwritable": (LEADERBOARD + ["--out", "/proc/x/y"], "--out"),
    "leaderboard-readme-without-block": (LEADERBOARD + ["--readme", "existing.txt"], "--readme"),
    "leaderboard-publish-elsewhere": (LEADERBOARD + ["--publish"], "--publish"),
    "benchmark-out-file": (BENCHMARK + ["--out", "existing.txt"], "--out"),
    "benchmark-out-unwritable": (BENCHMARK + ["--out", "/proc/x/y"], "--out"),
    "benchmark-save-games-file": (BENCHMARK + ["--save-games", "existing.txt"], "--save-games"),
    "benchmark-verify-no-card": (["benchmark", "--verify", "folder"], "--verify"),
    # a bad agent (bench plays no agents: a bad game; replay plays none: a bad record)
    "eval-agent": (EVAL + ["--agents", "heuristic,nosuchagent"], "nosuchagent"),
    "league-agent": (LEAGUE + ["--agents", "heuristic,nosuchagent"], "nosuchagent"),
    "leaderboard-agent": (LEADERBOARD + ["--agents", "heuristic,nosuchagent"], "nosuchagent"),
    "benchmark-agent": (["benchmark", "nosuchagent"] + BENCHMARK[2:], "nosuchagent"),
    "watch-agent": (WATCH + ["--agents", "heuristic,nosuchagent"], "nosuchagent"),
    "train-agent": (TRAIN + ["--opponent", "nosuchagent"], "nosuchagent"),
    "exit-agent": (EXIT + ["--opponent", "nosuchagent"], "nosuchagent"),
    "bench-game": (BENCH + ["--games", "nosuchgame"], "nosuchgame"),
    "replay-record": (["replay", "existing.txt"], "existing.txt"),
    # a bad option value
    "eval-option": (EVAL + ["--games", "0"], "--games"),
    "league-option": (LEAGUE + ["--games", "0"], "--games"),
    "leaderboard-option": (LEADERBOARD + ["--two-player-games", "0"], "--two-player-games"),
    "benchmark-option": (BENCHMARK + ["--large-table-games", "30"], "--large-table-games"),
    "watch-option": (WATCH + ["--pace", "-1"], "--pace"),
    "replay-option": (REPLAY + ["--seat", "9"], "--seat"),
    "bench-option": (BENCH + ["--engines", "bogus"], "--engines"),
    "train-option": (TRAIN + ["--timesteps", "0"], "--timesteps"),
    "exit-option": (EXIT + ["--iterations", "-1"], "--iterations"),
}


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """A saved game of wasabi, for replay."""
    from boardgame_envs.training.records.watch import watch

    path = tmp_path_factory.mktemp("record") / "game.json"
    watch("wasabi", "heuristic,random", seed=1, pace=0, save=path, out=io.StringIO())
    return path


def listing(folder: Path) -> list[tuple[str, int, int]]:
    """Every path under ``folder`` with its size and modification time."""
    return sorted(
        (str(p.relative_to(folder)), p.stat().st_size, p.stat().st_mtime_ns)
        for p in folder.rglob("*")
    )


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_argument_stops_the_command_before_any_work(case, tmp_path, record):
    argv, named = CASES[case]
    argv = [str(record) if word == RECORD else word for word in argv]
    (tmp_path / "existing.txt").write_text("keep me\n")
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder.html").mkdir()
    before = listing(tmp_path)
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    seconds = time.perf_counter() - start
    command = argv[0] if argv[:3] != ["train", "--algo", "exit"] else "train"
    assert done.returncode == 2, (done.returncode, done.stdout[-2000:], done.stderr[-2000:])
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"boardgame-envs {command}"), lines[0]
    assert named in lines[0], lines[0]
    assert seconds < LIMIT_S, f"{case} took {seconds:.1f} s to refuse its arguments"
    assert listing(tmp_path) == before


# -- the shared checks -------------------------------------------------------------------
def test_the_output_checks_accept_what_can_be_written_and_leave_nothing(tmp_path):
    assert (
        cli_args.check_output_folder("--out", tmp_path / "new" / "deeper")
        == tmp_path / "new" / "deeper"
    )
    assert cli_args.check_output_folder("--out", tmp_path) == tmp_path
    assert cli_args.check_output_file("--out", tmp_path / "a" / "b.json", (".json",))
    (tmp_path / "old.json").write_text("{}")
    assert cli_args.check_output_file("--out", tmp_path / "old.json") == tmp_path / "old.json"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.json"]


@pytest.mark.parametrize(
    "check, message",
    [
        (lambda d: cli_args.check_output_folder("--out", d / "f.txt"), "--out .*f.txt is a file"),
        (
            lambda d: cli_args.check_output_folder("--out", d / "f.txt" / "x"),
            "f.txt is a file, not",
        ),
        (lambda d: cli_args.check_output_file("--save", d), "--save .* is a folder"),
        (lambda d: cli_args.check_output_file("--out", d / "x.txt", (".html",)), "ending in .html"),
        (
            lambda d: cli_args.check_output_file("--out", "/proc/x/y.json"),
            "--out /proc/x/y.json cannot",
        ),
    ],
)
def test_the_output_checks_refuse_with_the_flag(tmp_path, check, message):
    (tmp_path / "f.txt").write_text("")
    with pytest.raises(InvalidConfigError, match=message):
        check(tmp_path)
