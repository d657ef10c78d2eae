"""Every worked example of spec §10, from a constructed position, with exact outcomes.

A is seat 0 and B seat 1; "T18 r0 → (4,0)" is ``("T18", 0, (4, 0))``.
"""

from __future__ import annotations

import pytest

from boardgame_envs.carcassonne_castle.castle import cell_of, grid_of
from boardgame_envs.carcassonne_castle.data import (
    BIGGER_KEEP,
    EXTRA_TURN,
    HOUSE_X2,
    MARKET_X4,
    TOWER_X2,
    UNFINISHED_PATH,
)
from boardgame_envs.carcassonne_castle.rules import (
    DOUBLE,
    EXTRA,
    FOLLOWER,
    GAME_OVER,
    ORDER,
    PLACE,
    YES,
)
from tests.carcassonne_castle.helpers import (
    FULL_CASTLE,
    PASS,
    RULES,
    A,
    B,
    legal_on,
    place,
    play,
    position,
    slot,
    tile,
)

pytestmark = pytest.mark.usefixtures("engine")  # each test on both engines (conftest.py)


# -- Example 1 -------------------------------------------------------------------------------
def test_example_1_legal_opening_placements():
    state = position(tile="T18")
    assert legal_on(state, 4, 0) == [0, 2]  # r1 illegal: G1 shows a path
    assert legal_on(state, 5, 5) == [] and legal_on(state, 4, 1) == []
    assert legal_on(state, 0, 5) == [1, 3]


def test_example_1_complete_legal_set():
    state = position(tile="T18")
    expected = [8, 10, 57, 59, 128, 130, 173, 175, 229, 231, 280, 282, 296, 298]
    assert state.legal_actions() == expected and len(expected) == 14


# -- Example 2 -------------------------------------------------------------------------------
def test_example_2_path_into_the_wall():
    state = position(tile="T28", stack=["T18"])
    assert legal_on(state, 1, 8) == [1, 2]
    play(state, 282)  # T28 r2 -> (1,8)
    assert state.phase == FOLLOWER
    play(state, 314)  # follower on the path {S, W}, slot 10
    assert state.supply == [5, 6]
    assert state.active == B and state.tile == tile("T18")
    assert legal_on(state, 0, 8) == [1, 3]
    play(state, 277)  # T18 r1 -> (0,8)
    assert state.legal_actions() == [slot(0), slot(3), PASS]  # not slot 9: A's path
    play(state, PASS)
    assert state.scores_ == [3, 0]
    assert state.supply == [6, 6]
    assert state.castle.followers == {}


# -- Example 3 -------------------------------------------------------------------------------
def test_example_3_fountain_doubles_the_path():
    state = position(("T19", 0, (4, 0)), followers={(4, 0): (A, 8)}, tile="T35", active=B)
    play(state, 30)  # T35 r2 -> (4,1)
    assert state.legal_actions() == [slot(0), slot(1), slot(4), PASS]
    play(state, 308)  # B's squire on the house
    assert state.scores_ == [6, 0]
    assert state.supply == [6, 5]
    assert list(state.castle.followers.values()) == [(B, 4)]  # the house faces empty (4,2)


# -- Example 4 -------------------------------------------------------------------------------
def test_example_4_square_ends_paths():
    state = position(("T18", 0, (4, 0)), followers={(4, 0): (A, 8)}, tile="T43", active=B)
    assert legal_on(state, 4, 1) == [0, 1, 2, 3]
    play(state, place(4, 1, 0))
    expected = [slot(s) for s in (0, 1, 3, 5, 9, 10, 11)] + [PASS]
    assert state.legal_actions() == expected
    play(state, PASS)
    assert state.scores_ == [3, 0]
    assert state.supply == [6, 6]


# -- Example 5 -------------------------------------------------------------------------------
EXAMPLE_5_BOARD = (("T18", 0, (4, 0)), ("T07", 1, (5, 0)))


