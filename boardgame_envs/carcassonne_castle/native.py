"""Carcassonne: The Castle on the compiled engine (``boardgame_envs._native``).

``make_rules("carcassonne_castle", engine="native")`` gives :class:`Rules`: the Python
engine's rules (:mod:`.rules`, the reference) with the position, moves, snapshots and
observations of ``CarcassonneCastleState``, equal to the reference bit for bit
(``tests/native``). Views are the reference's :class:`~.rules.View` class, built from the
compiled position in one call; their ``castle`` (the reference's :class:`~.castle.Castle`,
read by the heuristic and the determinizer) is rebuilt from the placements when first read.

What code reads on the Python engine's states beyond the contract (``castle``, ``phase``,
``tile``, ``scores_``, …, and ``rules.position`` for hand-built positions) is answered here
from the snapshot or built on the reference engine and loaded natively.
"""

from __future__ import annotations

import secrets
from typing import Any

from boardgame_envs.carcassonne_castle import rules as reference
from boardgame_envs.carcassonne_castle.castle import Castle
from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView


def _castle_of(native: Any) -> Castle:
    """The reference's Castle of a compiled position (replayed: not for hot paths)."""
    history, followers = native.castle_facts()
    return Castle.replay(history, followers)


class View(NativeView, reference.View):
    """The reference view of a seat, its observation encoded by the compiled engine."""

    __slots__ = ("_source", "_castle")

    @property
    def castle(self) -> Castle:  # type: ignore[override]
        castle = self._castle
        if castle is None:
            castle = self._castle = _castle_of(self._source)
        return castle

    @castle.setter
    def castle(self, value: Castle | None) -> None:
        self._castle = value


#: Snapshot fields readable as attributes of a native state, as on the Python engine's State
#: (copies, from the snapshot: not for hot paths).
_SNAPSHOT_ATTRIBUTES = {
    "config": "config",
    "stack": "stack",
    "tile": "tile",
    "discards": "discards",
    "corners": "corners",
    "boxed": "boxed",
    "held": "held",
    "used": "used",
    "scores_": "scores",
    "supply": "supply",
    "keeps": "keeps",
    "start_player": "start_player",
    "active": "active",
    "turn": "turn",
    "extra_turn": "extra_turn",
    "phase": "phase",
    "last_cell": "last_cell",
    "completed": "completed",
    "groups": "groups",
    "doubling": "doubling",
    "final": "final",
    "events": "events",
}


class State(NativeState):
    """One position of Carcassonne: The Castle on the compiled engine."""

    def _view(self, seat: int) -> View:
        native = self._native
        mask = self._legal_mask() if seat == native.current_player else reference.NO_ACTIONS
        view = View(self.rules, *native.view_fields(seat, mask, reference.Record))
        view._source = native.clone()
        return view

    def legal_actions(self) -> list[int]:
        mask = self._mask  # the cached mask when there is one, else one call
        if mask is not None:
            return mask.nonzero()[0].tolist()
        return self._native.legal_actions()

    @property
    def stack_size(self) -> int:
        """Tiles still in the stack (public)."""
        return self._native.stack_size

    @property
    def castle(self) -> Castle:
        """The board as the reference's Castle (a rebuilt copy: changing it changes nothing)."""
        return _castle_of(self._native)

    @property
    def unseen(self) -> list[int]:
        """Per tile type: copies still in the stack (the drawn tile excluded)."""
        stack = self._native.to_dict()["stack"]
        return [stack.count(t) for t in range(len(reference.TILE_TYPES))]

    def unseen_counts(self) -> list[int]:
        """Tiles per type not yet seen, counted from what is public (as the reference)."""
        data = self._native.to_dict()
        counts = [t.count for t in reference.TILE_TYPES]
        for _, tile, _, _ in data["placements"]:
            counts[tile] -= 1
        for tile in data["discards"]:
            counts[tile] -= 1
        if data["tile"] is not None:
            counts[data["tile"]] -= 1
        return counts

    def tile_zones(self) -> list[int]:
        """Every castle tile's type in some zone (stack, drawn tile, castle, discards)."""
        data = self._native.to_dict()
        drawn = [] if data["tile"] is None else [data["tile"]]
        placed = [tile for _, tile, _, _ in data["placements"]]
        return data["stack"] + drawn + placed + data["discards"]

    def wall_tile_zones(self) -> list[int]:
        """Every wall tile's kind in some zone: corners, box, players, used."""
        data = self._native.to_dict()
        return (
            [k for k in data["corners"] if k]
            + data["boxed"]
            + [k for seat in data["held"] for k, _ in seat]
            + [k for k, _ in data["used"]]
        )

    def __getattr__(self, name: str) -> Any:
        # Only reached for names the class does not define: the Python engine's fields.
        field = _SNAPSHOT_ATTRIBUTES.get(name)
        if field is not None:
            return self._native.to_dict()[field]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class Rules(NativeRules, reference.CarcassonneCastleRules):
    """Carcassonne: The Castle on the compiled engine (the reference's name, options,
    phases, encoding and renderer)."""

    native_class_name = "CarcassonneCastleState"
    state_class = State

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        native = self.native_class.new_state(
            num_players,
            secrets.randbits(128) if seed is None else seed,
            int(config["keep_bonus_tiles"]),
            int(config["wall9_points"]),
        )
        return self.wrap(native)

    def position(self, *args: Any, **kwargs: Any) -> State:
        """A position for tests and notebooks (see the reference's ``position``), on the
        compiled engine. Positions the reference builds outside what a snapshot may hold
        (see its docstring) do not load."""
        return self.from_reference(self.reference.position(*args, **kwargs))
