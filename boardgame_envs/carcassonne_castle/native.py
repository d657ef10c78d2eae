"""Carcassonne: The Castle on the compiled engine (``boardgame_envs._native``).

``make_rules("carcassonne_castle", engine="native")`` gives :class:`Rules`: the Python
engine's rules (:mod:`.rules`, the reference) with the position, moves, snapshots and
observations of ``CarcassonneCastleState``, equal to the reference bit for bit
(``tests/native``). Views are the reference's :class:`~.rules.View` class, built from the
compiled position in one call; their ``castle`` (the reference's :class:`~.castle.Castle`,
read by the heuristic and the determinizer) is made from the compiled castle's buffers when
first read (:func:`castle_of`), once per position: a state's views share it.

What code reads on the Python engine's states beyond the contract (``castle``, ``phase``,
``tile``, ``scores_``, …, and ``rules.position`` for hand-built positions) is answered here
from the snapshot or built on the reference engine and loaded natively.
"""

from __future__ import annotations

import secrets
from array import array
from typing import Any

from boardgame_envs.carcassonne_castle import rules as reference
from boardgame_envs.carcassonne_castle.castle import (
    KEY_PADDING,
    NUM_GRID,
    NUM_SLOTS,
    Castle,
)
from boardgame_envs.carcassonne_castle.data import NUM_CELLS
from boardgame_envs.core.native_state import NativeRules, NativeState, NativeView

#: Per slot set (bit s: slot s), a segment's ``seg_offsets`` entry: ``slot * 132`` ascending.
_SLOT_OFFSETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(slot * NUM_GRID for slot in range(NUM_SLOTS) if bits >> slot & 1)
    for bits in range(1 << NUM_SLOTS)
)
_KEY_SIZE = NUM_CELLS + KEY_PADDING


def _buffer(typecode: str, raw: bytes) -> array:
    out = array(typecode)
    out.frombytes(raw)
    return out


def castle_of(native: Any) -> Castle:
    """The reference's Castle of a compiled position: every attribute as ``Castle()`` and
    ``Castle.place`` would have made it (the same types and values; ``followers`` in grid
    order), filled from the compiled castle's buffers (``castle_state``)."""
    (
        parent,
        next_seg,
        seg_grid,
        seg_offsets,
        kind,
        open_,
        count,
        size,
        fountain,
        markets,
        locs,
        seg_at,
        root_at,
        code,
        key,
        num_segments,
        followers,
        history,
        board,
    ) = native.castle_state(_KEY_SIZE, _SLOT_OFFSETS)
    castle = Castle.__new__(Castle)
    castle.parent = _buffer("q", parent)
    castle.next_seg = _buffer("q", next_seg)
    castle.seg_grid = _buffer("q", seg_grid)
    castle.seg_offsets = seg_offsets
    castle.kind = bytearray(kind)
    castle.open = _buffer("h", open_)
    castle.count = bytearray(count)
    castle.size = _buffer("h", size)
    castle.fountain = bytearray(fountain)
    castle.markets = bytearray(markets)
    castle.locs = locs
    castle.seg_at = _buffer("q", seg_at)
    castle.root_at = _buffer("q", root_at)
    castle.code = _buffer("q", code)
    castle.key = _buffer("q", key)
    castle.num_segments = num_segments
    castle.followers = followers
    castle.history = history
    castle.board = _buffer("f", board)
    castle._arrays = castle._parts = castle._keys = None
    return castle


class View(NativeView, reference.View):
    """The reference view of a seat, its observation encoded by the compiled engine.

    Its ``castle`` is made when first read and shared with the state's other views of the
    same position (``_box``, see :meth:`State._castle_box`); no one changes it (the state
    changes only its compiled castle), so, unlike the Python engine's, it stays valid after
    the state moves on. Read-only all the same, as a view's castle is on every engine:
    ``clone()`` it to change it."""

    __slots__ = ("_source", "_castle", "_box")

    @property
    def castle(self) -> Castle:  # type: ignore[override]
        castle = self._castle
        if castle is None:
            box = self._box
            castle = box[0]
            if castle is None:
                castle = box[0] = castle_of(self._source)
            self._castle = castle
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

    snapshot_attributes = _SNAPSHOT_ATTRIBUTES

    #: [the position's Castle or None until made], shared by the views of this position;
    #: a new one after every change (apply, playout)
    _box: list[Castle | None] | None = None

    def _castle_box(self) -> list[Castle | None]:
        box = self._box
        if box is None:
            box = self._box = [None]
        return box

    def _view(self, seat: int) -> View:
        native = self._native
        mask = self._legal_mask() if seat == native.current_player else reference.NO_ACTIONS
        view = View(self.rules, *native.view_fields(seat, mask, reference.Record))
        view._source = native.clone()
        view._box = self._castle_box()
        return view

    def apply(self, action: int) -> None:
        self._box = None
        super().apply(action)

    def _apply(self, action: int) -> None:
        self._box = None
        super()._apply(action)

    def playout(
        self,
        policy: str = "random",
        seed: int | None = None,
        depth: int = 0,
        epsilon: float = 0.0,
    ) -> int:
        self._box = None
        return super().playout(policy, seed, depth, epsilon)

    @property
    def stack_size(self) -> int:
        """Tiles still in the stack (public)."""
        return self._native.stack_size

    @property
    def castle(self) -> Castle:
        """The board as the reference's Castle, the one the views of this position share:
        read-only (``clone()`` it to change it); it stays as it is when the state moves on."""
        box = self._castle_box()
        castle = box[0]
        if castle is None:
            castle = box[0] = castle_of(self._native)
        return castle

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
