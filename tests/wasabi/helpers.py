"""Builders for Wasabi! positions written the way the spec writes them.

Cells are ``(r, c)`` tuples, ingredients and cards their names, recipes their codes or
names: ``table(2, board={(2, 3): "Salmon", (3, 1): "Tuna Salmon"}, hands={0: "Rice Tuna"},
menus={0: ["R2-01", "Kappa Maki"]})`` (a stack is written bottom first).
"""

from __future__ import annotations

from boardgame_envs import make_rules
from boardgame_envs.wasabi.data import (
    DECK_RECIPES,
    LENGTHS,
    card_type,
    kind_id,
    recipe_id,
)
from boardgame_envs.wasabi.rules import (
    CARD_BASE,
    KIND_BASE,
    LENGTH_BASE,
    SLOT_BASE,
    State,
    cell_action,
)

RULES = make_rules("wasabi")


def cell(rc: tuple[int, int]) -> int:
    return rc[0] * 7 + rc[1]


def kinds(text: str) -> list[int]:
    return [kind_id(word) for word in text.split()]


def table(
    n: int,
    board: dict[tuple[int, int], str] | None = None,
    hands: dict[int, str] | None = None,
    cards: dict[int, str] | None = None,
    menus: dict[int, list[str | None]] | None = None,
    completed: dict[int, list[str | tuple[str, bool]]] | None = None,
    completed_lengths: dict[int, list[int]] | None = None,
    anchors: list[tuple[int, int]] = (),
    cubes: dict[int, int] | None = None,
    active: int = 0,
    **options,
) -> State:
    """A position at the start of ``active``'s turn.

    ``completed`` names recipes (or ``(name, ideal)``); ``completed_lengths`` {seat:
    [2, 2, 3, …]} completes that many recipes of each length, taken from recipes nobody
    else uses (none of them ideal).
    """
    named_menus = {
        seat: [None if r is None else recipe_id(r) for r in menu]
        for seat, menu in (menus or {}).items()
    }
    done: dict[int, list[tuple[int, bool]]] = {}
    for seat, items in (completed or {}).items():
        done[seat] = [
            (recipe_id(item), False) if isinstance(item, str) else (recipe_id(item[0]), item[1])
            for item in items
        ]
    used = {r for m in named_menus.values() for r in m if r is not None}
    used |= {r for items in done.values() for r, _ in items}
    for seat, lengths in (completed_lengths or {}).items():
        for length in lengths:
            r = next(r for r in DECK_RECIPES[length - 2] if r not in used)
            used.add(r)
            done.setdefault(seat, []).append((r, False))
    return RULES.position(
        n,
        board={cell(rc): kinds(text) for rc, text in (board or {}).items()},
        anchors=[cell(rc) for rc in anchors],
        tiles={seat: kinds(text) for seat, text in (hands or {}).items()},
        cards={seat: [card_type(w) for w in text.split()] for seat, text in (cards or {}).items()},
        menus=named_menus,
        completed=done,
        cubes=cubes,
        active=active,
        **options,
    )


def put_on_top(state: State, recipe: str) -> None:
    """Move ``recipe`` to the top of its deck (what the shuffle happened to give)."""
    r = recipe_id(recipe)
    for deck in state.decks:
        if r in deck:
            deck.remove(r)
            deck.insert(0, r)
            return
    raise ValueError(f"{recipe} is in no deck")


def tops(state: State) -> dict[tuple[int, int], str]:
    """The board's top tiles by name, for readable asserts."""
    from boardgame_envs.wasabi.data import KIND_NAMES

    return {(c // 7, c % 7): KIND_NAMES[stack[-1]] for c, stack in enumerate(state.stacks) if stack}


def KIND(name: str) -> int:  # noqa: N802 - written as the spec writes actions
    return KIND_BASE + kind_id(name)


def CARD(name: str) -> int:  # noqa: N802
    return CARD_BASE + card_type(name)


def CELL(r: int, c: int) -> int:  # noqa: N802
    return cell_action(r, c)


def LENGTH(length: int) -> int:  # noqa: N802
    assert length in LENGTHS
    return LENGTH_BASE + length - 2


def SLOT(i: int) -> int:  # noqa: N802
    return SLOT_BASE + i
