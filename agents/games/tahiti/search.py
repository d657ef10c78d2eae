"""What the search knows about Tahiti: the provisional score of its leaf evaluation."""

from __future__ import annotations

from boardgame_envs.core.rules import State

#: Tahiti: a cube aboard a canoe is worth this share of a delivered one (it may still sink,
#: and it slows the canoe).
CARGO_WORTH = 0.5


def provisional_score(state: State) -> list[float]:
    """Between the final scoring of the charts as they stand and as they would be after
    unloading every canoe, weighted by ``CARGO_WORTH``."""
    if state.is_terminal():
        return state._score_keys()
    from boardgame_envs.tahiti.rules import score_charts

    unloaded = [
        [a + b for a, b in zip(chart, cargo)] for chart, cargo in zip(state.charts, state.cargo)
    ]
    with_cargo = score_charts(unloaded, state.favourites)
    without = score_charts(state.charts, state.favourites)
    return [CARGO_WORTH * a + (1 - CARGO_WORTH) * b for a, b in zip(with_cargo, without)]
