"""A game's settings for agents and training, in the game's own place.

Every fact the generic agents and trainers need about one game lives in that game's
settings package (``agents/games/<game>/`` for the built-in games; any module for a game of
your own), named by its registration's ``settings_module`` (see
:class:`boardgame_envs.core.game.GameInfo`):

- the package's ``SETTINGS``, a :class:`GameSettings`: the heuristic, the search's defaults
  and presets, the leaf evaluation, the root's move ranking;
- its ``recipes`` module, read by the trainers (:mod:`boardgame_envs.training`): what
  ``train --game <game>`` trains with.

A game without settings (``settings_module=""``) gets :data:`GENERIC`: no heuristic, the
search's generic defaults, a leaf evaluation from the score track.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from boardgame_envs.core.game import load_object
from boardgame_envs.core.rules import InvalidConfigError, PlayerView, State
from boardgame_envs.registry import GAMES, game_info

#: A position's provisional score per seat, higher is better (see :mod:`.leaf_values`).
Provisional = Callable[[State], list[float]]


@dataclass(frozen=True)
class GameSettings:
    """What agents know about one game. Every field has a generic default."""

    heuristic: str = ""
    """``"module:Class"`` of the game's rule-based agent (an Agent class taking ``seed``);
    "" = the game has none (the ``heuristic`` agent spec then says so)"""
    search: dict[str, Any] = field(default_factory=dict)
    """``ismcts``'s defaults for the game, over the generic
    :class:`~boardgame_envs.agents.search.SearchOptions` ones"""
    search_presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    """named settings, ``ismcts:preset=<name>`` (e.g. ``{"v1": {...}}``)"""
    net_search: dict[str, Any] = field(default_factory=dict)
    """``ismcts-net``'s changes to ``search`` (before the network's own defaults)"""
    provisional: Provisional | None = None
    """the leaf evaluation's provisional score: what each seat would score if the game
    ended now (None: the score track, ``state._score_keys()``)"""
    score_scale: float = 5.0
    """a score difference that counts as a clear lead, for the leaf evaluation"""
    turns_left: Callable[[State | PlayerView], int] | None = None
    """turns still to come in a position, where the search may roll out to the end once
    the game is short (options ``finish``, ``late``); None where the game cannot say"""
    rank_actions: Callable[[Any, PlayerView], list[int] | None] | None = None
    """``(heuristic, view) -> legal actions best first`` for the root's ``widen``; None
    where the game (or the decision) has no ranking worth its cost"""


#: The settings of a game that has none of its own.
GENERIC = GameSettings()


@functools.cache
def settings_package(game: str) -> ModuleType | None:
    """The game's settings package (None for a game without one)."""
    name = game_info(game).settings_module
    return importlib.import_module(name) if name else None


@functools.cache
def game_settings(game: str) -> GameSettings:
    """The :class:`GameSettings` of ``game`` (:data:`GENERIC` for a game without any)."""
    package = settings_package(game)
    if package is None:
        return GENERIC
    settings = getattr(package, "SETTINGS", None)
    if not isinstance(settings, GameSettings):
        raise InvalidConfigError(
            f"{package.__name__}.SETTINGS must be a boardgame_envs.agents.settings.GameSettings "
            f"(the settings of game {game!r}), not {type(settings).__name__}"
        )
    return settings


def game_recipes(game: str) -> ModuleType | None:
    """The game's ``recipes`` module (training settings), or None where it has none."""
    package = settings_package(game)
    if package is None:
        return None
    try:
        return importlib.import_module(f"{package.__name__}.recipes")
    except ModuleNotFoundError as error:
        if error.name == f"{package.__name__}.recipes":
            return None
        raise


def heuristic_class(game: str) -> type:
    """The game's reference heuristic class; InvalidConfigError for a game without one."""
    path = game_settings(game).heuristic
    if not path:
        from_registry = ", ".join(_games_with_heuristic()) or "none"
        raise InvalidConfigError(
            f"game {game!r} has no heuristic agent; agents it can play: random, ismcts "
            "(rolling out at random: ismcts:rollout=random), your own (module.path:Name or "
            f"file.py:Name), a trained ppo:/net: model. Games with a heuristic: {from_registry}"
        )
    return load_object(path)


def _games_with_heuristic() -> list[str]:
    return [g for g in GAMES if game_settings(g).heuristic]
