"""The games, and the factories that build their rules and environments."""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Any

from boardgame_envs.core.rules import InvalidConfigError, Rules


@dataclass(frozen=True)
class GameInfo:
    """One game of the collection. Its rules module is imported on first use."""

    id: str  # snake_case, as in pettingzoo ids: "factors_multiples"
    title: str
    gym_name: str  # CamelCase, as in gymnasium ids: "FactorsMultiples"
    rules_class: str  # "module:Class", the Python engine (the reference)

    def rules(self, engine: str | None = None) -> Rules:
        """The Rules of ``engine`` ("native" or "python"; None: the default, see
        :func:`boardgame_envs.core.native.resolve_engine`)."""
        from boardgame_envs.core.native import resolve_engine

        if resolve_engine(self.id, engine) == "native":
            return _load_rules(f"boardgame_envs.{self.id}.native:Rules")
        return _load_rules(self.rules_class)

    @property
    def pettingzoo_id(self) -> str:
        return f"boardgame_envs/{self.id}-v{self.rules().version}"

    @property
    def gymnasium_id(self) -> str:
        return f"boardgame_envs/{self.gym_name}-v{self.rules().version}"


GAMES: dict[str, GameInfo] = {
    info.id: info
    for info in [
        GameInfo(
            "factors_multiples",
            "Factors and Multiples",
            "FactorsMultiples",
            "boardgame_envs.factors_multiples.rules:FactorsMultiplesRules",
        ),
        GameInfo(
            "carcassonne_castle",
            "Carcassonne: The Castle",
            "CarcassonneCastle",
            "boardgame_envs.carcassonne_castle.rules:CarcassonneCastleRules",
        ),
        GameInfo("wasabi", "Wasabi!", "Wasabi", "boardgame_envs.wasabi.rules:WasabiRules"),
        GameInfo("tahiti", "Tahiti", "Tahiti", "boardgame_envs.tahiti.rules:TahitiRules"),
        GameInfo(
            "cornucopia",
            "Cornucopia",
            "Cornucopia",
            "boardgame_envs.cornucopia.rules:CornucopiaRules",
        ),
    ]
}


@functools.cache
def _load_rules(path: str) -> Rules:
    module, cls = path.split(":")
    return getattr(importlib.import_module(module), cls)()


def game_info(game: str) -> GameInfo:
    if game not in GAMES:
        raise InvalidConfigError(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    return GAMES[game]


def make_rules(game: str, engine: str | None = None) -> Rules:
    """The Rules object of ``game`` (a rules engine, no environment).

    ``engine``: "native" (compiled, the default where built) or "python" (the reference);
    None follows ``BOARDGAME_ENVS_ENGINE``, else native where built (see ``engine_info()``).
    """
    return game_info(game).rules(engine)


def raw_env(game: str, num_players: int = 2, engine: str | None = None, **kwargs: Any):
    """The unwrapped AEC env: raises IllegalActionError on an illegal action."""
    from boardgame_envs.core.env import TurnBasedEnv

    return TurnBasedEnv(make_rules(game, engine), num_players, **kwargs)


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
    from boardgame_envs.core.single_agent import SingleAgentEnv

    rules = make_rules(game, engine)
    if isinstance(opponent, str):
        from boardgame_envs.agents.base import make_agent

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
