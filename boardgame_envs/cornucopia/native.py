"""Cornucopia on the compiled engine (``boardgame_envs._native``).

``make_rules("cornucopia", engine="native")`` gives :class:`Rules`: the Python engine's rules
(:mod:`.rules`, the reference) with the position, moves, snapshots, observations and
playouts of ``CornucopiaState``, equal to the reference bit for bit (``tests/native``). Views
are the reference's :class:`~.rules.View` class, built from the compiled position in one call.

What code reads on the Python engine's states beyond the contract (``chips``, ``baskets``,
``phase``, …, ``score_breakdown()``, and ``rules.position`` for hand-built positions) is
answered here from the snapshot or built on the reference engine and loaded natively: none
of it is on a hot path.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.cornucopia import rules as reference
from boardgame_envs.cornucopia.data import BLUE

#: The native engine keeps a game's seed in 128 bits.
SEED_LIMIT = 2**128

#: The mask of a seat that is not to decide (shared, read-only; views hand out copies).
_NO_ACTIONS = np.zeros(reference.NUM_ACTIONS, dtype=bool)
_NO_ACTIONS.flags.writeable = False

#: Where ``mask`` goes among the view fields the compiled engine returns (after ``seat``).
_MASK_AT = [f.name for f in reference.View.__dataclass_fields__.values()].index("mask") - 2


class View(NativeView, reference.View):
    """The reference view of a seat, its observation encoded by the compiled engine."""

    __slots__ = ("_source",)


class State(NativeState):
    """One position of a Cornucopia game on the compiled engine."""

    view_class = View
    no_actions = _NO_ACTIONS
    snapshot_attributes = {
        name: name
        for name in reference.SNAPSHOT_FIELDS
        if name not in ("game", "version", "num_players")
    }

    def _view_fields(self, seat: int, mask: np.ndarray) -> tuple:
        fields = self._native.view_fields(seat)
        return (seat, *fields[:_MASK_AT], mask, *fields[_MASK_AT:])

    @property
    def variant(self) -> bool:
        return self._native.to_dict()["config"]["variant_red3"]

    def score_breakdown(self) -> list[tuple[int, int, int]]:
        return self.to_reference().score_breakdown()

    def card_zones(self) -> list[int]:
        """Every crop card (W* included) in some zone: 66 in all, 11 of each type."""
        data = self._native.to_dict()
        pending = [] if data["pending"] is None else [data["pending"]]
        return data["deck"] + data["discard"] + [c for b in data["baskets"] for c in b] + pending

    def chip_totals(self) -> list[int]:
        """Per colour: chips in hands + stakes on bet cards + bank balance (constant)."""
        data = self._native.to_dict()
        escrow = [0, 0, 0]
        if data["bets_revealed"]:
            escrow[BLUE] = sum(data["bets"][s][1] for s in data["bet_order"])
        return [
            sum(c[colour] for c in data["chips"]) + escrow[colour] + data["bank"][colour]
            for colour in range(3)
        ]


class Rules(NativeRules, reference.CornucopiaRules):
    """Cornucopia on the compiled engine (the reference's name, options, phases, encoding
    and renderer)."""

    native_class_name = "CornucopiaState"
    state_class = State

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        if seed is None:  # as the reference draws it
            seed = int(np.random.default_rng().integers(2**63))
        if not 0 <= seed < SEED_LIMIT:
            raise InvalidConfigError(
                f"seed={seed!r} is not allowed on the native engine; allowed: None or an "
                f"int 0 to 2**128 - 1 (engine='python' takes any int >= 0)"
            )
        native = self.native_class.new_state(num_players, int(seed), config["variant_red3"])
        return self.wrap(native)

    def position(self, *args: Any, **kwargs: Any) -> State:
        """A position at the start of a turn (see the reference's ``position``), on the
        compiled engine."""
        return self.from_reference(self.reference.position(*args, **kwargs))
