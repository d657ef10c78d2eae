"""Factors and Multiples on the compiled engine (``boardgame_envs._native``).

``make_rules("factors_multiples", engine="native")`` gives :class:`Rules`: the Python engine's
rules (:mod:`.rules`, the reference) with the position, moves, snapshots and observations of
``FactorsMultiplesState``, equal to the reference bit for bit (``tests/native``). Views are the
reference's :class:`~.rules.View` class, built from the compiled position in one call.

What code reads on the Python engine's states beyond the contract (``hands``, ``piles``,
``value``, ``phase``, …, and ``rules.position`` for hand-built positions) is answered here from
the snapshot or built on the reference engine and loaded natively.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView
from boardgame_envs.factors_multiples import rules as reference
from boardgame_envs.factors_multiples.rules import match_seed
from boardgame_envs.factors_multiples.snapshot import FIELDS


class View(NativeView, reference.View):
    """The reference view of a seat, its observation encoded by the compiled engine."""

    __slots__ = ("_source",)


class _DescribeContext(NamedTuple):
    """What ``reference.State.describe_action`` reads of a state."""

    phase: str
    value: int | None


class State(NativeState):
    """One position of a Factors and Multiples match on the compiled engine."""

    view_class = View
    no_actions = reference._NO_ACTIONS
    #: Fresh copies (editing one changes nothing), built on each read (not for hot paths);
    #: ``config`` and ``play_pile`` are properties below.
    snapshot_attributes = {
        name: name for name in FIELDS if name not in ("game", "version", "num_players")
    }

    def _view_fields(self, seat: int, mask: np.ndarray) -> tuple:
        return self._native.view_fields(seat, mask)

    def _snapshot_field(self, key: str) -> Any:
        return self._native.snapshot_field(key)  # that field alone, not the whole snapshot

    # -- the Python engine's fields, read from the snapshot ------------------------------
    @property
    def config(self) -> dict[str, Any]:
        return self._native.snapshot_field("config")

    @property
    def play_pile(self) -> list[tuple[int, int]]:
        return [(card, seat) for card, seat in self._native.snapshot_field("play_pile")]

    def total(self, seat: int) -> int:
        """Cards ``seat`` still has to shed: hand + own pile."""
        seat = self._check_seat(seat)
        native = self._native
        return len(native.snapshot_field("hands")[seat]) + len(native.snapshot_field("piles")[seat])

    def card_zones(self) -> list[int]:
        """Every card id in some zone (hands, piles, play pile, hidden discard)."""
        data = self._native.to_dict()
        return (
            [c for h in data["hands"] for c in h]
            + [c for p in data["piles"] for c in p]
            + [c for c, _ in data["play_pile"]]
            + data["hidden_discard"]
        )

    def describe_action(self, action: int) -> str:
        # The reference's words, from the two facts they read (not through a snapshot: a
        # hand-built position may be one that snapshots refuse).
        native = self._native
        context = _DescribeContext(native.phase_name(), native.snapshot_field("value"))
        return reference.State.describe_action(context, action)  # type: ignore[arg-type]


class Rules(NativeRules, reference.FactorsMultiplesRules):
    """Factors and Multiples on the compiled engine (the reference's name, options, phases,
    encoding and renderer)."""

    native_class_name = "FactorsMultiplesState"
    state_class = State

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        native = self.native_class.new_state(
            num_players,
            match_seed(seed),
            config["rounds"],
            config["start_draw"],
            config["a_needs_discard"],
            config["k_discard_optional"],
            config["choose_after_refill"],
        )
        return self.wrap(native)

    def position(self, *args: Any, **kwargs: Any) -> State:
        """A mid-round position for tests and notebooks (the reference's ``position``, with
        its arguments and checks), on the compiled engine."""
        return self.from_position(self.reference.position(*args, **kwargs))

    def from_position(self, state: reference.State) -> State:
        """The native copy of a reference state that may be hand-built: a position play
        cannot reach (a 4-card hand never shown, say), which snapshots refuse. The compiled
        engine still checks everything it relies on."""
        return self.wrap(self.native_class.from_dict(state.to_dict(), strict=False))
