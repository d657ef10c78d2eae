"""Goofspiel determinization: a full state consistent with one seat's view.

What a seat cannot see, and how :func:`sample_state` draws it from ``rng``:

* **the other seats' bids of this round** — a seat that has bid holds its bid among its
  unrevealed cards (public: every earlier bid was revealed); the bid is one of them drawn
  uniformly, the rest is its hand;
* **the order of the prize deck** — its cards are public (the prizes not yet turned up), its
  order a uniform shuffle.

Everything else is copied from the view. No inference from past play: a plain uniform
draw, as ISMCTS expects.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core.rules import PlayerView
from goofspiel_game.rules import State, View

if TYPE_CHECKING:
    from goofspiel_game.rules import GoofspielRules


def sample_state(rules: GoofspielRules, view: PlayerView, rng: np.random.Generator) -> State:
    """A full :class:`State` showing ``view.seat`` exactly ``view``; hidden parts from ``rng``.

    Reads ``view`` only and shares no mutable object with it. The same view and generator
    state give the same sample.
    """
    if not isinstance(view, View):
        raise TypeError(f"expected a goofspiel View, got {type(view).__name__}")
    state = State(rules, view.num_players, {"cards": view.cards})
    state.history = list(view.history)
    state.prize = view.prize
    left = view.prizes_left
    state.prize_deck = [left[i] for i in rng.permutation(len(left)).tolist()]
    for seat in range(view.num_players):
        if seat == view.seat:
            hand, bid = list(view.hand), view.own_bid
        elif view.has_bid[seat]:
            hand = list(view.unrevealed[seat])
            bid = hand.pop(int(rng.integers(len(hand))))
        else:
            hand, bid = list(view.unrevealed[seat]), None
        state.hands[seat] = hand
        state.bids[seat] = bid
    return state
