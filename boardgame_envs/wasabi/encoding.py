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
1972    3     own slots marked for discard (DISCARD_MORE; zero for the    0/1
              other seats, v1)
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
              an addition to spec §11.4, whose 2180 values come first;
              under ``hide_opponent_hands`` zero for all but the placer
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

import itertools
from typing import Any

import numpy as np

from boardgame_envs.wasabi.data import (
    GRID_COLUMNS,
    LENGTHS,
    MENU_SLOTS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_KINDS,
    RECIPES,
    ROWS,
    TOKENS,
)
from boardgame_envs.wasabi.rules import (
    GAME_OVER,
    PHASE_INDEX,
    PHASES,
    View,
    covered_cells,
    geometry,
)

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
#: The board tensor as (planes, rows, columns): the observation's first ``prod(PLANES)``
#: values, reshaped in C order (the env's ``layout="planes"``).
PLANES = (NUM_PLANES, ROWS, GRID_COLUMNS)  # (40, 6, 7)
CLIP = OBSERVATION_BOUNDS[1]

# Opponent block offsets (relative to the block).
OPP_PRESENT, OPP_TILES, OPP_CARDS, OPP_RECIPES, OPP_TOKENS, OPP_STATS = 0, 1, 18, 23, 27, 31

# Every value is first a small integer (a count, a stack height or a 0/1); one
# multiplication by SCALE then applies every scale.
SCALE = np.ones(OBSERVATION_SIZE, dtype=np.float32)
SCALE[HEIGHT * NUM_CELLS : (HEIGHT + 1) * NUM_CELLS] = 1 / 4
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

_ACTIVE_CELLS = {columns: geometry(columns).active for columns in (5, 6, 7)}
_HIDDEN_HAND = (0,) * (NUM_KINDS + NUM_CARD_TYPES)
_EMPTY_TARGET = EMPTY_TARGET * NUM_CELLS
_BELOW = BELOW * NUM_CELLS
_COVERED = COVERED * NUM_CELLS
_ANCHOR = ANCHOR * NUM_CELLS
_HEIGHT = HEIGHT * NUM_CELLS
_ACTIVE = ACTIVE * NUM_CELLS


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module tables).

    Two numpy calls: every value is first a small integer (a count, a height or a 0/1), so
    the whole observation is joined as 2,197 bytes, mostly ready-made pieces from tables
    and memos, and one multiplication by SCALE turns them into scaled float32 (bytes ->
    uint8 -> float32 is much faster than converting Python ints one by one). Only the
    turn fraction and the rare plane 39 are written afterwards.
    """
    n = view.num_players
    seat = view.seat
    menu = view.menu
    raw = b"".join(
        (
            _board_bytes(view),  # plane 39 zero
            _own_hand_bytes(view.tiles[seat], view.cards[seat]),
            _SLOT_BYTES[menu[0]],
            _SLOT_BYTES[menu[1]],
            _SLOT_BYTES[menu[2]],
            # The marks are the active player's; an observer sees only its own.
            _marked_bytes(view.marked) if view.active == seat else _NO_MARKED,
            _counts_bytes(view),
            _PHASE_BYTES[view.phase],
            _CARD_USED_BYTES[view.card_used],
            _STEP_BYTES[view.stack_on, view.placements_left, view.picks],
            _gift_bytes(view.gift),
            _KIND_BYTES[view.lifted],
            # PLAYER_COUNT, SEAT_FROM_START, DECIDER and a 0 for TURN
            _SEATING_BYTES[n, (seat - view.start_player) % n, view.current_player == seat],
            _KIND_BYTES[view.kind],
        )
    )
    obs = np.frombuffer(raw, dtype=np.uint8) * SCALE
    obs[TURN] = min(view.turn / view.max_turns, 1.0)
    if view.selected is not None:
        obs[SELECTED * NUM_CELLS + view.selected] = 1.0
    return obs


def _own_hand_bytes(tiles: tuple[int, ...] | None, cards: tuple[int, ...] | None) -> bytearray:
    assert tiles is not None and cards is not None  # a seat sees its own hand
    return bytearray(tiles + cards)  # bytearray(): faster than bytes() from a tuple


def _marked_bytes(marked: tuple[int, ...]) -> bytes:
    if not marked:
        return _NO_MARKED
    return bytes([slot in marked for slot in range(MENU_SLOTS)])


def _gift_bytes(gift: tuple[int, ...]) -> bytes:
    if not gift:
        return _NO_KIND
    return bytes([k in gift for k in range(NUM_KINDS)])


def _counts_bytes(view: View) -> bytes:
    """Offsets OWN_TOKENS to DECISION: own tokens and stats, the opponents in seating order
    from the observer's left, the supplies; raw counts."""
    n, seat = view.num_players, view.seat
    tiles, cards, tokens = view.tiles, view.cards, view.tokens
    lengths, completed = view.menu_lengths, view.completed
    cubes, scores = view.cubes, view.scores
    if max(scores) > _MAX_CUBES:  # scores >= cubes, so nothing to clip below that
        # Clipped here, so that scaled they stay within CLIP (and within a byte).
        cubes = tuple([min(c, _MAX_CUBES) for c in cubes])
        scores = tuple([min(s, _MAX_SCORE) for s in scores])
    # bytearray() of a tuple: faster than bytes() of it.
    parts = [bytearray(tokens[seat] + (cubes[seat], scores[seat], len(completed[seat])))]
    for rel in range(1, n):
        s = (seat + rel) % n
        parts.append(
            _opponent_bytes(
                tiles[s], cards[s], lengths[s], tokens[s], cubes[s], scores[s], len(completed[s])
            )
        )
    parts.append(bytearray(_ABSENT_SEATS[n] + view.pantry + view.kitchen + view.deck_sizes))
    return b"".join(parts)


