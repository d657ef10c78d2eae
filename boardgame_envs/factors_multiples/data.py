"""The deck of Factors and Multiples: 52 French-suited cards, no jokers.

Card ids: ``card = 4 * rank + suit`` with

* rank index ``k``: A=0, 2=1, 3=2, … 10=9, J=10, Q=11, K=12 (``k = nominal number - 1``);
* suit index: ♣=0, ♦=1, ♥=2, ♠=3 (the start-player tie-break order, low to high).

Everything here is from the spec (§2); nothing is STAND-IN.
"""

from __future__ import annotations

NUM_RANKS = 13
NUM_SUITS = 4
NUM_CARDS = NUM_RANKS * NUM_SUITS
HAND_LIMIT = 3

RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_LETTERS = ("c", "d", "h", "s")  # ASCII spelling accepted by parse_cards

ACE, SEVEN, JACK, KING = 0, 6, 10, 12
SPECIAL_RANKS = frozenset({ACE, SEVEN, JACK, KING})
NORMAL_RANKS = tuple(k for k in range(NUM_RANKS) if k not in SPECIAL_RANKS)

#: Values the current value can take (``None`` stands for the undetermined ``*``).
VALUES = tuple(range(2, 13))


def rank_of(card: int) -> int:
    return card // NUM_SUITS


def suit_of(card: int) -> int:
    return card % NUM_SUITS


def nominal(rank: int) -> int:
    """A=1 … K=13; only a normal card's nominal number ever becomes the value."""
    return rank + 1


def follows(rank: int, value: int | None) -> bool:
    """Whether normal ``rank`` may be played on ``value``: a factor or a multiple (§2.4)."""
    if value is None:
        return True
    number = nominal(rank)
    return value % number == 0 or number % value == 0


def j_step(value: int, direction: int) -> int:
    """One step around the ring 2-3-…-12-2 (§2.5); ``direction`` is +1 or -1."""
    return (value - 2 + direction) % len(VALUES) + 2


def strength(card: int) -> int:
    """Start-player comparison (§3.2): rank A > K > … > 2, then suit ♠ > ♥ > ♦ > ♣."""
    rank_order = (rank_of(card) - 1) % NUM_RANKS  # 2→0 … K→11, A→12
    return NUM_SUITS * rank_order + suit_of(card)


def card_name(card: int) -> str:
    return RANK_NAMES[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def parse_card(text: str) -> int:
    """``"K♠"``, ``"10h"`` or ``"Qd"`` → card id."""
    text = text.strip()
    rank_text, suit_text = text[:-1].upper(), text[-1]
    if rank_text == "T":
        rank_text = "10"
    if rank_text not in RANK_NAMES or (
        suit_text not in SUIT_SYMBOLS and suit_text.lower() not in SUIT_LETTERS
    ):
        raise ValueError(
            f"not a card: {text!r}; write a rank A,2..10,J,Q,K and a suit ♣♦♥♠ or cdhs"
        )
    suit = (
        SUIT_SYMBOLS.index(suit_text)
        if suit_text in SUIT_SYMBOLS
        else SUIT_LETTERS.index(suit_text.lower())
    )
    return NUM_SUITS * RANK_NAMES.index(rank_text) + suit


def parse_cards(text: str) -> list[int]:
    """``"K♠ 4♦ 9♣"`` → card ids, in the order written."""
    return [parse_card(word) for word in text.split()]
