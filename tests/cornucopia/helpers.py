"""Builders for Cornucopia positions written the way the spec writes them."""

from __future__ import annotations

from boardgame_envs import make_rules
from boardgame_envs.cornucopia.data import BID_COPIES, START_CHIPS, parse_crops
from boardgame_envs.cornucopia.rules import (
    FORFEIT,
    REDRAW,
    State,
    bet_action,
    bid_action,
    declare_action,
    place_action,
)

#: The Python engine (the reference); tests that use the ``engine`` fixture (conftest.py) see
#: the native engine here too, where it is built.
RULES = make_rules("cornucopia", engine="python")
#: The baskets of spec Examples 2 and 4.
EXAMPLE_2 = ("C T", "P P", "W G", "C T E W", "W* C")
NO_SIDE = {"YES": 0, "NO": 1}


def table(
    baskets: tuple[str, ...] | list[str],
    n: int = 2,
    chips: dict[int, tuple[int, int, int]] | None = None,
    deck: str = "",
    turn: int = 0,
    stacks: dict[int, int] | None = None,
    won: dict[int, str] | None = None,
    deck_size: int | None = None,
    exhaustions: int = 0,
    **options,
) -> State:
    """A position at the start of seat ``turn``'s turn.

    ``baskets``: five strings like ``"C T"`` and ``"W* C"``; ``chips``: {seat: (y, b, r)}
    (others hold the start chips (0, 3, 2)); ``deck``: the next cards drawn, first first;
    ``won``: {seat: "2 3 3"}; ``stacks``: {number: cards}, for a number whose stack holds
    other than its copies less the cards in ``won`` (the difference is given to the seat
    after ``turn``).
    """
    chips = chips or {}
    won_lists = [[int(x) for x in (won or {}).get(s, "").split()] for s in range(n)]
    stack_sizes = [c - sum(w.count(i + 1) for w in won_lists) for i, c in enumerate(BID_COPIES)]
    for number, cards in (stacks or {}).items():
        stack_sizes[number - 1] = cards
    # Bid cards out of their stacks but in nobody's hand go to a bystander.
    bystander = (turn + 1) % n
    for i, copies in enumerate(BID_COPIES):
        missing = copies - stack_sizes[i] - sum(w.count(i + 1) for w in won_lists)
        won_lists[bystander] += [i + 1] * missing
    return RULES.position(
        baskets=[parse_crops(b) for b in baskets],
        chips=[chips.get(s, START_CHIPS) for s in range(n)],
        turn_player=turn,
        deck_top=parse_crops(deck),
        deck_size=deck_size,
        stacks=stack_sizes,
        won=won_lists,
        exhaustions=exhaustions,
        **options,
    )


def crops(text: str) -> list[int]:
    return parse_crops(text)


def bid(state: State, number: int) -> None:
    state.apply(bid_action(number))


def bet(state: State, side: str, stake: int) -> None:
    state.apply(bet_action(NO_SIDE[side], stake))


def place(state: State, basket: int) -> None:
    state.apply(place_action(basket))


def redraw(state: State) -> None:
    state.apply(REDRAW)


def forfeit(state: State) -> None:
    state.apply(FORFEIT)


def declare(state: State, count: int) -> None:
    state.apply(declare_action(count))


def legal_places(state: State) -> list[int]:
    """Baskets the pending card may go to (PLACE indices minus their base)."""
    return [a - place_action(0) for a in state.legal_actions() if a < REDRAW and a >= 12]
