"""The rules of the spec one by one (the worked examples are in test_examples.py)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgame_envs import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.carcassonne_castle import data
from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_HALVES,
    CODE_PATHS,
    CODE_SEGMENTS,
    FACING,
    GRID_CELL,
    NEIGHBOR,
    Castle,
    cell_of,
)
from boardgame_envs.carcassonne_castle.data import (
    BONUS_POINTS,
    HOUSE_X2,
    TILE_TYPES,
    TOWER_X2,
    UNFINISHED_HOUSE,
    UNFINISHED_TOWER,
    tile_index,
)
from boardgame_envs.carcassonne_castle.rules import (
    DOUBLE,
    FOLLOWER,
    GAME_OVER,
    MAX_DECISIONS_PER_TURN,
    ORDER,
    PLACE,
    YES,
)
from tests.carcassonne_castle.helpers import (
    PASS,
    RULES,
    A,
    B,
    feature,
    legal_on,
    place,
    play,
    position,
    slot,
    tile,
)

pytestmark = pytest.mark.usefixtures("engine")  # each test on both engines (conftest.py)
#: tests that edit the Python engine's fields (skipped on the native engine, conftest.py)
PYTHON_ONLY = {
    "test_pass_is_always_legal_and_an_empty_supply_allows_only_pass": "edits state.supply",
}


# -- component data (spec §2) ---------------------------------------------------------------
def test_tile_totals():
    assert sum(t.count for t in TILE_TYPES) == 60 and len(TILE_TYPES) == 46

    def kind(t):
        arms = sum(t.paths)
        path_segments = [s for s in t.segments if s.kind == data.PATH]
        if arms == 0:
            return "no path"
        if arms == 1:
            return "dead end"
        if t.square:
            return "square"
        if len(path_segments) == 1 and arms >= 3:
            return "junction"
        return "straight" if t.paths in ((1, 0, 1, 0), (True, False, True, False)) else "curve"

    counts: dict[str, int] = {}
    for t in TILE_TYPES:
        counts[kind(t)] = counts.get(kind(t), 0) + t.count
    assert counts == {
        "no path": 23,
        "straight": 13,
        "curve": 9,
        "dead end": 8,
        "square": 4,
        "junction": 3,
    }
    markets = sum(t.count * s.markets for t in TILE_TYPES for s in t.segments)
    assert markets == 12
    assert sum(s.markets for g in data.GATES for s in g.segments) == 1  # G2
    assert sum(t.count for t in TILE_TYPES if any(s.fountain for s in t.segments)) == 7


def _border_walk_segments(halves: str, paths: tuple[bool, ...]) -> set[tuple[str, frozenset]]:
    """Spec §2.2's drawing rule: consecutive half-ports of the walk Na N Nb Ea E Eb … join
    when they show the same type and the middle point between them carries no path."""
    parent = list(range(8))

    def find(k):
        while parent[k] != k:
            k = parent[k]
        return k

    for k in range(8):
        nxt = (k + 1) % 8
        middle = k // 2 if k % 2 == 0 else None  # Na-Nb share the N middle, Nb-Ea a corner
        if halves[k] == halves[nxt] and (middle is None or not paths[middle]):
            parent[find(k)] = find(nxt)
    groups: dict[int, set[int]] = {}
    for k in range(8):
        groups.setdefault(find(k), set()).add(k)
    return {(halves[min(g)], frozenset(g)) for g in groups.values()}


@pytest.mark.parametrize("t", TILE_TYPES, ids=lambda t: t.name)
def test_area_segments_follow_the_border_walk(t):
    table = {("THC"[s.kind], frozenset(s.slots)) for s in t.segments if s.kind != data.PATH}
    assert table == _border_walk_segments(t.halves, t.paths)
    path_ports = sorted(p for s in t.segments if s.kind == data.PATH for p in s.slots)
    assert path_ports == [8 + d for d in range(4) if t.paths[d]]


def test_frame():
    rows: dict[int, list[int]] = {}
    for x, y in data.PLAYABLE_CELLS:
        rows.setdefault(y, []).append(x)
    assert data.NUM_CELLS == 76
    assert rows[0] == [2, 3, 4, 5, 6] and rows[1] == list(range(2, 10))
    assert all(rows[y] == list(range(10)) for y in (2, 3, 4, 5))
    assert rows[6] == list(range(9)) and rows[7] == rows[8] == [0, 1, 2, 5, 6, 7, 8]
    # spot checks of the cell index table
    assert [cell_of(2, 0), cell_of(9, 1), cell_of(0, 2), cell_of(8, 6), cell_of(8, 8)] == [
        0,
        12,
        13,
        61,
        75,
    ]
    touched = {g.name: GRID_CELL[NEIGHBOR_OF_GATE[g.index]] for g in data.GATES}
    assert touched == {"G1": 2, "G2": 32, "G3": 74, "G4": 57, "G5": 70, "G6": 43, "G7": 14}
    for g in data.GATES:
        assert data.MAP_GATES[g.index + 1] == (g.x, g.y, g.side)


NEIGHBOR_OF_GATE = {
    g.index: next(
        CELL_GRID[c]
        for c in range(76)
        for d in range(4)
        if NEIGHBOR[c][d] >= 0 and GRID_CELL[NEIGHBOR[c][d]] < 0 and NEIGHBOR[c][d] == g_grid
    )
    for g, g_grid in zip(data.GATES, [(g.y + 1) * 12 + g.x + 1 for g in data.GATES])
}


def test_gate_sides_other_than_the_active_one_are_wall():
    # spec §2.3: the west side of (5,7) and of (2,1) are plain wall
    assert NEIGHBOR[cell_of(5, 7)][data.W] == -1
    assert NEIGHBOR[cell_of(2, 1)][data.W] == -1


def test_track_and_wall_tiles():
    spaces = [s for c in data.CORNERS for s in c.spaces]
    assert len(data.CORNERS) == 14 and len(spaces) == 28 == len(set(spaces))
    assert data.CORNERS[0].spaces == (0, 1) and not data.CORNERS[0].stocked
    assert data.NUM_STOCKED == 13
    assert sorted(data.WALL_TILES) == sorted(list(range(1, 10)) * 2)


def test_every_tile_type_fits_the_empty_castle():
    castle = Castle()
    assert all(castle.has_placement(t.index) for t in TILE_TYPES)


# -- geometry (spec §2.2) ----------------------------------------------------------------------
def test_facing_table():
    names = data.SLOT_NAMES
    faced = {names[k]: names[FACING[k]] for k in range(12)}
    assert faced == {
        "Na": "Sb",
        "Nb": "Sa",
        "Ea": "Wb",
        "Eb": "Wa",
        "Sa": "Nb",
        "Sb": "Na",
        "Wa": "Eb",
        "Wb": "Ea",
        "N": "S",
        "E": "W",
        "S": "N",
        "W": "E",
    }


@pytest.mark.parametrize("r", range(4))
def test_rotation(r):
    t = TILE_TYPES[tile_index("T21")]  # HTTTTHHH, path N-S
    code = 4 * t.index + r
    for k in range(8):
        assert CODE_HALVES[code][k] == t.halves[(k - 2 * r) % 8]
    for d in range(4):
        assert bool(CODE_PATHS[code] >> d & 1) == t.paths[(d - r) % 4]
    slots = {frozenset(s.slots) for s in CODE_SEGMENTS[code]}
    base = {frozenset(s.slots) for s in t.segments}
    turned = {frozenset((k + 2 * r) % 8 if k < 8 else 8 + (k - 8 + r) % 4 for k in s) for s in base}
    assert slots == turned


# -- DP1: placement ---------------------------------------------------------------------------
def test_corner_contact_alone_is_not_enough():
    state = position(("T04", 0, (9, 3)), tile="T03")
    assert legal_on(state, 8, 2) == []  # touches (9,3) at a corner only
    assert legal_on(state, 8, 3) == [0, 1, 2, 3]


def test_path_must_meet_path_and_no_path_meets_no_path():
    state = position(("T18", 0, (4, 0)), tile="T28")  # (4,1) requires a path on its N side
    assert legal_on(state, 4, 1) == [0, 3]  # T28 r0 (N,E) and r3 (W,N)
    # on (5,0) the W side faces (4,0)'s path-less E side: r2 (S,W) and r3 (W,N) are out
    assert legal_on(state, 5, 0) == [0, 1]


def test_a_path_may_run_into_the_wall():
    state = position(tile="T18")
    assert legal_on(state, 0, 5) == [1, 3]  # the W arm meets G6, the E arm an empty cell
    state = position(("T18", 1, (0, 5)), tile="T18")
    assert legal_on(state, 0, 4) == [1, 3]  # W path into the wall at x = -1


# -- DP2: followers ---------------------------------------------------------------------------
def test_pass_is_always_legal_and_an_empty_supply_allows_only_pass():
    state = position(tile="T03")
    play(state, place(9, 3, 0))
    assert state.legal_actions() == [slot(0), PASS]
    state = position(tile="T03")
    state.supply[A] = 0  # (where the six are does not matter to this rule)
    play(state, place(9, 3, 0))
    assert state.phase == FOLLOWER and state.legal_actions() == [PASS]


def test_follower_on_a_feature_completed_by_this_placement_scores_and_returns():
    state = position(tile="T35")
    play(state, place(4, 0, 2), slot(8))  # G1 + dead end: complete at once
    assert state.scores_ == [2, 0] and state.supply == [6, 6]


def test_merchants_never_return_during_play():
    state = position(tile="T03")
    play(state, place(9, 3, 0), slot(0))
    assert state.supply == [5, 6]
    root = feature(state, 9, 3, 0)
    assert state.castle.followers_on(root) == (1, 0)
    play(state, state.legal_actions()[0], PASS)
    assert state.supply == [5, 6]


# -- scoring resolution -------------------------------------------------------------------------
def test_majority_of_two_against_one():
    # P2 of Example 13: A 2 - B 1 on a 3-tile fountain path; T35 r? closes its east end
    state = position(
        ("T19", 1, (0, 5)),
        ("T24", 1, (1, 5)),
        ("T27", 1, (2, 5)),
        followers={(0, 5): (A, 9), (1, 5): (A, 9), (2, 5): (B, 9)},
        tile="T35",
        active=B,
    )
    play(state, place(3, 5, 1), PASS)  # dead end with its path on the W side
    assert state.scores_ == [2 * 5, 0]  # G6 + 4 tiles, fountain: 10
    assert state.supply == [6, 6]


def test_group_two_is_scored_after_group_one_and_never_doubled():
    # B's tower (Example 10) and A's path: B holds a tower x2 taken long ago
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 2, (5, 0)),
        ("T13", 3, (5, 1)),
        followers={(4, 0): (A, 8), (5, 1): (B, 0)},
        tile="T35",
        active=A,
        held=[[], [TOWER_X2]],
    )
    play(state, 30, PASS)
    assert state.scores_ == [3, 4] and state.phase == PLACE  # no DOUBLE for B's tower
    events = state.events
    first = next(i for i, e in enumerate(events) if e.startswith("P0 scores 3"))
    second = next(i for i, e in enumerate(events) if e.startswith("P1 scores 4"))
    assert first < second


def test_active_player_orders_the_opponents_group():
    # two B towers completed by one A tile: A chooses which B scores first
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 2, (5, 0)),
        ("T13", 3, (5, 1)),
        ("T07", 2, (3, 0)),
        ("T15", 2, (3, 1)),
        followers={(5, 1): (B, 0), (3, 1): (B, 0)},
        tile="T35",
        active=A,
        scores=(0, 8),
        corners={1: 9, 2: 5},
    )
    play(state, 30, PASS)
    assert state.phase == ORDER and state.current_player == A
    assert state.legal_actions() == [318 + 2, 318 + 6]  # facing E halves 2, W halves 6
    play(state, 318 + 2)  # B 8 -> 12 (C1), then 12 -> 16 (C2)
    assert state.scores_ == [0, 16] and sorted(k for k, _ in state.held[B]) == [5, 9]


def test_double_is_offered_per_feature_and_tile_used_once():
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 1, (5, 0)),
        followers={(5, 0): (A, 2)},
        tile="T07",
        held=[[TOWER_X2, HOUSE_X2], []],
    )
    play(state, 19, PASS)
    assert state.phase == DOUBLE
    assert "double" in state.describe_action(YES)
    play(state, YES)
    assert state.held[A] == [[HOUSE_X2, 0]] and state.scores_ == [8, 0]


def test_kind_six_scores_an_unfinished_house_and_leaves_the_keep_alone():
    state = position(
        ("T06", 3, (1, 2)),
        ("T03", 0, (1, 3)),
        ("T05", 0, (1, 4)),
        ("T06", 0, (0, 4)),
        followers={(0, 4): (A, 0)},
        tile="T04",
        rest="discards",
        held=[[UNFINISHED_HOUSE], []],
    )
    play(state, place(9, 3, 0), PASS)  # the last tile: the game ends
    assert state.phase == GAME_OVER
    assert ["unfinished house", 1] in state.final[A]
    assert state.keeps == [None, None]


def test_unfinished_tower_and_bonus_points_and_options():
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 1, (5, 0)),
        followers={(5, 0): (A, 2)},
        tile="T03",
        rest="discards",
        held=[[UNFINISHED_TOWER, BONUS_POINTS, BONUS_POINTS], []],
        wall9_points=7,
    )
    play(state, place(9, 3, 0), PASS)
    assert state.final[A] == [
        ["unfinished tower", 2],
        ["bonus wall tile", 7],
        ["bonus wall tile", 7],
    ]
    assert state.scores_ == [16, 0]


def test_keep_bonus_option():
    from tests.carcassonne_castle.helpers import FULL_CASTLE

    state = position(
        *FULL_CASTLE[:-1],
        tile=FULL_CASTLE[-1][0],
        held=[[], [data.BIGGER_KEEP]],
        keeps=[(5, [(2, 0)]), (3, [(3, 0)])],
        keep_bonus_tiles=1,
    )
    _, r, (x, y) = FULL_CASTLE[-1]
    play(state, place(x, y, r), PASS)
    assert ["keep", 9] in state.final[A]  # 5 > 3 + 1


# -- the end of the game ----------------------------------------------------------------------
def test_game_ends_when_the_stack_runs_out_during_the_draw():
    state = position(
        ("T35", 2, (4, 0)),
        ("T35", 0, (7, 8)),
        ("T36", 0, (1, 8)),
        ("T36", 1, (0, 5)),
        tile="T03",
        stack=["T43"],
        rest="discards",
    )
    play(state, place(9, 3, 0), PASS)  # B draws T43: unplaceable, and nothing is left
    assert state.phase == GAME_OVER and state.discards[-1] == tile("T43")


def test_winner_and_draw():
    state = position(tile="T03", rest="discards", scores=(5, 5))
    play(state, place(9, 3, 0), PASS)
    assert state.winners() == [A, B] and state.returns() == [0.0, 0.0]
    state = position(tile="T03", rest="discards", scores=(5, 4))
    play(state, place(9, 3, 0), PASS)
    assert state.winners() == [A] and state.returns() == [1.0, -1.0]


def test_max_decisions():
    assert RULES.max_decisions(2, RULES.make_config({})) == 60 * MAX_DECISIONS_PER_TURN


# -- bad input --------------------------------------------------------------------------------
def test_player_count_and_options():
    with pytest.raises(
        InvalidConfigError, match="num_players=3 is not allowed; allowed: exactly 2"
    ):
        RULES.new_state(3, seed=0)
    with pytest.raises(InvalidConfigError, match="unknown option 'colour'"):
        RULES.new_state(2, seed=0, colour="red")
    with pytest.raises(InvalidConfigError, match="keep_bonus_tiles=-1 is not allowed"):
        RULES.new_state(2, seed=0, keep_bonus_tiles=-1)


def test_illegal_actions_raise_and_change_nothing():
    state = position(tile="T18")
    before = state.to_json()
    with pytest.raises(
        IllegalActionError, match=r"action 9 \(place T18 r1 on \(4,0\) \[cell 2\]\)"
    ):
        state.apply(9)
    with pytest.raises(IllegalActionError, match="out of range 0..325; legal: 8, 10, 57"):
        state.apply(326)
    with pytest.raises(IllegalActionError, match="not an integer"):
        state.apply("8")
    with pytest.raises(IllegalActionError, match="not legal in phase PLACE for seat 0"):
        state.apply(PASS)
    assert state.to_json() == before


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(game="chess"), "snapshot is of game 'chess'"),
        (lambda d: d.update(phase="NAP"), "unknown phase 'NAP'"),
        (lambda d: d["stack"].pop(), "60 castle tiles are not each in exactly one zone"),
        (lambda d: d["boxed"].pop(), "18 wall tiles are not each in exactly one zone"),
        (lambda d: d["supply"].__setitem__(0, 5), "must add up to 6"),
        (lambda d: d["placements"].append([40, 0, 0, 0]), "was not a legal placement"),
        (lambda d: d["placements"].append([99, 0, 0, 0]), r"placements\[1\]\[0\]: 99 is out"),
        (lambda d: d.pop("scores"), "not a carcassonne_castle snapshot: missing field"),
        (lambda d: d.update(config={"x": 1}), "unknown option 'x'"),
        (lambda d: d.update(last_cell=40), "last_cell: cell 40 holds no placed tile"),
        (lambda d: d.update(groups=[[999], []]), r"groups\[0\]\[0\]: 999 is not the ORDER name"),
        (lambda d: d.update(phase="DOUBLE", last_cell=2), "DOUBLE needs the feature"),
    ],
)
def test_corrupt_snapshots_are_refused(change, message):
    state = position(("T18", 0, (4, 0)), tile="T03")
    snapshot = state.to_dict()
    snapshot = json.loads(json.dumps(snapshot))
    change(snapshot)
    with pytest.raises((InvalidStateError, InvalidConfigError), match=message):
        RULES.from_dict(snapshot)


def test_not_json():
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("{")


def test_describe_actions():
    state = position(("T18", 0, (4, 0)), followers={(4, 0): (A, 8)}, tile="T43", active=B)
    assert state.describe_action(place(4, 1, 0)) == "place T43 r0 on (4,1) [cell 7]"
    play(state, place(4, 1, 0))
    assert state.describe_action(slot(8)).startswith("follower on the path (size 3, followers 1-0)")
    assert state.describe_action(PASS) == "no follower"
    assert state.describe_action(999) == "action 999 (out of range 0..325)"


def test_view_mask_is_empty_for_the_waiting_seat():
    state = RULES.new_state(2, seed=1)
    other = 1 - state.current_player
    assert not state.view(other).legal_action_mask().any()
    assert state.view(state.current_player).legal_action_mask().any()


def test_setup():
    state = RULES.new_state(2, seed=7)
    assert state.phase == PLACE and state.turn == 1
    assert len(state.stack) + 1 + len(state.discards) == 60
    assert sum(1 for k in state.corners if k) == 13 and len(state.boxed) == 5
    assert state.supply == [6, 6] and state.scores_ == [0, 0]
    starts = {RULES.new_state(2, seed=s).start_player for s in range(20)}
    assert starts == {0, 1}
    assert np.array_equal(
        RULES.new_state(2, seed=3).view(0).observation(),
        RULES.new_state(2, seed=3).view(0).observation(),
    )
