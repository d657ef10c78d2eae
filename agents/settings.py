"""A game's settings for agents and training, in the game's own place.

Every fact the generic agents and trainers need about one game lives in that game's
settings package (``agents/games/<game>/`` for the built-in games; any module for a game of
your own), named by its registration's ``settings_module`` (see
:class:`boardgame_envs.core.game.GameInfo`):

- the package's ``SETTINGS``, a :class:`GameSettings`: the heuristic, the search's defaults
  and presets, the leaf evaluation, the root's move ranking;
- its ``recipes`` module, read by the trainers (:mod:`boardgame_envs.training`): what
  ``train <game>`` trains with.

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


#: The search's budget in a game that sets none: 200 iterations a decision (still capped by
#: ``seconds``), so that ``ismcts:seconds=0`` is a budget of iterations in every game.
GENERIC_SEARCH: dict[str, Any] = {"iterations": 200}


@dataclass(frozen=True)
class GameSettings:
    """What agents know about one game. Every field has a generic default."""

    heuristic: str = ""
    """``"module:Class"`` of the game's rule-based agent (an Agent class taking ``seed``);
    "" = the game has none (the ``heuristic`` agent spec then says so)"""
    search: dict[str, Any] = field(default_factory=lambda: dict(GENERIC_SEARCH))
    """``ismcts``'s defaults for the game, over the generic
    :class:`~boardgame_envs.agents.search.SearchOptions` ones (without settings of its own, a
    game gets :data:`GENERIC_SEARCH`)"""
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


def has_heuristic(game: str) -> bool:
    return bool(game_settings(game).heuristic)


def reference_agent(game: str) -> str:
    """The agent generic defaults measure and train against: the game's ``heuristic``, or
    ``random`` for a game without one."""
    return "heuristic" if has_heuristic(game) else "random"


def for_game(recipe: dict[str, Any], game: str, no_hint: str = "") -> dict[str, Any]:
    """A generic recipe as ``game`` can play it: in a game without a heuristic, the
    opponents it names become random play, and the warm start and the hint (``no_hint``:
    how the recipe says "none") that copy it are left out. Unchanged for a game with one."""
    if has_heuristic(game):
        return dict(recipe)
    adapted = dict(recipe)
    if isinstance(adapted.get("opponent"), str):
        adapted["opponent"] = _replace_in_mix(adapted["opponent"], "heuristic", "random")
    if adapted.get("imitate") == "heuristic":
        adapted["imitate"] = ""
        if "imitation_games" in adapted:
            adapted["imitation_games"] = 0
    if adapted.get("hint") == "heuristic":
        adapted["hint"] = no_hint
    return adapted


def _replace_in_mix(mix: str, old: str, new: str) -> str:
    """``"random=0.5,heuristic=0.5"`` -> ``"random=1.0"``: ``old`` replaced by ``new`` in a
    weighted mix of agents, the weights of one agent added up."""
    weights: dict[str, float] = {}
    for part in mix.split(","):
        name, _, weight = part.strip().partition("=")
        name = new if name == old else name
        weights[name] = weights.get(name, 0.0) + (float(weight) if weight else 1.0)
    return ",".join(f"{name}={weight:g}" for name, weight in weights.items())


def _games_with_heuristic() -> list[str]:
    return [g for g in GAMES if game_settings(g).heuristic]
