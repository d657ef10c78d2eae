"""Wasabi!: the observation tensor of one seat.

The observation is ``float32[2197]``: a board tensor ``[40, 6, 7]`` flattened in C order
(plane, row, column), so that value ``plane * 42 + cell`` is plane ``plane`` at cell
``r * 7 + c``, followed by 517 features. It is built from :class:`~.rules.View` only, from
the observing seat's point of view: *relative seat* 0 is the observer, 1 its left
neighbour (the next to play), and so on; blocks of absent seats (fewer than 4 players) are
zero. The layout follows spec §11.4, plus one block (the kind about to be placed at
PLACE_TARGET) that the spec's layout left out.

Board planes (the full 6 x 7 grid for every player count; inactive cells are zero except
where noted):

=======  ===================================================================  ========
plane    content                                                              scale
=======  ===================================================================  ========
0-16     one-hot of the top tile's kind (covered cells too; covered tiles are 0/1
         public, the covered plane says they are out of play)
17-33    one-hot of the tile directly below the top (deeper tiles are left    0/1
         out; each comes up after one Chop! on its cell)
34       stack height                                                         / 4, ≤ 1
35       covered by a Wasabi! card                                            0/1
36       anchor (top-left) cell of a Wasabi! card                             0/1
37       active area                                                          0/1
38       legal empty target: active, uncovered, empty                         0/1
39       pending selection: the first Switch! cell (SWITCH_SECOND) or the     0/1
         cell a tile was chopped from (CHOPPED_TILE)
=======  ===================================================================  ========

Features (offsets into the whole observation):

======  ====  ==========================================================  ==============
offset  size  content                                                     scale
======  ====  ==========================================================  ==============
1680    17    own tiles per kind                                          / 3
1697    5     own action cards per type                                   count (≤ 2)
1702    270   own menu, 3 slots x 90: present (1), length one-hot 2..5    0/1
              (4), positions 1..5 x kind one-hot (85; zero past the
              recipe's length)
1972    3     own slots marked for discard (DISCARD_MORE)                 0/1
1975    4     own unused tokens per length 2..5                           / per player
1979    3     own cubes, score, completed recipes                         / 20, / 50,
                                                                          / 10 (≤ 4)
1982    102   relative seats 1-3, 34 each: present (1), tiles per kind    as above;
              (17, / 3), cards per type (5), recipes held per length      zero when
              (4, / 3), unused tokens per length (4), cubes, score,       absent, tiles
              completed recipes (3)                                       and cards zero
                                                                          when hidden
2084    17    pantry per kind                                             / 10
2101    5     kitchen per card type                                       / 2
2106    4     deck size per length                                        / 16
2110    16    decision point D1..D16 one-hot (all zero once over)         0/1
2126    6     card used this turn: 5 types, then "none"                   0/1
2132    1     Stack! active for the pending placement                     0/1
2133    3     placements still allowed this Step 1 (0, 1, 2), one-hot     0/1
2136    1     pending action-card picks                                   / 3
2137    17    kinds already chosen in the current gift (GIFT_PICK)        0/1
2154    17    kind of the chopped tile (CHOPPED_TILE)                     0/1
2171    3     player count one-hot (2, 3, 4)                              0/1
2174    4     own seat relative to the start player, one-hot              0/1
2178    1     this seat decides now                                       0/1
2179    1     turns played                                                / max_turns
2180    17    kind chosen for the pending placement (PLACE_TARGET);       0/1
              an addition to spec §11.4, whose 2180 values come first
======  ====  ==========================================================  ==============

Nothing in it depends on the order of a deck or the contents of another seat's recipes
(spec §7). Scores and cubes can exceed their scale through Wasabi! cubes; they are
clipped at 4, the upper bound of the observation space.

Actions (one ``Discrete(72)`` space, spec §11.2; the mask comes with the view):

=======  =====================================================  ==========================
index    meaning                                                decision points
=======  =====================================================  ==========================
0-41     ``CELL(r, c)``, index ``r * 7 + c``: placement         D4, D7, D8, D9, D10, D11,
         target, Switch! cells, Chop! target, chopped-tile      D13
         target, Wasabi! anchor, a board Wasabi! card to pick
42-58    ``KIND(k)``, ``k = index - 42``: give, place, take     D1, D3, D5, D15
59-63    ``CARD(t)``, ``t = index - 59`` (Stack!, Spicy!,       D3, D6, D13, D14
         Switch!, Chop!, Wasabi!): play, take, discard
64-67    ``LENGTH(L)``, ``L = index - 62``: deck to draw from   D2, D16
68-70    ``RECIPE_SLOT(i)``, ``i = index - 68``: discard        D3, D12
71       ``DONE``: decline / stop                               D3, D5, D6, D10, D12, D13,
                                                                D15, D16
=======  =====================================================  ==========================
"""

