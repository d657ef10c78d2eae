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

import numpy as np

from boardgame_envs.tahiti.data import (
    CANOE_CAPACITY,
    CUBES_PER_KIND,
    FISHING,
    GRID_RADIUS,
    HOME,
    ISLAND_SLOTS,
    ISLANDS,
    NUM_GOODS,
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


@functools.lru_cache(maxsize=4096)
def _island_indices(island: int, cell: int, cubes: int, token: int) -> tuple[int, ...]:
    """The ones an island's cubes and token set, on the board and in its vector block."""
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
    return tuple(out)


#: Raw counts are written first and scaled once by this vector (1 where nothing is scaled).
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


#: Where the raw counts go, per player count: the fixed slots, then cargo and charts.
_COUNT_INDEX = {
    n: np.array(
        [STACK_SIZES, STACK_SIZES + 1, TAKEN, PADDLES]
        + list(range(BAG, BAG + 6))
        + [TOKENS_LEFT, TOKENS_LEFT + 1, TURNS_LEFT]
        + list(range(CARGO, CARGO + NUM_GOODS * n))
        + list(range(CHARTS, CHARTS + NUM_GOODS * n))
    )
    for n in (2, 3, 4)
}
#: ``_ORDER[n][seat]``: the absolute seat of each relative seat.
_ORDER = {n: [[(seat + rel) % n for rel in range(n)] for seat in range(n)] for n in (2, 3, 4)}
#: First index of each relative seat's canoe plane.
_CANOE_BASE = [(CANOE_PLANES + rel) * NUM_CELLS for rel in range(MAX_SEATS)]


def _public_template(view: View) -> np.ndarray:
    """The board template plus what changes only while exploring (the stacks, the tile in
    hand, Haumea), the same for every seat. The board tuple is replaced by the state whenever
    a tile is placed, so it is recognised by identity (and kept alive by the cache)."""
    tile_cell = view.tile_cell
    key = (id(tile_cell), view.stack_tops, view.hand_tile, view.haumea)
    entry = _TEMPLATES.get(key)
    if entry is not None and entry[0] is tile_cell:
        return entry[1]
    obs = _board_template(tile_cell, view.reefs).copy()
    ones: list[int] = [UNPLACED - 1 + k for k in view.unplaced]
    if view.haumea >= 0:
        ones += [HAUMEA_PLANE * NUM_CELLS + view.haumea, HAUMEA_IN_PLAY]
    top_a, top_b = view.stack_tops
    if top_a:
        ones.append(STACK_TOPS + top_a - 1)
    if top_b:
        ones.append(STACK_TOPS + 18 + top_b - 1)
    if view.hand_tile:
        ones.append(HAND_TILE + view.hand_tile - 1)
    obs[ones] = 1.0
    obs.flags.writeable = False
    if len(_TEMPLATES) >= _MAX_CACHED:
        _TEMPLATES.clear()
    _TEMPLATES[key] = (tile_cell, obs)
    return obs


def _island_ones(view: View) -> np.ndarray:
    """Indices of the ones that the cubes and tokens on the islands set. The state replaces
    its cube and token tuples on every change, so they too are recognised by identity."""
    tile_cell, cubes, tokens = view.tile_cell, view.island_cubes, view.tokens
    key = (id(tile_cell), id(cubes), id(tokens))
    entry = _ISLAND_ONES.get(key)
    if entry is not None and entry[0] is tile_cell and entry[1] is cubes and entry[2] is tokens:
        return entry[3]
    ones: list[int] = []
    for k, c, token in zip(ISLANDS, cubes[1:], tokens[1:]):
        if c or token:
            ones += _island_indices(k, tile_cell[k], c, token)
    indices = np.array(ones, dtype=np.intp)
    if len(_ISLAND_ONES) >= _MAX_CACHED:
        _ISLAND_ONES.clear()
    _ISLAND_ONES[key] = (tile_cell, cubes, tokens, indices)
    return indices


_TEMPLATES: dict[tuple, tuple] = {}
_ISLAND_ONES: dict[tuple, tuple] = {}
_MAX_CACHED = 16


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables)."""
    n = view.num_players
    seat = view.seat
    order = _ORDER[n][seat]
    obs = _public_template(view).copy()
    obs[_island_ones(view)] = 1.0

    canoes = view.canoes
    ones = [base + canoes[s] for base, s in zip(_CANOE_BASE, order)]
    haumea = view.haumea
    if haumea >= 0 and view.phase == PLACE:  # public: the same for every seat
        for d in placement_directions(view.cell_tile, haumea):
            ones.append(PLACEMENT_PLANE * NUM_CELLS + NEIGHBOURS[haumea][d])
    ones += [
        _PHASE_INDEX[view.phase],
        PLAYER_COUNT + n - 2,
        FIRST_PLAYER + (view.first_player - seat) % n,
        FAVOURITE + view.favourite - 1,
    ]
    live = view.current_player >= 0
    if live:
        ones.append(ACTIVE_PLAYER + (view.turn_player - seat) % n)
    bounty = view.bounty
    if bounty:
        ones.append(PENDING_CUBE + bounty[0])
    if view.revealed_token:
        ones.append(REVEALED_TOKEN + view.revealed_token - 1)
    if view.end_triggered:
        ones.append(END_TRIGGERED)
    obs[ones] = 1.0

    # raw counts (one assignment with a prepared index array), then one scaling
    bag = view.bag
    counts = [
        *view.stack_sizes,
        view.taken if live else 0,
        view.paddles if live else 0,
        *bag,
        sum(bag),
        *view.tokens_left,
        view.turns_left,
    ]
    cargo, charts = view.cargo, view.charts
    for s in order:
        counts += cargo[s]
    for s in order:
        counts += charts[s]
    obs[_COUNT_INDEX[n]] = counts
    for g in bounty[1:]:
        obs[BOUNTY_LEFT + g] += 1
    obs[VECTOR:] *= _SCALE
    return obs
