"""Move rankings from the heuristics, for search agents that widen their root slowly.

``rank_actions(game, heuristic, view)`` returns the legal actions of ``view`` best first by
the game heuristic's own judgement (the game settings' ``rank_actions``), or None where the
game (or the decision) has no ranking worth the cost. The search's ``widen=K`` option keeps
the root's K best; with only a few hundred iterations per decision, 60-100 placements would
each get a visit or two, while the heuristic's top few get enough to be told apart.
"""

from __future__ import annotations

from boardgame_envs.agents.base import Agent
from boardgame_envs.agents.settings import game_settings
from boardgame_envs.core.rules import PlayerView


def rank_actions(game: str, heuristic: Agent, view: PlayerView) -> list[int] | None:
    ranking = game_settings(game).rank_actions
    return None if ranking is None else ranking(heuristic, view)