from __future__ import annotations

import functools

import numpy as np

from boardgame_envs.wasabi.data import (
    LENGTHS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_KINDS,
    RECIPES,
    TOKENS,
)
from boardgame_envs.wasabi.rules import PHASE_INDEX, View, covered_cells, geometry

MAX_SEATS = 4
NUM_PLANES = 40
# board planes
TOP = 0
BELOW = 17
HEIGHT = 34
COVERED = 35
ANCHOR = 36
ACTIVE = 37
EMPTY_TARGET = 38
SELECTED = 39
BOARD_SIZE = NUM_PLANES * NUM_CELLS
# features
OWN_TILES = BOARD_SIZE  # 1680
OWN_CARDS = OWN_TILES + 17
MENU = OWN_CARDS + 5
MENU_SLOT_SIZE = 90
MARKED = MENU + 3 * MENU_SLOT_SIZE
OWN_TOKENS = MARKED + 3
OWN_STATS = OWN_TOKENS + 4
OPPONENTS = OWN_STATS + 3
OPPONENT_SIZE = 34
PANTRY = OPPONENTS + 3 * OPPONENT_SIZE
KITCHEN = PANTRY + 17
DECKS = KITCHEN + 5
DECISION = DECKS + 4
CARD_USED = DECISION + 16
STACK_ON = CARD_USED + 6
PLACEMENTS = STACK_ON + 1
PICKS = PLACEMENTS + 3
GIFT = PICKS + 1
LIFTED = GIFT + 17
PLAYER_COUNT = LIFTED + 17
SEAT_FROM_START = PLAYER_COUNT + 3
DECIDER = SEAT_FROM_START + 4
TURN = DECIDER + 1
PENDING_KIND = TURN + 1
OBSERVATION_SIZE = PENDING_KIND + 17
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
#: Every slot is in [0, 1] except cards per type (≤ 2) and the clipped cubes and scores.
OBSERVATION_BOUNDS = (0.0, 4.0)
CLIP = OBSERVATION_BOUNDS[1]

# Opponent block offsets (relative to the block).
OPP_PRESENT, OPP_TILES, OPP_CARDS, OPP_RECIPES, OPP_TOKENS, OPP_STATS = 0, 1, 18, 23, 27, 31

# Raw counts are written first; one multiplication by SCALE then applies every scale (the
# memoised board planes are stored scaled).
SCALE = np.ones(OBSERVATION_SIZE, dtype=np.float32)
_TOKEN_SCALE = [1 / TOKENS[L].per_player for L in LENGTHS]
_STATS_SCALE = [1 / 20, 1 / 50, 1 / 10]  # cubes, score, completed recipes
SCALE[OWN_TILES : OWN_TILES + NUM_KINDS] = 1 / 3
SCALE[OWN_TOKENS : OWN_TOKENS + 4] = _TOKEN_SCALE
SCALE[OWN_STATS : OWN_STATS + 3] = _STATS_SCALE
for _rel in range(MAX_SEATS - 1):
    _base = OPPONENTS + _rel * OPPONENT_SIZE
    SCALE[_base + OPP_TILES : _base + OPP_TILES + NUM_KINDS] = 1 / 3
    SCALE[_base + OPP_RECIPES : _base + OPP_RECIPES + 4] = 1 / 3
    SCALE[_base + OPP_TOKENS : _base + OPP_TOKENS + 4] = _TOKEN_SCALE
    SCALE[_base + OPP_STATS : _base + OPP_STATS + 3] = _STATS_SCALE
