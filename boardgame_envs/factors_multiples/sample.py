"""Factors and Multiples determinization: a full state consistent with one seat's view.

What a seat cannot see (spec §7), and how :func:`sample_state` draws it from ``rng``:

* **unseen cards** — every card not in the seat's hand, not on the play pile, not among its
  own discards and not a *kept reveal* (below) is unseen. The unseen cards are dealt
  uniformly at random into the unseen places: the other seats' hand slots, every draw pile
  (the seat's own included, in order), the other seats' discards and the ``52 mod n``
  leftovers of the deal, all in the hidden discard pile. Place counts are public: hand and
  pile sizes, the hidden-discard size and each seat's discard count.
* **kept reveals** — a card another seat showed (its start card or its last shown hand) and
  has not played since is still in its hand, unless that seat discarded it after showing:
  each such card goes to a uniformly random slot among that seat's hand slots and its
  discards made after the reveal (so with no discard since, it stays in the hand).
* **the seeds of later rounds** — a fresh uniform match seed, from which the later rounds'
  seeds derive (the finished and current rounds never read it again).

One reachability condition is enforced by rejection: at the start of a turn with every pile
empty, some seat must hold a legal play (else the last turn's end would have ended the round,
spec §4.6). Apart from that, no inference from past moves: a plain uniform deal, as ISMCTS
expects. Everything else is copied from the view.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core.rules import PlayerView
from boardgame_envs.factors_multiples.data import NUM_CARDS
from boardgame_envs.factors_multiples.rules import K_ANSWER, PLAY, State, View

if TYPE_CHECKING:
    from boardgame_envs.factors_multiples.rules import FactorsMultiplesRules

#: Deals tried for the reachability condition before the last one is kept anyway (only a
#: hand-built view with no reachable completion can exhaust it).
_MAX_DEALS = 200


def sample_state(rules: FactorsMultiplesRules, view: PlayerView, rng: np.random.Generator) -> State:
    """A full :class:`State` showing ``view.seat`` exactly ``view``; hidden parts from ``rng``.

    Reads ``view`` only and shares no mutable object with it. The same view and generator
    state give the same sample.
    """
    if not isinstance(view, View):
        raise TypeError(f"expected a factors_multiples View, got {type(view).__name__}")
    n = view.num_players
    seat = view.seat
    state = State(rules, n, dict(view.options), 0)
    state.round = view.round
    state.round_scores = [list(r) for r in view.round_scores]
    state.went_out = list(view.went_out)
    state.play_pile = list(view.play_pile)
    state.value = view.value
    state.phase = view.phase
    state.turn_player = view.turn_player
    state.k_player = view.k_player
    state.start_player = view.start_player
    state.reveals = [list(r) for r in view.reveals]
    state.turns_started = list(view.turns_started)
    state.reveal_marks = [t - a for t, a in zip(view.turns_started, view.reveal_ages)]
    state.reveal_discard_marks = [c - e for c, e in zip(view.discard_counts, view.reveal_discards)]

    # What the seat knows where it is: its hand, its discards, the play pile; and the
    # other seats' revealed cards still unplayed ("kept"), in their hand or later discards.
    known = bytearray(NUM_CARDS)
    for card in view.hand:
        known[card] = 1
    for card in view.own_discards:
        known[card] = 1
    for card, _ in view.play_pile:
        known[card] = 1
    kept: list[list[int]] = [[] for _ in range(n)]
    for s in range(n):
        if s != seat and view.reveals[s]:
            kept[s] = [card for card in view.reveals[s] if not known[card]]
    for cards in kept:
        for card in cards:
            known[card] = 1
    unseen = np.array([card for card in range(NUM_CARDS) if not known[card]], dtype=np.int64)

    others = [s for s in range(n) if s != seat]
    leftovers = view.hidden_discard_size - sum(view.discard_counts)
    places = sum(view.pile_sizes) + leftovers
    # Seats whose kept reveals may have been discarded since: those take random slots.
    mixed = []
    for s in others:
        places += view.hand_sizes[s] + view.discard_counts[s]
        if len(kept[s]) > view.hand_sizes[s] + view.reveal_discards[s]:
            raise ValueError(
                f"inconsistent view: seat {s} keeps {len(kept[s])} revealed cards in "
                f"{view.hand_sizes[s]} hand slots and {view.reveal_discards[s]} later discards"
            )
        if kept[s] and view.reveal_discards[s]:
            mixed.append(s)
    if places != len(unseen) + sum(map(len, kept)) or leftovers < 0:
        raise ValueError(
            f"inconsistent view: {places} unseen places for "
            f"{len(unseen) + sum(map(len, kept))} unseen cards"
        )

    check_reachable = view.phase in (PLAY, K_ANSWER) and not any(view.pile_sizes)
    # Every draw is one block of raw 64-bit words: the match seed, a sort key per unseen card
    # and a sort key per slot of each mixed seat (sorting by iid keys is a uniform permutation).
    draws = 1 + len(unseen) + sum(view.hand_sizes[s] + view.reveal_discards[s] for s in mixed)
    for _ in range(_MAX_DEALS):
        keys = rng.bit_generator.random_raw(draws)
        _deal(state, view, others, kept, mixed, unseen, leftovers, keys)
        if not check_reachable or any(state._legal_plays(s) for s in range(n)):
            break
    return state


def _deal(
    state: State,
    view: View,
    others: list[int],
    kept: list[list[int]],
    mixed: list[int],
    unseen: np.ndarray,
    leftovers: int,
    keys: np.ndarray,
) -> None:
    """Deal the unseen cards (and each seat's kept reveals) into the unseen places."""
    state.seed = int(keys[0]) >> 1  # 63 bits, like every match seed
    end = 1 + len(unseen)
    pool = unseen[keys[1:end].argsort()].tolist()
    i = 0  # next card of the pool
    hands = [[] for _ in range(view.num_players)]
    hands[view.seat] = list(view.hand)
    discards = [[] for _ in range(view.num_players)]
    discards[view.seat] = list(view.own_discards)
    for s in others:
        size, after = view.hand_sizes[s], view.reveal_discards[s]
        before = view.discard_counts[s] - after
        early = pool[i : i + before]
        i += before
        if s in mixed:
            slots: list[int | None] = [None] * (size + after)
            order = keys[end : end + size + after].argsort().tolist()
            end += size + after
            for card, slot in zip(kept[s], order):
                slots[slot] = card
            for slot, card in enumerate(slots):
                if card is None:
                    slots[slot] = pool[i]
                    i += 1
            hand, late = slots[:size], slots[size:]
        else:
            fill = size - len(kept[s])
            hand, late = kept[s] + pool[i : i + fill], pool[i + fill : i + fill + after]
            i += fill + after
        hand.sort()
        hands[s] = hand
        discards[s] = early + late
    piles = []
    for size in view.pile_sizes:
        piles.append(pool[i : i + size])
        i += size
    state.hands = hands
    state.own_discards = discards
    state.piles = piles
    state.hidden_discard = pool[i : i + leftovers] + [c for d in discards for c in d]
    state._mask = None
