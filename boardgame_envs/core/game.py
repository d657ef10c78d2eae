"""A game's registration: what the library needs to know to find a game's parts.

Every game, built in or from another package, is one :class:`GameInfo` published under the
entry-point group ``boardgame_envs.games`` (see :mod:`boardgame_envs.registry`). The parts are
named by import path (``"package.module:attribute"``) and loaded on first use, so registering
a game imports nothing heavy::

    # your_package/__init__.py
    from boardgame_envs.core.game import GameInfo

    GAME = GameInfo(
        id="goofspiel",
        title="Goofspiel",
        gym_name="Goofspiel",
        rules_class="your_package.rules:GoofspielRules",
    )

    # your pyproject.toml
    [project.entry-points."boardgame_envs.games"]
    goofspiel = "your_package:GAME"
"""

from __future__ import annotations

import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any

from boardgame_envs.core.rules import InvalidConfigError, Rules

#: What a game id looks like: snake_case, as in PettingZoo's ids.
GAME_ID = re.compile(r"^[a-z][a-z0-9_]*$")
#: What a Gymnasium name looks like: CamelCase.
GYM_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")


@dataclass(frozen=True)
class GameInfo:
    """One game of the collection. Its modules are imported on first use."""

    id: str
    """snake_case, as in PettingZoo ids: ``"goofspiel"``"""
    title: str
    """the game's name for people: ``"Goofspiel"``"""
    gym_name: str
    """CamelCase, as in Gymnasium ids: ``"Goofspiel"``"""
    rules_class: str
    """``"module:Class"`` of the Python engine's :class:`~boardgame_envs.core.rules.Rules`"""
    native_rules_class: str = ""
    """``"module:Class"`` of the compiled engine's Rules ("" = the game has none); used
    where the extension holds the game (:func:`boardgame_envs.core.native.native_games`)"""
    settings_module: str = ""
    """package of the game's agent and training settings: its ``SETTINGS`` (a
    :class:`boardgame_envs.agents.settings.GameSettings`: heuristic, search defaults, leaf
    values) and its ``recipes`` module (training). "" = the generic defaults (no heuristic)"""

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not GAME_ID.match(self.id):
            raise InvalidConfigError(f"game id {self.id!r} must be snake_case ([a-z][a-z0-9_]*)")
        if not isinstance(self.gym_name, str) or not GYM_NAME.match(self.gym_name):
            raise InvalidConfigError(
                f"game {self.id}: gym_name {self.gym_name!r} must be CamelCase ([A-Z][A-Za-z0-9]*)"
            )
        for name in ("title", "rules_class", "native_rules_class", "settings_module"):
            if not isinstance(getattr(self, name), str):
                raise InvalidConfigError(f"game {self.id}: {name} must be a string")
        for name in ("rules_class", "native_rules_class"):
            value = getattr(self, name)
            if value and value.count(":") != 1:
                raise InvalidConfigError(
                    f"game {self.id}: {name} {value!r} must be 'package.module:Class'"
                )

    def rules(self, engine: str | None = None) -> Rules:
        """The Rules of ``engine`` ("native" or "python"; None: the default, see
        :func:`boardgame_envs.core.native.resolve_engine`)."""
        from boardgame_envs.core.native import resolve_engine

        if self.native_rules_class and resolve_engine(self.id, engine) == "native":
            return load_rules(self.native_rules_class)
        if engine == "native":
            resolve_engine(self.id, engine)  # raises: no native engine for this game
        return load_rules(self.rules_class)

    @property
    def has_native(self) -> bool:
        """True when the game declares a compiled engine (built or not)."""
        return bool(self.native_rules_class)

    @property
    def pettingzoo_id(self) -> str:
        return f"boardgame_envs/{self.id}-v{self.rules('python').version}"

    @property
    def gymnasium_id(self) -> str:
        return f"boardgame_envs/{self.gym_name}-v{self.rules('python').version}"


def load_object(path: str) -> Any:
    """The object at ``"package.module:attribute"``."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


@functools.cache
def load_rules(path: str) -> Rules:
    """An instance of the Rules class at ``"package.module:Class"`` (one per class)."""
    cls = load_object(path)
    if not (isinstance(cls, type) and issubclass(cls, Rules)):
        raise InvalidConfigError(
            f"{path} is {type(cls).__name__} {cls!r}, not a subclass of "
            "boardgame_envs.core.rules.Rules"
        )
    return cls()
