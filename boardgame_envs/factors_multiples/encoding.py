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

from boardgame_envs.factors_multiples.data import NUM_RANKS, NUM_SUITS, rank_of
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


def _rank_counts(cards) -> np.ndarray:
    counts = np.zeros(NUM_RANKS, dtype=np.float32)
    for card in cards:
        counts[rank_of(card)] += 1
    return counts / NUM_SUITS


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module table)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n = view.num_players
    seats = [(view.seat + offset) % n for offset in range(n)]  # absolute seat per relative seat

    obs[HAND : HAND + NUM_RANKS] = _rank_counts(view.hand)
    for rel, seat in enumerate(seats):
        obs[HAND_SIZES + rel] = view.hand_sizes[seat] / 26
        obs[PILE_SIZES + rel] = view.pile_sizes[seat] / 26
        obs[PRESENT + rel] = 1.0
        obs[MATCH_TOTALS + rel] = view.match_totals[seat] / 30
    obs[VALUE + (11 if view.value is None else view.value - 2)] = 1.0
    if view.play_pile:
        card, seat = view.play_pile[-1]
        obs[LAST_RANK + rank_of(card)] = 1.0
        obs[LAST_SEAT + (seat - view.seat) % n] = 1.0
    if view.phase in PHASES:
        obs[PHASE + PHASES.index(view.phase)] = 1.0
    obs[PLAYED : PLAYED + NUM_RANKS] = _rank_counts(card for card, _ in view.play_pile)
    obs[OWN_DISCARDS : OWN_DISCARDS + NUM_RANKS] = _rank_counts(view.own_discards)
    obs[HIDDEN_DISCARD] = view.hidden_discard_size / 52
    for rel, seat in enumerate(seats[1:], start=1):
        start = REVEALS + (rel - 1) * NUM_RANKS
        obs[start : start + NUM_RANKS] = _rank_counts(view.reveals[seat])
        obs[REVEAL_AGES + rel - 1] = min(view.reveal_ages[seat], 10) / 10
    obs[PLAYER_COUNT + n - 2] = 1.0
    rounds_left = view.rounds - view.round
    obs[ROUNDS_LEFT + min(rounds_left, 3) - 1] = 1.0
    return obs
