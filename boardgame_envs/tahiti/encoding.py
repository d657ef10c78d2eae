"""Tahiti: the observation tensor of one seat (spec §11.4).

The observation is ``float32[10507]``: 28 board planes of 19 x 19 cells, flattened in C order
(``plane * 361 + cell``, ``cell = (q + 9) * 19 + (r + 9)``), followed by a vector of 399
features. It is built from :class:`~.rules.View` only, so it holds nothing the seat may not
know (spec §7): no other seat's favourite tile, no stack order below the tops, no order of the
depletion pile, no bag order. *Relative seat* 0 is the observer, 1 the next seat clockwise,
and so on; slots of absent seats (2 or 3 players) are zero.

Board planes (0/1):

=====  ===============================================================================
plane  content
=====  ===============================================================================
0      valid cell (within hex distance 9 of home)
1      tile present
2-4    home tile / water tile / island tile
5-8    island has a goods space of coconut / banana / taro / spice
9-12   a cube of coconut / banana / taro / spice is on that space
13     depletion token present (either kind)
14     fishing-bonus token present
15-20  reef on world edge d = 0..5 of this tile
21     Haumea
22     edge tile (a placed tile with an empty neighbour position)
23     legal placement position (PLACE phase only; the same for every seat)
24-27  canoe of relative seat 0 (self), 1, 2, 3
=====  ===============================================================================

Vector (offsets from ``VECTOR = 28 * 361 = 10108``):

======  ====  ===================================================================  =========
offset  size  content                                                              scale
======  ====  ===================================================================  =========
0       8     phase one-hot: HAUMEA_MOVE, HAUMEA_STEP, STACK, PLACE, BOUNTY_PLACE,  0/1
              ACTION, DEPLETE, GAME_OVER
8       3     player count one-hot: 2, 3, 4                                        0/1
11      4     relative seat of the first player                                     0/1
15      4     relative seat of the active player (zeros once the game is over)      0/1
19      1     Haumea in play                                                       0/1
20      2     stack sizes A, B                                                     / 8
22      36    top tile of stack A, then of stack B, one-hot over I01-I18           0/1
58      18    tile in hand (PLACE only), one-hot over I01-I18                      0/1
76      18    island tiles not yet placed (stacks and hand excluded: public)       0/1
94      234   per island I01-I18, 13 each: placed, q, r, space per crop (4),       0/1, / 9
              cube per crop (4), depleted, fishing bonus
328     5     pending bounty cube kind (BOUNTY_PLACE)                              0/1
333     5     drawn bounty cubes still to process after the pending one, per kind  / 2
338     2     revealed depletion token: plain, fishing (DEPLETE)                   0/1
340     2     actions taken, uncovered paddles (active player)                     / 4
342     20    canoe cargo per kind, per relative seat                              / 5
362     20    harvest-chart count per kind, per relative seat                      / 16
382     7     own favourite tile one-hot F1-F7                                     0/1
389     6     bag count per kind (/ 16), then total (/ 80)                         see left
395     2     face-down tokens left: plain (/ 12), fishing (/ 6)                   see left
397     1     end of the season triggered                                          0/1
398     1     turns still to play after the current one (final round)              / 3
======  ====  ===================================================================  =========

Every value lies in [-1, 1] (only the island coordinates q / 9, r / 9 are negative).
Actions are the 69 indices documented in :mod:`.rules`; the mask comes with the view.
"""

from __future__ import annotations

import functools
import operator
import struct
import threading

import numpy as np

from boardgame_envs.tahiti.data import (
    CANOE_CAPACITY,
    CUBES_PER_KIND,
    FISHING,
    GRID_RADIUS,
    GRID_SIDE,
    HOME,
    ISLAND_SLOTS,
    ISLANDS,
    NUM_FAVOURITES,
    NUM_GOODS,
    NUM_ISLANDS,
    PLAIN,
    TOKEN_COUNTS,
    TOTAL_CUBES,
    WATERS,
)
from boardgame_envs.tahiti.rules import (
    CELL_QR,
    NEIGHBOURS,
    NUM_CELLS,
    PHASES,
    PLACE,
    View,
    cell_of,
    placement_directions,
)

MAX_SEATS = 4
NUM_PLANES = 28
VALID, PRESENT, HOME_PLANE, WATER_PLANE, ISLAND_PLANE = 0, 1, 2, 3, 4
SPACE_PLANES = 5  # 5-8
CUBE_PLANES = 9  # 9-12
TOKEN_PLANE, FISHING_PLANE = 13, 14
REEF_PLANES = 15  # 15-20
HAUMEA_PLANE, EDGE_PLANE, PLACEMENT_PLANE = 21, 22, 23
CANOE_PLANES = 24  # 24-27