@pytest.mark.parametrize(
    "start, end, takes", [(7, 11, True), (8, 12, True), (9, 13, False)], ids=["7", "8", "9"]
)
def test_example_5_tower_scored_on_the_opponents_turn(start, end, takes):
    state = position(
        *EXAMPLE_5_BOARD,
        followers={(5, 0): (A, 2)},
        tile="T07",
        active=B,
        scores=(start, 4),
        corners={1: 6},
    )
    play(state, 19)  # T07 r3 -> (6,0)
    assert state.legal_actions() == [slot(0), PASS]  # the tower is occupied
    play(state, PASS)
    assert state.scores_ == [end, 4]
    assert [k for k, _ in state.held[A]] == ([6] if takes else [])
    assert state.corners[0] == (0 if takes else 6)
    assert state.supply == [6, 6]


def test_example_5_variant_tower_completed_without_joining():
    state = position(
        *EXAMPLE_5_BOARD, followers={(5, 0): (A, 2)}, tile="T04", active=B, scores=(7, 4)
    )
    play(state, 16)  # T04 r0 -> (6,0)
    assert state.completed == [324]  # named by (6,0)'s half-port Wa = 6: 318 + 6
    play(state, PASS)
    assert state.scores_ == [9, 4]
    assert state.supply == [6, 6]


# -- Example 6 -------------------------------------------------------------------------------
@pytest.mark.parametrize("answer, score", [(YES, 28), (PASS, 24)], ids=["yes", "no"])
def test_example_6_tower_x2(answer, score):
    state = position(
        *EXAMPLE_5_BOARD,
        followers={(5, 0): (A, 2)},
        tile="T07",
        active=A,
        scores=(20, 0),
        held=[[(TOWER_X2, 3)], []],
    )
    play(state, 19, PASS)
    assert state.phase == DOUBLE and state.legal_actions() == [PASS, YES]
    play(state, answer)
    assert state.scores_ == [score, 0]
    assert state.held[A] == ([] if answer == YES else [[TOWER_X2, 3]])
    assert state.used == ([[TOWER_X2, A]] if answer == YES else [])


def test_example_6_variant_tile_taken_this_turn_cannot_double():
    state = position(
        *EXAMPLE_5_BOARD,
        followers={(5, 0): (A, 2)},
        tile="T07",
        active=A,
        scores=(7, 0),
        corners={1: TOWER_X2},
        turn=10,
    )
    play(state, 19, PASS)
    assert state.scores_ == [11, 0]
    assert state.held[A] == [[TOWER_X2, 10]]
    assert state.phase == PLACE and state.active == B  # no DOUBLE decision came
    assert state.view(A).usable == ()
    play(state, state.legal_actions()[0], PASS)  # B's turn
    assert state.active == A and TOWER_X2 in state.view(A).usable  # usable from now on


# -- Example 7 -------------------------------------------------------------------------------
def example_7(b_follower: bool) -> object:
    followers = {(3, 0): (B if b_follower else A, 0)}
    if b_follower:
        followers[(2, 1)] = (A, 0)
    return position(
        ("T18", 0, (4, 0)),
        ("T12", 3, (3, 0)),
        ("T04", 0, (3, 1)),
        ("T06", 0, (2, 1)),
        followers=followers,
        tile="T01",
        active=A,
    )


def test_example_7_majority_tie():
    state = example_7(b_follower=True)
    play(state, 0)  # T01 r0 -> (2,0)
    assert state.legal_actions() == [PASS]  # the only segment joins both occupied houses
    assert state.completed == [304]
    play(state, PASS)
    assert state.scores_ == [0, 0]
    assert state.supply == [6, 6]
    assert state.keeps == [None, None]


# -- Example 8 -------------------------------------------------------------------------------
def test_example_8_the_keep_is_placed():
    state = example_7(b_follower=False)
    play(state, 0, PASS)
    assert state.scores_ == [3, 0]
    assert state.keeps[A][0] == 3
    assert sorted(state.keeps[A][1]) == sorted([grid_of(2, 0), grid_of(3, 0), grid_of(2, 1)])


