"""Builders for Wasabi! positions written the way the spec writes them.

Cells are ``(r, c)`` tuples, ingredients and cards their names, recipes their codes or
names: ``table(2, board={(2, 3): "Salmon", (3, 1): "Tuna Salmon"}, hands={0: "Rice Tuna"},
menus={0: ["R2-01", "Kappa Maki"]})`` (a stack is written bottom first).

Scenario tests run on both engines: with ``ENGINE = "native"`` (set by the ``engine``
fixture of ``tests/wasabi/conftest.py``) ``table`` returns a :class:`Twin`, the built
position and its native copy moved in lockstep.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs import InvalidStateError, make_rules
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

RULES = make_rules("wasabi", engine="python")  # built positions edit Python fields
#: The engine ``table`` builds for: "python", or "native" for a :class:`Twin`.
ENGINE = "python"


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
    state = RULES.position(
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
    return Twin(state) if ENGINE == "native" else state


class Twin:
    """A Python position and its native copy, moved together: what a scenario test reads
    comes from the Python state; every ``apply`` is made on both (the same error, if any),
    after which the two positions must agree on everything the contract shows (snapshot,
    mask, every seat's observation and view; at the end scores, winners and returns); the
    contract's answers (``CHECKED``) are asked of both and must be equal. Fields a test
    edits on the Python state are copied to the native one before its next move."""

    CHECKED = frozenset(
        {"legal_actions", "legal_action_mask", "is_terminal", "scores", "winners", "returns"}
    )

    def __init__(self, python: State, native: Any = None) -> None:
        from tests.native.lockstep import engines

        object.__setattr__(self, "_python", python)
        if native is None:
            native = engines("wasabi")[1].from_reference(python)
        object.__setattr__(self, "_native", native)

    def _sync(self) -> None:
        from tests.native.lockstep import snapshot_text

        native = self._native
        if native is None or snapshot_text(native) == snapshot_text(self._python):
            return
        try:
            native = native.rules.from_dict(self._python.to_dict())
        except InvalidStateError:
            # The test edited a position no play reaches (e.g. a tile under a Wasabi!
            # card): the native engine refuses it, and the scenario goes on in Python.
            native = None
        object.__setattr__(self, "_native", native)

    def apply(self, action: Any) -> None:
        from tests.native.lockstep import assert_same_position

        self._sync()
        if self._native is None:
            self._python.apply(action)
            return
        outcomes = []
        for state in (self._python, self._native):
            try:
                state.apply(action)
                outcomes.append(None)
            except Exception as error:  # noqa: BLE001 - compared, then raised again
                outcomes.append(error)
        python_error, native_error = outcomes
        assert type(native_error) is type(python_error) and str(native_error) == str(python_error)
        assert_same_position(self._python, self._native)
        if python_error is not None:
            raise python_error

    def view(self, seat: Any) -> Any:
        from tests.native.lockstep import assert_same_view

        self._sync()
        view = self._python.view(seat)
        if self._native is not None:
            assert_same_view(view, self._native.view(seat))
        return view

    def clone(self) -> Twin:
        self._sync()
        native = None if self._native is None else self._native.clone()
        other = Twin.__new__(Twin)
        object.__setattr__(other, "_python", self._python.clone())
        object.__setattr__(other, "_native", native)
        return other

    @property
    def current_player(self) -> int:
        self._sync()
        if self._native is not None:
            assert self._native.current_player == self._python.current_player
        return self._python.current_player

    def __getattr__(self, name: str) -> Any:
        if name not in self.CHECKED:
            return getattr(self._python, name)

        def both(*args: Any) -> Any:
            self._sync()
            expected = getattr(self._python, name)(*args)
            if self._native is None:
                return expected
            got = getattr(self._native, name)(*args)
            if isinstance(expected, np.ndarray):
                assert got.tobytes() == expected.tobytes(), name
            else:
                assert got == expected, name
            return expected

        return both

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self._python, name, value)


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