VECTOR = NUM_PLANES * NUM_CELLS  # 10108
PHASE = VECTOR + 0
PLAYER_COUNT = VECTOR + 8
FIRST_PLAYER = VECTOR + 11
ACTIVE_PLAYER = VECTOR + 15
HAUMEA_IN_PLAY = VECTOR + 19
STACK_SIZES = VECTOR + 20
STACK_TOPS = VECTOR + 22
HAND_TILE = VECTOR + 58
UNPLACED = VECTOR + 76
ISLAND_FEATURES = VECTOR + 94
ISLAND_STRIDE = 13
PENDING_CUBE = VECTOR + 328
BOUNTY_LEFT = VECTOR + 333
REVEALED_TOKEN = VECTOR + 338
TAKEN = VECTOR + 340
PADDLES = VECTOR + 341
CARGO = VECTOR + 342
CHARTS = VECTOR + 362
FAVOURITE = VECTOR + 382
BAG = VECTOR + 389
TOKENS_LEFT = VECTOR + 395
END_TRIGGERED = VECTOR + 397
TURNS_LEFT = VECTOR + 398
VECTOR_SIZE = 399
OBSERVATION_SIZE = VECTOR + VECTOR_SIZE  # 10507
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
OBSERVATION_BOUNDS = (-1.0, 1.0)
#: The board planes as (planes, rows, columns), rows ``q + 9`` and columns ``r + 9``: the
#: observation's first ``prod(PLANES)`` values, reshaped in C order (the env's
#: ``layout="planes"``).
PLANES = (NUM_PLANES, GRID_SIDE, GRID_SIDE)  # (28, 19, 19)

_PHASE_INDEX = {phase: PHASE + i for i, phase in enumerate(PHASES)}


def _plane(plane: int, cell: int) -> int:
    return plane * NUM_CELLS + cell


_VALID_CELLS = [c for c in range(NUM_CELLS) if cell_of(*CELL_QR[c]) >= 0]
_VALID_PLANE = [_plane(VALID, c) for c in _VALID_CELLS]


