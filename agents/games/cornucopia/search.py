"""What the search knows about Cornucopia: the provisional score of its leaf evaluation."""

from __future__ import annotations

import functools

from boardgame_envs.core.rules import State

#: Cornucopia: each bettor of the turn about to start is taken to win ``|2p - 1|`` points
#: times this (3 blue chips, one point, staked on the likelier side of a bid that succeeds
#: with probability ``p``)
BET_WORTH = 1.0


def provisional_score(state: State) -> list[float]:
    """Each seat's points as they stand, blue chips at a third of a point each (no
    rounding: a chip won now is worth its share), plus, at the start of a turn (its bid
    or declaration), what the turn is worth: to its player the value of the heuristic's
    best bid, to each bettor ``BET_WORTH * |2p - 1|`` for that bid's chance ``p``. A
    position that leaves the next player a basket nearly full is worth less to the one
    who leaves it."""
    if state.is_terminal():
        return state._score_keys()
    from boardgame_envs.cornucopia.data import BLUE, BLUE_PER_YELLOW, RED, YELLOW
    from boardgame_envs.cornucopia.rules import (
        BID,
        DECLARE,
        combination_points,
        red_majority_points,
    )

    reds = red_majority_points([chips[RED] for chips in state.chips])
    keys = [
        chips[YELLOW] + chips[BLUE] / BLUE_PER_YELLOW + red + combination_points(tuple(won))
        for chips, red, won in zip(state.chips, reds, state.won)
    ]
    if state.phase in (BID, DECLARE):
        turn = state.turn_player
        value, p = _cornucopia_player().turn_outlook(state.view(turn))
        keys[turn] += value
        if BET_WORTH:
            for seat, chips in enumerate(state.chips):
                if seat != turn and chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW] >= 1:
                    keys[seat] += BET_WORTH * abs(2 * p - 1)
    return keys


@functools.cache
def _cornucopia_player():
    from boardgame_envs.agents.games.cornucopia.heuristic import HeuristicAgent

    return HeuristicAgent()