def _opponent_bytes(*seat_data: Any) -> bytes:
    """The 34 values of an opponent block from (tiles, cards, menu lengths, tokens, cubes,
    score, completed recipes), memoised: a seat's data stays the same while the others
    play, and hashing the key is faster than converting it."""
    block = _OPPONENT_BYTES.get(seat_data)
    if block is None:
        tiles, cards, lengths, tokens, *stats = seat_data
        hand = _HIDDEN_HAND if tiles is None or cards is None else tiles + cards
        if len(_OPPONENT_BYTES) > 4096:
            _OPPONENT_BYTES.clear()
        block = _OPPONENT_BYTES[seat_data] = bytes((1, *hand, *_HELD[lengths], *tokens, *stats))
    return block


_OPPONENT_BYTES: dict[tuple, bytes] = {}


def _one_hot(size: int, index: int | None) -> bytes:
    return bytes([i == index for i in range(size)])


def _slot_bytes(recipe: int) -> bytes:
    """The 90 menu values of one slot holding ``recipe``: present, length one-hot 2..5,
    positions 1..5 x kind one-hot."""
    raw = bytearray(MENU_SLOT_SIZE)
    r = RECIPES[recipe]
    raw[0] = 1
    raw[1 + r.length - 2] = 1
    for position, kind in enumerate(r.kinds):
        raw[5 + position * NUM_KINDS + kind] = 1
    return bytes(raw)


