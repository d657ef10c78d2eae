"""The games, and the factories that build their rules and environments."""

from __future__ import annotations

import difflib
import functools
import importlib.metadata
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from boardgame_envs.core.game import GameInfo, load_object
from boardgame_envs.core.native import engine_info as native_engine_info
from boardgame_envs.core.rules import InvalidConfigError, Rules

#: The entry-point group every game registers under, the built-in ones included.
ENTRY_POINT_GROUP = "boardgame_envs.games"
#: The distribution whose games are the built-in ones: a plugin may not take their ids.
LIBRARY = "boardgame-envs"


class GameRegistrationWarning(UserWarning):
    """A game's entry point could not be loaded: the game is left out, the others work."""


def _distribution_name(entry_point: importlib.metadata.EntryPoint) -> str:
    dist = getattr(entry_point, "dist", None)
    return dist.metadata["Name"] if dist is not None else "?"


def _check_registration(name: str, info: Any) -> GameInfo:
    """``info`` as a checked GameInfo, or InvalidConfigError saying what is wrong."""
    if not isinstance(info, GameInfo):
        what = f"the class {info.__name__}" if isinstance(info, type) else type(info).__name__
        raise InvalidConfigError(f"it is {what}, not a boardgame_envs.core.game.GameInfo")
    if info.id != name:
        raise InvalidConfigError(
            f"its GameInfo has id {info.id!r}; the entry point's name must match it"
        )
    rules = info.rules("python")
    if not (rules.min_players >= 1 and rules.max_players >= rules.min_players):
        raise InvalidConfigError(
            f"players {rules.min_players}-{rules.max_players}: need 1 <= min_players <= max_players"
        )
    if not (isinstance(rules.action_size, int) and rules.action_size > 0):
        raise InvalidConfigError(f"action_size {rules.action_size!r} must be a positive int")
    state = rules.new_state(rules.min_players, seed=0)
    observation = np.asarray(rules.encode(state.view(0)))
    if observation.shape != rules.observation_shape:
        raise InvalidConfigError(
            f"encode() gives shape {observation.shape}, but OBSERVATION_SHAPE is "
            f"{rules.observation_shape}"
        )
    if np.asarray(state.legal_action_mask()).shape != (rules.action_size,):
        raise InvalidConfigError(
            f"legal_action_mask() has shape {np.asarray(state.legal_action_mask()).shape}, "
            f"not (action_size,) = ({rules.action_size},)"
        )
    return info