@functools.lru_cache(maxsize=1024)
def _board_template(tile_cell: tuple[int, ...], reefs: tuple[int, ...]) -> np.ndarray:
    """Everything the tiles on the table fix, whatever else happens: valid cells, tiles,
    kinds, goods spaces, reefs, edge tiles, and each placed island's ``placed, q, r, spaces``.
    The board changes only when a tile is placed, so this is computed once per placement."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    ones = list(_VALID_PLANE)
    occupied = {cell for cell in tile_cell if cell >= 0}
    for tile, cell in enumerate(tile_cell):
        if cell < 0:
            continue
        ones.append(_plane(PRESENT, cell))
        if any(nb < 0 or nb not in occupied for nb in NEIGHBOURS[cell]):
            ones.append(_plane(EDGE_PLANE, cell))
        ones += [_plane(REEF_PLANES + d, cell) for d in range(6) if reefs[tile] >> d & 1]
        if tile == HOME:
            ones.append(_plane(HOME_PLANE, cell))
        elif tile in WATERS:
            ones.append(_plane(WATER_PLANE, cell))
        else:
            ones.append(_plane(ISLAND_PLANE, cell))
            base = ISLAND_FEATURES + (tile - 1) * ISLAND_STRIDE
            ones.append(base)
            for crop in ISLAND_SLOTS[tile]:
                ones += [_plane(SPACE_PLANES + crop, cell), base + 3 + crop]
            q, r = CELL_QR[cell]
            obs[base + 1] = q / GRID_RADIUS
            obs[base + 2] = r / GRID_RADIUS
    obs[ones] = 1.0
    obs.flags.writeable = False
    return obs


# -- the public part: one float32 buffer per board, repainted where it changed -------------
#
# Planes 0-23 and the per-island vector block are the same for every seat. They are kept
# ready, as float32 bytes, in one buffer per board (``_Public``): planes 0-23 first, then the
# 234 island features. When the cubes, the tokens, Haumea or the placement positions differ
# from what the buffer shows, only those entries are repainted. An observation is then one
# join of bytes: the buffer's planes, the four canoe planes (ready-made one-hot planes), the
# vector's counts (scaled in one numpy multiplication) with the buffer's island block inside.

PUBLIC_PLANES_SIZE = (PLACEMENT_PLANE + 1) * NUM_CELLS  # planes 0-23
ISLAND_BLOCK_SIZE = NUM_ISLANDS * ISLAND_STRIDE  # 234
#: buffer index of an observation index in the island block (plane indices are their own)
_ISLAND_SHIFT = PUBLIC_PLANES_SIZE - ISLAND_FEATURES
_FLOAT = 4  # bytes per float32
_ONE = np.float32(1.0).tobytes()
#: ``_CANOE_PLANE[c]``: the bytes of a plane with a single one at cell c; [NUM_CELLS]: zeros
_CANOE_PLANE = [
    bytes(c * _FLOAT) + _ONE + bytes((NUM_CELLS - c - 1) * _FLOAT) for c in range(NUM_CELLS)
]
_CANOE_PLANE.append(bytes(NUM_CELLS * _FLOAT))


def _buffer_index(index: int) -> int:
    return index if index < PUBLIC_PLANES_SIZE else index + _ISLAND_SHIFT


@functools.lru_cache(maxsize=4096)
def _island_indices(island: int, cell: int, cubes: int, token: int) -> tuple[int, ...]:
    """Buffer indices of the ones an island's cubes and token set, on the board and in its
    vector block."""
    base = ISLAND_FEATURES + (island - 1) * ISLAND_STRIDE
    out = []
    for s in (0, 1):
        if cubes >> s & 1:
            crop = ISLAND_SLOTS[island][s]
            out += [_plane(CUBE_PLANES + crop, cell), base + 7 + crop]
    if token:
        out += [_plane(TOKEN_PLANE, cell), base + 11]
        if token == FISHING:
            out += [_plane(FISHING_PLANE, cell), base + 12]
    return tuple(map(_buffer_index, out))


_NO_ISLANDS = (0,) * (NUM_ISLANDS + 1)


class _Public:
    """The public planes and island block of one board (recognised by the identity of its
    ``tile_cell`` and ``reefs`` tuples, which the state replaces whenever a tile is placed and
    which this object keeps alive, so that their ids stay unique), and what it shows now."""

    __slots__ = (
        "tile_cell",
        "reefs",
        "buffer",
        "floats",
        "planes",
        "islands",
        "cubes",
        "tokens",
        "haumea",
        "marks",
    )

    def __init__(self, tile_cell: tuple[int, ...], reefs: tuple[int, ...]) -> None:
        template = _board_template(tile_cell, reefs)
        self.tile_cell, self.reefs = tile_cell, reefs
        self.buffer = bytearray(template[:PUBLIC_PLANES_SIZE].tobytes())
        self.buffer += template[ISLAND_FEATURES : ISLAND_FEATURES + ISLAND_BLOCK_SIZE].tobytes()
        whole = memoryview(self.buffer)
        self.floats = whole.cast("f")
        self.planes = whole[: PUBLIC_PLANES_SIZE * _FLOAT]
        self.islands = whole[PUBLIC_PLANES_SIZE * _FLOAT :]
        self.cubes = self.tokens = _NO_ISLANDS  # as the template shows them: none
        self.haumea = -1  # (Haumea's cell, placing?) shown; -1: none
        self.marks: tuple[int, ...] = ()  # buffer indices of the ones of planes 21 and 23

    def show(self, view: View) -> None:
        """Repaint what differs between the buffer and ``view``."""
        cubes, tokens = view.island_cubes, view.tokens
        if cubes is not self.cubes or tokens is not self.tokens:
            old_cubes, old_tokens = self.cubes, self.tokens
            floats, tile_cell = self.floats, self.tile_cell
            for k in ISLANDS:
                c, t, oc, ot = cubes[k], tokens[k], old_cubes[k], old_tokens[k]
                if c != oc or t != ot:
                    cell = tile_cell[k]
                    for i in _island_indices(k, cell, oc, ot):
                        floats[i] = 0.0
                    for i in _island_indices(k, cell, c, t):
                        floats[i] = 1.0
            self.cubes, self.tokens = cubes, tokens
        haumea = view.haumea
        key = (haumea, view.phase == PLACE) if haumea >= 0 else -1
        if key != self.haumea:
            floats = self.floats
            for i in self.marks:
                floats[i] = 0.0
            marks: list[int] = []
            if haumea >= 0:
                marks.append(_plane(HAUMEA_PLANE, haumea))
                if view.phase == PLACE:  # public: the same for every seat
                    around = NEIGHBOURS[haumea]
                    marks += [
                        _plane(PLACEMENT_PLANE, around[d])
                        for d in placement_directions(view.cell_tile, haumea)
                    ]
            for i in marks:
                floats[i] = 1.0
            self.haumea, self.marks = key, tuple(marks)


_PUBLIC: dict[int, _Public] = {}
_MAX_BOARDS = 16
#: Held while a buffer is repainted and copied out (threads encoding at once stay correct).
_LOCK = threading.Lock()


def _public(view: View) -> _Public:
    tile_cell, reefs = view.tile_cell, view.reefs
    public = _PUBLIC.get(id(tile_cell))
    if public is None or public.tile_cell is not tile_cell or public.reefs is not reefs:
        public = _Public(tile_cell, reefs)
        if len(_PUBLIC) >= _MAX_BOARDS:
            _PUBLIC.clear()
        _PUBLIC[id(tile_cell)] = public
    public.show(view)
    return public


# -- the vector: float32 bytes of small pieces, each memoised by what it shows ---------------

#: The scale of every vector entry (1 where nothing is scaled). A count ``c`` becomes the
#: float32 product ``c * scale``: computed in double precision, where it is exact (8-bit
#: counts times 24-bit scales), then rounded once to float32 by the packing, so the bits are
#: those of the float32 product, as if the count were written and the vector scaled in place.
_SCALE = np.ones(VECTOR_SIZE, dtype=np.float32)
for _start, _size, _divisor in (
    (STACK_SIZES, 2, 8),
    (BOUNTY_LEFT, 5, 2),
    (TAKEN, 2, 4),
    (CARGO, 4 * NUM_GOODS, CANOE_CAPACITY),
    (CHARTS, 4 * NUM_GOODS, CUBES_PER_KIND),
    (BAG, 5, CUBES_PER_KIND),
    (BAG + 5, 1, TOTAL_CUBES),
    (TOKENS_LEFT, 1, TOKEN_COUNTS[PLAIN]),
    (TOKENS_LEFT + 1, 1, TOKEN_COUNTS[FISHING]),
    (TURNS_LEFT, 1, MAX_SEATS - 1),
):
    _SCALE[_start - VECTOR : _start - VECTOR + _size] = 1 / _divisor
_SCALES = [float(s) for s in _SCALE]  # the float32 scales as Python floats (exact)


def _packed(counts: list[float], start: int) -> bytes:
    """float32 bytes of vector entries ``start, start + 1, ...`` holding ``counts``."""
    scaled = [c * s for c, s in zip(counts, _SCALES[start - VECTOR :])]
    return struct.pack(f"{len(scaled)}f", *scaled)  # rounds each double to float32 once


@functools.lru_cache(maxsize=1024)
def _head_bytes(phase: str, n: int, first: int, active: int) -> bytes:
    """Vector entries 0-18: phase, player count, first and active player (relative seats;
    ``active`` -1 once the game is over)."""
    part = [0] * (HAUMEA_IN_PLAY - VECTOR)
    part[PHASES.index(phase)] = 1
    part[PLAYER_COUNT - VECTOR + n - 2] = 1
    part[FIRST_PLAYER - VECTOR + first] = 1
    if active >= 0:
        part[ACTIVE_PLAYER - VECTOR + active] = 1
    return _packed(part, VECTOR)


@functools.lru_cache(maxsize=1024)
def _explore_bytes(
    haumea_in_play: bool,
    stack_sizes: tuple[int, int],
    stack_tops: tuple[int, int],
    hand_tile: int,
    unplaced: frozenset[int],
) -> bytes:
    """Vector entries 19-93: what changes only while exploring."""
    part = [0] * (ISLAND_FEATURES - HAUMEA_IN_PLAY)
    at = -HAUMEA_IN_PLAY  # vector index -> position in part
    part[0] = int(haumea_in_play)
    part[STACK_SIZES + at : STACK_SIZES + at + 2] = stack_sizes
    top_a, top_b = stack_tops
    if top_a:
        part[STACK_TOPS + at + top_a - 1] = 1
    if top_b:
        part[STACK_TOPS + at + 18 + top_b - 1] = 1
    if hand_tile:
        part[HAND_TILE + at + hand_tile - 1] = 1
    for k in unplaced:
        part[UNPLACED + at + k - 1] = 1
    return _packed(part, HAUMEA_IN_PLAY)


@functools.lru_cache(maxsize=1024)
def _turn_bytes(bounty: tuple[int, ...], revealed: int, taken: int, paddles: int) -> bytes:
    """Vector entries 328-341: bounty cubes, revealed token, actions taken and paddles."""
    part = [0] * (CARGO - PENDING_CUBE)
    if bounty:
        part[bounty[0]] = 1
        for g in bounty[1:]:
            part[BOUNTY_LEFT - PENDING_CUBE + g] += 1
    if revealed:
        part[REVEALED_TOKEN - PENDING_CUBE + revealed - 1] = 1
    part[TAKEN - PENDING_CUBE] = taken
    part[PADDLES - PENDING_CUBE] = paddles
    return _packed(part, PENDING_CUBE)


@functools.lru_cache(maxsize=8192)
def _goods_bytes(counts: tuple[tuple[int, ...], ...], start: int) -> bytes:
    """The cargo (``start`` = CARGO) or chart (CHARTS) block: per kind, per relative seat
    (``counts`` in relative order), zeros for absent seats."""
    flat = [c for seat_counts in counts for c in seat_counts]
    flat += [0] * (MAX_SEATS * NUM_GOODS - len(flat))
    return _packed(flat, start)


#: float32 bytes of the own favourite tile's one-hot (vector entries 382-388), by tile 1-7
_FAVOURITE_BYTES = [b""] + [
    _packed([int(f == k) for k in range(1, NUM_FAVOURITES + 1)], FAVOURITE)
    for f in range(1, NUM_FAVOURITES + 1)
]
_BAG_STRUCT = struct.Struct(f"{NUM_GOODS + 1}f")
_BAG_SCALE, _TOTAL_SCALE = _SCALES[BAG - VECTOR], _SCALES[BAG + NUM_GOODS - VECTOR]


def _bag_bytes(bag: tuple[int, ...]) -> bytes:
    """Vector entries 389-394: the bag per kind, then its total (changes with most draws,
    so packed each time rather than memoised)."""
    b0, b1, b2, b3, b4 = bag
    s = _BAG_SCALE
    return _BAG_STRUCT.pack(
        b0 * s, b1 * s, b2 * s, b3 * s, b4 * s, (b0 + b1 + b2 + b3 + b4) * _TOTAL_SCALE
    )


@functools.lru_cache(maxsize=1024)
def _end_bytes(tokens_left: tuple[int, int], end: bool, turns: int) -> bytes:
    """Vector entries 395-398: face-down tokens left, end of the season, turns left."""
    return _packed([*tokens_left, int(end), turns], TOKENS_LEFT)


#: ``_ORDER[n][seat]``: the absolute seat of each relative seat.
_ORDER = {n: [[(seat + rel) % n for rel in range(n)] for seat in range(n)] for n in (2, 3, 4)}
#: ``_RELATIVE[n][seat](per_seat)``: a per-seat tuple in relative-seat order.
_RELATIVE = {n: [operator.itemgetter(*order) for order in _ORDER[n]] for n in (2, 3, 4)}
#: Per player count, the zero bytes of the absent seats' canoe planes.
_ABSENT_PLANES = {n: (_CANOE_PLANE[NUM_CELLS],) * (MAX_SEATS - n) for n in (2, 3, 4)}


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables)."""
    n = view.num_players
    seat = view.seat
    relative = _RELATIVE[n][seat]
    live = view.current_player >= 0
    canoes = map(_CANOE_PLANE.__getitem__, relative(view.canoes))
    head = _head_bytes(
        view.phase,
        n,
        (view.first_player - seat) % n,
        (view.turn_player - seat) % n if live else -1,
    )
    explore = _explore_bytes(
        view.haumea >= 0, view.stack_sizes, view.stack_tops, view.hand_tile, view.unplaced
    )
    rest = (
        _turn_bytes(
            view.bounty,
            view.revealed_token,
            view.taken if live else 0,
            view.paddles if live else 0,
        ),
        _goods_bytes(relative(view.cargo), CARGO),
        _goods_bytes(relative(view.charts), CHARTS),
        _FAVOURITE_BYTES[view.favourite],
        _bag_bytes(view.bag),
        _end_bytes(view.tokens_left, view.end_triggered, view.turns_left),
    )
    with _LOCK:  # the board buffer is shared: repaint and copy it out in one go
        public = _public(view)
        raw = bytearray().join(
            (public.planes, *canoes, *_ABSENT_PLANES[n], head, explore, public.islands, *rest)
        )
    return np.frombuffer(raw, np.float32)
