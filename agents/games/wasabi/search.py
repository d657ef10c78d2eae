"""What the search knows about Wasabi!: the provisional score of its leaf evaluation."""

from __future__ import annotations

import functools

from boardgame_envs.core.rules import State

#: Wasabi!: a point of the heuristic's board value (each live recipe's best window, a
#: partial one at a share of the recipe's worth) counts this much of a scored point.
PROGRESS_WORTH = 0.5


def provisional_score(state: State) -> list[float]:
    """The score (cubes breaking ties) plus ``PROGRESS_WORTH`` times each seat's board
    value, as the heuristic reckons it from that seat's view: half-built recipes count."""
    keys = state._score_keys()
    if state.is_terminal():
        return keys
    planner = _wasabi_planner()
    for seat in range(state.num_players):
        planner._setup(state.view(seat))
        keys[seat] += PROGRESS_WORTH * planner.value_now()
    return keys


@functools.cache
def _wasabi_planner():
    """One heuristic, for its board valuation (its memos make repeated boards cheap)."""
    from boardgame_envs.agents.games.wasabi.heuristic import HeuristicAgent

    return HeuristicAgent()