def discover_games() -> tuple[dict[str, GameInfo], dict[str, str]]:
    """The games registered under :data:`ENTRY_POINT_GROUP`, and why each broken one was
    left out (``{entry point name: one line}``). The library's own games come first, in
    their declared order, then the others by id. An entry point whose package is being
    imported right now (a plugin that imports the library first) waits in
    :data:`PENDING` and is loaded on first use of :data:`GAMES`."""
    points = _unique(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    own = [p for p in points if _distribution_name(p) == LIBRARY]
    others = sorted((p for p in points if _distribution_name(p) != LIBRARY), key=lambda p: p.name)
    games: dict[str, GameInfo] = {}
    broken: dict[str, str] = {}
    for point in own + others:
        if _being_imported(point):
            PENDING.append(point)
            continue
        _load_into(point, games, broken)
    return games, broken


def _unique(points: Any) -> list[importlib.metadata.EntryPoint]:
    """Each entry point once: one distribution found twice on the path (an editable
    install and a copy) lists its entry points twice."""
    found = {}
    for point in points:
        found.setdefault((point.name, point.value, _distribution_name(point)), point)
    return list(found.values())


def _being_imported(point: importlib.metadata.EntryPoint) -> bool:
    module = sys.modules.get(point.module)
    return module is not None and getattr(module.__spec__, "_initializing", False)


def _load_into(
    point: importlib.metadata.EntryPoint, games: dict[str, GameInfo], broken: dict[str, str]
) -> None:
    """Load and check one entry point into ``games``, or say why not in ``broken`` (and
    warn: one line naming the entry point)."""
    if point.name in games:
        why = f"the id {point.name!r} is already a game of {_registered_by(games[point.name])}"
    else:
        try:
            dict.__setitem__(games, point.name, _check_registration(point.name, point.load()))
            return
        except Exception as error:  # noqa: BLE001 - a broken plugin must not break the rest
            why = f"{type(error).__name__}: {error}"
    broken[point.name] = _broken_line(point, why)
    warnings.warn(broken[point.name], GameRegistrationWarning, stacklevel=3)


def _registered_by(info: GameInfo) -> str:
    return LIBRARY if info.rules_class.startswith("boardgame_envs.") else "another package"


def _broken_line(point: importlib.metadata.EntryPoint, why: str) -> str:
    return (
        f"game entry point {point.name} = {point.value} (from {_distribution_name(point)}) "
        f"is left out: {why}"
    )


class GameTable(dict):
    """The registered games by id (a dict). Entry points that were waiting
    (:data:`PENDING`) are loaded, and registered with PettingZoo and Gymnasium, on the
    table's first use after their package has finished importing."""

    def _settle(self) -> None:
        if PENDING and not any(_being_imported(p) for p in PENDING):
            waiting = PENDING[:]
            PENDING.clear()
            for point in waiting:
                _load_into(point, self, BROKEN_GAMES)
            register_all()

    def __getitem__(self, game: str) -> GameInfo:
        self._settle()
        return super().__getitem__(game)

    def __contains__(self, game: object) -> bool:
        self._settle()
        return super().__contains__(game)

    def __iter__(self) -> Iterator[str]:
        self._settle()
        return super().__iter__()

    def __len__(self) -> int:
        self._settle()
        return super().__len__()

    def get(self, game: str, default: Any = None) -> Any:
        self._settle()
        return super().get(game, default)

    def keys(self) -> Any:
        self._settle()
        return super().keys()

    def values(self) -> Any:
        self._settle()
        return super().values()

    def items(self) -> Any:
        self._settle()
        return super().items()


#: Entry points whose package was still being imported at discovery.
PENDING: list[importlib.metadata.EntryPoint] = []
#: Entry points that failed to load, by name: the one line that says why.
BROKEN_GAMES: dict[str, str] = {}
#: The registered games by id, the library's own first.
GAMES = GameTable()
_found, _broken = discover_games()
dict.update(GAMES, _found)
BROKEN_GAMES.update(_broken)


def game_info(game: str) -> GameInfo:
    if not isinstance(game, str) or game not in GAMES:
        if isinstance(game, str) and game in BROKEN_GAMES:
            raise InvalidConfigError(BROKEN_GAMES[game])
        near = difflib.get_close_matches(str(game).lower(), GAMES, n=1, cutoff=0.6)
        hint = f" did you mean {near[0]!r}?" if near else ""
        raise InvalidConfigError(f"unknown game {game!r};{hint} known: {', '.join(GAMES)}")
    return GAMES[game]


def engine_info() -> dict[str, Any]:
    """Which engine runs each game, and what the extension is.

    ``{"engines": {game: "native" | "python"}, "native": {"path", "build", "version",
    "games", "error"}, "requested": the BOARDGAME_ENVS_ENGINE value or None}``.
    """
    return native_engine_info(GAMES)


def make_rules(game: str, engine: str | None = None) -> Rules:
    """The Rules object of ``game`` (a rules engine, no environment).

    ``engine``: "native" (compiled, the default where built) or "python" (the reference);
    None follows ``BOARDGAME_ENVS_ENGINE``, else native where built (see ``engine_info()``).
    """
    return game_info(game).rules(engine)


def raw_env(game: str, num_players: int = 2, engine: str | None = None, **kwargs: Any):
    """The unwrapped AEC env: raises IllegalActionError on an illegal action."""
    from boardgame_envs.core.env import SEED_NOTE, TurnBasedEnv, check_keywords, keyword_names

    rules = make_rules(game, engine)
    keywords = keyword_names(raw_env, TurnBasedEnv.__init__)
    check_keywords(rules, kwargs, keywords, rules.name, SEED_NOTE)
    return TurnBasedEnv(rules, num_players, **kwargs)


def make(game: str, num_players: int = 2, **kwargs: Any):
    """The AEC env of ``game`` with PettingZoo's classic-game wrappers.

    ``kwargs``: ``engine`` ("native" or "python", see :func:`make_rules`), ``render_mode``,
    ``reward`` ("outcome" or "score"), ``auto_resolve``, ``max_steps``,
    ``score_reward_scale``, ``layout`` ("flat", or "planes" for a game with
    ``make_rules(game).planes_shape``), and the game's own options (see
    ``make_rules(game).options``).
    """
    from boardgame_envs.core.env import wrap

    return wrap(raw_env(game, num_players, **kwargs))


def make_single_agent(
    game: str,
    num_players: int = 2,
    opponent: Any = "random",
    engine: str | None = None,
    **kwargs: Any,
):
    """The Gymnasium env of ``game``: one learning seat, agents in the others.

    ``opponent`` is an agent (or a mix, a pool, a function ``view -> action``) or an agent
    name: ``random``, ``heuristic``, ``ismcts[:options]``, ``ppo:<model>`` (a path or a
    shipped policy's name, e.g. ``ppo:wasabi``). Names are resolved here, by
    ``boardgame_envs.agents.make_agent``, so that the core env only ever gets agents (the core does
    not import ``agents/``; this factory, like the game's gymnasium id, is the user-facing entry
    point above both). Other ``kwargs`` go to ``SingleAgentEnv``
    (``observe_mask``, ``layout``, ``learner_seat``, …) and on to the AEC env.
    """
    from boardgame_envs.core.env import SEED_NOTE, TurnBasedEnv, check_keywords, keyword_names
    from boardgame_envs.core.single_agent import SingleAgentEnv

    rules = make_rules(game, engine)
    keywords = keyword_names(make_single_agent, SingleAgentEnv.__init__, TurnBasedEnv.__init__)
    check_keywords(rules, kwargs, keywords, rules.name, SEED_NOTE)
    if isinstance(opponent, str):
        # agents sit above the envs: their spec table is loaded by name, never imported here
        make_agent = load_object("boardgame_envs.agents.specs:make_agent")
        opponent = make_agent(opponent, game)
    return SingleAgentEnv(rules, num_players, opponent=opponent, **kwargs)


def register_all() -> None:
    """Register every game with PettingZoo and Gymnasium (done on ``import boardgame_envs``)."""
    import gymnasium
    import pettingzoo

    for info in GAMES.values():
        if info.pettingzoo_id not in pettingzoo.aec_registry:
            pettingzoo.register("aec", info.pettingzoo_id, functools.partial(make, info.id))
        if info.gymnasium_id not in gymnasium.registry:
            gymnasium.register(
                info.gymnasium_id, entry_point=functools.partial(make_single_agent, info.id)
            )
