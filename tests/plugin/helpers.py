"""Registering the example game ``examples/goofspiel`` without installing it.

``boardgame_envs.registry`` reads the entry points of group ``boardgame_envs.games`` once, when
``boardgame_envs`` is imported. A game is therefore registered per process: the tests that
need the plugin registered run Python in a subprocess whose ``PYTHONPATH`` holds

* a folder with a distribution's metadata, ``boardgame_envs_goofspiel-0.1.dist-info/``
  (``METADATA`` and ``entry_points.txt``: what ``pip install`` would write), so that
  ``importlib.metadata.entry_points(group="boardgame_envs.games")`` finds the entry point;
* ``examples/goofspiel``, where the package ``goofspiel_game`` is imported from.

No other test process sees the game: the shared virtual environment is left alone.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "goofspiel"
#: The entry points of ``examples/goofspiel/pyproject.toml`` (a test checks they agree).
ENTRY_POINTS = {"goofspiel": "goofspiel_game:GAME"}
DISTRIBUTION = "boardgame-envs-goofspiel"
VERSION = "0.1"


def write_distribution(
    folder: Path,
    entry_points: dict[str, str] | None = None,
    name: str = DISTRIBUTION,
    version: str = VERSION,
) -> Path:
    """Write ``<name>-<version>.dist-info/`` (METADATA, entry_points.txt) into ``folder``:
    an installed distribution as far as ``importlib.metadata`` can tell. Returns ``folder``."""
    entry_points = ENTRY_POINTS if entry_points is None else entry_points
    info = folder / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8"
    )
    lines = ["[boardgame_envs.games]"] + [f"{key} = {value}" for key, value in entry_points.items()]
    (info / "entry_points.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def plugin_environ(folder: Path, entry_points: dict[str, str] | None = None) -> dict[str, str]:
    """The environment variables of a subprocess that sees the example game registered
    (with ``entry_points`` instead of the example's own, if given): a distribution's
    metadata is written into ``folder``."""
    write_distribution(folder, entry_points)
    return with_path(folder, EXAMPLE)


def with_path(*folders: Path) -> dict[str, str]:
    """``os.environ`` with ``folders`` in front of ``PYTHONPATH``, single-threaded numerics."""
    paths = [*map(str, folders), os.environ.get("PYTHONPATH", "")]
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, paths)),
        "OMP_NUM_THREADS": "1",
        "PYTHONWARNINGS": "default",
    }


def run_python(code: str, environ: dict[str, str], timeout: float = 120) -> str:
    """Run ``code`` (dedented) in a fresh interpreter with ``environ``; its stdout. An exit
    status other than 0 fails the test with the end of stderr."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=environ, capture_output=True, text=True, timeout=timeout, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0, (
        f"exit status {done.returncode}\n--- stdout\n{done.stdout[-3000:]}\n"
        f"--- stderr\n{done.stderr[-5000:]}"
    )
    return done.stdout


def import_example() -> None:
    """Make ``goofspiel_game`` importable in this process (not registered: the pure-rules
    tests need no registration). ``boardgame_envs`` is imported first, as a user's program
    would."""
    import boardgame_envs  # noqa: F401

    if str(EXAMPLE) not in sys.path:
        sys.path.insert(0, str(EXAMPLE))
