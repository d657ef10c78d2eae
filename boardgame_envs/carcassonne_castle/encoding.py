"""Carcassonne: The Castle: the observation tensor of one seat.

The observation is ``float32[14275]``: a spatial block of 105 channels over the padded grid
(11 rows ``y = -1..9`` by 12 columns ``x = -1..10``; cell ``(x, y)`` is row ``y + 1``,
column ``x + 1``), flattened channel-major, followed by a vector of 415 numbers (spec
§11.2). It is ego-centric: "me" is the observing seat, "opp" the other. It is built from
:class:`~.rules.View` only, so it never holds the stack order or a face-down wall tile.
Slots and ports are those of :mod:`.data` (0-7 half-ports ``Na Nb Ea Eb Sa Sb Wa Wb``,
8-11 path ports ``N E S W``), after rotation. Gates are pseudo-tiles at their positions.

Spatial block (offset ``channel * 132 + row * 12 + column``):

=========  ==========================================================================  =====
channels   content                                                                     scale
=========  ==========================================================================  =====
0          playable cell                                                               0/1
1          wall / not playable (gate positions included)                               0/1
2          gate pseudo-tile                                                            0/1
3          occupied (castle tile or gate)                                              0/1
4-27       area type of half-port ``k``, one-hot T/H/C: channel ``4 + 3k + type``      0/1
28-31      path at N / E / S / W                                                       0/1
32-37      two path ports in one path segment: NE, NS, NW, ES, EW, SW                  0/1
38-41      fountain on the path segment of port N / E / S / W                          0/1
42-49      markets in the court segment of half-port ``k``                             / 2
50-61      my followers on the feature owning slot ``s`` (s = 0..11)                   / 6
62-73      opponent's followers on that feature                                        / 6
74-85      that feature is a complete tower, house or path                             0/1
86-97      that feature's size in tiles (gates count one)                              / 16
98, 99     locations of the house under my keep / the opponent's keep                  0/1
100-103    the drawn tile may be placed here in rotation 0..3 (PLACE phase)            0/1
104        the just-placed tile, FOLLOWER to EXTRA (slot actions 304-325 refer to it)  0/1
=========  ==========================================================================  =====

Vector (offset from ``VECTOR = 13860``):

======  ====  ==========================================================================  =====
offset  size  content                                                                     scale
======  ====  ==========================================================================  =====
0       46    drawn tile type one-hot (T01 first; zeros when none)                        0/1
46      5     phase one-hot: PLACE, FOLLOWER, ORDER, DOUBLE, EXTRA (zeros at the end)     0/1
51      20    pending features won by me, by ORDER position: 304-315 then 318-325         0/1
71      20    pending features won by the opponent                                        0/1
91      20    the feature under the DOUBLE decision                                       0/1
111     2     my score, the opponent's score (read as 1000 above 1000)                    / 100
113     100   my track position (score mod 100) one-hot                                   0/1
213     100   the opponent's track position one-hot                                       0/1
313     13    corner towers C1..C13 still holding a face-down wall tile                   0/1
326     9     wall tiles I hold, per kind 1..9                                            / 2
335     9     I may use a tile of this kind now (1-3; my turn, taken earlier): a flag     0/0.5
344     9     wall tiles the opponent holds, per kind                                     / 2
353     9     copies per kind not yet seen: 2 - held - used                               / 2
362     2     followers in supply: me, opponent                                           / 6
364     2     keep size: me, opponent (0 without a keep)                                  / 16
366     1     tiles left in the stack (the drawn tile not counted)                        / 60
367     46    unseen tiles per type (the stack's composition, drawn tile excluded)        / 2
413     1     this turn is an extra turn                                                  0/1
414     1     tiles set aside as unplaceable                                              / 60
======  ====  ==========================================================================  =====

"Usable now" (offset 335) is a presence flag on the wall-tile scale: 0.5 when at least one
held copy of the kind may be used now, however many (the count held is at offset 326), as
spec §11.2 lists it ("usable now per kind"). Channel 104 and the phase one-hot are zeros
once the game is over (no turn is under way).

Every entry lies in [0, 10]: sizes / 16 stay below 67 / 16, scores are read as at most
1000. Actions are the 326 indices documented in :mod:`.rules`; the mask comes with the view.
"""

from __future__ import annotations

from struct import Struct

import numpy as np

from boardgame_envs.carcassonne_castle.castle import (
    BOARD_SIZE,
    CELL_GRID,
    GRID_H,
    GRID_W,
    NUM_GRID,
)
from boardgame_envs.carcassonne_castle.data import (
    NUM_STOCKED,
    NUM_TILE_TYPES,
    TRACK_LENGTH,
    WALL_COPIES,
)
from boardgame_envs.carcassonne_castle.rules import (
    FACING_BASE,
    NUM_PLACEMENTS,
    PASS,
    PHASES,
    PLACE,
    SLOT_BASE,
    View,
)

