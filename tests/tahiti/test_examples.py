"""Every worked example of the spec (§10), from a constructed position, exact outcomes.

No auto-resolve: the rules engine is driven directly, so every decision (forced ones too)
is a step; chance is scripted with ``script_draws`` where an example fixes the draws.
"""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.rules import IllegalActionError
from boardgame_envs.tahiti.data import ISLAND_SLOTS, SET_BONUS, paddles
from boardgame_envs.tahiti.rules import (
    ACTION,
    BOUNTY_PLACE,
    DELIVER,
    DEPLETE,
    END,
    FISH_ACTION,
    GAME_OVER,
    HARVEST_BASE,
    HAUMEA_MOVE,
    PASS,
    PLACE,
    STACK,
    STACK_B,
    cell_of,
    place_action,
    score_charts,
)
from tests.tahiti.helpers import (
    ENGINES,
    cube_on,
    engine_rules,
    goods,
    island,
    island_action,
    position,
    reference,
    script_draws,
)

COCONUT, BANANA, TARO, SPICE = (HARVEST_BASE + g for g in range(4))


def legal(state) -> set[int]:
    return set(state.legal_actions())


# -- Example 1 — Opening Haumea move ---------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("n", [2, 3, 4])
def test_example_1_opening_haumea_move(n, engine):
    for seed in range(3):
        state = engine_rules(engine).new_state(n, seed=seed)
        facts = reference(state)
        assert facts.phase == HAUMEA_MOVE and facts.haumea == cell_of(0, 0)
        assert legal(state) == {0, 1, 2, 3, 4, 5}  # stay (6) is illegal
        with pytest.raises(IllegalActionError, match="action 6 \\(Haumea stays\\)"):
            state.apply(PASS)


# -- Example 2 — Legal tile placement --------------------------------------------------------
def test_example_2_legal_tile_placement():
    state = position(4, phase=HAUMEA_MOVE)
    state.apply(1)  # Haumea to I01 at (1, -1)
    assert state.haumea == cell_of(1, -1) and state.phase == STACK
    assert legal(state) == {7, 8}
    state.apply(7)
    assert state.phase == PLACE
    assert legal(state) == set(range(9, 15)) | set(range(21, 27))  # d0 and d2, 12 actions


# -- Example 3 — Rotation and reef transform -------------------------------------------------
def test_example_3_rotation_and_reef_transform():
    stacks = (
        ["I10", "I05", "I06", "I07", "I08", "I09", "I11"],
        ["I12", "I13", "I14", "I15", "I16", "I17", "I18"],
    )
    state = position(4, phase=HAUMEA_MOVE, stacks=stacks)
    state.apply(1)  # Haumea to I01
    state.apply(7)  # take I10 from stack A
    assert state.hand_tile == island("I10")
    script_draws(state, ["fish", "fish", "fish"])  # the bounty: nothing to place
    state.apply(12)  # d0, rotation 3
    assert place_action(0, 3) == 12
    i10 = island("I10")
    assert state.tile_cell[i10] == cell_of(2, -1) and state.rotation[i10] == 3
    assert state.reefs[i10] == 1 << 3 | 1 << 0  # world reefs {3, 0}
    assert state.island_cubes[i10] == 0  # both goods spaces empty
    assert state.phase == ACTION
    state.apply(END)
    # next turn (seat 1): Haumea is still on I01, an edge tile
    assert state.turn_player == 1 and state.phase == HAUMEA_MOVE
    assert state.haumea == cell_of(1, -1)
    assert legal(state) == {0, 3, 5, 6}


# -- Example 4 — Counting reefs --------------------------------------------------------------
def test_example_4_counting_reefs():
    state = position(4, tiles=[("I10", 2, -1, 3)])
    assert state.reefs_between(cell_of(1, -1), 0) == 1  # I01 -> I10
    assert state.reefs_between(cell_of(1, 0), 1) == 0  # W1 -> I10
    assert state.reefs_between(cell_of(0, 0), 1) == 2  # home -> I01
    assert state.reefs_between(cell_of(0, 0), 0) == 0  # home -> W1
    assert state.reefs_between(cell_of(0, 1), 3) == 1  # I04 -> I03
    # and the setup rule: home <-> starting island 2 reefs, home <-> water 0 reefs, both ways
    for d, reefs in enumerate([0, 2, 2, 0, 2, 2]):
        assert state.reefs_between(cell_of(0, 0), d) == reefs
        neighbour = cell_of(*[(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)][d])
        assert state.reefs_between(neighbour, (d + 3) % 6) == reefs


