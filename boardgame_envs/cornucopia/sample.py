"""Cornucopia determinization: a full state consistent with one seat's view.

What a seat cannot see (spec §7), and how :func:`sample_state` draws it from ``rng``:

* **the deck order** — the deck's composition by type is public (every other crop card is
  face up), so the deck is a uniformly random permutation of that multiset;
* **the generator of later reshuffles** — a state shuffles with ``shuffle_seed(seed, i)``;
  the sample gets a fresh uniform ``seed`` (and ``shuffles = 1 + exhaustions``, the count a
  dealt game has; with a fresh seed the count changes nothing), so every later reshuffle is
  a uniform permutation independent of the original's;
* **other seats' bets before REVEAL** — each committed bettor other than the seat gets a side
  (YES / NO) and a stake drawn uniformly from the bets it could legally have made: stakes
  ``s`` in 1..3 with ``s <= b + 3y``. Chips move only at REVEAL, so the chips in the view are
  the ones the bettor bet with.

Everything else is copied from the view; the bet order follows from it (the eligible
bettors, clockwise from the turn player's left, while betting; the seats with a revealed bet
after). No inference from past moves: a plain uniform draw, as ISMCTS expects.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np

from boardgame_envs.core.rules import PlayerView
from boardgame_envs.cornucopia.data import (
    BLUE,
    BLUE_PER_YELLOW,
    NUM_BASKETS,
    NUM_TYPES,
    STAKES,
    YELLOW,
)
from boardgame_envs.cornucopia.rules import BET, State, View

if TYPE_CHECKING:
    from boardgame_envs.cornucopia.rules import CornucopiaRules

_TYPES = np.arange(NUM_TYPES)
#: Seeds are drawn below this bound, as ``new_state(seed=None)`` draws them.
_SEED_BOUND = 2**63


@functools.cache
def _config(rules: CornucopiaRules, variant_red3: bool) -> dict[str, Any]:
    """The game config a view implies (``variant_red3`` is the only option); callers copy."""
    return rules.make_config({"variant_red3": variant_red3})


def sample_state(rules: CornucopiaRules, view: PlayerView, rng: np.random.Generator) -> State:
    """A full :class:`State` showing ``view.seat`` exactly ``view``; hidden parts from ``rng``.

    Reads ``view`` only and shares no mutable object with it. The same view and generator
    state give the same sample. Built field by field (``State.__init__`` would make lists
    only to replace them all) with one shuffle and one integer draw (plus one per hidden
    bet): a few ``clone()``s.
    """
    if not isinstance(view, View):
        raise TypeError(f"expected a cornucopia View, got {type(view).__name__}")
    n = view.num_players
    t = view.turn_player
    bets: list[list[int] | None] = [None if b is None else [b[0], b[1]] for b in view.bets]
    if view.phase == BET:
        # Eligibility was judged on the chips at BID, which stay put until REVEAL.
        order = [s for s in _clockwise(t, n) if _funds(view.chips[s]) >= 1]
        hidden = [s for s in order if view.committed[s] and bets[s] is None]
        bet_index = sum(view.committed)
    else:
        # After REVEAL the bettors are the seats with a bet; before BID and once the game is
        # over there are none (a finished game keeps no turn context).
        order = [s for s in _clockwise(t, n) if bets[s] is not None]
        hidden = []
        bet_index = len(order)
    seed = int(rng.integers(_SEED_BOUND))
    for s in hidden:
        # Hidden: another seat's bet, uniform over the (side, stake) it could have chosen.
        stakes = _legal_stakes(view.chips[s])
        pick = int(rng.integers(2 * len(stakes)))
        bets[s] = [pick % 2, stakes[pick // 2]]

    state = State.__new__(State)
    state.rules = rules
    state.num_players = n
    state.config = dict(_config(rules, view.variant_red3))
    state.variant = view.variant_red3
    # Hidden: the generator of later reshuffles, a fresh uniform seed.
    state.seed = seed
    state.shuffles = 1 + view.exhaustions  # what a dealt game has; any count would do
    # Hidden: the deck order, a uniform permutation of the deck's public composition.
    deck = np.repeat(_TYPES, view.deck_counts)
    rng.shuffle(deck)
    state.deck = deck.tolist()
    state.discard = list(view.discard)
    state.baskets = [list(b) for b in view.baskets]
    state.exhaustions = view.exhaustions
    state.end_pending = view.end_pending
    state.stacks = list(view.stacks)
    state.won = [list(w) for w in view.won]
    state.chips = [list(c) for c in view.chips]
    state.bank = list(view.bank)
    state.start_player = view.start_player
    state.turn_player = t
    state.turn = view.turn
    state.phase = view.phase
    state.bid = view.bid
    state.placed = view.placed
    state.red_used = view.red_used
    state.declared = view.declared
    state.pending = view.pending
    state.bet_order = order
    state.bet_index = bet_index
    state.bets = bets
    state.bets_revealed = view.bets_revealed
    state.end_reason = view.end_reason
    state.log = list(view.log)
    state.last_log = list(view.last_log)
    state._fits = [0] * NUM_BASKETS
    state._status = [0] * NUM_BASKETS
    state._refresh_fits()
    state._deck_counts = list(view.deck_counts)
    state._discard_counts = list(view.discard_counts)
    state._legal = None
    state._mask = None
    return state


def _clockwise(turn_player: int, n: int) -> list[int]:
    """The other seats, clockwise from the turn player's left."""
    return [(turn_player + i) % n for i in range(1, n)]


def _funds(chips: tuple[int, int, int]) -> int:
    """Blue a seat can stake: its blue plus three per yellow (§4.3 DP-2)."""
    return chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW]


def _legal_stakes(chips: tuple[int, int, int]) -> list[int]:
    funds = _funds(chips)
    return [stake for stake in STAKES if stake <= funds]
