"""Factors and Multiples: the observation tensor of one seat.

The observation is ``float32[159]`` from the observing seat's point of view: *relative
seat* 0 is the observer, 1 the next player clockwise, and so on; slots of absent seats
(fewer than 5 players) are zero. It is built from :class:`~.rules.View` only, so it holds
nothing the seat may not know (spec §7). Layout (spec §11.4):

======  ====  ==========================================================  ==========
offset  size  content                                                     scale
======  ====  ==========================================================  ==========
0       13    own hand: cards per rank (A, 2 … 10, J, Q, K)               / 4
13      5     hand size per relative seat                                 / 26
18      5     draw-pile size per relative seat                            / 26
23      5     seat present                                                0/1
28      12    current value one-hot: 2 … 12, then ``*`` (undetermined)    0/1
40      13    rank of the last card played this round (zeros if none)     0/1
53      5     relative seat that played it                                0/1
58      6     phase one-hot: PLAY, K_ANSWER, A_DISCARD, SEVEN_NAME,       0/1
              J_DIRECTION, K_DISCARD (all zero once the match is over)
64      13    play pile this round: cards per rank                        / 4
77      13    own discards (A / K effects) this round: cards per rank     / 4
90      1     hidden-discard pile size                                    / 52
91      52    relative seats 1-4: cards per rank of that seat's latest    / 4
              reveal this round (start card, then each shown hand)
143     4     age of each of those reveals: that seat's turns since       min(a,10)/10
147     4     player count one-hot: 2, 3, 4, 5                            0/1
151     3     rounds left including this one: 1, 2, 3 or more             0/1
154     5     match total over completed rounds per relative seat         / 30
======  ====  ==========================================================  ==========

Actions are the 40 indices documented in :mod:`.rules`; the mask comes with the view.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.factors_multiples.data import NUM_RANKS, NUM_SUITS
from boardgame_envs.factors_multiples.rules import PHASES, View

MAX_SEATS = 5
HAND = 0
HAND_SIZES = 13
PILE_SIZES = 18
PRESENT = 23
VALUE = 28
LAST_RANK = 40
LAST_SEAT = 53
PHASE = 58
PLAYED = 64
OWN_DISCARDS = 77
HIDDEN_DISCARD = 90
REVEALS = 91
REVEAL_AGES = 143
PLAYER_COUNT = 147
ROUNDS_LEFT = 151
MATCH_TOTALS = 154
OBSERVATION_SIZE = 159
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
#: Every slot is in [0, 1] except the match totals: -12/30 (three times out with 2
#: players) to 78/30 (every card of a 2-player deal, three rounds).
OBSERVATION_BOUNDS = (-1.0, 3.0)


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module table)."""
    n = view.num_players
    seats = [(view.seat + offset) % n for offset in range(n)]  # absolute seat per relative seat

    # Cards per rank (every "/ 4" block) in one bincount; card // 4 is its rank.
    counted = [HAND + card // NUM_SUITS for card in view.hand]
    counted += [PLAYED + card // NUM_SUITS for card, _ in view.play_pile]
    counted += [OWN_DISCARDS + card // NUM_SUITS for card in view.own_discards]
    for rel, seat in enumerate(seats[1:]):
        counted += [REVEALS + rel * NUM_RANKS + card // NUM_SUITS for card in view.reveals[seat]]
    obs = np.bincount(counted, minlength=OBSERVATION_SIZE).astype(np.float32) / NUM_SUITS

    # Every other slot, written in one assignment.
    index: list[int] = []
    value: list[float] = []
    for rel, seat in enumerate(seats):
        index += [HAND_SIZES + rel, PILE_SIZES + rel, PRESENT + rel, MATCH_TOTALS + rel]
        value += [
            view.hand_sizes[seat] / 26,
            view.pile_sizes[seat] / 26,
            1.0,
            view.match_totals[seat] / 30,
        ]
    for rel, seat in enumerate(seats[1:]):
        index.append(REVEAL_AGES + rel)
        value.append(min(view.reveal_ages[seat], 10) / 10)
    index.append(VALUE + (11 if view.value is None else view.value - 2))
    if view.play_pile:
        card, seat = view.play_pile[-1]
        index += [LAST_RANK + card // NUM_SUITS, LAST_SEAT + (seat - view.seat) % n]
    if view.phase in PHASES:
        index.append(PHASE + PHASES.index(view.phase))
    index += [PLAYER_COUNT + n - 2, ROUNDS_LEFT + min(view.rounds - view.round, 3) - 1]
    value += [1.0] * (len(index) - len(value))
    index.append(HIDDEN_DISCARD)
    value.append(view.hidden_discard_size / 52)
    obs[index] = value
    return obs
