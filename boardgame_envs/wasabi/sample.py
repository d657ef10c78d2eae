"""Wasabi!: determinization, a full state drawn from what one seat knows (spec §7).

:func:`sample_state` rebuilds a :class:`~.rules.State` from a :class:`~.rules.View` alone.
The board, the pantry, the kitchen, the tokens, completed recipes, cubes, the turn context
(pending kind where shown, Switch!/Chop! selection, lifted tile, marks, picks, the card just
picked),
the deck sizes, the length of every recipe held, the seat's own menu and hand, and the
options are public to the seat and copied as they are. What it cannot see is drawn from
``rng``, uniformly among the arrangements that fit the view (a plain deal of the unseen
components into the unseen places, no inference from the other seats' past moves):

* the recipes: per length, the strips in no deck the seat can account for (not in its own
  menu, not completed by anybody) are shuffled and dealt to the other seats' menu slots of
  that length (seat order, slot order), the rest making the deck, top first;
* under ``hide_opponent_hands``, the other seats' tiles and cards: the tiles in no public
  place (pantry, board, the lifted tile) and not in the seat's hand, and the cards likewise
  (kitchen, Wasabi! cards on the board), are dealt to the hidden hands by their public
  sizes, after setting aside what the view pins down:

  - during the setup the left neighbour holds exactly the seat's own gift (``gift_given``)
    and the current receiver holds the gift in progress (``gift``); every other hand is one
    whole gift, so it holds three different kinds (a deal breaking that is drawn again);
  - at WASABI_ANCHOR the mover holds the Wasabi! card it plays; at REWARD_DISCARD the
    card it just picked (``new_card``);
  - at PLACE_TARGET another seat's chosen kind is not in the view (the tile is still behind
    the mover's screen): it is drawn first, uniformly among the kinds of the unseen tiles
    (those the mover could hold), and the mover holds it; the rest is dealt as above.

The seat's knowledge of the strips it discarded to the bottom of a deck is not in the view
(the engine does not record who discarded what), so the whole deck order is drawn.

Speed: where each unseen component may go depends on the view only, so that *plan* is
memoised by the facts it reads (an ISMCTS search samples one view many times); a sample is
then one generator call, one ``argsort`` (every part sorted by (part, key) is each part in
uniform random order) and the deal. Built field by field rather than through
``State.__init__``: the tuples the view shares are immutable (the state is copy-on-write),
so the sample shares them too; the decks and the config, the only mutable parts of a
state, are its own.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from boardgame_envs.core.rules import InvalidStateError
from boardgame_envs.wasabi.data import (
    CARDS_IN_PLAY,
    DECK_RECIPES,
    LENGTHS,
    NUM_CARD_TYPES,
    NUM_KINDS,
    TILE_COUNTS,
    WASABI,
)
from boardgame_envs.wasabi.rules import (
    DRAFT_PICK,
    GIFT_PICK,
    PLACE_TARGET,
    REWARD_DISCARD,
    WASABI_ANCHOR,
    State,
    View,
    WasabiRules,
)

_SETUP = (GIFT_PICK, DRAFT_PICK)

#: (seat, what the view pins in its hand per kind or type, start, end of its part of the
#: shuffled pool) for each hidden hand.
_Deal = tuple[tuple[int, tuple[int, ...], int, int], ...]
_MenuPick = Callable[[list[int | None]], tuple[int | None, ...]]


class _Plan(NamedTuple):
    """Where the unseen components of one view go, the same for every sample of it."""

    pool: np.ndarray  # the unseen recipes (by length), then tiles, then cards
    part: np.ndarray  # float: each one's part (length 0..3, tiles 4, cards 5), for the sort
    #: Per seat: None for the seat itself, else a getter of its menu from the shuffled
    #: pool (index len(pool) reads None: an empty slot).
    menu_picks: tuple[_MenuPick | None, ...]
    deck_bounds: tuple[tuple[int, int], ...]  # per length: the deck's part of the pool
    tile_deal: _Deal  # empty unless hide_opponent_hands
    card_deal: _Deal
    distinct: bool  # a setup deal: no hidden hand may hold two tiles of one kind
    #: At PLACE_TARGET under hidden hands, for another seat's view: the kinds the mover's
    #: hidden choice can be (one is drawn, then the plan for it is used); else empty.
    kind_choices: tuple[int, ...]


_PLANS: dict[tuple, _Plan] = {}


def sample_state(rules: WasabiRules, view: View, rng: np.random.Generator) -> State:
    """A full state consistent with ``view``, its hidden parts drawn from ``rng``."""
    plan = _plan(view)
    kind = view.kind
    if plan.kind_choices:  # the kind the mover chose is hidden from this seat: draw it
        kind = plan.kind_choices[int(rng.integers(len(plan.kind_choices)))]
        plan = _plan(view, kind)
    pool = plan.pool
    perm = pool[np.argsort(plan.part + rng.random(len(pool)))].tolist()
    perm.append(None)  # what an empty menu slot reads
    menus = tuple([view.menu if pick is None else pick(perm) for pick in plan.menu_picks])
    decks = [perm[a:b] for a, b in plan.deck_bounds]
    tiles, cards = view.tiles, view.cards
    hidden = view.hide_opponent_hands
    if hidden:
        tiles = _hands(tiles, plan.tile_deal, perm)
        if plan.distinct:
            tiles = _redeal_distinct(tiles, plan, rng)
        cards = _hands(cards, plan.card_deal, perm)

    state = object.__new__(State)
    vars(state).update(
        {
            "rules": rules,
            "num_players": view.num_players,
            "config": {
                "style_either_direction": view.style_either_direction,
                "gift_excludes_maki": view.gift_excludes_maki,
                "hide_opponent_hands": hidden,
                "max_turns": view.max_turns,
                "start_player": view.start_player_option,
            },
            "columns": view.columns,
            "stacks": view.stacks,
            "anchors": view.anchors,
            "pantry": view.pantry,
            "kitchen": view.kitchen,
            "decks": decks,
            "tiles": tiles,
            "cards": cards,
            "menus": menus,
            "tokens": view.tokens,
            "completed": view.completed,
            "cubes": view.cubes,
            "start_player": view.start_player,
            "active": view.active,
            "phase": view.phase,
            "turn": view.turn,
            "winner": view.winner,
            "gift": view.gift,
            "card_used": view.card_used,
            "card_before": view.card_before,
            "stack_on": view.stack_on,
            "placements_left": view.placements_left,
            "must_place": view.must_place,
            "kind": kind,
            "selected": view.selected,
            "lifted": view.lifted,
            "marked": view.marked,
            "picks": view.picks,
            "new_card": view.new_card,
            "_derived": (),
            "_held_memo": (),
            "_mask": None,
        }
    )
    return state


def _hands(shown: tuple, deal: _Deal, perm: list) -> tuple[tuple[int, ...], ...]:
    """The hands per seat: the shown ones as they are, each hidden one its pinned part
    plus its slice of the shuffled pool."""
    hands = list(shown)
    for s, pinned, a, b in deal:
        hand = list(pinned)
        for k in perm[a:b]:
            hand[k] += 1
        hands[s] = tuple(hand)
    return tuple(hands)


def _redeal_distinct(
    tiles: tuple[tuple[int, ...], ...], plan: _Plan, rng: np.random.Generator
) -> tuple[tuple[int, ...], ...]:
    """A setup deal again until no hidden hand holds two tiles of one kind: a uniform deal
    conditioned on each hand being one gift (the true hands show that one exists)."""
    deal = plan.tile_deal
    if not deal:
        return tiles
    start, end = deal[0][2], deal[-1][3]
    segment = plan.pool[start:end]
    while any(max(tiles[s]) > 1 for s, _, _, _ in deal):
        perm = [0] * start + segment[rng.permutation(end - start)].tolist()
        tiles = _hands(tiles, deal, perm)
    return tiles


def _plan(view: View, kind: int | None = None) -> _Plan:
    """The plan for ``view`` (and ``kind``, a drawn hidden kind the mover holds), memoised
    by the facts it reads."""
    key: tuple = (view.seat, view.menu, view.completed, view.menu_lengths, view.deck_sizes)
    if view.hide_opponent_hands:
        key += (
            view.phase,
            view.active,
            view.kind,
            view.gift,
            view.gift_given,
            view.lifted,
            view.new_card,
            view.pantry,
            view.kitchen,
            view.anchors,
            view.stacks,
            view.tiles[view.seat],
            view.cards[view.seat],
            view.tiles_held,
            view.cards_held,
            kind,
        )
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        plan = _PLANS[key] = _make_plan(view, kind)
    return plan


def _make_plan(view: View, kind: int | None) -> _Plan:
    seat = view.seat
    known = {r for r in view.menu if r is not None}
    for done in view.completed:
        known.update(r for r, _ in done)
    parts = [[r for r in deck if r not in known] for deck in DECK_RECIPES]
    offsets = [0]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    taken = [0] * len(LENGTHS)
    places: list[list[int] | None] = []  # per seat: pool index per slot, -1: empty
    for s, lengths in enumerate(view.menu_lengths):
        if s == seat:
            places.append(None)
            continue
        where = []
        for length in lengths:
            if length:
                i = length - 2
                where.append(offsets[i] + taken[i])
                taken[i] += 1
            else:
                where.append(-1)
        places.append(where)
    for i, part in enumerate(parts):
        if len(part) != taken[i] + view.deck_sizes[i]:
            raise InvalidStateError(
                f"view of seat {seat}: {len(part)} unseen length-{LENGTHS[i]} recipes for "
                f"{taken[i]} menu slots and a deck of {view.deck_sizes[i]}"
            )
    deck_bounds = tuple((offsets[i] + taken[i], offsets[i + 1]) for i in range(len(parts)))
    tile_deal: _Deal = ()
    card_deal: _Deal = ()
    kind_choices: tuple[int, ...] = ()
    if view.hide_opponent_hands:
        others = [s for s in range(view.num_players) if s != seat]
        pins = _tile_pins(view, others, kind)
        tile_part, tile_deal = _hand_deal(pins, offsets[-1], "tiles", view)
        hidden_kind = view.phase == PLACE_TARGET and view.active != seat and view.kind is None
        if hidden_kind and kind is None:
            kind_choices = tuple(sorted(set(tile_part)))
            if not kind_choices:
                raise InvalidStateError(f"view of seat {seat}: no unseen tile to be placed")
        card_part, card_deal = _hand_deal(
            _card_pins(view, others), offsets[-1] + len(tile_part), "cards", view
        )
        parts += [tile_part, card_part]
    end = sum(map(len, parts))  # the index of the None after the shuffled pool
    picks = tuple(
        None if where is None else operator.itemgetter(*[end if i < 0 else i for i in where])
        for where in places
    )
    return _Plan(
        np.array([x for part in parts for x in part], dtype=np.int64),
        np.array([i for i, part in enumerate(parts) for _ in part], dtype=np.float64),
        picks,
        deck_bounds,
        tile_deal,
        card_deal,
        view.hide_opponent_hands and view.phase in _SETUP,
        kind_choices,
    )


_Pins = tuple[list[int], dict[int, list[int]], dict[int, int]]


def _tile_pins(view: View, others: list[int], kind: int | None) -> _Pins:
    """(the unseen tiles per kind, what each hidden hand is known to hold per kind, how
    many more it holds) under ``hide_opponent_hands``; ``kind``: the drawn kind the mover
    chose at PLACE_TARGET (the view hides it from the other seats)."""
    seat, phase = view.seat, view.phase
    unseen = [TILE_COUNTS[k] - view.pantry[k] - view.tiles[seat][k] for k in range(NUM_KINDS)]
    for stack in view.stacks:
        for k in stack:
            unseen[k] -= 1
    if view.lifted is not None:
        unseen[view.lifted] -= 1
    hands = {s: [0] * NUM_KINDS for s in others}
    free = {s: view.tiles_held[s] for s in others}
    pinned: list[tuple[int, int]] = []  # (seat, kind): a tile the view puts in that hand
    if phase in _SETUP:
        left = (seat + 1) % view.num_players
        if view.gift_given is None:
            raise InvalidStateError(f"setup view of seat {seat} without gift_given")
        for k, count in enumerate(view.gift_given):
            pinned += [(left, k)] * count
        receiver = (view.active + 1) % view.num_players
        if phase == GIFT_PICK and receiver != seat and receiver != left:
            pinned += [(receiver, k) for k in view.gift]
    elif phase == PLACE_TARGET and view.active != seat and kind is not None:
        pinned.append((view.active, kind))
    for s, k in pinned:
        hands[s][k] += 1
        free[s] -= 1
        unseen[k] -= 1
    return unseen, hands, free


def _card_pins(view: View, others: list[int]) -> _Pins:
    """The same for the action cards: a Wasabi! card being laid (WASABI_ANCHOR) and a card
    just picked (REWARD_DISCARD) are in the mover's hand."""
    seat, active = view.seat, view.active
    in_play = CARDS_IN_PLAY[view.num_players]
    unseen = [in_play[t] - view.kitchen[t] - view.cards[seat][t] for t in range(NUM_CARD_TYPES)]
    unseen[WASABI] -= len(view.anchors)
    hands = {s: [0] * NUM_CARD_TYPES for s in others}
    free = {s: view.cards_held[s] for s in others}
    pinned = None
    if active != seat:
        if view.phase == WASABI_ANCHOR:
            pinned = WASABI
        elif view.phase == REWARD_DISCARD and view.new_card is not None:
            pinned = view.new_card
    if pinned is not None:
        hands[active][pinned] += 1
        free[active] -= 1
        unseen[pinned] -= 1
    return unseen, hands, free


def _hand_deal(pins: _Pins, start: int, what: str, view: View) -> tuple[list[int], _Deal]:
    """(the unseen components as ids, the deal of the hidden hands from ``start`` on)."""
    unseen, hands, free = pins
    if min(unseen) < 0 or min(free.values(), default=0) < 0 or sum(unseen) != sum(free.values()):
        raise InvalidStateError(
            f"view of seat {view.seat}: unseen {what} {unseen} do not fill hidden hands {free}"
        )
    deal = []
    at = start
    for s, count in free.items():
        deal.append((s, tuple(hands[s]), at, at + count))
        at += count
    return [k for k, count in enumerate(unseen) for _ in range(count)], tuple(deal)
