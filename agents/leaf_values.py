"""Static evaluations of unfinished positions, for search agents' truncated rollouts.

An evaluator maps a state to one value per seat in [-1, 1], an estimate of the outcome
reward (+1 win, -1 loss with two players; ``(beaten - beaten by) / (n - 1)`` in general).
Each pair of seats contributes ``tanh(difference of provisional scores / scale)``, with a
per-game scale of "a clear lead". The provisional score is what the seat would score if
the game (or round) ended now, where the game's score track leaves something out:

| game | provisional score (higher is better) |
|---|---|
| Factors and Multiples | minus (match total + the cards still to shed this round) |
| Carcassonne: The Castle | the score track after the final scoring of the position as it is |
| Tahiti | the mean of the final scoring (§6.4) of the charts with and without the cargo aboard |
| Cornucopia, Wasabi! | the game's own (provisional) score |

The evaluator may change the state it is given: search hands it a throwaway determinization.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from boardgame_envs.core.rules import State

Evaluator = Callable[[State], list[float]]
Provisional = Callable[[State], list[float]]

#: Score difference that counts as a clear lead, per game (a tanh of 1 is 0.76): about the
#: mean final score difference of heuristic-against-heuristic games (12 games each).
SCORE_SCALE: dict[str, float] = {
    "factors_multiples": 6.0,
    "cornucopia": 15.0,
    "carcassonne_castle": 25.0,
    "tahiti": 5.0,
    "wasabi": 5.0,
}


def _game_keys(state: State) -> list[float]:
    return state._score_keys()


def _factors_multiples_keys(state: State) -> list[float]:
    """Match totals plus the cards each seat still holds (hand and pile) this round."""
    if state.is_terminal():
        return state._score_keys()
    return [
        -(total + len(hand) + len(pile))
        for total, hand, pile in zip(state.scores(), state.hands, state.piles)
    ]


def _carcassonne_keys(state: State) -> list[float]:
    """The score track once the final scoring (keeps, courts, unfinished features with
    their wall tiles, bonus tiles) is applied to the position as it stands."""
    if not state.is_terminal():
        state._final_scoring()
    return state._score_keys()


#: Tahiti: a cube aboard a canoe is worth this share of a delivered one (it may still sink,
#: and it slows the canoe).
CARGO_WORTH = 0.5


def _tahiti_keys(state: State) -> list[float]:
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


PROVISIONAL: dict[str, Provisional] = {
    "factors_multiples": _factors_multiples_keys,
    "carcassonne_castle": _carcassonne_keys,
    "tahiti": _tahiti_keys,
}


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
    """The static evaluation search agents use for ``game``."""
    return pairwise_evaluator(PROVISIONAL.get(game, _game_keys), SCORE_SCALE.get(game, 5.0))
