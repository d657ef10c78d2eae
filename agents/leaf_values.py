"""Static evaluations of unfinished positions, for search agents' truncated rollouts.

An evaluator maps a state to one value per seat in [-1, 1], an estimate of the outcome
reward (+1 win, -1 loss with two players; ``(beaten - beaten by) / (n - 1)`` in general).
The generic one compares the game's own scores: each pair of seats contributes
``tanh(score difference / scale)``, with a per-game scale of "a clear lead". Games whose
score track misses much of a position's worth may register their own evaluator here.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardgame_envs.core.rules import State

Evaluator = Callable[[State], list[float]]

#: Score difference that counts as a clear lead, per game (a tanh of 1 is 0.76): about the
#: mean final score difference of heuristic-against-heuristic games (12 games each).
SCORE_SCALE: dict[str, float] = {
    "factors_multiples": 8.0,
    "cornucopia": 15.0,
    "carcassonne_castle": 25.0,
    "tahiti": 5.0,
    "wasabi": 5.0,
}


def score_evaluator(scale: float) -> Evaluator:
    def evaluate(state: State) -> list[float]:
        keys = state._score_keys()
        n = len(keys)
        return [
            sum(math.tanh((keys[i] - keys[j]) / scale) for j in range(n) if j != i) / (n - 1)
            for i in range(n)
        ]

    return evaluate


def leaf_evaluator(game: str) -> Evaluator:
    """The static evaluation search agents use for ``game``."""
    return score_evaluator(SCORE_SCALE.get(game, 5.0))
