"""What the search knows about Factors and Multiples: the provisional score of its leaf
evaluation."""

from __future__ import annotations

from boardgame_envs.core.rules import State


def provisional_score(state: State) -> list[float]:
    """Match totals plus the cards each seat still holds (hand and pile) this round."""
    if state.is_terminal():
        return state._score_keys()
    return [
        -(total + len(hand) + len(pile))
        for total, hand, pile in zip(state.scores(), state.hands, state.piles)
    ]