NE_HOUSE = (  # a house (8,1) + (9,2) that T14 r3 on (9,1) completes: size 3
    ("T04", 0, (9, 3)),
    ("T06", 0, (9, 2)),
    ("T03", 0, (8, 2)),
    ("T12", 0, (8, 1)),
)


def test_example_8_keep_stays_on_an_equal_house():
    state = position(
        *NE_HOUSE,
        followers={(8, 1): (A, 0)},
        tile="T14",
        active=A,
        keeps=[(3, [(2, 0), (3, 0), (2, 1)]), None],
    )
    play(state, place(9, 1, 3), PASS)
    assert state.scores_ == [3, 0]
    assert state.keeps[A][0] == 3 and len(state.keeps[A][1]) == 3
    assert state.keeps[A][1][0] == grid_of(2, 0)  # still on the first house


W_HOUSE = (  # a house (1,2) + (0,3) + (0,4) that T01 on (0,2) completes: size 4
    ("T06", 3, (1, 2)),
    ("T03", 0, (1, 3)),
    ("T05", 0, (1, 4)),
    ("T06", 0, (0, 4)),
    ("T14", 1, (0, 3)),
)


def test_example_8_keep_moves_to_a_larger_house_doubled():
    state = position(
        *W_HOUSE,
        followers={(0, 4): (A, 0)},
        tile="T01",
        active=A,
        held=[[HOUSE_X2], []],
        keeps=[(3, [(2, 0), (3, 0), (2, 1)]), None],
    )
    play(state, place(0, 2, 0), PASS)
    assert state.phase == DOUBLE
    play(state, YES)
    assert state.scores_ == [8, 0]
    assert state.keeps[A][0] == 4  # the doubling does not change the size


# -- Example 9 -------------------------------------------------------------------------------
def example_9() -> object:
    """T37 r2 on (4,0) will complete path X = G1 + (4,0) (size 2) and house Y = (4,0),
    (3,0), (5,0), (4,1), (4,2) (size 5, A's follower on (4,2))."""
    return position(
        ("T03", 0, (1, 2)),
        ("T03", 0, (2, 2)),
        ("T05", 0, (3, 2)),
        ("T06", 0, (4, 2)),
        ("T14", 1, (4, 1)),
        ("T04", 0, (5, 1)),
        ("T07", 2, (3, 1)),
        ("T11", 0, (3, 0)),
        ("T12", 3, (5, 0)),
        followers={(4, 2): (A, 0)},
        tile="T37",
        active=A,
        scores=(9, 0),
        corners={1: HOUSE_X2, 2: 9},
    )


def test_example_9_scoring_x_first_takes_two_wall_tiles():
    state = example_9()
    play(state, place(4, 0, 2), slot(8))  # A also claims the path X it completes
    assert state.phase == ORDER and state.legal_actions() == [slot(2), slot(8)]
    play(state, slot(8))  # X first: 9 -> 11 (C1), then Y: 11 -> 16 (C2)
    assert state.scores_ == [16, 0]
    assert sorted(k for k, _ in state.held[A]) == [HOUSE_X2, 9]
    assert state.keeps[A][0] == 5
    assert state.phase == PLACE and state.active == B  # the x2 taken at 11 was not offered


def test_example_9_scoring_y_first_takes_one():
    state = example_9()
    play(state, place(4, 0, 2), slot(8), slot(2))  # Y first: 9 -> 14 -> 16 (C2)
    assert state.scores_ == [16, 0]
    assert [k for k, _ in state.held[A]] == [9]
    assert state.corners[0] == HOUSE_X2
    assert state.keeps[A][0] == 5


