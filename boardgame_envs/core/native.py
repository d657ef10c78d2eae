"""Which engine runs a game: the compiled one (``boardgame_envs._native``) or the Python one.

Every game has two engines behind the same rules contract (:mod:`boardgame_envs.core.rules`):

* ``"python"``: the readable reference, checked against the rules specs; always available;
* ``"native"``: C++17, compiled at install time, equal to the reference bit for bit (the
  same seeds play the same games, the same snapshots, observations and errors).

The native engine is the default wherever it is built. ``BOARDGAME_ENVS_ENGINE=python``
selects the reference for the whole process, ``make_rules(game, engine=...)`` for one game.
``BOARDGAME_ENVS_NATIVE_PATH`` loads another build of the extension (a folder holding one,
or the file itself): sanitizer and development builds (docs/architecture.md).
"""

from __future__ import annotations

import functools
import importlib
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType
from typing import Any

from boardgame_envs.core.rules import InvalidConfigError

ENGINES = ("native", "python")
ENGINE_VARIABLE = "BOARDGAME_ENVS_ENGINE"
NATIVE_PATH_VARIABLE = "BOARDGAME_ENVS_NATIVE_PATH"
MODULE_NAME = "boardgame_envs._native"


@functools.cache
def _load() -> tuple[ModuleType | None, str | None]:
    """The extension module and None, or None and why it could not be loaded."""
    path = os.environ.get(NATIVE_PATH_VARIABLE)
    try:
        if not path:
            return importlib.import_module(MODULE_NAME), None
        return _load_from(Path(path)), None
    except ImportError as error:
        return None, f"{type(error).__name__}: {error}"


def _load_from(path: Path) -> ModuleType:
    if path.is_dir():
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        found = [
            p
            for p in sorted(path.iterdir())
            if p.name.startswith("_native.") and any(p.name.endswith(s) for s in suffixes)
        ]
        if not found:
            raise ImportError(f"{NATIVE_PATH_VARIABLE}={path}: no _native extension there")
        path = found[0]
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{NATIVE_PATH_VARIABLE}={path}: not an extension module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE_NAME] = module
    spec.loader.exec_module(module)
    return module


def native_module() -> ModuleType | None:
    """``boardgame_envs._native``, or None where it is not built."""
    return _load()[0]


def native_games() -> tuple[str, ...]:
    """The games compiled into the extension (none where it is not built)."""
    module = native_module()
    return tuple(module.GAMES) if module is not None else ()


def requested_engine() -> str | None:
    """The engine ``BOARDGAME_ENVS_ENGINE`` asks for, or None when it is not set."""
    value = os.environ.get(ENGINE_VARIABLE, "").strip()
    if not value:
        return None
    if value not in ENGINES:
        raise InvalidConfigError(
            f"{ENGINE_VARIABLE}={value!r} is not allowed; allowed: {', '.join(ENGINES)}"
        )
    return value


def resolve_engine(game: str, engine: Any = None) -> str:
    """The engine that runs ``game``: ``engine`` if given, else the environment's choice,
    else native where it is built and python elsewhere."""
    if engine is None:
        engine = requested_engine()
        if engine is None:
            return "native" if game in native_games() else "python"
    if engine not in ENGINES:
        raise InvalidConfigError(
            f"engine={engine!r} is not allowed; allowed: {', '.join(map(repr, ENGINES))}"
        )
    if engine == "native" and game not in native_games():
        raise InvalidConfigError(f"{game}: no native engine here ({why_not_native(game)})")
    return engine


def _engine_or_python(game: str) -> str:
    """The engine of ``game``; python for a game that has no compiled engine at all."""
    try:
        return resolve_engine(game)
    except InvalidConfigError:
        return "python"


def why_not_native(game: str) -> str:
    module, error = _load()
    if module is None:
        return (
            f"the extension is not built or does not load: {error}; reinstall with a C++17 "
            "compiler (pip install -e .), or use engine='python'"
        )
    return f"this build of the extension has {', '.join(module.GAMES) or 'no games'}"


def engine_info(games: Iterable[str]) -> dict[str, Any]:
    """Which engine runs each of ``games``, and what the extension is (the registry's
    ``boardgame_envs.engine_info()`` asks this for every registered game).

    ``{"engines": {game: "native" | "python"}, "native": {"path", "build", "version",
    "games", "error"}, "requested": the BOARDGAME_ENVS_ENGINE value or None}``; the
    version is the library's version the extension was built from.
    """
    module, error = _load()
    return {
        "engines": {game: _engine_or_python(game) for game in games},
        "native": {
            "path": getattr(module, "__file__", None),
            "build": getattr(module, "BUILD", None),
            "version": getattr(module, "__version__", None),
            "games": list(native_games()),
            "error": error,
        },
        "requested": requested_engine(),
    }
