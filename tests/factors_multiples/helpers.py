"""Builders for Factors and Multiples positions written the way the spec writes them."""

from __future__ import annotations

from boardgame_envs import make_rules
from boardgame_envs.factors_multiples.data import NUM_CARDS, SPECIAL_RANKS, parse_cards, rank_of
from boardgame_envs.factors_multiples.rules import State

RULES = make_rules("factors_multiples")


def table(
    n: int,
    hands: dict[int, str],
    piles: dict[int, str | tuple[str, int]] | None = None,
    value: int | None = None,
    turn: int = 0,
    k_player: int | None = None,
    **options,
) -> State:
    """A position: ``hands`` {seat: "K♠ 4♦"}, ``piles`` {seat: ("2♥ 6♣", size)} (top first,
    padded to ``size`` with unmentioned cards) or {seat: "2♥"} (exactly those cards).

    Seats without a hand hold 3 unmentioned cards; seats without a pile hold 5 cards.
    Every other card lies in the hidden discard pile.
    """
    piles = piles or {}
    named = {
        card
        for text in list(hands.values())
        + [p if isinstance(p, str) else p[0] for p in piles.values()]
        for card in parse_cards(text)
    }
    # Fillers: unmentioned cards, normal ones first (from Q down), so that fillers in hands
    # never interfere with the A and K rules an example is about.
    unnamed = [c for c in reversed(range(NUM_CARDS)) if c not in named]
    filler = iter(sorted(unnamed, key=lambda c: rank_of(c) in SPECIAL_RANKS))
    hand_lists = [
        parse_cards(hands[s]) if s in hands else [next(filler) for _ in range(3)] for s in range(n)
    ]
    pile_lists = []
    for seat in range(n):
        spec = piles.get(seat, ("", 5))
        top, size = (spec, len(parse_cards(spec))) if isinstance(spec, str) else spec
        cards = parse_cards(top)
        pile_lists.append(cards + [next(filler) for _ in range(size - len(cards))])
    return RULES.position(
        hand_lists, pile_lists, value=value, turn_player=turn, k_player=k_player, **options
    )


def cards(text: str) -> list[int]:
    """Sorted card ids, to compare with a hand."""
    return sorted(parse_cards(text))


def set_turn(state: State, seat: int, value: int | None) -> None:
    """Jump to ``seat``'s turn with ``value`` (what the other players did in between)."""
    state.value = value
    state._begin_turn(seat)