# -- Example 10 ------------------------------------------------------------------------------
def test_example_10_both_markers_reach_the_same_corner():
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 2, (5, 0)),
        ("T13", 3, (5, 1)),
        followers={(4, 0): (A, 8), (5, 1): (B, 0)},
        tile="T35",
        active=A,
        scores=(8, 7),
        corners={1: 9},
    )
    play(state, 30)  # T35 r2 -> (4,1): path X (A's, 3) and B's tower Y (2 tiles, 4)
    assert state.completed == [slot(8), 318 + 2]
    play(state, PASS)
    assert state.scores_ == [11, 11]
    assert [k for k, _ in state.held[A]] == [9] and state.held[B] == []


# -- Example 11 ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "held, b_merchant, final_a", [([], False, 9), ([MARKET_X4], False, 12), ([], True, 0)]
)
def test_example_11_court_at_the_end(held, b_merchant, final_a):
    placements = [("T05", 0, (9, 3))]
    followers = {(9, 3): (A, 0)}
    if b_merchant:
        placements.append(("T04", 0, (9, 2)))
        followers[(9, 2)] = (B, 0)
    state = position(*placements, followers=followers, tile="T03", rest="discards", held=[held, []])
    play(state, place(1, 2, 0), PASS)  # the last tile, far from that court
    assert state.phase == GAME_OVER
    assert state.scores_ == [final_a, 0]


# -- Example 12 ------------------------------------------------------------------------------
EMPTY_12 = {(x, y) for x in (5, 6, 7) for y in (3, 4, 5)}
EMPTY_12 |= {(0, 7), (1, 7), (0, 8), (1, 8), (8, 7), (7, 8), (8, 8)}


@pytest.mark.parametrize(
    "keeps, held_b, expected",
    [
        ((5, 3), [], (9, 0)),
        ((5, 3), [BIGGER_KEEP], (0, 9)),
        ((5, None), [BIGGER_KEEP], (9, 0)),
        ((4, 4), [], (0, 0)),
    ],
    ids=["A-keeps", "B-bigger-keep", "B-no-keep", "tie"],
)
def test_example_12_keep_bonus(keeps, held_b, expected):
    state = position(
        *FULL_CASTLE[:-1],
        tile=FULL_CASTLE[-1][0],
        held=[[], held_b],
        keeps=[None if k is None else (k, [(2, 0)]) for k in keeps],
    )
    _, r, (x, y) = FULL_CASTLE[-1]
    play(state, place(x, y, r), PASS)
    assert state.phase == GAME_OVER
    assert state.castle.largest_empty_region() == 9
    keep_points = [dict((label, p) for label, p in state.final[s]).get("keep", 0) for s in (A, B)]
    assert tuple(keep_points) == expected
    assert {xy for xy in EMPTY_12} == {xy for xy in EMPTY_12 if state.castle.is_empty(cell_of(*xy))}


# -- Example 13 ------------------------------------------------------------------------------
PATHS_13 = (
    # P3: row y=2, 8 tiles, B 1 (open at (8,2))
    ("T20", 1, (1, 2)),
    ("T20", 1, (0, 2)),
    ("T21", 1, (2, 2)),
    ("T21", 1, (3, 2)),
    ("T22", 1, (4, 2)),
    ("T23", 1, (5, 2)),
    ("T25", 1, (6, 2)),
    ("T26", 1, (7, 2)),
    # P2: row y=3, 3 tiles with fountains, A 2 - B 1 (open at both ends)
    ("T19", 1, (1, 3)),
    ("T24", 1, (2, 3)),
    ("T27", 1, (3, 3)),
    # P1: G6 + row y=5, size 5, A 1 (open east and south)
    ("T18", 1, (0, 5)),
    ("T18", 1, (1, 5)),
    ("T44", 0, (2, 5)),
    ("T46", 0, (3, 5)),
)
FOLLOWERS_13 = {(4, 2): (B, 9), (1, 3): (A, 9), (2, 3): (A, 9), (3, 3): (B, 9), (1, 5): (A, 9)}


