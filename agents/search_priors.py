"""Move rankings from the heuristics, for search agents that widen their root slowly.

``rank_actions(game, heuristic, view)`` returns the legal actions of ``view`` best first by
the game heuristic's own judgement, or None where the game (or the decision) has no ranking
worth the cost. The search's ``widen=K`` option keeps the root's K best; with only a few
hundred iterations per decision, 60-100 Carcassonne placements would each get a visit or
two, while the heuristic's top few get enough to be told apart.
"""

from __future__ import annotations

from boardgame_envs.agents.base import Agent

from boardgame_envs.core.rules import PlayerView


def _carcassonne(heuristic: Agent, view: PlayerView) -> list[int] | None:
    from boardgame_envs.carcassonne_castle.rules import PLACE

    if view.phase != PLACE:
        return None
    values = heuristic.placement_values(view)
    return sorted(values, key=lambda a: -values[a])


RANKINGS = {"carcassonne_castle": _carcassonne}


def rank_actions(game: str, heuristic: Agent, view: PlayerView) -> list[int] | None:
    ranking = RANKINGS.get(game)
    return None if ranking is None else ranking(heuristic, view)