SPATIAL_CHANNELS = 105
SPATIAL_SHAPE = (SPATIAL_CHANNELS, GRID_H, GRID_W)  # (105, 11, 12)
#: The spatial block as (channels, rows, columns): the observation's first
#: ``prod(PLANES)`` values, reshaped in C order (the env's ``layout="planes"``).
PLANES = SPATIAL_SHAPE
SPATIAL_SIZE = SPATIAL_CHANNELS * NUM_GRID  # 13860
# spatial channels
PLAYABLE, NOT_PLAYABLE, GATE, OCCUPIED = 0, 1, 2, 3
AREA = 4
PATHS = 28
PATH_LINKS = 32
FOUNTAIN = 38
MARKETS = 42
STATIC_CHANNELS = 50  # channels 0-49 depend on what stands on the location only
MY_FOLLOWERS = 50
OPP_FOLLOWERS = 62
COMPLETE = 74
SIZE = 86
MY_KEEP, OPP_KEEP = 98, 99
LEGAL = 100
JUST_PLACED = 104
# vector offsets (absolute)
VECTOR = SPATIAL_SIZE
TILE = VECTOR + 0
PHASE = VECTOR + 46
PENDING_MINE = VECTOR + 51
PENDING_OPP = VECTOR + 71
DOUBLING = VECTOR + 91
SCORES = VECTOR + 111
MY_TRACK = VECTOR + 113
OPP_TRACK = VECTOR + 213
STOCKED = VECTOR + 313
MY_WALL = VECTOR + 326
MY_USABLE = VECTOR + 335
OPP_WALL = VECTOR + 344
UNSEEN_WALL = VECTOR + 353
SUPPLY = VECTOR + 362
KEEP_SIZES = VECTOR + 364
STACK_SIZE = VECTOR + 366
STACK_COUNTS = VECTOR + 367
EXTRA_TURN = VECTOR + 413
DISCARDS = VECTOR + 414
VECTOR_SIZE = 415
OBSERVATION_SIZE = SPATIAL_SIZE + VECTOR_SIZE  # 14275
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
OBSERVATION_BOUNDS = (0.0, 10.0)
SCORE_CAP = 1000

# Channels 0-97 are kept ready by the castle, as float32 bytes (``Castle.board_parts``).
# Everything from channel 98 on (the sparse channels 98-104 and the vector) is written as
# small integer counts into a byte buffer, then divided by a per-entry divisor in one numpy
# call: cheaper than hundreds of float scalar writes. The observation is the join of the
# castle's bytes and those of the quotients; only the two scores (up to 1000) do not fit a
# byte: they are packed into the joined bytes last.
COUNTS = MY_KEEP * NUM_GRID  # offset of channel 98 = start of the counted part
assert COUNTS == BOARD_SIZE
NUM_COUNTS = OBSERVATION_SIZE - COUNTS  # 1339


def _divisors() -> np.ndarray:
    """float32[NUM_COUNTS]: what each counted entry is divided by (its scale, inverted).

    float32 division of small integers rounds exactly like ``count / d`` in Python then
    cast to float32 (double rounding is harmless for division, 53 >= 2 * 24 + 2).
    """
    divisor = np.ones(NUM_COUNTS, dtype=np.float32)
    for start, size, value in (
        (KEEP_SIZES, 2, 16),
        (MY_WALL, 9 * 4, 2),  # MY_WALL, MY_USABLE, OPP_WALL, UNSEEN_WALL
        (SUPPLY, 2, 6),
        (STACK_SIZE, 1, 60),
        (STACK_COUNTS, NUM_TILE_TYPES, 2),
        (DISCARDS, 1, 60),
    ):
        divisor[start - COUNTS : start - COUNTS + size] = value
    return divisor


DIVISORS = _divisors()
C_LEGAL = LEGAL * NUM_GRID - COUNTS
C_LEGAL_END = JUST_PLACED * NUM_GRID - COUNTS


def _legal_source() -> np.ndarray:
    """Per entry of channels 100-103: the PLACE action it shows (``4c + r`` for cell ``c``
    in rotation ``r``), or 304 off the cells (an action never legal in phase PLACE): the
    channels are one gather from the 326-entry mask."""
    source = np.full(4 * NUM_GRID, NUM_PLACEMENTS)
    for c, g in enumerate(CELL_GRID):
        for r in range(4):
            source[r * NUM_GRID + g] = 4 * c + r
    return source


