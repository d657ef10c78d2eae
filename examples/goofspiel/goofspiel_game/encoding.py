"""Goofspiel: the observation tensor of one seat.

The observation is ``float32[137]`` from the observing seat's point of view: *relative seat*
0 is the observer, 1 the next seat, and so on; the slots of absent seats (fewer than 4
players) are zero. Card and prize values ``v`` (1..13) sit at index ``v - 1`` of a 13-slot
block. It is built from :class:`~goofspiel_game.rules.View` only, so it holds nothing the
seat may not know: another seat's bid of this round is inside its "unrevealed cards", not
told apart from the rest. Layout:

======  ====  ==========================================================  =========
offset  size  content                                                     range
======  ====  ==========================================================  =========
0       13    current prize, one-hot (zeros once the game is over)        0/1
13      13    prizes still face down (a set: their order is hidden)       0/1
26      13    own hand: cards still to bid (this round's bid left out)    0/1
39      13    own bid this round, one-hot (zeros before bidding)          0/1
52      39    relative seats 1-3: unrevealed cards (hand + face-down      0/1
              bid of this round), 13 slots each
91      4     has bid this round, per relative seat                       0/1
95      4     score per relative seat / (N (N + 1) / 2), all prizes       [0, 1]
99      4     seat present                                                0/1
103     13    cards in this game: 1 for the values 1..N (option cards)    0/1
116     13    last round's prize, one-hot (zeros before the first)        0/1
129     4     last round's bid per relative seat / 13                     [0, 1]
133     4     last round's winner per relative seat, one-hot (none: 0s)   0/1
======  ====  ==========================================================  =========

Actions are the 13 indices documented in :mod:`goofspiel_game.rules` (bid ``index + 1``);
the mask comes with the view.

Version history (the env id's ``-vN``): v0, the first.
"""

from __future__ import annotations

import numpy as np

from goofspiel_game.rules import MAX_CARDS, View

PRIZE = 0
PRIZES_LEFT = 13
HAND = 26
OWN_BID = 39
OTHERS_UNREVEALED = 52
HAS_BID = 91
SCORES = 95
PRESENT = 99
CARDS_IN_GAME = 103
LAST_PRIZE = 116
LAST_BIDS = 129
LAST_WINNER = 133
OBSERVATION_SIZE = 137
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
OBSERVATION_BOUNDS = (0.0, 1.0)
#: No spatial planes: the env's ``layout="planes"`` is refused for this game.
PLANES = None


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module table)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    n, me = view.num_players, view.seat
    if view.prize:
        obs[PRIZE + view.prize - 1] = 1.0
    for value in view.prizes_left:
        obs[PRIZES_LEFT + value - 1] = 1.0
    for card in view.hand:
        obs[HAND + card - 1] = 1.0
    if view.own_bid is not None:
        obs[OWN_BID + view.own_bid - 1] = 1.0
    obs[CARDS_IN_GAME : CARDS_IN_GAME + view.cards] = 1.0
    all_prizes = view.cards * (view.cards + 1) / 2
    last = view.history[-1] if view.history else None
    if last is not None:
        obs[LAST_PRIZE + last.prize - 1] = 1.0
    for rel in range(n):
        seat = (me + rel) % n  # the absolute seat of relative seat ``rel``
        if rel:
            base = OTHERS_UNREVEALED + (rel - 1) * MAX_CARDS
            for card in view.unrevealed[seat]:
                obs[base + card - 1] = 1.0
        obs[HAS_BID + rel] = float(view.has_bid[seat])
        obs[SCORES + rel] = view.scores[seat] / all_prizes
        obs[PRESENT + rel] = 1.0
        if last is not None:
            obs[LAST_BIDS + rel] = last.bids[seat] / MAX_CARDS
            obs[LAST_WINNER + rel] = float(last.winner == seat)
    return obs