SCALE[PANTRY : PANTRY + NUM_KINDS] = 1 / 10
SCALE[KITCHEN : KITCHEN + NUM_CARD_TYPES] = 1 / 2
SCALE[DECKS : DECKS + 4] = 1 / 16
_MAX_CUBES = int(CLIP * 20)  # cubes / 20 and score / 50 are clipped at CLIP
_MAX_SCORE = int(CLIP * 50)

_ACTIVE_PLANE = {
    columns: np.array(geometry(columns).is_active, dtype=np.float32) for columns in (5, 6, 7)
}
_ACTIVE_CELLS = {columns: geometry(columns).active for columns in (5, 6, 7)}
# Menu one-hots of each recipe: offsets within a 90-slot block.
_RECIPE_ONES = tuple(
    (0, 1 + r.length - 2, *(5 + i * NUM_KINDS + k for i, k in enumerate(r.kinds))) for r in RECIPES
)
_ABSENT = (0,) * OPPONENT_SIZE
_HIDDEN_HAND = (0,) * (NUM_KINDS + NUM_CARD_TYPES)
_EMPTY_TARGET = EMPTY_TARGET * NUM_CELLS
_BELOW = BELOW * NUM_CELLS
_COVERED = COVERED * NUM_CELLS
_ANCHOR = ANCHOR * NUM_CELLS
_HEIGHT = HEIGHT * NUM_CELLS
_ACTIVE = ACTIVE * NUM_CELLS


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables).

    Few numpy calls: the board planes come from a memo (most decisions leave the board
    as it was), raw counts go into two contiguous slices and every one-hot into one index
    list; one multiplication then applies every scale.
    """
    n = view.num_players
    seat = view.seat
    obs = np.concatenate((_board_planes(view), _NO_FEATURES))

    tiles, cards, tokens = view.tiles, view.cards, view.tokens
    done = [len(c) for c in view.completed]
    # Cubes and scores are clipped here, so that scaled they stay within CLIP (and within
    # a byte, see below).
    cubes = [min(c, _MAX_CUBES) for c in view.cubes]
    scores = [min(s, _MAX_SCORE) for s in view.scores]
    own_tiles, own_cards = tiles[seat], cards[seat]
    assert own_tiles is not None and own_cards is not None  # a seat sees its own hand
    # Own tokens and stats, the opponents in seating order from the observer's left, the
    # supplies: one contiguous run of raw counts. Every count is a small integer, and
    # bytes -> uint8 -> float32 is much faster than converting Python ints one by one.
    counts = tokens[seat] + (cubes[seat], scores[seat], done[seat])
    for rel in range(1, n):
        s = (seat + rel) % n
        held = [0, 0, 0, 0, 0, 0]  # recipes held, indexed by length (0: an empty slot)
        for length in view.menu_lengths[s]:
            held[length] += 1
        hand = _HIDDEN_HAND if tiles[s] is None or cards[s] is None else tiles[s] + cards[s]
        counts += (1, *hand, *held[2:], *tokens[s], cubes[s], scores[s], done[s])
    counts += _ABSENT * (MAX_SEATS - n) + view.pantry + view.kitchen + view.deck_sizes
    obs[OWN_TOKENS:DECISION] = np.frombuffer(bytes(counts), dtype=np.uint8)
    obs[OWN_TILES:MENU] = np.frombuffer(bytes(own_tiles + own_cards), dtype=np.uint8)

    ones = [
        CARD_USED + (5 if view.card_used is None else view.card_used),
        PLACEMENTS + min(view.placements_left, 2),
        PLAYER_COUNT + n - 2,
        SEAT_FROM_START + (seat - view.start_player) % n,
    ]
    if view.menu != _NO_MENU:
        obs[MENU:MARKED] = menu_block(view.menu)
    if view.marked:
        ones += [MARKED + slot for slot in view.marked]
    phase = PHASE_INDEX.get(view.phase)
    if phase is not None:
        ones.append(DECISION + phase)
    if view.selected is not None:
        ones.append(SELECTED * NUM_CELLS + view.selected)
    if view.stack_on:
        ones.append(STACK_ON)
    if view.gift:
        ones += [GIFT + k for k in view.gift]
    if view.lifted is not None:
        ones.append(LIFTED + view.lifted)
    if view.kind is not None:
        ones.append(PENDING_KIND + view.kind)
    if view.current_player == seat:
        ones.append(DECIDER)
    obs[ones] = 1.0
    obs[PICKS] = view.picks
    obs[TURN] = min(view.turn / view.max_turns, 1.0)
    features = obs[BOARD_SIZE:]
    features *= _FEATURE_SCALE
    return obs


#: Board planes by the identity of the stacks tuple they were made from (the rules engine
#: hands out the same tuple while a board is unchanged); each entry holds its tuple, so
#: that an id is never reused while its entry lives.
_PLANES_BY_BOARD: dict[int, tuple[tuple, tuple, int, np.ndarray]] = {}
_NO_MENU = (None, None, None)
_NO_FEATURES = np.zeros(OBSERVATION_SIZE - BOARD_SIZE, dtype=np.float32)
_FEATURE_SCALE = SCALE[BOARD_SIZE:]


def _board_planes(view: View) -> np.ndarray:
    entry = _PLANES_BY_BOARD.get(id(view.stacks))
    if entry is None or entry[0] is not view.stacks or entry[1:3] != (view.anchors, view.columns):
        if len(_PLANES_BY_BOARD) > 256:
            _PLANES_BY_BOARD.clear()
        planes = board_planes(view.columns, view.stacks, view.anchors)
        entry = (view.stacks, view.anchors, view.columns, planes)
        _PLANES_BY_BOARD[id(view.stacks)] = entry
    return entry[3]


@functools.lru_cache(maxsize=4096)
def menu_block(menu: tuple[int | None, ...]) -> np.ndarray:
    """The 270 menu values of a menu (recipe ids per slot); read-only (shared)."""
    block = np.zeros(3 * MENU_SLOT_SIZE, dtype=np.float32)
    for slot, recipe in enumerate(menu):
        if recipe is not None:
            block[[slot * MENU_SLOT_SIZE + i for i in _RECIPE_ONES[recipe]]] = 1.0
    block.flags.writeable = False
    return block


@functools.lru_cache(maxsize=256)
def board_planes(
    columns: int, stacks: tuple[tuple[int, ...], ...], anchors: tuple[int, ...]
) -> np.ndarray:
    """Planes 0-38 of a board, scaled and flat (plane 39 is zero); read-only (shared)."""
    planes = np.zeros(BOARD_SIZE, dtype=np.float32)
    ones: list[int] = []
    covered = covered_cells(anchors)
    for cell in _ACTIVE_CELLS[columns]:
        stack = stacks[cell]
        if stack:
            ones.append(stack[-1] * NUM_CELLS + cell)
            if len(stack) > 1:
                ones.append(_BELOW + stack[-2] * NUM_CELLS + cell)
        elif not covered[cell]:
            ones.append(_EMPTY_TARGET + cell)
    for anchor in anchors:
        ones += [_COVERED + c for c in (anchor, anchor + 1, anchor + 7, anchor + 8)]
        ones.append(_ANCHOR + anchor)
    planes[ones] = 1.0
    planes[_HEIGHT : _HEIGHT + NUM_CELLS] = [min(len(s), 4) / 4 for s in stacks]
    planes[_ACTIVE : _ACTIVE + NUM_CELLS] = _ACTIVE_PLANE[columns]
    planes.flags.writeable = False
    return planes
