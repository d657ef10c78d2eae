"""A regular install, as a user makes it: a wheel (not the editable install the tests run
on) in a fresh virtual environment that holds the core dependencies only (numpy, gymnasium,
pettingzoo), used from a folder that holds the user's own ``agents/`` and ``training/``
packages. The library must import only itself (``boardgame_envs.agents``, never a top-level
``agents``), and every command that needs no extra must work; one that does names it.

The wheel is the pure-Python build (``BOARDGAME_ENVS_PURE_PYTHON=1``: no compiler needed,
seconds to build); the core dependencies are linked from the test run's own environment, so
no download is needed.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The distributions of the core install (pyproject's dependencies and theirs).
CORE = (
    "numpy",
    "gymnasium",
    "pettingzoo",
    "cloudpickle",
    "farama-notifications",
    "typing-extensions",
)


def _link_distribution(name: str, into: Path) -> None:
    """Link one installed distribution's top-level files and its metadata into ``into``."""
    dist = importlib.metadata.distribution(name)
    site = Path(dist.locate_file(""))
    tops = {Path(str(f)).parts[0] for f in dist.files or ()}
    for top in tops:
        source = site / top
        if top.endswith(".pth") or top == ".." or not source.exists():
            continue
        target = into / top
        if not target.exists():
            target.symlink_to(source)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(python, boardgame-envs script, the user's folder, environment)`` of the install."""
    tmp = tmp_path_factory.mktemp("install")
    wheels = tmp / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q"]
        + ["-w", str(wheels), str(ROOT)],
        env={**os.environ, "BOARDGAME_ENVS_PURE_PYTHON": "1"},
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    (wheel,) = wheels.glob("*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    core = tmp / "core-deps"
    core.mkdir()
    for name in CORE:
        _link_distribution(name, core)
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(purelib, "core_deps.pth").write_text(str(core) + "\n")
    install = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q"]
        + ["--no-index", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    user = tmp / "my_project"
    for package in ("agents", "training"):
        (user / package).mkdir(parents=True)
        (user / package / "__init__.py").write_text(f'"""The user\'s own {package}."""\n')
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BOARDGAME_ENVS")}
    environ.pop("PYTHONPATH", None)
    return python, venv / "bin" / "boardgame-envs", user, environ


def run(installed, *args: str, stdin: str = "", timeout: int = 120):
    python, script, user, environ = installed
    program = [str(script)] if args and args[0] != "python" else [str(python)]
    argv = program + list(args[1:] if args and args[0] == "python" else args)
    return subprocess.run(
        argv, cwd=user, env=environ, input=stdin, capture_output=True, text=True, timeout=timeout
    )


def test_the_core_install_has_no_extras(installed):
    done = run(installed, "python", "-c", "import tqdm")
    assert "No module named 'tqdm'" in done.stderr
    done = run(installed, "python", "-c", "import torch")
    assert "No module named 'torch'" in done.stderr


def test_the_readme_snippets_run_beside_the_users_own_agents(installed):
    _, _, user, _ = installed
    script = user / "my_script.py"
    script.write_text(
        textwrap.dedent(
            """
            import gymnasium
            import numpy as np
            import agents, training  # the user's own packages
            import boardgame_envs

            assert agents.__doc__ == "The user's own agents."
            env = boardgame_envs.make("factors_multiples", num_players=3)
            env.reset(seed=42)
            rng = np.random.default_rng(0)
            for agent in env.agent_iter():
                observation, reward, termination, truncation, info = env.last()
                legal = np.flatnonzero(observation["action_mask"])
                env.step(None if termination or truncation else int(rng.choice(legal)))
            single = gymnasium.make("boardgame_envs/Wasabi-v1", opponent="heuristic")
            single.reset(seed=0)
            print("ok", boardgame_envs.engine_info()["engines"]["wasabi"])
            """
        )
    )
    done = run(installed, "python", str(script))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["ok", "python"]


def test_help_and_list_work_without_extras(installed):
    done = run(installed, "--help")
    assert done.returncode == 0, done.stderr
    assert "usage: boardgame-envs" in done.stdout
    done = run(installed, "list")
    assert done.returncode == 0, done.stderr
    assert "wasabi" in done.stdout and "Traceback" not in done.stderr


def test_play_watch_and_replay_work_without_extras(installed):
    _, _, user, _ = installed
    done = run(installed, "play", "factors_multiples", "--vs", "heuristic", stdin="q\n")
    assert done.returncode == 0, done.stderr
    record = user / "game.json"
    done = run(
        installed,
        "watch",
        "wasabi",
        "--agents",
        "heuristic,ismcts:seconds=0,iterations=4",
        "--pace",
        "0",
        "--save",
        str(record),
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(record.read_text())["game"] == "wasabi"
    done = run(installed, "replay", str(record), "--pace", "0")
    assert done.returncode == 0, done.stderr
    assert "game over" in done.stdout


def test_a_command_that_needs_an_extra_names_it(installed):
    done = run(installed, "train", "wasabi", "--timesteps", "100")
    assert done.returncode != 0
    assert 'pip install "boardgame-envs[train]"' in done.stderr
    assert "Traceback" not in done.stderr


def test_the_library_never_imports_a_top_level_agents_or_training(installed):
    """Importing every module of the library (those that need no extra) leaves the user's
    ``agents`` and ``training`` unimported."""
    code = textwrap.dedent(
        """
        import importlib, pkgutil, sys
        import boardgame_envs
        skipped = []
        for info in pkgutil.walk_packages(boardgame_envs.__path__, "boardgame_envs."):
            if info.name.endswith("__main__"):
                continue
            try:
                importlib.import_module(info.name)
            except ImportError as error:  # an extra's module (torch, tqdm, ...)
                skipped.append(info.name)
        print(sorted(m for m in ("agents", "training") if m in sys.modules))
        """
    )
    done = run(installed, "python", "-c", code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