# -- Example 5 — Reef crossing with cube loss ------------------------------------------------
def example_5_position():
    return position(4, canoes={0: (1, -1)}, cargo={0: goods("banana", "banana", "spice")})


@pytest.mark.parametrize(
    "draws, cargo_after, bag_change, paddles_after",
    [
        (["banana", "fish"], goods("banana", "spice"), goods("banana"), 4),
        (["banana", "banana"], goods("spice"), goods("banana", "banana"), 4),
        (["fish", "coconut"], goods("banana", "banana", "spice"), goods(), 3),
    ],
)
def test_example_5_reef_crossing_with_cube_loss(draws, cargo_after, bag_change, paddles_after):
    state = example_5_position()
    assert paddles(3) == 3 and state.taken == 0
    bag = list(state.bag)
    scripts = script_draws(state, draws)
    state.apply(4)  # paddle SW to the home tile: 2 reefs, 2 cubes drawn
    assert scripts == []
    assert state.canoes[0] == cell_of(0, 0)
    assert state.cargo[0] == cargo_after
    assert [a - b for a, b in zip(state.bag, bag)] == bag_change
    assert paddles(sum(state.cargo[0])) == paddles_after and state.taken == 1
    assert state.phase == ACTION and state.current_player == 0


def test_example_5_safer_route():
    state = example_5_position()
    assert state.reefs_between(cell_of(1, -1), 5) == 1  # I01 -> W1
    assert state.reefs_between(cell_of(1, 0), 3) == 0  # W1 -> home
    scripts = script_draws(state, ["fish"])  # one draw only, for the one reef
    state.apply(5)
    state.apply(3)
    assert scripts == [] and state.canoes[0] == cell_of(0, 0) and state.taken == 2


# -- Example 6 — Actions recomputed as cargo changes -----------------------------------------
def test_example_6a_harvest_covers_paddles():
    state = position(4, canoes={0: (0, 1)}, cargo={0: goods("coconut", "fish")})
    state.apply(BANANA)
    assert state.cargo[0] == goods("coconut", "fish", "banana")
    assert state.phase == ACTION and state.taken == 1  # paddles 3, continue
    state.apply(SPICE)
    # n = 4, paddles 2, taken 2: the step ended by itself; Haumea is in play, so no
    # depletion: the next seat's turn begins
    assert state.cargo[0] == goods("coconut", "fish", "banana", "spice")
    assert not cube_on(state, "I04", "banana") and not cube_on(state, "I04", "spice")
    assert state.turn_player == 1 and state.phase == HAUMEA_MOVE


def test_example_6b_delivery_uncovers_paddles():
    cargo = goods("coconut", "banana", "taro", "spice", "fish")
    state = position(4, cargo={0: cargo})
    assert DELIVER in legal(state)
    state.apply(DELIVER)
    assert state.cargo[0] == [0] * 5 and state.charts[0] == cargo
    assert state.phase == ACTION and state.taken == 1 and paddles(0) == 4  # 3 more actions
    for taken, d in [(2, 0), (3, 3)]:  # home -> W1 -> home: 0 reefs each
        state.apply(d)
        assert state.phase == ACTION and state.taken == taken
    state.apply(0)  # the fourth action ends the step
    assert state.turn_player == 1 and state.canoes[0] == cell_of(1, 0)


def test_example_6c_full_canoe_cannot_deliver_after_paddling_home():
    cargo = goods("coconut", "banana", "taro", "spice", "fish")
    state = position(4, canoes={0: (1, 0)}, cargo={0: cargo})
    assert state.reefs_between(cell_of(1, 0), 3) == 0
    state.apply(3)  # paddle W to home: taken 1 = paddles 1
    assert state.canoes[0] == cell_of(0, 0) and state.cargo[0] == cargo
    assert state.turn_player == 1  # the step ended: no delivery this turn


