"""Static evaluations of unfinished positions, for search agents' truncated rollouts.

An evaluator maps a state to one value per seat in [-1, 1], an estimate of the outcome
reward (+1 win, -1 loss with two players; ``(beaten - beaten by) / (n - 1)`` in general).
Each pair of seats contributes ``tanh(difference of provisional scores / scale)``, with a
per-game scale of "a clear lead". The provisional score is what the seat would score if
the game (or round) ended now, where the game's score track leaves something out:

| game | provisional score (higher is better) |
|---|---|
| Factors and Multiples | minus (match total + the cards still to shed this round) |
| Carcassonne: The Castle | the expected final score (``_carcassonne_expected``) |
| Tahiti | the mean of the final scoring (§6.4) of the charts with and without the cargo aboard |
| Wasabi! | the score plus half the heuristic's board value (its live recipes' best windows) |
| Cornucopia | points in hand (blue chips at a third) + the value of a turn about to start |

The evaluator may change the state it is given: search hands it a throwaway determinization.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

from boardgame_envs.core.rules import PlayerView, State

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
    their wall tiles, bonus tiles) is applied to the position as it stands. No longer the
    search's evaluation: early on the keep bonus (the largest empty region, 40+ cells)
    swamps it, and it predicts the final score difference worse than the bare score track
    (mean squared error 1472 against 478 over 2,991 positions of heuristic games; the
    expected score below: 372)."""
    if not state.is_terminal():
        state._final_scoring()
    return state._score_keys()


#: Carcassonne's constants below were chosen by the squared error of the predicted final
#: score difference over 2,991 positions of 150 heuristic games (seeds 720,000 +); it
#: changes little over COMPLETION 0.5-0.9 and STACK_HALF 0-6 (372-400), more with the
#: keep (0: 395, 0.5: 372, 1: 440) and with a worth of followers in the supply (1: 372,
#: 4: 381, 8: 408).
#: Carcassonne: the chance that an unfinished feature with ``k`` open ports is finished
#: is taken as ``COMPLETION ** k`` (times the share of the stack still to come, below)
COMPLETION = 0.8
#: ... times ``stack / (stack + STACK_HALF * k)``: few tiles left finish little
STACK_HALF = 2.0
#: the keep bonus is the largest empty region at the end (spec §6.8 F1): estimated as the
#: empty cells that will stay empty (those now empty minus the tiles still to come),
#: at most the largest region now
KEEP_WEIGHT = 0.5
#: a follower still in the supply is worth this many points times the share of the 60
#: tiles still in the stack (what it may still claim)
FOLLOWER_WORTH = 0.0


def _carcassonne_expected(state: State) -> list[float]:
    """The score track plus what the position is expected to bring by the end: each
    unfinished tower, house or path its majority holder's at its value now times the
    chance it is finished; courts at their final value; the keep bonus at the empty region
    expected to remain; the bonus wall tiles. (The wall tiles that score unfinished
    features, and the doubling and extra-turn tiles, are left out.)"""
    if state.is_terminal():
        return state._score_keys()
    from boardgame_envs.carcassonne_castle.castle import MAX_SEGMENTS
    from boardgame_envs.carcassonne_castle.data import (
        BIGGER_KEEP,
        BONUS_POINTS,
        COURT,
        HOUSE,
        MARKET_X4,
        NUM_CASTLE_TILES,
        NUM_CELLS,
        PATH,
        TOWER,
    )

    castle = state.castle
    keys = [float(v) for v in state.scores_]
    stack = len(state.stack)
    kinds, opens, count, markets = castle.kind, castle.open, castle.count, castle.markets
    courts: list[list[int]] = [[], []]
    parent = castle.parent
    for root in range(castle.num_segments):
        if parent[root] != root:
            continue
        a, b = count[root], count[MAX_SEGMENTS + root]
        if a == b:
            continue
        seat = 0 if a > b else 1
        kind = kinds[root]
        if kind == COURT:
            courts[seat].append(markets[root])
        elif kind in (TOWER, HOUSE, PATH):
            k = opens[root]
            if k and stack:
                chance = COMPLETION**k * stack / (stack + STACK_HALF * k)
                keys[seat] += chance * castle.value(root)
    if FOLLOWER_WORTH:
        for seat in range(2):
            keys[seat] += FOLLOWER_WORTH * state.supply[seat] * stack / NUM_CASTLE_TILES
    held = [[kind for kind, _ in state.held[seat]] for seat in range(2)]
    for seat in range(2):
        upgraded = held[seat].count(MARKET_X4)
        for i, n in enumerate(sorted(courts[seat], reverse=True)):
            keys[seat] += (4 if i < upgraded else 3) * n
        keys[seat] += state.config["wall9_points"] * held[seat].count(BONUS_POINTS)
    sizes = []
    for seat in range(2):
        keep = state.keeps[seat]
        bonus = state.config["keep_bonus_tiles"] * held[seat].count(BIGGER_KEEP)
        sizes.append(0 if keep is None else keep[0] + bonus)
    if sizes[0] != sizes[1] and KEEP_WEIGHT:
        empty = NUM_CELLS - len(castle.history)
        region = min(castle.largest_empty_region(), max(0, empty - stack))
        keys[0 if sizes[0] > sizes[1] else 1] += KEEP_WEIGHT * region
    return keys


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


#: Wasabi!: a point of the heuristic's board value (each live recipe's best window, a
#: partial one at a share of the recipe's worth) counts this much of a scored point.
PROGRESS_WORTH = 0.5


def _wasabi_keys(state: State) -> list[float]:
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
    from boardgame_envs.agents.heuristic.wasabi import HeuristicAgent

    return HeuristicAgent()


#: Cornucopia: each bettor of the turn about to start is taken to win ``|2p - 1|`` points
#: times this (3 blue chips, one point, staked on the likelier side of a bid that succeeds
#: with probability ``p``)
BET_WORTH = 1.0


def _cornucopia_keys(state: State) -> list[float]:
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
    from boardgame_envs.agents.heuristic.cornucopia import HeuristicAgent

    return HeuristicAgent()


PROVISIONAL: dict[str, Provisional] = {
    "cornucopia": _cornucopia_keys,
    "factors_multiples": _factors_multiples_keys,
    "wasabi": _wasabi_keys,
    "carcassonne_castle": _carcassonne_expected,
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


#: Tiles (turns) still to come in a position, a state or a view, per game where the search
#: may use it to roll out to the end once the game is short (options ``finish``, ``late``).
TURNS_LEFT: dict[str, Callable[[State | PlayerView], int]] = {
    "carcassonne_castle": lambda position: position.stack_size,
}


def turns_left(game: str) -> Callable[[State | PlayerView], int] | None:
    return TURNS_LEFT.get(game)


def leaf_evaluator(game: str) -> Evaluator:
    """The static evaluation search agents use for ``game``."""
    return pairwise_evaluator(PROVISIONAL.get(game, _game_keys), SCORE_SCALE.get(game, 5.0))