@pytest.mark.parametrize("copies, bonus", [(1, 6), (2, 11)])
def test_example_13_unfinished_path(copies, bonus):
    state = position(
        *PATHS_13,
        followers=FOLLOWERS_13,
        tile="T04",
        rest="discards",
        held=[[UNFINISHED_PATH] * copies, []],
    )
    play(state, place(9, 3, 0), PASS)
    assert state.phase == GAME_OVER
    assert state.final[A] == [["unfinished path", 6], ["unfinished path", 5]][:copies]
    assert state.scores_ == [bonus, 0]


# -- Example 14 ------------------------------------------------------------------------------
def test_example_14_unplaceable_tile_is_set_aside():
    state = position(
        ("T35", 2, (4, 0)),
        ("T35", 0, (7, 8)),
        ("T36", 0, (1, 8)),
        ("T36", 1, (0, 5)),
        stack=["T43", "T01"],
        active=A,
    )
    assert state.discards == [tile("T43")]
    assert state.tile == tile("T01") and state.phase == PLACE and state.active == A
    assert any("T43 has no legal placement" in e for e in state.events)


def test_example_14_what_fits_at_6_0():
    base = (("T20", 0, (4, 0)), ("T04", 0, (5, 0)), ("T03", 0, (5, 1)), ("T18", 0, (6, 1)))
    assert legal_on(position(*base, tile="T43"), 6, 0) == []
    assert legal_on(position(*base, tile="T01"), 6, 0) == []
    assert legal_on(position(*base, tile="T18"), 6, 0) == [0, 2]


# -- Example 15 ------------------------------------------------------------------------------
def test_example_15_track_wrap_takes_nothing_at_0_1():
    state = position(
        *EXAMPLE_5_BOARD,
        followers={(5, 0): (A, 2)},
        tile="T07",
        active=B,
        scores=(97, 0),
        corners={13: 9},
    )
    play(state, 19, PASS)
    assert state.scores_ == [101, 0] and state.held[A] == []


def test_example_15_landing_on_95():
    # A's dead end on G1: G1 + (4,0) is a complete path of 2
    state = position(tile="T35", active=A, scores=(93, 0), corners={13: 9})
    play(state, place(4, 0, 2), slot(8))
    assert state.scores_ == [95, 0] and [k for k, _ in state.held[A]] == [9]


def test_example_15_landing_on_96_on_the_opponents_turn():
    state = position(
        ("T19", 0, (4, 0)),
        followers={(4, 0): (A, 8)},
        tile="T35",
        active=B,
        scores=(90, 0),
        corners={13: 9},
    )
    play(state, 30, PASS)  # the fountain path G1-(4,0)-(4,1): 6 points
    assert state.scores_ == [96, 0] and [k for k, _ in state.held[A]] == [9]


# -- Example 16 ------------------------------------------------------------------------------
TWELVE = ["T03", "T03", "T05", "T06", "T06", "T07", "T07", "T08", "T08", "T09", "T09", "T10"]


def test_example_16_extra_turn():
    state = position(
        tile="T04",
        active=A,
        held=[[(EXTRA_TURN, 5)], []],
        turn=10,
        stack=TWELVE,
        rest="discards",
    )
    assert len(state.stack) == 12
    play(state, place(9, 3, 0), PASS)
    assert state.phase == EXTRA and state.legal_actions() == [PASS, YES]
    play(state, YES)
    assert state.active == A and state.phase == PLACE and state.extra_turn
    assert state.turn == 11 and state.tile == tile("T03")
    assert state.used == [[EXTRA_TURN, A]] and state.held[A] == []
    assert len(state.stack) == 11


def test_example_16_not_offered_when_taken_this_turn():
    state = position(tile="T04", active=A, held=[[(EXTRA_TURN, 10)], []], turn=10)
    play(state, place(9, 3, 0), PASS)
    assert state.phase == PLACE and state.active == B


def test_example_16_not_offered_on_an_empty_stack():
    state = position(tile="T04", active=A, held=[[EXTRA_TURN], []], rest="discards")
    play(state, place(9, 3, 0), PASS)
    assert state.phase == GAME_OVER


def test_rules_object_is_the_registered_one():
    assert RULES.name == "carcassonne_castle" and RULES.action_size == 326
