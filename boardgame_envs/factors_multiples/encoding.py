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
154     5     match total over completed rounds per relative seat         / T
======  ====  ==========================================================  ==========

``T = 10 * max(rounds, 3)``: 30 for matches of up to 3 rounds (the default), growing with
longer matches so that every slot stays in the declared bounds for every allowed ``rounds``.
A round scores -4 to 26 (2 players: out, or all 26 cards left), so a total lies in
``[-4 * rounds, 26 * rounds]`` and its slot in ``[-0.4, 2.6]``; every other slot is in
``[0, 1]`` (only a hand-built position can hold a hand or pile above 26 cards; its slot is
at most 52 / 26 = 2).

Version history (the env id's ``-vN``): v1, match totals / ``T`` instead of / 30, which left
the declared Box from 4 rounds on (observations of matches of up to 3 rounds unchanged).

Actions are the 40 indices documented in :mod:`.rules`; the mask comes with the view.
"""

from __future__ import annotations

from array import array

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
#: Every slot is in [0, 1] except the match totals, in [-0.4, 2.6] for any ``rounds`` (see
#: the module docstring) and the sizes of hand-built positions (at most 2).
OBSERVATION_BOUNDS = (-1.0, 3.0)
#: No spatial planes: the env's ``layout="planes"`` is refused for this game.
PLANES = None


def match_total_scale(rounds: int) -> float:
    """The divisor of the match-total slots: 30 up to 3 rounds, 10 per round beyond."""
    return 10.0 * max(rounds, 3)


#: The observation before anything is written: float32 zeros, copied for every encoding.
_ZEROS = array("f", bytes(4 * OBSERVATION_SIZE))
_PHASE_SLOT = {phase: PHASE + i for i, phase in enumerate(PHASES)}
_QUARTER = 1 / NUM_SUITS  # one card in a "/ 4" block; sums of quarters are exact in float32


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module table)."""
    # Written entry by entry into a float32 array: for 159 entries, mostly zero, cheaper
    # than building numpy index arrays. A Python float stored into an "f" array rounds to
    # float32 like a numpy write of it, so every entry is ``x / scale`` rounded once.
    obs = _ZEROS[:]
    n = view.num_players
    me = view.seat
    # Cards per rank (every "/ 4" block); card // 4 is its rank.
    for card in view.hand:
        obs[HAND + (card >> 2)] += _QUARTER
    play_pile = view.play_pile
    for card, _ in play_pile:
        obs[PLAYED + (card >> 2)] += _QUARTER
    for card in view.own_discards:
        obs[OWN_DISCARDS + (card >> 2)] += _QUARTER
    hand_sizes, pile_sizes, totals = view.hand_sizes, view.pile_sizes, view.match_totals
    reveals, reveal_ages = view.reveals, view.reveal_ages
    total_scale = match_total_scale(view.rounds)
    for rel in range(n):
        seat = (me + rel) % n  # absolute seat of relative seat ``rel``
        obs[HAND_SIZES + rel] = hand_sizes[seat] / 26
        obs[PILE_SIZES + rel] = pile_sizes[seat] / 26
        obs[PRESENT + rel] = 1.0
        obs[MATCH_TOTALS + rel] = totals[seat] / total_scale
        if rel:
            base = REVEALS + (rel - 1) * NUM_RANKS
            for card in reveals[seat]:
                obs[base + (card >> 2)] += _QUARTER
            obs[REVEAL_AGES + rel - 1] = min(reveal_ages[seat], 10) / 10
    value = view.value
    obs[VALUE + (11 if value is None else value - 2)] = 1.0
    if play_pile:
        card, seat = play_pile[-1]
        obs[LAST_RANK + (card >> 2)] = 1.0
        obs[LAST_SEAT + (seat - me) % n] = 1.0
    phase = _PHASE_SLOT.get(view.phase)
    if phase is not None:
        obs[phase] = 1.0
    obs[PLAYER_COUNT + n - 2] = 1.0
    obs[ROUNDS_LEFT + min(view.rounds - view.round, 3) - 1] = 1.0
    obs[HIDDEN_DISCARD] = view.hidden_discard_size / 52
    return np.frombuffer(obs, np.float32)