#: Per recipe id (or None: an empty slot): the 90 values of a menu slot.
_SLOT_BYTES = {r: _slot_bytes(r) for r in range(len(RECIPES))}
_SLOT_BYTES[None] = bytes(MENU_SLOT_SIZE)
_NO_MARKED = bytes(MENU_SLOTS)
_NO_KIND = bytes(NUM_KINDS)
#: Per kind (or None): a one-hot of 17 (lifted tile, pending kind).
_KIND_BYTES = {k: _one_hot(NUM_KINDS, k) for k in (None, *range(NUM_KINDS))}
#: Per phase: the decision point one-hot, all zero once the game is over.
_PHASE_BYTES = {phase: _one_hot(len(PHASE_INDEX), PHASE_INDEX.get(phase)) for phase in PHASES}
_PHASE_BYTES[GAME_OVER] = bytes(len(PHASE_INDEX))
#: Per card type used (or None): 5 types, then "none".
_CARD_USED_BYTES = {t: _one_hot(NUM_CARD_TYPES + 1, t) for t in range(NUM_CARD_TYPES)}
_CARD_USED_BYTES[None] = _one_hot(NUM_CARD_TYPES + 1, NUM_CARD_TYPES)
#: (stack_on, placements_left, picks) -> STACK_ON, PLACEMENTS one-hot (0, 1, 2), PICKS.
#: At most 2 placements (one Spicy! per turn) and 3 picks (one per completed recipe; the
#: menu of 3 is refilled only after the picks).
_STEP_BYTES = {
    (stack_on, left, picks): bytes([stack_on]) + _one_hot(3, left) + bytes([picks])
    for stack_on in (False, True)
    for left in range(3)
    for picks in range(MENU_SLOTS + 1)
}
#: (players, seat relative to the start player, decides now) -> PLAYER_COUNT,
#: SEAT_FROM_START, DECIDER, and 0 for TURN (written as a float afterwards).
_SEATING_BYTES = {
    (n, rel, decider): _one_hot(3, n - 2) + _one_hot(MAX_SEATS, rel) + bytes([decider, 0])
    for n in range(2, MAX_SEATS + 1)
    for rel in range(n)
    for decider in (False, True)
}
#: Per seat's menu lengths (0: an empty slot): recipes held per length 2..5.
_HELD = {
    lengths: tuple(lengths.count(length) for length in LENGTHS)
    for lengths in itertools.product((0, *LENGTHS), repeat=MENU_SLOTS)
}
_ABSENT_SEATS = {n: (0,) * OPPONENT_SIZE * (MAX_SEATS - n) for n in range(2, MAX_SEATS + 1)}


#: Board bytes by the identity of the stacks tuple they were made from (the rules engine
#: replaces the tuple when the board changes, so an unchanged board is the same object);
#: each entry holds its tuple, so that an id is never reused while its entry lives.
_BOARD_BY_STACKS: dict[int, tuple[tuple, tuple, int, bytes]] = {}


def _board_bytes(view: View) -> bytes:
    entry = _BOARD_BY_STACKS.get(id(view.stacks))
    if entry is None or entry[0] is not view.stacks or entry[1:3] != (view.anchors, view.columns):
        if len(_BOARD_BY_STACKS) > 256:
            _BOARD_BY_STACKS.clear()
        raw = board_bytes(view.columns, view.stacks, view.anchors)
        entry = (view.stacks, view.anchors, view.columns, raw)
        _BOARD_BY_STACKS[id(view.stacks)] = entry
    return entry[3]


def board_bytes(
    columns: int, stacks: tuple[tuple[int, ...], ...], anchors: tuple[int, ...]
) -> bytes:
    """Planes 0-38 of a board, unscaled (heights clipped at 4; plane 39 is zero)."""
    raw = bytearray(BOARD_SIZE)
    covered = covered_cells(anchors)
    for cell in _ACTIVE_CELLS[columns]:
        raw[_ACTIVE + cell] = 1
        stack = stacks[cell]
        if stack:
            raw[stack[-1] * NUM_CELLS + cell] = 1
            raw[_HEIGHT + cell] = min(len(stack), 4)
            if len(stack) > 1:
                raw[_BELOW + stack[-2] * NUM_CELLS + cell] = 1
        elif not covered[cell]:
            raw[_EMPTY_TARGET + cell] = 1
    for anchor in anchors:
        for c in (anchor, anchor + 1, anchor + GRID_COLUMNS, anchor + GRID_COLUMNS + 1):
            raw[_COVERED + c] = 1
        raw[_ANCHOR + anchor] = 1
    return bytes(raw)
