"""Static evaluations of unfinished positions, for search agents' truncated rollouts.

An evaluator maps a state to one value per seat in [-1, 1], an estimate of the outcome
reward (+1 win, -1 loss with two players; ``(beaten - beaten by) / (n - 1)`` in general).
Each pair of seats contributes ``tanh(difference of provisional scores / scale)``, with a
scale of "a clear lead" per game. The provisional score is what the seat would score if
the game (or round) ended now, where the game's score track leaves something out.
Each game's provisional score and scale are its settings' ``provisional`` and
``score_scale`` (``agents/games/<game>/search.py``); a game without them is judged by its
score track (``state._score_keys()``) at a scale of 5 points.

The evaluator may change the state it is given: search hands it a throwaway determinization.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardgame_envs.agents.settings import Provisional, game_settings
from boardgame_envs.core.rules import State

Evaluator = Callable[[State], list[float]]


def _game_keys(state: State) -> list[float]:
    return state._score_keys()


def pairwise_evaluator(keys: Provisional, scale: float) -> Evaluator:
    def evaluate(state: State) -> list[float]:
        k = keys(state)
        n = len(k)
        return [
            sum(math.tanh((k[i] - k[j]) / scale) for j in range(n) if j != i) / (n - 1)
            for i in range(n)
        ]

    return evaluate


def leaf_evaluator(game: str) -> Evaluator:
    """The static evaluation search agents use for ``game``: its settings' provisional
    score (the score track for a game without one) and scale."""
    settings = game_settings(game)
    return pairwise_evaluator(settings.provisional or _game_keys, settings.score_scale)
