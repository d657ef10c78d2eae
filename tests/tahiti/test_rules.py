"""Each rule of the spec, the components' totals, options, and bad input."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from boardgame_envs.core.rules import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.tahiti import data
from boardgame_envs.tahiti.rules import (
    ACTION,
    DELIVER,
    DEPLETE,
    END,
    FISH_ACTION,
    GAME_OVER,
    HARVEST_BASE,
    HAUMEA_MOVE,
    HAUMEA_STEP,
    PLACE,
    STACK,
    cell_of,
    favourite_bonus,
    score_charts,
)
from tests.tahiti.helpers import (
    ENGINES,
    RULES,
    cube_on,
    engine_rules,
    goods,
    island,
    island_action,
    position,
    reference,
    script_draws,
)


def legal(state) -> set[int]:
    return set(state.legal_actions())


# -- components (§2) ---------------------------------------------------------------------------
def test_island_tiles_match_the_spec_totals():
    table = data.ISLAND_TABLE
    assert len(table) == 18
    pairs = Counter(frozenset(row[:2]) for row in table.values())
    assert all(len(pair) == 2 for pair in pairs) and sorted(pairs.values()) == [3] * 6
    crops = Counter(g for row in table.values() for g in row[:2])
    assert crops == {g: 9 for g in data.CROPS}  # 36 goods spaces, 9 per crop
    patterns = {"adjacent": set(), "one apart": set(), "opposite": set()}
    for k, (_, _, (a, b), _) in table.items():
        gap = min((b - a) % 6, (a - b) % 6)
        patterns[{1: "adjacent", 2: "one apart", 3: "opposite"}[gap]].add(k)
    assert patterns == {
        "adjacent": {1, 4, 9, 11, 15, 17},
        "one apart": {2, 5, 7, 12, 13, 18},
        "opposite": {3, 6, 8, 10, 14, 16},
    }
    monarch = [k for k, row in table.items() if row[3] == "A"]
    other = [k for k, row in table.items() if row[3] == "B"]
    assert monarch == [1, 2, 3, 4] and other == [5, 6, 7]
    assert Counter(g for k in monarch for g in table[k][:2]) == {g: 2 for g in data.CROPS}


def test_other_components():
    assert data.TOTAL_CUBES == 80 and data.NUM_GOODS == 5
    assert sum(data.TOKEN_COUNTS.values()) == data.NUM_TOKENS == 18
    assert data.TOKEN_COUNTS == {data.PLAIN: 12, data.FISHING: 6}
    assert len(data.FAVOURITES) == 7
    assert all(data.FISH not in pair for pair in data.FAVOURITES.values())
    four = Counter(g for f in data.FAVOURITE_SETS[4] for g in data.FAVOURITES[f])
    assert four == {g: 2 for g in data.CROPS}
    assert data.SET_BONUS == (0, 3, 7, 12, 18, 25, 33, 42, 52, 63, 75, 88, 102, 117, 133, 150, 168)
    assert [data.paddles(n) for n in range(6)] == [4, 4, 4, 3, 2, 1]
    assert data.CUBES_REMOVED_PER_KIND == {2: 4, 3: 2, 4: 0}
    assert data.WATERS == (19, 20, 21) and data.tile_name(19) == "W1"


@pytest.mark.parametrize(
    "n, expected",
    [
        (4, {"W1": 0, "W2": 0, "I01": {4, 5}, "I02": {5, 1}, "I03": {1, 4}, "I04": {2, 3}}),
        (3, {"W1": 0, "W2": 0, "W3": 0, "I05": {4, 0}, "I06": {0, 3}, "I07": {2, 4}}),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_setup_layout_world_reefs(n, expected, engine):
    state = reference(engine_rules(engine).new_state(n, seed=0))
    for name, edges in expected.items():
        mask = state.reefs[data.TILE_IDS[name]]
        assert mask == sum(1 << d for d in (edges or ()))
    home = {4: {1, 2, 4, 5}, 3: {1, 3, 5}}[n]
    assert state.reefs[data.HOME] == sum(1 << d for d in home)
    # water on the open sides (0 reefs), islands on the reef sides (2 reefs)
    for d in range(6):
        assert state.reefs_between(cell_of(0, 0), d) == (2 if d in home else 0)


@pytest.mark.parametrize("engine", ENGINES)
def test_setup_deals_favourites_and_conserves_tiles(engine):
    for n in (2, 3, 4):
        for seed in range(5):
            state = reference(engine_rules(engine).new_state(n, seed=seed))
            assert sorted(state.favourites + state.unused_favourites) == sorted(
                data.FAVOURITE_SETS[n]
            )
            assert len(state.unused_favourites) == (1 if n == 2 else 0)
            places = state.tile_places()
            assert sum(len(v) for v in places.values()) == 21
            assert places["box"] == ([] if n == 3 else [21])  # W3 unused with 2 or 4 players
            assert state.canoes == [cell_of(0, 0)] * n and state.haumea == cell_of(0, 0)
            assert state.cube_count() == 80


# -- Explore (§4.1) ----------------------------------------------------------------------------
def test_haumea_must_move_off_a_non_edge_tile_and_may_stay_on_an_edge_tile():
    state = position(4, haumea=(1, 0), phase=HAUMEA_MOVE)  # W1: an edge tile
    assert legal(state) == {2, 4, 6}  # NW to I01, SW to I04, stay; never to home
    state = position(4, haumea=(0, 0), phase=HAUMEA_MOVE)
    assert 6 not in legal(state)


def rare_case_position():
    """3 players, every position within distance 2 of home filled, Haumea on home."""
    return position(
        3,
        full_board=True,
        leave_out=["I16", "I17", "I18"],
        haumea=(0, 0),
        phase=HAUMEA_STEP,
    )


def test_haumea_rare_case_steps_toward_the_nearest_edge_tile():
    state = rare_case_position()
    state._begin_turn(0)  # the turn start picks the rare-case phase itself
    assert state.phase == HAUMEA_STEP and state.edge_cells.isdisjoint(
        {cell_of(0, 0), cell_of(1, 0), cell_of(0, 1)}
    )
    assert legal(state) == {0, 1, 2, 3, 4, 5}  # every ring-1 tile is one closer
    state.apply(0)  # to W1 at (1, 0): still not an edge tile
    assert state.phase == HAUMEA_STEP and legal(state) == {0, 1, 5}
    state.apply(1)  # to (2, -1), a ring-2 tile: an edge tile
    assert state.haumea == cell_of(2, -1) and state.phase == STACK


def test_placement_needs_two_placed_neighbours_and_offers_every_rotation():
    state = position(4, haumea=(1, 0), phase=PLACE, hand_tile="I05")
    # around W1 (1, 0): (2, 0) touches W1 only; (2, -1) touches W1 and I01; (1, 1) W1 and I04
    assert legal(state) == set(range(9 + 6, 9 + 12)) | set(range(9 + 30, 9 + 36))
    state = position(4, haumea=(1, -1), phase=PLACE, hand_tile="I05")
    assert legal(state) == set(range(9, 15)) | set(range(21, 27))


def test_the_stack_choice_shows_both_tops():
    a = ["I07", "I06", "I08", "I10", "I11", "I12", "I13"]
    b = ["I09", "I05", "I14", "I15", "I16", "I17", "I18"]
    state = position(4, haumea=(1, 0), phase=STACK, stacks=(a, b))
    assert legal(state) == {7, 8}
    view = state.view(0)
    assert view.stack_tops == (7, 9) and view.stack_sizes == (7, 7)
    state.apply(8)
    assert state.hand_tile == 9 and state.stacks[1][0] == 5 and state.phase == PLACE


# -- Haumea's bounty (§4.2) --------------------------------------------------------------------
def test_bounty_with_no_space_is_set_aside_and_returned():
    state = position(4, haumea=(1, -1), phase=PLACE, hand_tile="I05")
    bag = list(state.bag)
    script_draws(state, ["coconut", "banana", "fish"])  # every space on the table is full
    state.apply(9)  # I05 (coconut/spice) at (2, -1): its coconut space takes the coconut
    assert cube_on(state, "I05", "coconut") and state.phase == ACTION
    assert [a - b for a, b in zip(state.bag, bag)] == [-1, 0, 0, 0, 0]


def test_bounty_skips_depleted_islands_and_draws_what_the_bag_holds():
    cubes = {"I01": "CB", "I02": "TS", "I04": "BS"}
    state = position(
        4, cubes=cubes, tokens={"I03": "plain"}, haumea=None, phase=ACTION, full_board=True
    )
    # I03 (coconut/taro) is depleted: a coconut has other islands to go to, never I03
    for k in range(1, 19):
        assert k == island("I03") or state.tile_cell[k] >= 0
    spaces = state._bounty_spaces(data.COCONUT)
    assert island("I03") not in spaces and len(spaces) >= 2
    # a bag of one cube: a bounty of 2 draws just that cube
    state.bag = [0, 0, 0, 0, 1]
    drawn = state._draw(2)
    assert drawn == [data.FISH] and state.bag == [0] * 5
    assert state._draw(3) == []


# -- Actions (§4.3) ----------------------------------------------------------------------------
def test_action_options_on_an_island():
    state = position(4, canoes={0: (1, -1)}, cargo={0: goods("fish")})  # on I01 (C, B)
    # only d3 (I02), d4 (home) and d5 (W1) hold tiles: no paddling off the tiles
    assert legal(state) == {3, 4, 5, END, HARVEST_BASE, HARVEST_BASE + 1, FISH_ACTION}
    state = position(4, canoes={0: (1, -1)}, cubes={"I01": "B"})
    assert legal(state) & set(range(63, 67)) == {HARVEST_BASE + 1}


def test_action_options_at_home():
    state = position(4)
    assert legal(state) == {0, 1, 2, 3, 4, 5, END}  # no fish, no delivery with an empty canoe
    state = position(4, cargo={0: goods("taro")})
    assert DELIVER in legal(state)


def test_end_may_stop_the_step_early():
    state = position(4)
    state.apply(END)
    assert state.turn_player == 1 and state.phase == HAUMEA_MOVE


def test_reef_check_draws_nothing_for_an_empty_canoe():
    state = position(4)
    script_draws(state)  # any draw would fail the test
    state.apply(1)  # home -> I01: 2 reefs, empty canoe
    assert state.canoes[0] == cell_of(1, -1) and state.taken == 1


def test_reef_check_draws_one_cube_per_reef():
    state = position(4, canoes={0: (1, -1)}, cargo={0: goods("banana")}, tiles=[("I10", 2, -1, 3)])
    scripts = script_draws(state, ["banana"])
    state.apply(0)  # I01 -> I10: 1 reef
    assert scripts == [] and state.cargo[0] == [0] * 5


def test_harvest_takes_one_cube_per_action():
    state = position(4, canoes={0: (1, -1)})
    state.apply(HARVEST_BASE)  # coconut from I01
    assert state.cargo[0] == goods("coconut") and not cube_on(state, "I01", "coconut")
    assert cube_on(state, "I01", "banana") and state.taken == 1
    assert HARVEST_BASE not in legal(state)


# -- Depletion (§4.4) and the end (§6) ---------------------------------------------------------
def test_no_depletion_while_haumea_is_in_play():
    state = position(4, cubes={})  # every island empty, Haumea in play
    pile = list(state.token_pile)
    state.apply(END)
    assert state.phase == HAUMEA_MOVE and state.token_pile == pile


def test_depletion_candidates_are_empty_undepleted_islands_only():
    cubes = {f"I{k:02d}": "".join("CBTS"[g] for g in data.ISLAND_SLOTS[k]) for k in range(1, 16)}
    state = position(4, full_board=True, haumea=None, cubes=cubes, tokens={"I16": "plain"})
    script_draws(state, ["fish", "fish"])  # the next seat's bounty
    state.apply(END)
    assert state.phase == DEPLETE and state.revealed_token == data.PLAIN
    assert legal(state) == {island_action("I17"), island_action("I18")}  # not home, not water
    state.apply(island_action("I17"))
    assert state.tokens[island("I17")] == data.PLAIN and not state.end_triggered
    assert state.turn_player == 1 and state.phase == ACTION  # one token per turn at most


def test_round_limit_truncates_and_unloads():
    state = position(2, turn=1, first=0, cargo={1: goods("fish", "taro")}, config={"max_rounds": 1})
    state.apply(END)
    assert state.phase == GAME_OVER and state.truncated and state.round == 1
    assert state.charts[1] == goods("fish", "taro") and state.cargo[1] == [0] * 5
    assert state.winners() == [1]


def test_round_limit_counts_complete_rounds():
    state = RULES.new_state(3, seed=4, max_rounds=2)
    turns = 0
    while not state.is_terminal():
        seat = state.turn_player
        state.apply(END if state.phase == ACTION else state.legal_actions()[0])
        turns += state.turn_player != seat or state.is_terminal()
    assert turns == 6 and state.truncated and state.round == 2


def test_a_season_ending_in_the_last_round_is_not_truncated():
    from tests.tahiti.test_examples import example_10_position

    state = example_10_position(turn=1, config={"max_rounds": 1})
    script_draws(state, ["fish", "fish"], ["fish", "fish"])
    state.apply(END)
    state.apply(53)  # the trigger, in round 1 of 1
    state.apply(END)
    state.apply(49)
    state.apply(END)
    assert state.phase == GAME_OVER and not state.truncated


# -- scoring (§6.4) ----------------------------------------------------------------------------
def test_favourite_bonus_first_second_and_ties():
    charts = [[4, 0, 0, 0, 0], [4, 0, 0, 0, 0], [2, 0, 0, 0, 0], [1, 0, 0, 0, 0]]
    # F1 (coconut, banana), F4 (spice, coconut), F2, F3: coconut shared first (4), second (2)
    assert favourite_bonus(charts, [1, 4, 2, 3]) == [5, 5, 0, 0]
    assert favourite_bonus(charts, [2, 3, 4, 1]) == [0, 0, 3, 0]  # 2 is second, 1 third
    assert favourite_bonus([[0] * 5, [0] * 5], [5, 6]) == [0, 0]  # zero never scores


def test_set_bonus_is_the_rightmost_complete_column_only():
    assert score_charts([[3, 3, 3, 3, 3], [0] * 5], [6, 5]) == [15 + 12 + 5 + 5, 0]


def test_scores_before_the_end_ignore_canoe_cargo():
    state = position(2, cargo={0: goods("fish")}, charts={1: goods("coconut")})
    assert state.scores() == [0.0, 1.0]  # seat 1 holds F6 (banana, spice): no bonus


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_bad_player_count_and_options(engine):
    rules = engine_rules(engine)
    with pytest.raises(
        InvalidConfigError, match="tahiti: num_players=5 is not allowed; allowed: 2 to 4"
    ):
        rules.new_state(5)
    with pytest.raises(InvalidConfigError, match="unknown option 'colour'; known: max_rounds"):
        rules.new_state(2, colour="red")
    for bad in (0, -3, 1_000_001, True, 8.7, "5", None):
        with pytest.raises(
            InvalidConfigError,
            match="max_rounds=.* is not allowed; allowed: an integer from 1 to 1,000,000",
        ):
            rules.new_state(2, max_rounds=bad)


@pytest.mark.parametrize("engine", ENGINES)
def test_illegal_actions_name_phase_and_legal_actions_and_change_nothing(engine):
    state = engine_rules(engine).new_state(4, seed=0)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply(6)
    assert str(error.value) == (
        f"action 6 (Haumea stays) is not legal in phase HAUMEA_MOVE for seat "
        f"{state.current_player}; legal: 0, 1, 2, 3, 4, 5"
    )
    with pytest.raises(IllegalActionError, match="action 69 is out of range 0..68"):
        state.apply(69)
    with pytest.raises(IllegalActionError, match="action -1 is out of range"):
        state.apply(-1)
    with pytest.raises(IllegalActionError, match="is not an integer"):
        state.apply("1")
    assert state.to_json() == before


def test_no_action_after_the_end():
    state = position(2, turn=1, config={"max_rounds": 1})
    state.apply(END)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(END)
    assert not state.legal_action_mask().any() and state.current_player == -1


def corrupt(**changes):
    snapshot = position(4).to_dict()
    snapshot.update(changes)
    return snapshot


@pytest.mark.parametrize(
    "snapshot, message",
    [
        (corrupt(game="chess"), "snapshot is of game 'chess', not 'tahiti'"),
        (corrupt(num_players=7), "num_players=7 is not allowed"),
        (corrupt(phase="DANCE"), "unknown phase 'DANCE'"),
        (corrupt(bag=[14, 14, 14, 14, 15]), "cubes per kind are .* each must be 16"),
        (corrupt(board=[["HOME", 0, 0, 0], ["X9", 1, 0, 0]]), "unknown tile 'X9'"),
        (corrupt(board=[["HOME", 0, 0, 7]]), "tile HOME rotation=7 is out of range 0..5"),
        (corrupt(board=[["HOME", 0, 0, 0], ["W1", 12, 0, 0]]), "not within hex distance 9"),
        (corrupt(island_cubes={"I01": "CT"}), "I01 has no taro space"),
        (corrupt(favourites=["F1", "F1", "F2", "F3"]), "favourite tiles"),
        (corrupt(cargo=[[6, 0, 0, 0, 0]] + [[0] * 5] * 3), "6 cubes on a canoe of 5"),
        (corrupt(token_pile=["plain"] * 18), "plain tokens: 18, must be 12"),
        (corrupt(stacks=[[], []]), "island tiles I05, I06"),
        (corrupt(phase="PLACE"), "phase PLACE lacks its tile"),
        (corrupt(taken=4), "taken=4: in the ACTION phase it is 0..3"),
        (corrupt(end_triggered=True), "the season cannot end while Haumea is in play"),
        (corrupt(canoes=[[3, 3]] * 4), "a canoe or Haumea stands on \\(3, 3\\), no tile"),
    ],
)
def test_corrupt_snapshots_are_refused_with_a_reason(snapshot, message):
    with pytest.raises(InvalidStateError, match=message):
        RULES.from_dict(snapshot)


def test_corrupt_json():
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("{not json")
    snapshot = position(4).to_dict()
    del snapshot["bag"]
    with pytest.raises(InvalidStateError, match="not a tahiti snapshot: missing field 'bag'"):
        RULES.from_json(json.dumps(snapshot))


def test_describe_action():
    state = position(4, canoes={0: (1, -1)}, cargo={0: goods("fish")})
    assert state.describe_action(4) == "paddle SW to HOME, 2 reefs"
    assert state.describe_action(1) == "paddle NE (no tile)"
    assert state.describe_action(HARVEST_BASE + 1) == "harvest banana"
    assert state.describe_action(END) == "end the action step"
    assert state.describe_action(FISH_ACTION) == "fish" and state.describe_action(68) == "deliver"
    assert state.describe_action(99) == "action 99 (out of range 0..68)"