# -- Example 7 — Fishing ---------------------------------------------------------------------
def test_example_7a_fish_caught():
    state = position(4, canoes={0: (-1, 0)}, cargo={0: goods("coconut")})
    bag = list(state.bag)
    script_draws(state, ["taro", "fish"])
    state.apply(FISH_ACTION)
    assert state.cargo[0] == goods("coconut", "fish")
    assert [a - b for a, b in zip(state.bag, bag)] == [0, 0, 0, 0, -1]
    assert state.taken == 1 and paddles(2) == 4 and state.phase == ACTION


def test_example_7b_nothing_caught():
    state = position(4, canoes={0: (-1, 0)}, cargo={0: goods("coconut")})
    bag = list(state.bag)
    script_draws(state, ["coconut", "spice"])
    state.apply(FISH_ACTION)
    assert state.cargo[0] == goods("coconut") and state.bag == bag and state.taken == 1


def test_example_7c_fishing_bonus_token_draws_three():
    cubes = {"I01": "CB", "I02": "TS", "I04": "BS"}
    state = position(4, cubes=cubes, tokens={"I03": "fishing"}, canoes={0: (-1, 1)})
    bag = list(state.bag)
    scripts = script_draws(state, ["fish", "fish", "banana"])  # three cubes: the bonus
    state.apply(FISH_ACTION)
    assert scripts == []
    assert state.cargo[0] == goods("fish")
    assert [a - b for a, b in zip(state.bag, bag)] == [0, 0, 0, 0, -1]


def test_example_7d_fish_is_illegal_at_home_and_with_a_full_canoe():
    state = position(4)  # canoe on home
    assert FISH_ACTION not in legal(state)
    with pytest.raises(IllegalActionError, match="action 67 \\(fish\\) is not legal"):
        state.apply(FISH_ACTION)
    full = goods("coconut", "coconut", "banana", "taro", "spice")
    for where in [(1, 0), (1, -1)]:
        state = position(4, canoes={0: where}, cargo={0: full})
        assert FISH_ACTION not in legal(state)
        assert not legal(state) & {COCONUT, BANANA, TARO, SPICE}  # nor harvest


# -- Example 8 — Haumea's bounty with a choice ----------------------------------------------
def example_8_position():
    cubes = {"I01": "CB", "I02": "TS", "I03": "T", "I04": "BS", "I10": "T"}
    return position(
        4,
        tiles=[("I10", 2, -1, 3)],
        cubes=cubes,
        haumea=(1, -1),
        phase=PLACE,
        hand_tile="I12",
    )


def test_example_8_bounty_with_a_choice():
    state = example_8_position()
    bag = list(state.bag)
    scripts = script_draws(state, ["coconut", "fish", "taro"])
    state.apply(place_action(2, 0))  # I12 at (1, -2): the bounty of 3 follows
    assert scripts == [] and state.tile_cell[island("I12")] == cell_of(1, -2)
    assert state.phase == BOUNTY_PLACE and state.bounty == [0, 4, 2]  # coconut pending
    assert legal(state) == {47, 56}  # I03 and I12
    assert island_action("I03") == 47 and island_action("I12") == 56
    state.apply(47)
    # fish set aside, taro placed on I12 by itself (its only legal space), fish returned
    assert cube_on(state, "I03", "coconut") and cube_on(state, "I12", "taro")
    assert not cube_on(state, "I12", "coconut")
    assert state.phase == ACTION and state.bounty == []
    assert [a - b for a, b in zip(state.bag, bag)] == [-1, 0, -1, 0, 0]


def test_example_8_other_choice():
    state = example_8_position()
    script_draws(state, ["coconut", "fish", "taro"])
    state.apply(place_action(2, 0))
    state.apply(56)
    assert cube_on(state, "I12", "coconut") and cube_on(state, "I12", "taro")
    assert not cube_on(state, "I03", "coconut")


