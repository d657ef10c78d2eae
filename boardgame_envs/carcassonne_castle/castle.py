"""The castle: placed tiles, features, followers, and where a tile may go next.

Everything here is public information (the board, spec §7); the hidden facts (stack order,
face-down wall tiles) live in :class:`~.rules.State`. A :class:`Castle` is mutated only by
the state that owns it; a cloned state shares its castle until either changes it (copy on
write, see ``State._own_castle``), and a view reads the live castle, so cloning a state and
building a view are cheap.

Geometry (spec §2.2, §2.3). Locations are indices of the padded grid ``x = -1..10``,
``y = -1..9`` (12 columns, 11 rows, row-major): ``grid = (y + 1) * 12 + (x + 1)``; the 76
playable cells and the 7 gates are locations, the rest is wall. Each location has 12 ports
(slots 0-11 of :mod:`.data`); a port facing an empty playable cell is *open*.

Features (spec §6.1) are kept incrementally in a union-find over *segments*: every segment
of every placed tile and gate gets an id (in order of placement), and each root carries its
feature's kind, open-port count, follower counts per seat, location set (size), fountain
and markets. Unions relabel eagerly, so ``parent[seg]`` is always the root and
``root_at`` gives the root of every port (slot of a location, slot-major like ``seg_at``).
For observations the castle also keeps, up to date after every change, the planes of
channels 0-97 in one float32 buffer (``board``, see "public planes" below): an observation
joins its bytes whole.

Legal placements (spec §4 DP1) are kept incrementally too: every empty cell carries a
*constraint key* ``must << 4 | req``, where bit ``d`` of ``must`` says side ``d`` faces a
tile or a gate's active side and bit ``d`` of ``req`` says a path is required there. A
table ``FIT[tile][key]`` gives the rotations that fit, so the placement mask of a tile is
two array look-ups, whatever the size of the board (six always-0 keys after the 76 make
the gather the whole 326-action mask of a PLACE decision: :meth:`Castle.placement_actions`).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

import numpy as np

from boardgame_envs.carcassonne_castle.data import (
    COURT,
    DX,
    DY,
    GATES,
    HOUSE,
    NUM_CELLS,
    NUM_SLOTS,
    NUM_TILE_TYPES,
    PATH,
    PLAYABLE_CELLS,
    TILE_TYPES,
    TOWER,
    Segment,
)

# -- the padded grid ------------------------------------------------------------------------
GRID_W, GRID_H = 12, 11
NUM_GRID = GRID_W * GRID_H  # 132
WALL = -1


def grid_of(x: int, y: int) -> int:
    return (y + 1) * GRID_W + (x + 1)


def xy_of(grid: int) -> tuple[int, int]:
    return grid % GRID_W - 1, grid // GRID_W - 1


CELL_GRID: tuple[int, ...] = tuple(grid_of(x, y) for x, y in PLAYABLE_CELLS)
GRID_CELL: tuple[int, ...] = tuple(
    CELL_GRID.index(g) if g in CELL_GRID else -1 for g in range(NUM_GRID)
)
GATE_GRID: tuple[int, ...] = tuple(grid_of(g.x, g.y) for g in GATES)


def cell_of(x: int, y: int) -> int:
    """Cell index (spec §2.3) of a playable cell; ValueError for anything else."""
    g = grid_of(x, y) if -1 <= x <= 10 and -1 <= y <= 9 else -1
    if g < 0 or GRID_CELL[g] < 0:
        raise ValueError(f"({x},{y}) is not a playable cell of the castle")
    return GRID_CELL[g]


def _neighbours(cell: int) -> tuple[int, int, int, int]:
    """Per side: the location across it (a cell or a gate through its active side), or WALL."""
    x, y = PLAYABLE_CELLS[cell]
    out = []
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        g = grid_of(nx, ny)
        if GRID_CELL[g] >= 0:
            out.append(g)
        elif any(gate.x == nx and gate.y == ny and gate.side == (d + 2) % 4 for gate in GATES):
            out.append(g)
        else:
            out.append(WALL)
    return tuple(out)


NEIGHBOR: tuple[tuple[int, int, int, int], ...] = tuple(_neighbours(c) for c in range(NUM_CELLS))

# -- ports ------------------------------------------------------------------------------------
#: Slot of the neighbour's port that a port faces across a shared side (spec §2.2).
FACING: tuple[int, ...] = tuple((k + 5) % 8 if k % 2 == 0 else (k + 3) % 8 for k in range(8)) + (
    10,
    11,
    8,
    9,
)
#: Side (N E S W) that a slot lies on.
SLOT_SIDE: tuple[int, ...] = tuple(k // 2 for k in range(8)) + (0, 1, 2, 3)
#: The three slots of a side: its two half-ports and its path port.
SIDE_SLOTS: tuple[tuple[int, int, int], ...] = tuple((2 * d, 2 * d + 1, 8 + d) for d in range(4))

# -- location codes: what stands on a grid position -------------------------------------------
# 0-183 a tile (4 * type + rotation), 184-190 a gate, EMPTY a playable cell, OUTSIDE a wall.
NUM_TILE_CODES = 4 * NUM_TILE_TYPES
GATE_CODE = NUM_TILE_CODES
EMPTY = GATE_CODE + len(GATES)
OUTSIDE = EMPTY + 1
NUM_CODES = OUTSIDE + 1


def rotate_slot(slot: int, r: int) -> int:
    """Where base slot ``slot`` lies after ``r`` quarter turns clockwise."""
    return (slot + 2 * r) % 8 if slot < 8 else 8 + (slot - 8 + r) % 4


def _rotated(segment: Segment, r: int) -> Segment:
    slots = tuple(sorted(rotate_slot(s, r) for s in segment.slots))
    return Segment(segment.kind, slots, segment.markets, segment.fountain)


def _code_tables() -> tuple[tuple, tuple, tuple, tuple]:
    segments, paths, halves, squares = [], [], [], []
    for tile in TILE_TYPES:
        for r in range(4):
            segments.append(tuple(_rotated(s, r) for s in tile.segments))
            paths.append(sum(1 << ((d + r) % 4) for d in range(4) if tile.paths[d]))
            half = [""] * 8
            for k in range(8):
                half[(k + 2 * r) % 8] = tile.halves[k]
            halves.append("".join(half))
            squares.append(tile.square)
    for gate in GATES:
        segments.append(gate.segments)
        paths.append((1 << gate.side) if gate.path else 0)
        halves.append("".join(gate.halves.get(k, " ") for k in range(8)))
        squares.append(False)
    return tuple(segments), tuple(paths), tuple(halves), tuple(squares)


#: Per code: its segments (rotated), path bits (bit d = path at side d), area letter of
#: half-ports 0-7 (" " where a gate has no port), and whether its paths meet at a square.
CODE_SEGMENTS, CODE_PATHS, CODE_HALVES, CODE_SQUARE = _code_tables()
#: Per code: the lowest slot of each segment (how actions name it), ascending.
CODE_LOWEST: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(seg.lowest for seg in segs)) for segs in CODE_SEGMENTS
)
#: Per code: the local segment index owning each slot, -1 where there is no port.
CODE_SLOT_SEGMENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(next((i for i, seg in enumerate(segs) if s in seg.slots), -1) for s in range(12))
    for segs in CODE_SEGMENTS
)


def _open_ports(segments: tuple[Segment, ...], empty: int) -> array:
    """Open ports of each segment when the sides in bit set ``empty`` face empty cells."""
    return array("h", [sum(empty >> SLOT_SIDE[slot] & 1 for slot in seg.slots) for seg in segments])


#: Per code, what laying it writes, ready to use: its segments' kinds, fountains and
#: markets (bytes, one per segment; None for no fountain or market at all: fresh segment
#: ids hold 0 already), their port offsets ``slot * NUM_GRID`` (one tuple per segment),
#: their open ports per set of sides facing empty cells (16 arrays, bit d = side d), and
#: (offset, segment index) of every port.
CODE_ROWS: tuple[
    tuple[
        bytes,
        bytes | None,
        bytes | None,
        list[tuple[int, ...]],
        tuple[array, ...],
        tuple[tuple[int, int], ...],
    ],
    ...,
] = tuple(
    (
        bytes(seg.kind for seg in segments),
        bytes(int(seg.fountain) for seg in segments)
        if any(seg.fountain for seg in segments)
        else None,
        bytes(seg.markets for seg in segments) if any(seg.markets for seg in segments) else None,
        [tuple(slot * NUM_GRID for slot in seg.slots) for seg in segments],
        tuple(_open_ports(segments, empty) for empty in range(16)),
        tuple((slot * NUM_GRID, i) for i, seg in enumerate(segments) for slot in seg.slots),
    )
    for segments in CODE_SEGMENTS
)


def _fit_table() -> np.ndarray:
    """FIT[tile, key] = bit r set when rotation r satisfies the constraint key (DP1)."""
    fit = np.zeros((NUM_TILE_TYPES, 256), dtype=np.uint8)
    for t in range(NUM_TILE_TYPES):
        for must in range(1, 16):
            for req in range(16):
                if req & ~must:
                    continue
                bits = 0
                for r in range(4):
                    if CODE_PATHS[4 * t + r] & must == req:
                        bits |= 1 << r
                fit[t, must << 4 | req] = bits
    return fit


FIT = _fit_table()
#: ROTATIONS[bits] = bool row of the 4 rotations in a 4-bit set.
ROTATIONS = np.array([[bits >> r & 1 for r in range(4)] for bits in range(16)], dtype=bool)
#: FIT_ROWS[tile, key] = ROTATIONS[FIT[tile, key]], its 4 bools seen as one uint32: a
#: placement mask is one gather of 76 numbers (a gather of 4-bool rows is much slower).
FIT_ROWS = ROTATIONS[FIT].view(np.uint32).reshape(NUM_TILE_TYPES, 256)
#: FIT_ROWS per tile, made once (indexing the 2-d table makes a new row view each time)
FIT_ROW_OF: tuple[np.ndarray, ...] = tuple(FIT_ROWS)
#: Keys past the 76 cells, always 0 (no rotation fits): the gather of 82 rows gives 328
#: bools, the 326 of the action mask (no action past 303 is a placement) and 2 more.
NUM_ACTIONS = 326
KEY_PADDING = -(-(NUM_ACTIONS - 4 * NUM_CELLS) // 4)

# -- public planes ----------------------------------------------------------------------------
# For observations the castle keeps, up to date after every change, one float32 buffer
# ``board`` holding channels 0-97 of the observation as seen by seat 0: (a) 50 planes over
# the grid describing what stands on each location (channels 0-49, documented in
# :mod:`.encoding`), rewritten column by column as tiles are laid, then (b) the port
# planes ("slots"): 48 planes (4 blocks of 12 slot planes, each slot-major like ``seg_at``)
# giving, at every port, numbers of the feature owning it: seat 0's followers / 6, seat 1's
# followers / 6, complete (a tower, house or path with no open port), size / 16. They are
# repainted, over the ports of one feature, whenever that feature changes (a placement
# touching it, a follower, a release), so an observation joins the buffer's bytes whole
# (seat 1 with the two follower blocks swapped: :meth:`Castle.board_parts`).
STATIC_PLANES = 50
NUM_PORTS = 12 * 132  # entries of one block of port planes (slot * 132 + grid)
SLOTS_START = STATIC_PLANES * 132  # offset of the port planes in ``board``
BOARD_SIZE = SLOTS_START + 4 * NUM_PORTS  # channels 0-97
COMPLETE_ROW, SIZE_ROW = SLOTS_START + 2 * NUM_PORTS, SLOTS_START + 3 * NUM_PORTS
# static plane channels
P_PLAYABLE, P_NOT_PLAYABLE, P_GATE, P_OCCUPIED = 0, 1, 2, 3
P_AREA = 4  # + 3 * half-port + (T, H, C)
P_PATHS = 28  # + side
P_PATH_LINKS = 32  # + index of the side pair in LINK_PAIRS
P_FOUNTAIN = 38  # + side
P_MARKETS = 42  # + half-port
#: The path-port pairs of channels 32-37: NE, NS, NW, ES, EW, SW.
LINK_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))


def _location_planes() -> np.ndarray:
    """LOCATION_PLANES[code] = channels 0-49 of a location holding ``code``."""
    table = np.zeros((NUM_CODES, STATIC_PLANES), dtype=np.float32)
    for code in range(NUM_CODES):
        row = table[code]
        if code == OUTSIDE:
            row[P_NOT_PLAYABLE] = 1
            continue
        if code == EMPTY:
            row[P_PLAYABLE] = 1
            continue
        gate = code >= GATE_CODE
        row[P_NOT_PLAYABLE if gate else P_PLAYABLE] = 1
        row[P_GATE] = gate
        row[P_OCCUPIED] = 1
        for k, letter in enumerate(CODE_HALVES[code]):
            if letter != " ":
                row[P_AREA + 3 * k + "THC".index(letter)] = 1
        for d in range(4):
            row[P_PATHS + d] = CODE_PATHS[code] >> d & 1
        for seg in CODE_SEGMENTS[code]:
            if seg.kind == PATH:
                sides = [slot - 8 for slot in seg.slots]
                for i, (a, b) in enumerate(LINK_PAIRS):
                    if a in sides and b in sides:
                        row[P_PATH_LINKS + i] = 1
                for d in sides:
                    row[P_FOUNTAIN + d] = seg.fountain
            elif seg.kind == COURT:
                for k in seg.slots:
                    row[P_MARKETS + k] = seg.markets / 2
    return table


LOCATION_PLANES = _location_planes()
#: LOCATION_COLUMNS[code] = LOCATION_PLANES[code] as an array: laying a tile writes it down
#: the grid position's column of ``board`` in one extended-slice assignment.
LOCATION_COLUMNS = tuple(array("f", row.tobytes()) for row in LOCATION_PLANES)
#: SIZE_COLUMNS[code][slot] = 1 / 16 where the location has a port, else 0: the size plane
#: entries of its ports while each of its segments is a feature of its own (size 1).
SIZE_COLUMNS = tuple(
    array("f", [0.0 if local < 0 else 1 / 16 for local in CODE_SLOT_SEGMENT[code]])
    for code in range(NUM_CODES - 2)
)

# -- segments ---------------------------------------------------------------------------------
MAX_SEGMENTS = 512  # 60 tiles x <= 8 segments + 15 gate segments < 511
NO_SEGMENT = MAX_SEGMENTS - 1  # a dummy segment: no kind, no followers, size 0
NO_KIND = 4


#: Per cell, per side: None where the side faces the wall, else (the location across it,
#: its three port pairs (my position, their position) in ``seg_at`` / ``root_at``, and the
#: cell across it, -1 for a gate).
SIDE_PORTS: tuple[tuple[tuple[int, tuple[tuple[int, int], ...], int] | None, ...], ...] = tuple(
    tuple(
        None
        if nb < 0
        else (
            nb,
            tuple(
                (slot * NUM_GRID + CELL_GRID[cell], FACING[slot] * NUM_GRID + nb)
                for slot in SIDE_SLOTS[d]
            ),
            GRID_CELL[nb],
        )
        for d, nb in enumerate(NEIGHBOR[cell])
    )
    for cell in range(NUM_CELLS)
)
#: Per code, per side d: the constraint-key bits a tile with ``code`` gives the empty cell
#: across side d (that cell's side d + 2 faces it, with a path or not).
CODE_SIDE_KEYS: tuple[tuple[int, int, int, int], ...] = tuple(
    tuple(
        (1 << (4 + (d + 2) % 4)) | ((CODE_PATHS[code] >> d & 1) << ((d + 2) % 4)) for d in range(4)
    )
    for code in range(NUM_TILE_CODES)
)


class Castle:
    """The board: tiles, gates, features, followers, and the frontier of legal cells.

    Per-segment data sits in ``array.array`` / ``bytearray`` buffers: scalar reads and
    writes at list speed while laying a tile, and zero-copy numpy views (:meth:`arrays`)
    for whole-board copies in an observation. Only a root's entries are meaningful.

    Unions relabel eagerly: ``parent[s]`` is always the root of segment ``s`` and
    ``root_at[slot * 132 + grid]`` the root owning that port, kept by walking the merged
    feature's segments (a circular list through ``next_seg``) when two features merge. The
    newer root joins the older one, and a placement mostly merges its own few new segments
    into older features, so the walk is short. A changed feature is repainted in the port
    planes of ``board`` the same way (:meth:`_paint`), and only a changed one: a new
    segment is written as a feature of size 1 when it is laid, a merged feature gets its
    new size (and followers), a closed one its ``complete`` entries, a follower change
    that seat's block. A new castle is a copy of an empty one built once
    (``Castle._template``, never changed).
    """

    __slots__ = (
        "parent",
        "next_seg",
        "seg_grid",
        "seg_offsets",
        "kind",
        "open",
        "count",
        "size",
        "fountain",
        "markets",
        "locs",
        "seg_at",
        "root_at",
        "code",
        "key",
        "num_segments",
        "followers",
        "history",
        "board",
        "_arrays",
        "_parts",
        "_keys",
    )
    #: the empty castle, built once (deterministic); every new castle is a copy of it
    _template: Castle | None = None

    def __init__(self) -> None:
        """An empty castle: the gates stand, no tile is placed."""
        template = Castle._template
        if template is None:
            template = Castle._template = Castle._build()
        template._copy_into(self)

    @classmethod
    def _build(cls) -> Castle:
        self = cls.__new__(cls)
        self.parent = array("q", range(MAX_SEGMENTS))
        self.next_seg = array("q", range(MAX_SEGMENTS))  # circular list of a feature's segments
        self.seg_grid = array("q", bytes(8 * MAX_SEGMENTS))  # location of each segment
        #: per segment its ports' offsets ``slot * 132`` (add ``seg_grid``): a shared tuple
        self.seg_offsets: list[tuple[int, ...]] = [()] * MAX_SEGMENTS
        self.kind = bytearray([NO_KIND]) * MAX_SEGMENTS
        self.open = array("h", bytes(2 * MAX_SEGMENTS))  # open ports
        self.count = bytearray(2 * MAX_SEGMENTS)  # followers of seat p at p * 512 + root
        # distinct locations: 1 for a fresh segment (set ahead), 0 for NO_SEGMENT
        self.size = array("h", [1] * NO_SEGMENT + [0])
        self.fountain = bytearray(MAX_SEGMENTS)
        self.markets = bytearray(MAX_SEGMENTS)
        self.locs: list[int] = [0] * MAX_SEGMENTS  # bit g set: location g is in the feature
        self.seg_at = array("q", [NO_SEGMENT]) * (NUM_SLOTS * NUM_GRID)  # slot * 132 + grid
        self.root_at = array("q", [NO_SEGMENT]) * (NUM_SLOTS * NUM_GRID)  # its root
        self.code = array("q", [OUTSIDE]) * NUM_GRID
        for g in CELL_GRID:
            self.code[g] = EMPTY
        # constraint key per cell, then KEY_PADDING keys 0 (no fit): see placement_actions
        self.key = array("q", bytes(8 * (NUM_CELLS + KEY_PADDING)))
        self.num_segments = 0
        #: grid -> (seat, slot) of the one follower on that tile (at most one per tile).
        self.followers: dict[int, tuple[int, int]] = {}
        #: (cell, code, seat) of every placed tile, in order: the facts the rest derives from.
        self.history: list[tuple[int, int, int]] = []
        self._arrays: dict[str, np.ndarray] | None = None
        self._parts = self._keys = None
        self.board = array("f", bytes(4 * BOARD_SIZE))
        for gate in GATES:
            g = GATE_GRID[gate.index]
            self.code[g] = GATE_CODE + gate.index
            self._add_segments(g, GATE_CODE + gate.index, 0b1111)
        for cell in range(NUM_CELLS):
            for d, nb in enumerate(NEIGHBOR[cell]):
                if nb >= 0 and GRID_CELL[nb] < 0:  # a gate's active side
                    self._constrain(cell, d, CODE_PATHS[self.code[nb]] >> ((d + 2) % 4) & 1)
        codes = np.frombuffer(self.code, dtype=np.int64)
        self.board[:SLOTS_START] = array("f", LOCATION_PLANES[codes].T.tobytes())
        for root in range(self.num_segments):
            self._paint(root)
        return self

    def clone(self) -> Castle:
        other = Castle.__new__(Castle)
        self._copy_into(other)
        return other

    def _copy_into(self, other: Castle) -> None:
        other.parent = self.parent[:]
        other.next_seg = self.next_seg[:]
        other.seg_grid = self.seg_grid[:]
        other.seg_offsets = self.seg_offsets[:]  # tuples: shared
        other.kind = self.kind[:]
        other.open = self.open[:]
        other.count = self.count[:]
        other.size = self.size[:]
        other.fountain = self.fountain[:]
        other.markets = self.markets[:]
        other.locs = self.locs[:]
        other.seg_at = self.seg_at[:]
        other.root_at = self.root_at[:]
        other.code = self.code[:]
        other.key = self.key[:]
        other.num_segments = self.num_segments
        other.followers = dict(self.followers)
        other.history = self.history[:]
        other.board = self.board[:]
        other._arrays = other._parts = other._keys = None

    def arrays(self) -> dict[str, np.ndarray]:
        """Read-only numpy views of the buffers (no copy): ``parent``, ``kind``, ``open``,
        ``count`` (2 x 512), ``size``, ``seg_at``, ``root_at``, ``code``, ``key``,
        ``planes`` (50 x 132: channels 0-49) and ``slots`` (4 x 1584: the port planes), the
        last two parts of ``board`` (see the module's comments)."""
        if self._arrays is None:
            views = {
                "parent": np.frombuffer(self.parent, dtype=np.int64),
                "kind": np.frombuffer(self.kind, dtype=np.uint8),
                "open": np.frombuffer(self.open, dtype=np.int16),
                "count": np.frombuffer(self.count, dtype=np.uint8).reshape(2, MAX_SEGMENTS),
                "size": np.frombuffer(self.size, dtype=np.int16),
                "seg_at": np.frombuffer(self.seg_at, dtype=np.int64),
                "root_at": np.frombuffer(self.root_at, dtype=np.int64),
                "code": np.frombuffer(self.code, dtype=np.int64),
                "key": np.frombuffer(self.key, dtype=np.int64),
            }
            board = np.frombuffer(self.board, dtype=np.float32)
            views["planes"] = board[:SLOTS_START].reshape(STATIC_PLANES, NUM_GRID)
            views["slots"] = board[SLOTS_START:].reshape(4, NUM_PORTS)
            for view in views.values():
                view.flags.writeable = False
            self._arrays = views
        return self._arrays

    def board_parts(self, seat: int) -> tuple[memoryview, ...]:
        """Byte views of ``board`` that, joined, give channels 0-97 as seen by ``seat``
        (seat 1: the two follower blocks swapped). Views, not copies: they follow the
        board as it changes; made once per castle."""
        if self._parts is None:
            raw = memoryview(self.board).cast("B")
            f0, f1, rest = (
                4 * SLOTS_START,
                4 * (SLOTS_START + NUM_PORTS),
                4 * (SLOTS_START + 2 * NUM_PORTS),
            )
            self._parts = ((raw,), (raw[:f0], raw[f1:rest], raw[f0:f1], raw[rest:]))
        return self._parts[seat]

    def __eq__(self, other: object) -> bool:
        """The same board: the same tiles laid by the same seats on the same cells, and the
        same followers (everything else derives from these). Lets views be compared field
        by field (``core.testing.assert_views_equal``); a castle is mutable, so unhashable."""
        if not isinstance(other, Castle):
            return NotImplemented
        return self is other or (
            self.code == other.code
            and self.followers == other.followers
            and sorted(self.history) == sorted(other.history)
        )

    __hash__ = None  # type: ignore[assignment]

    # -- queries ----------------------------------------------------------------------------
    def is_empty(self, cell: int) -> bool:
        return self.code[CELL_GRID[cell]] == EMPTY

    def tile_at(self, cell: int) -> tuple[int, int] | None:
        """(tile type, rotation) on ``cell``, or None."""
        code = self.code[CELL_GRID[cell]]
        return (code // 4, code % 4) if code < NUM_TILE_CODES else None

    def find(self, segment: int) -> int:
        """The root of ``segment``'s feature (parents always point straight at it)."""
        return self.parent[segment]

    def segment_at(self, grid: int, slot: int) -> int:
        """The segment owning ``slot`` of the location ``grid`` (NO_SEGMENT if none)."""
        return self.seg_at[slot * NUM_GRID + grid]

    def feature_at(self, grid: int, slot: int) -> int:
        """The feature (root segment) owning ``slot`` of location ``grid``, or NO_SEGMENT."""
        return self.root_at[slot * NUM_GRID + grid]

    def followers_on(self, root: int) -> tuple[int, int]:
        return self.count[root], self.count[MAX_SEGMENTS + root]

    def is_complete(self, root: int) -> bool:
        return self.kind[root] in (TOWER, HOUSE, PATH) and self.open[root] == 0

    def value(self, root: int) -> int:
        """Points of a tower, house or path if scored (spec §6.3): 2, 1, 1 or 2 per tile."""
        kind, size = self.kind[root], self.size[root]
        if kind == TOWER or (kind == PATH and self.fountain[root]):
            return 2 * size
        return size if kind in (HOUSE, PATH) else 0

    def locations(self, root: int) -> list[int]:
        """Grid positions of the feature's locations."""
        mask = self.locs[root]
        return [g for g in range(NUM_GRID) if mask >> g & 1]

    def roots(self) -> Iterator[int]:
        """Every feature once (its root segment), in segment order."""
        parent = self.parent
        for s in range(self.num_segments):
            if parent[s] == s:
                yield s

    def placement_mask(self, tile: int) -> np.ndarray:
        """bool[76 * 4]: cell ``c`` in rotation ``r`` at index ``4c + r`` is legal (DP1)."""
        return self.placement_actions(tile)[: 4 * NUM_CELLS]

    def placement_actions(self, tile: int) -> np.ndarray:
        """bool[326], a fresh array: :meth:`placement_mask` then no other action, the
        action mask of a PLACE decision in one gather."""
        return FIT_ROW_OF[tile][self._key_view()].view(bool)[:NUM_ACTIONS]

    def has_placement(self, tile: int) -> bool:
        return np.count_nonzero(FIT[tile][self._key_view()]) > 0

    def _key_view(self) -> np.ndarray:
        """``key`` as numpy (no copy), made once per castle: cheaper than :meth:`arrays`
        for a fresh castle, which needs only this one."""
        if self._keys is None:
            self._keys = np.frombuffer(self.key, dtype=np.int64)
        return self._keys

    def frontier(self) -> list[int]:
        """Empty cells touching a tile or a gate's active side."""
        return [cell for cell in range(NUM_CELLS) if self.key[cell]]

    def open_segments(self, cell: int) -> list[int]:
        """Lowest slots of the segments of the tile on ``cell`` whose feature has no
        follower (where DP2 may put one)."""
        g = CELL_GRID[cell]
        count, root_at = self.count, self.root_at
        out = []
        for lowest in CODE_LOWEST[self.code[g]]:
            root = root_at[lowest * NUM_GRID + g]
            if not count[root] and not count[MAX_SEGMENTS + root]:
                out.append(lowest)
        return out

    def feature_named(self, cell: int, name: int) -> int:
        """The feature an ORDER index names (spec §11.1) relative to the tile on ``cell``:
        304 + s: the one owning slot s of that tile; 318 + k: the one owning the half-port
        that faces its half-port k."""
        g = CELL_GRID[cell]
        if name < 318:
            return self.feature_at(g, name - 304)
        k = name - 318
        nb = NEIGHBOR[cell][SLOT_SIDE[k]]
        return self.feature_at(nb, FACING[k]) if nb >= 0 else NO_SEGMENT

    def largest_empty_region(self) -> int:
        """L of spec §6.8 F1: the most empty playable cells connected through sides."""
        seen: set[int] = set()
        best = 0
        for start in range(NUM_CELLS):
            if start in seen or not self.is_empty(start):
                continue
            seen.add(start)
            todo, size = [start], 0
            while todo:
                cell = todo.pop()
                size += 1
                for nb in NEIGHBOR[cell]:
                    if nb >= 0 and GRID_CELL[nb] >= 0:
                        other = GRID_CELL[nb]
                        if other not in seen and self.is_empty(other):
                            seen.add(other)
                            todo.append(other)
            best = max(best, size)
        return best

    @classmethod
    def replay(
        cls,
        history: list[tuple[int, int, int]],
        followers: dict[int, tuple[int, int]],
    ) -> Castle:
        """The castle after ``history`` (cell, code, seat), with ``followers`` {grid: (seat,
        slot)} on it. No checks: see ``rules.State.from_dict`` for a validating rebuild."""
        castle = cls()
        for cell, code, seat in history:
            castle.place(cell, code // 4, code % 4, seat)
        for g, (seat, slot) in sorted(followers.items()):
            castle.add_follower(GRID_CELL[g], slot, seat)
        return castle

    # -- changes (only by the owning state) -----------------------------------------------------
    def place(self, cell: int, tile: int, rotation: int, seat: int) -> list[int]:
        """Lay a tile (legality is the caller's business); return the ORDER names of the
        features it completes (spec §4 scoring resolution, cases a and b), ascending."""
        g = CELL_GRID[cell]
        code = 4 * tile + rotation
        code_at, root_at, kind, open_ = self.code, self.root_at, self.kind, self.open
        sides = SIDE_PORTS[cell]
        s0, s1, s2, s3 = sides
        faces_empty = (
            s0 is not None and code_at[s0[0]] == EMPTY,
            s1 is not None and code_at[s1[0]] == EMPTY,
            s2 is not None and code_at[s2[0]] == EMPTY,
            s3 is not None and code_at[s3[0]] == EMPTY,
        )
        first = self._add_segments(
            g,
            code,
            faces_empty[0] | faces_empty[1] << 1 | faces_empty[2] << 2 | faces_empty[3] << 3,
        )
        code_at[g] = code
        self.history.append((cell, code, seat))
        touched = []  # positions of the neighbours' ports that faced this cell
        merged = []  # the surviving root of each merge
        key, side_keys = self.key, CODE_SIDE_KEYS[code]
        key[cell] = 0  # the frontier: this cell is taken, its empty neighbours face it
        for d in range(4):
            side = sides[d]
            if side is None:
                continue
            if faces_empty[d]:
                key[side[2]] |= side_keys[d]
                continue
            for mine, theirs in side[1]:
                other = root_at[theirs]
                if other == NO_SEGMENT:
                    continue
                open_[other] -= 1  # that port faced this empty cell
                touched.append(theirs)
                own = root_at[mine]
                if own != NO_SEGMENT and own != other and kind[own] == kind[other]:
                    merged.append(self._union(own, other))
        self.board[g:SLOTS_START:NUM_GRID] = LOCATION_COLUMNS[code]
        parent = self.parent
        own_roots = set(parent[first : self.num_segments])
        # Only a merged feature changed size (and maybe followers), only a closed one needs
        # its ``complete`` entries: the others show what they showed (the new segments were
        # written as features of size 1 by _add_segments).
        merged_roots = set(map(parent.__getitem__, merged)) if merged else ()
        names = []
        count = self.count
        for root in own_roots.union(map(root_at.__getitem__, touched)):
            closed = not open_[root]
            if closed or root in merged_roots:
                # followers only add up in a merge: none now means every port showed none
                self._paint(root, count[root] or count[MAX_SEGMENTS + root])
            if not closed or kind[root] == COURT:
                continue
            if root in own_roots:
                slot = next(s for s in range(NUM_SLOTS) if root_at[s * NUM_GRID + g] == root)
                names.append(304 + slot)
            else:
                k = next(k for k in range(8) if self.feature_named(cell, 318 + k) == root)
                names.append(318 + k)
        names.sort()
        return names

    def add_follower(self, cell: int, slot: int, seat: int) -> None:
        g = CELL_GRID[cell]
        root = self.feature_at(g, slot)
        index = seat * MAX_SEGMENTS + root
        self.count[index] += 1
        self.followers[g] = (seat, slot)
        # only this seat's follower block changes (size and completion do not)
        self._paint_row(root, SLOTS_START + seat * NUM_PORTS, self.count[index] / 6)

    def release(self, root: int) -> list[int]:
        """Take every follower off a feature; return their seats (spec §6.4)."""
        seats = []
        for g, (seat, slot) in list(self.followers.items()):
            if self.feature_at(g, slot) == root:
                seats.append(seat)
                del self.followers[g]
        for seat in set(seats):  # only the follower blocks of those seats change
            self.count[seat * MAX_SEGMENTS + root] = 0
            self._paint_row(root, SLOTS_START + seat * NUM_PORTS, 0.0)
        return seats

    def _add_segments(self, g: int, code: int, empty: int) -> int:
        """Create the segments of the tile or gate with ``code`` on ``g``, each its own
        feature of size 1; return the first id. A port is open when the side it lies on
        faces an empty playable cell (bit d of ``empty``: side d does; a gate's ports all
        face its cell). Ids past ``num_segments`` were never used: their ``parent`` and
        ``next_seg`` already point at themselves, their size is 1, fountain and markets 0."""
        first = self.num_segments
        kinds, fountains, markets, offsets, opens, ports = CODE_ROWS[code]
        end = first + len(kinds)
        self.kind[first:end] = kinds
        if fountains is not None:
            self.fountain[first:end] = fountains
        if markets is not None:
            self.markets[first:end] = markets
        self.seg_offsets[first:end] = offsets
        n = end - first
        self.locs[first:end] = [1 << g] * n
        self.seg_grid[first:end] = array("q", [g]) * n
        self.open[first:end] = opens[empty]
        seg_at, root_at = self.seg_at, self.root_at
        for offset, i in ports:
            seg_at[offset + g] = root_at[offset + g] = first + i
        self.board[SIZE_ROW + g : SIZE_ROW + NUM_PORTS : NUM_GRID] = SIZE_COLUMNS[code]
        self.num_segments = end
        return first

    def _constrain(self, cell: int, side: int, path: int) -> None:
        self.key[cell] |= (1 << (4 + side)) | (path << side)

    def _union(self, a: int, b: int) -> int:
        """Merge two distinct features (roots): the newer joins the older; return it."""
        if a > b:
            a, b = b, a  # the older segment stays the root
        parent, next_seg, root_at = self.parent, self.next_seg, self.root_at
        seg_grid, seg_offsets = self.seg_grid, self.seg_offsets
        s = b
        while True:  # relabel every segment of b's feature, and its ports
            parent[s] = a
            g = seg_grid[s]
            for offset in seg_offsets[s]:
                root_at[offset + g] = a
            s = next_seg[s]
            if s == b:
                break
        next_seg[a], next_seg[b] = next_seg[b], next_seg[a]  # splice the two circles
        self.open[a] += self.open[b]
        count = self.count
        count[a] += count[b]
        count[MAX_SEGMENTS + a] += count[MAX_SEGMENTS + b]
        self.fountain[a] |= self.fountain[b]
        self.markets[a] += self.markets[b]
        self.locs[a] |= self.locs[b]
        self.size[a] = self.locs[a].bit_count()
        return a

    def _paint(self, root: int, counts: bool = True) -> None:
        """Write a feature's numbers at every port of it in the port planes: its size always,
        ``complete`` when it is (it never is before the placement that closes it, and the
        entries start at 0), the followers when ``counts`` (a caller that knows they were 0
        before and after passes False: the common case, and each number costs a write per
        port)."""
        self._paint_row(root, SIZE_ROW, self.size[root] / 16)
        if self.open[root] == 0 and self.kind[root] in (TOWER, HOUSE, PATH):
            self._paint_row(root, COMPLETE_ROW, 1.0)
        if counts:
            self._paint_row(root, SLOTS_START, self.count[root] / 6)
            self._paint_row(root, SLOTS_START + NUM_PORTS, self.count[MAX_SEGMENTS + root] / 6)

    def _paint_row(self, root: int, row: int, value: float) -> None:
        """Write ``value`` at every port of a feature in one port plane block (``row``: its
        offset in ``board``), walking the feature's segments around their circle."""
        board, next_seg, seg_grid, seg_offsets = (
            self.board,
            self.next_seg,
            self.seg_grid,
            self.seg_offsets,
        )
        s = root
        while True:
            g = seg_grid[s] + row
            for offset in seg_offsets[s]:
                board[offset + g] = value
            s = next_seg[s]
            if s == root:
                break
