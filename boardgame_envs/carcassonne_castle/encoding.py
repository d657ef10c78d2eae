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
104        the just-placed tile (the tile the slot actions 304-325 refer to)           0/1
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
335     9     wall tiles I may use now, per kind (kinds 1-3, my turn, taken earlier)      / 2
344     9     wall tiles the opponent holds, per kind                                     / 2
353     9     copies per kind not yet seen: 2 - held - used                               / 2
362     2     followers in supply: me, opponent                                           / 6
364     2     keep size: me, opponent (0 without a keep)                                  / 16
366     1     tiles left in the stack (the drawn tile not counted)                        / 60
367     46    unseen tiles per type (the stack's composition, drawn tile excluded)        / 2
413     1     this turn is an extra turn                                                  0/1
414     1     tiles set aside as unplaceable                                              / 60
======  ====  ==========================================================================  =====

Every entry lies in [0, 10]: sizes / 16 stay below 67 / 16, scores are read as at most
1000. Actions are the 326 indices documented in :mod:`.rules`; the mask comes with the view.
"""

from __future__ import annotations

import numpy as np

from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
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
SPATIAL_SHAPE = (SPATIAL_CHANNELS, 11, 12)
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

#: obs index of channel 100 + r at cell c, in PLACE-action order (4c + r)
LEGAL_INDEX = np.array(
    [(LEGAL + r) * NUM_GRID + CELL_GRID[c] for c in range(len(CELL_GRID)) for r in range(4)]
)
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
FEATURES = MY_FOLLOWERS * NUM_GRID  # offset of channel 50
BLOCK = 12 * NUM_GRID  # 12 slot channels


def pending_position(name: int) -> int:
    """Position 0-19 of an ORDER name (304-315, 318-325) in the pending-feature blocks."""
    return name - SLOT_BASE if name < PASS else name - FACING_BASE + 12


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables)."""
    obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    castle = view.castle
    arrays = castle.arrays()
    me, opp = view.seat, 1 - view.seat
    obs[:FEATURES] = castle.planes.ravel()  # channels 0-49, kept by the castle
    # Channels 50-97: ``parent[seg_at]`` is the feature (root) of every slot, slot-major;
    # the castle keeps four float32 numbers per root (seat 0's and seat 1's followers / 6,
    # complete, size / 16), seen as one complex128: one gather, one transposed copy.
    roots = arrays["parent"][arrays["seg_at"]]
    values = arrays["table"][roots].view(np.float32).reshape(-1, 4).T
    block = obs[FEATURES : FEATURES + 4 * BLOCK].reshape(4, BLOCK)
    if me == 0:
        block[...] = values
    else:
        block[0] = values[1]
        block[1] = values[0]
        block[2:] = values[2:]
    if view.phase == PLACE and view.tile is not None:
        # public for both seats: the drawn tile and the board are seen by all
        mover = view.current_player == me  # else the mask is empty: compute the fits
        fits = view.mask[:NUM_PLACEMENTS] if mover else castle.placement_mask(view.tile)
        obs[LEGAL_INDEX] = fits

    # The vector, and the few spatial entries left, one scalar at a time: cheaper than
    # building index lists for so few entries.
    for channel, seat in ((MY_KEEP, me), (OPP_KEEP, opp)):
        keep = view.keeps[seat]
        if keep is not None:
            obs[KEEP_SIZES + (seat != me)] = keep[0] / 16
            for g in keep[1]:
                obs[channel * NUM_GRID + g] = 1.0
    if view.last_cell is not None:
        obs[JUST_PLACED * NUM_GRID + CELL_GRID[view.last_cell]] = 1.0
    if view.tile is not None:
        obs[TILE + view.tile] = 1.0
    if view.phase in PHASE_INDEX:
        obs[PHASE + PHASE_INDEX[view.phase]] = 1.0
    mine = 0 if view.active == me else 1
    for name in view.groups[mine]:
        obs[PENDING_MINE + pending_position(name)] = 1.0
    for name in view.groups[1 - mine]:
        obs[PENDING_OPP + pending_position(name)] = 1.0
    if view.doubling is not None:
        obs[DOUBLING + pending_position(view.doubling)] = 1.0
    obs[SCORES] = min(view.scores[me], SCORE_CAP) / 100
    obs[SCORES + 1] = min(view.scores[opp], SCORE_CAP) / 100
    obs[MY_TRACK + view.scores[me] % TRACK_LENGTH] = 1.0
    obs[OPP_TRACK + view.scores[opp] % TRACK_LENGTH] = 1.0
    obs[STOCKED : STOCKED + NUM_STOCKED] = view.stocked
    unseen = [WALL_COPIES] * 9
    for base, kinds in ((MY_WALL, view.held[me]), (OPP_WALL, view.held[opp])):
        for k in kinds:
            obs[base + k - 1] += 0.5
            unseen[k - 1] -= 1
    for k in view.usable:
        obs[MY_USABLE + k - 1] += 0.5
    for k in view.used:
        unseen[k - 1] -= 1
    for i in range(9):
        obs[UNSEEN_WALL + i] = unseen[i] / 2
    obs[SUPPLY] = view.supply[me] / 6
    obs[SUPPLY + 1] = view.supply[opp] / 6
    obs[STACK_SIZE] = view.stack_size / 60
    obs[STACK_COUNTS : STACK_COUNTS + NUM_TILE_TYPES] = view.stack_counts
    obs[STACK_COUNTS : STACK_COUNTS + NUM_TILE_TYPES] *= 0.5
    obs[EXTRA_TURN] = view.extra_turn
    obs[DISCARDS] = len(view.discards) / 60
    return obs