LEGAL_SOURCE = _legal_source()
PHASE_INDEX = {phase: PHASE - COUNTS + i for i, phase in enumerate(PHASES)}
#: counted-part offsets (``C_`` = relative to ``COUNTS``) of the scalar-written entries
C_TILE = TILE - COUNTS
C_PENDING_MINE, C_PENDING_OPP = PENDING_MINE - COUNTS, PENDING_OPP - COUNTS
C_DOUBLING = DOUBLING - COUNTS
C_MY_TRACK, C_OPP_TRACK = MY_TRACK - COUNTS, OPP_TRACK - COUNTS
C_STOCKED = STOCKED - COUNTS
C_MY_WALL, C_MY_USABLE = MY_WALL - COUNTS - 1, MY_USABLE - COUNTS - 1  # - 1: kinds are 1-9
C_OPP_WALL, C_UNSEEN_WALL = OPP_WALL - COUNTS - 1, UNSEEN_WALL - COUNTS - 1
C_SUPPLY = SUPPLY - COUNTS  # supply to discards: written as one slice (in table order)
C_JUST_PLACED = JUST_PLACED * NUM_GRID - COUNTS
C_MY_KEEP, C_OPP_KEEP = MY_KEEP * NUM_GRID - COUNTS, OPP_KEEP * NUM_GRID - COUNTS
#: the counted part before anything is known: 2 unseen copies of each wall-tile kind
EMPTY_COUNTS = bytearray(NUM_COUNTS)
EMPTY_COUNTS[C_UNSEEN_WALL + 1 : C_UNSEEN_WALL + 10] = bytes([WALL_COPIES]) * 9


TWO_FLOATS = Struct("2f")  # the two scores, packed into the observation's bytes


def pending_position(name: int) -> int:
    """Position 0-19 of an ORDER name (304-315, 318-325) in the pending-feature blocks."""
    return name - SLOT_BASE if name < PASS else name - FACING_BASE + 12


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables)."""
    castle = view.castle
    counts = EMPTY_COUNTS[:]  # channel 98 to the end, as counts (see DIVISORS)
    numbers = np.frombuffer(counts, np.uint8)  # dtype positional: cheaper
    if view.phase == PLACE and view.tile is not None:
        # public for both seats: the drawn tile and the board are seen by all
        if view.current_player == view.seat:
            fits = view.mask
        else:  # the mask is empty: compute the fits
            fits = castle.placement_actions(view.tile)
        numbers[C_LEGAL:C_LEGAL_END] = fits[LEGAL_SOURCE]
    _count_vector(view, counts)
    tail = numbers / DIVISORS  # float32 (uint8 / float32)
    # channels 0-97 kept by the castle, then the quotients: one copy into a fresh buffer
    raw = bytearray().join((*castle.board_parts(view.seat), tail))
    # the scores: a float32 pack rounds ``score / 100`` like a numpy write of it
    me = view.seat
    scores = view.scores
    TWO_FLOATS.pack_into(
        raw,
        4 * SCORES,
        min(scores[me], SCORE_CAP) / 100,
        min(scores[1 - me], SCORE_CAP) / 100,
    )
    return np.frombuffer(raw, np.float32)


def _count_vector(view: View, counts: bytearray) -> None:
    """Channels 98, 99 and 104 and the vector (but the scores) as counts, in place."""
    me = view.seat
    opp = 1 - me
    keeps, held, scores, groups = view.keeps, view.held, view.scores, view.groups
    keep_me, keep_opp = keeps[me], keeps[opp]
    if keep_me is not None:
        for g in keep_me[1]:
            counts[C_MY_KEEP + g] = 1
    if keep_opp is not None:
        for g in keep_opp[1]:
            counts[C_OPP_KEEP + g] = 1
    last_cell, tile = view.last_cell, view.tile
    if last_cell is not None:
        counts[C_JUST_PLACED + CELL_GRID[last_cell]] = 1
    if tile is not None:
        counts[C_TILE + tile] = 1
    phase = PHASE_INDEX.get(view.phase)
    if phase is not None:
        counts[phase] = 1
    if groups[0] or groups[1]:
        mine = 0 if view.active == me else 1
        for name in groups[mine]:
            counts[C_PENDING_MINE + pending_position(name)] = 1
        for name in groups[1 - mine]:
            counts[C_PENDING_OPP + pending_position(name)] = 1
    if view.doubling is not None:
        counts[C_DOUBLING + pending_position(view.doubling)] = 1
    counts[C_MY_TRACK + scores[me] % TRACK_LENGTH] = 1
    counts[C_OPP_TRACK + scores[opp] % TRACK_LENGTH] = 1
    # bytearray(): faster than bytes() from a tuple
    counts[C_STOCKED : C_STOCKED + NUM_STOCKED] = bytearray(view.stocked)
    if held[0] or held[1] or view.used:
        for k in held[me]:
            counts[C_MY_WALL + k] += 1
            counts[C_UNSEEN_WALL + k] -= 1
        for k in held[opp]:
            counts[C_OPP_WALL + k] += 1
            counts[C_UNSEEN_WALL + k] -= 1
        for k in view.used:
            counts[C_UNSEEN_WALL + k] -= 1
        for k in view.usable:  # distinct kinds: a presence flag (module docstring)
            counts[C_MY_USABLE + k] = 1
    # supply, keep sizes, stack size, stack counts, extra turn, discards: the tail, at once
    supply = view.supply
    counts[C_SUPPLY:] = bytearray(
        (
            supply[me],
            supply[opp],
            0 if keep_me is None else keep_me[0],
            0 if keep_opp is None else keep_opp[0],
            view.stack_size,
            *view.stack_counts,
            view.extra_turn,
            len(view.discards),
        ),
    )