# -- Example 9 — Delivery to the harvest chart -----------------------------------------------
def test_example_9_delivery():
    chart = [2, 0, 1, 3, 1]
    state = position(4, charts={0: chart}, cargo={0: goods("banana", "banana", "fish", "taro")})
    state.apply(DELIVER)
    assert state.charts[0] == [2, 2, 2, 3, 2] and sum(state.charts[0]) == 11
    assert min(state.charts[0]) == 2 and SET_BONUS[2] == 7
    assert state.cargo[0] == [0] * 5 and paddles(0) == 4
    # the provisional score: 11 goods + 7 for two sets + favourite bonus (the only chart
    # with goods: first place in both of seat 0's favourite goods, F1 coconut/banana)
    assert state.scores()[0] == 11 + 7 + 5 + 5


# -- Example 10 — Depletion and the end trigger ----------------------------------------------
UNDEPLETED = ("I02", "I05", "I09", "I11", "I15")


def example_10_position(turn: int = 1, cubes=None, **kwargs):
    depleted = [f"I{k:02d}" for k in range(1, 19) if f"I{k:02d}" not in UNDEPLETED]
    tokens = {name: "fishing" if i < 4 else "plain" for i, name in enumerate(depleted)}
    state = position(
        4,
        full_board=True,
        haumea=None,
        cubes=cubes or {"I02": "T", "I11": "C", "I15": "S"},
        tokens=tokens,
        canoes={turn: (2, -2)},  # full_board parks I05 at (2, -2)
        token_pile=["plain", "plain", "plain", "fishing", "fishing"],
        turn=turn,
        first=0,
        **kwargs,
    )
    assert state.cell_tile[state.canoes[turn]] == island("I05")
    assert len(state.tokens) - state.tokens.count(0) == 13
    return state


def test_example_10_depletion_and_end_trigger():
    state = example_10_position(turn=1, cargo={2: goods("fish")})
    state.apply(END)
    assert state.phase == DEPLETE and state.revealed_token == 1  # plain
    # the canoe on I05 does not protect it
    assert legal(state) == {island_action("I05"), island_action("I09")} == {49, 53}
    # seats 2 and 3 each draw a bounty of 2: scripted as fish, which no island takes
    scripts = script_draws(state, ["fish", "fish"], ["fish", "fish"])
    state.apply(53)
    assert state.tokens[island("I09")] == 1
    assert state.end_triggered and state.turn_player == 2 and state.phase == ACTION
    assert state.turns_left() == 1  # seat 3 after seat 2
    state.apply(END)
    assert state.phase == DEPLETE and legal(state) == {49}  # I05, the only empty island
    state.apply(49)
    # 3 undepleted islands now; the trigger does not fire again nor extend the round
    assert state.end_triggered and state.turn_player == 3 and state.turns_left() == 0
    state.apply(END)  # I02, I11, I15 hold cubes: no eligible island, no token
    assert scripts == []
    assert state.phase == GAME_OVER and not state.truncated
    assert state.charts[2] == goods("fish") and state.cargo[2] == [0] * 5  # unloaded


def test_example_10_trigger_by_the_last_seat_ends_the_game_at_once():
    state = example_10_position(turn=3)
    state.apply(END)
    state.apply(53)
    assert state.phase == GAME_OVER and state.end_triggered and not state.truncated


def test_example_10_counter_case_no_empty_island_no_token():
    cubes = {"I02": "T", "I05": "C", "I09": "T", "I11": "C", "I15": "S"}
    state = example_10_position(turn=1, cubes=cubes)
    pile = list(state.token_pile)
    script_draws(state, ["fish", "fish"])  # seat 2's bounty
    state.apply(END)
    assert state.turn_player == 2 and state.token_pile == pile and not state.end_triggered


# -- Example 11 — Turn on which Haumea leaves ------------------------------------------------
def example_11_position():
    # every island but I18 on the table, all of them full; I18 is the last tile (stack B)
    full = {f"I{k:02d}": "".join("CBTS"[g] for g in ISLAND_SLOTS[k]) for k in range(1, 18)}
    return position(
        4,
        full_board=True,
        leave_out=["I18"],
        cubes=full,
        haumea=(2, -2),
        stacks=([], ["I18"]),
        turn=2,
        first=0,
        phase=HAUMEA_MOVE,
    )


