"""The build's two ways out: BOARDGAME_ENVS_PURE_PYTHON skips the extension, and a machine
without a C++17 compiler is told what to install or how to skip it (CMake configure only)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CMAKE = shutil.which("cmake", path=str(Path(sys.executable).parent)) or shutil.which("cmake")
pytestmark = pytest.mark.skipif(CMAKE is None, reason="cmake is not installed")


def configure(build: Path, *options: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [
            CMAKE,
            "-S",
            str(ROOT / "native"),
            "-B",
            str(build),
            f"-DPython_EXECUTABLE={sys.executable}",
            *options,
        ],
        env=dict(os.environ, **env),
        capture_output=True,
        text=True,
    )


def test_the_pure_python_switch_skips_the_extension(tmp_path):
    done = configure(tmp_path / "build", BOARDGAME_ENVS_PURE_PYTHON="1")
    assert done.returncode == 0, done.stderr
    assert "the native engines are not built" in done.stdout
    assert "boardgame-envs native games" not in done.stdout  # no target was defined


def test_no_compiler_says_what_to_do(tmp_path):
    done = configure(tmp_path / "build", CXX=str(tmp_path / "no-such-g++"))
    assert done.returncode != 0
    message = " ".join((done.stdout + done.stderr).split())
    assert "compiles its native engines with a C++17 compiler, and none was found" in message
    assert "BOARDGAME_ENVS_PURE_PYTHON=1 pip install -e ." in message


def found_games() -> list[str]:
    """The native games CMake finds: the folders of native/games with a binding.cc."""
    return sorted(path.parent.name for path in (ROOT / "native" / "games").glob("*/binding.cc"))


def test_cmake_finds_the_games_and_a_development_build_may_pick_some(tmp_path):
    games = found_games()
    assert games
    done = configure(tmp_path / "all")
    assert done.returncode == 0, done.stderr
    assert f"boardgame-envs native games: {', '.join(games)}" in done.stdout
    done = configure(tmp_path / "some", f"-DBGE_GAMES={games[-1]}")
    assert done.returncode == 0, done.stderr
    assert f"boardgame-envs native games: {games[-1]}\n" in done.stdout
    done = configure(tmp_path / "unknown", f"-DBGE_GAMES={games[0]} no_such_game")
    assert done.returncode != 0
    message = " ".join((done.stdout + done.stderr).split())
    assert f"unknown game 'no_such_game'; found: {', '.join(games)}" in message


def test_the_generic_native_code_names_no_game():
    """A game is one folder of native/games: the build, the core and the bindings name none
    (each game registers itself from its binding.cc)."""
    generic = [ROOT / "native" / "CMakeLists.txt"]
    for folder in ("core", "bindings"):
        generic += sorted((ROOT / "native" / folder).iterdir())
    for path in generic:
        text = path.read_text()
        for game in found_games():
            assert game not in text, f"{path.relative_to(ROOT)} names {game}"