def test_example_11_turn_on_which_haumea_leaves():
    state = example_11_position()
    assert PASS in legal(state)
    state.apply(PASS)
    assert state.phase == STACK and legal(state) == {STACK_B}  # forced, still a decision
    state.apply(STACK_B)
    # (3, -2) and (2, -3) each touch Haumea's tile and the parked (3, -3)
    assert legal(state) == set(range(9, 15)) | set(range(21, 27))
    scripts = script_draws(state, ["fish", "fish"])  # the bounty draws 2 this same turn
    state.apply(9)
    assert scripts == [] and state.haumea == -1
    assert state.phase == ACTION
    state.apply(END)
    # the Depletion step runs this same turn; the new tile is the only empty island
    assert state.phase == DEPLETE and legal(state) == {island_action("I18")}


def test_example_11_bounty_can_fill_the_new_tile():
    state = example_11_position()
    state.apply(PASS)
    state.apply(STACK_B)
    script_draws(state, ["banana", "fish"], ["fish", "fish"])  # I18 gets the banana
    state.apply(9)
    assert cube_on(state, "I18", "banana")
    state.apply(END)
    assert state.turn_player == 3 and state.phase == ACTION  # no empty island, no token


# -- Example 12 — Final scoring (3 players, favourites F5-F7) --------------------------------
def test_example_12_final_scoring():
    charts = [[5, 3, 2, 2, 2], [3, 4, 4, 2, 1], [5, 1, 0, 4, 3]]
    assert score_charts(charts, [5, 6, 7]) == [29, 25, 23]
    state = position(3, cubes={}, charts=dict(enumerate(charts)), favourites=["F5", "F6", "F7"])
    state._finish(truncated=False)
    assert state.scores() == [29.0, 25.0, 23.0]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0, -1.0]


def test_example_12_two_player_check():
    # A holds F6 (banana, spice): 3 bananas each, A 2 spices, B 0 -> 5 + 5
    a, b = [0, 3, 0, 2, 0], [0, 3, 0, 0, 0]
    goods_and_sets = sum(a)
    assert score_charts([a, b], [6, 5])[0] == goods_and_sets + 5 + 5
    a0 = [0, 3, 0, 0, 0]  # both at 0 spices: nothing for spice
    assert score_charts([a0, b], [6, 5])[0] == sum(a0) + 5


# -- Example 13 — Setup bag contents ----------------------------------------------------------
@pytest.mark.parametrize(
    "n, bag, stack_sizes",
    [
        (4, [14, 14, 14, 14, 16], (7, 7)),
        (3, [12, 12, 13, 13, 14], (8, 7)),
        (2, [10, 10, 10, 10, 12], (7, 7)),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_example_13_setup_bag_contents(n, bag, stack_sizes, engine):
    for seed in range(3):
        state = reference(engine_rules(engine).new_state(n, seed=seed))
        assert state.bag == bag and sum(state.bag) == sum(bag)
        assert (len(state.stacks[0]), len(state.stacks[1])) == stack_sizes
        starting = [k for k in range(1, 19) if state.tile_cell[k] >= 0]
        assert starting == ([5, 6, 7] if n == 3 else [1, 2, 3, 4])
        assert all(state.island_cubes[k] == 0b11 for k in starting)


@pytest.mark.parametrize("engine", ENGINES)
def test_example_13_stacks_are_a_shuffle_of_the_other_islands(engine):
    rules = engine_rules(engine)
    orders = set()
    for seed in range(5):
        state = reference(rules.new_state(4, seed=seed))
        tiles = state.stacks[0] + state.stacks[1]
        assert sorted(tiles) == list(range(5, 19))
        orders.add(tuple(tiles))
    assert len(orders) == 5
    firsts = [reference(rules.new_state(3, seed=s)).first_player for s in range(30)]
    assert np.unique(firsts).size == 3
