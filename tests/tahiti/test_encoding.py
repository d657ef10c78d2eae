"""The observation tensor: layout, range, point of view, content."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.tahiti import encoding as enc
from boardgame_envs.tahiti.rules import NUM_ACTIONS, PLACE, cell_of, place_action
from tests.tahiti.helpers import RULES, goods, island, position, script_draws

CELLS = 19 * 19


def plane(obs: np.ndarray, p: int) -> np.ndarray:
    return obs[p * CELLS : (p + 1) * CELLS]


def at(q: int, r: int) -> int:
    return cell_of(q, r)


def test_layout_blocks_tile_the_tensor():
    blocks = [
        (enc.PHASE, 8),
        (enc.PLAYER_COUNT, 3),
        (enc.FIRST_PLAYER, 4),
        (enc.ACTIVE_PLAYER, 4),
        (enc.HAUMEA_IN_PLAY, 1),
        (enc.STACK_SIZES, 2),
        (enc.STACK_TOPS, 36),
        (enc.HAND_TILE, 18),
        (enc.UNPLACED, 18),
        (enc.ISLAND_FEATURES, 234),
        (enc.PENDING_CUBE, 5),
        (enc.BOUNTY_LEFT, 5),
        (enc.REVEALED_TOKEN, 2),
        (enc.TAKEN, 1),
        (enc.PADDLES, 1),
        (enc.CARGO, 20),
        (enc.CHARTS, 20),
        (enc.FAVOURITE, 7),
        (enc.BAG, 6),
        (enc.TOKENS_LEFT, 2),
        (enc.END_TRIGGERED, 1),
        (enc.TURNS_LEFT, 1),
    ]
    offset = enc.VECTOR
    for start, size in blocks:
        assert start == offset
        offset += size
    assert offset == enc.OBSERVATION_SIZE == 28 * 361 + 399 == 10507
    assert RULES.observation_shape == (10507,) and RULES.action_size == NUM_ACTIONS == 69


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_same_shape_and_in_bounds_for_every_player_count(num_players):
    rng = np.random.default_rng(0)
    low, high = RULES.observation_bounds
    state = RULES.new_state(num_players, seed=1, max_rounds=40)
    while not state.is_terminal():
        for seat in range(num_players):
            obs = state.view(seat).observation()
            assert obs.shape == (10507,) and obs.dtype == np.float32
            assert low <= obs.min() and obs.max() <= high
            assert obs[enc.PLAYER_COUNT + num_players - 2] == 1
            assert plane(obs, enc.VALID).sum() == 271  # cells within distance 9
            canoes = [plane(obs, enc.CANOE_PLANES + rel).sum() for rel in range(4)]
            assert canoes == [1] * num_players + [0] * (4 - num_players)
        state.apply(int(rng.choice(state.legal_actions())))
    obs = state.view(0).observation()
    assert obs[enc.PHASE + 7] == 1 and obs[enc.ACTIVE_PLAYER : enc.ACTIVE_PLAYER + 4].sum() == 0


def test_board_planes_of_a_known_position():
    state = position(
        4,
        tiles=[("I10", 2, -1, 3)],
        cubes={"I01": "CB", "I10": "T"},
        tokens={"I03": "fishing"},
        haumea=(1, -1),
        canoes={1: (1, 0)},
    )
    obs = state.view(0).observation()
    i10 = at(2, -1)
    assert plane(obs, enc.PRESENT)[i10] == plane(obs, enc.ISLAND_PLANE)[i10] == 1
    assert plane(obs, enc.SPACE_PLANES + 2)[i10] == plane(obs, enc.SPACE_PLANES + 3)[i10] == 1
    assert plane(obs, enc.CUBE_PLANES + 2)[i10] == 1 and plane(obs, enc.CUBE_PLANES + 3)[i10] == 0
    reefs = [plane(obs, enc.REEF_PLANES + d)[i10] for d in range(6)]
    assert reefs == [1, 0, 0, 1, 0, 0]
    assert plane(obs, enc.HOME_PLANE)[at(0, 0)] == 1 and plane(obs, enc.WATER_PLANE)[at(1, 0)] == 1
    assert plane(obs, enc.TOKEN_PLANE)[at(-1, 1)] == plane(obs, enc.FISHING_PLANE)[at(-1, 1)] == 1
    assert plane(obs, enc.HAUMEA_PLANE)[at(1, -1)] == 1 and obs[enc.HAUMEA_IN_PLAY] == 1
    assert plane(obs, enc.EDGE_PLANE)[at(0, 0)] == 0 and plane(obs, enc.EDGE_PLANE)[i10] == 1
    assert plane(obs, enc.CANOE_PLANES + 1)[at(1, 0)] == 1  # seat 1 is relative seat 1 for 0
    assert plane(obs, enc.CANOE_PLANES + 0)[at(0, 0)] == 1
    block = obs[enc.ISLAND_FEATURES + 9 * 13 : enc.ISLAND_FEATURES + 10 * 13]  # I10
    assert block.tolist() == pytest.approx([1, 2 / 9, -1 / 9, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0])
    assert plane(obs, enc.PLACEMENT_PLANE).sum() == 0  # not in the PLACE phase


def test_placement_plane_and_tile_in_hand():
    state = position(4, haumea=(1, -1), phase=PLACE, hand_tile="I12")
    obs = state.view(0).observation()
    placement = plane(obs, enc.PLACEMENT_PLANE)
    assert set(np.flatnonzero(placement)) == {at(2, -1), at(1, -2)}  # Example 2
    assert obs[enc.HAND_TILE + 11] == 1 and obs[enc.PHASE + 3] == 1
    assert obs[enc.UNPLACED + 11] == 0 and obs[enc.UNPLACED + 4] == 1  # I12 in hand, I05 not


def test_egocentric_seats_and_counts():
    state = position(
        3,
        cubes={},
        turn=2,
        first=1,
        cargo={2: goods("fish", "fish")},
        charts={0: goods("coconut", "taro", "taro")},
        favourites=["F6", "F7", "F5"],
    )
    obs = state.view(2).observation()
    assert obs[enc.FIRST_PLAYER + 2] == 1  # seat 1 is two seats after seat 2
    assert obs[enc.ACTIVE_PLAYER + 0] == 1
    assert obs[enc.CARGO + 4] == pytest.approx(2 / 5)
    assert obs[enc.CHARTS + 5 : enc.CHARTS + 10].tolist() == pytest.approx(
        [1 / 16, 0, 2 / 16, 0, 0]
    )
    assert obs[enc.FAVOURITE + 4] == 1 and obs[enc.FAVOURITE : enc.FAVOURITE + 7].sum() == 1
    assert obs[enc.TAKEN] == 0 and obs[enc.PADDLES] == 1  # 4 paddles / 4
    obs0 = state.view(0).observation()
    assert obs0[enc.CARGO + 2 * 5 + 4] == pytest.approx(2 / 5)  # seat 2 is relative seat 2
    assert obs0[enc.ACTIVE_PLAYER + 2] == 1 and obs0[enc.FAVOURITE + 5] == 1
    assert obs0[enc.BAG + 4] == pytest.approx(12 / 16) and obs0[enc.BAG + 5] == pytest.approx(
        (14 * 5 - 5) / 80
    )


def test_pending_bounty_and_revealed_token():
    cubes = {"I01": "CB", "I02": "TS", "I03": "T", "I04": "BS", "I10": "T"}
    state = position(
        4, tiles=[("I10", 2, -1, 3)], cubes=cubes, haumea=(1, -1), phase=PLACE, hand_tile="I12"
    )
    script_draws(state, ["coconut", "taro", "taro"])
    state.apply(place_action(2, 0))
    obs = state.view(0).observation()
    assert obs[enc.PENDING_CUBE + 0] == 1 and obs[enc.BOUNTY_LEFT + 2] == pytest.approx(1.0)
    assert obs[enc.PHASE + 4] == 1
    from tests.tahiti.test_examples import example_10_position

    state = example_10_position(turn=1)
    state.apply(6)
    obs = state.view(3).observation()
    assert obs[enc.REVEALED_TOKEN] == 1 and obs[enc.PHASE + 6] == 1
    assert obs[enc.TOKENS_LEFT] == pytest.approx(2 / 12) and obs[enc.HAUMEA_IN_PLAY] == 0
    assert obs[enc.ISLAND_FEATURES + (island("I01") - 1) * 13 + 12] == 1  # a fishing token
    assert state.view(3).legal_action_mask().sum() == 0


def test_end_trigger_and_turns_left():
    from tests.tahiti.test_examples import example_10_position

    state = example_10_position(turn=1)
    script_draws(state, ["fish", "fish"])
    state.apply(6)
    state.apply(53)
    obs = state.view(0).observation()
    assert obs[enc.END_TRIGGERED] == 1 and obs[enc.TURNS_LEFT] == pytest.approx(1 / 3)


def test_mask_zero_for_a_seat_not_to_move():
    state = RULES.new_state(4, seed=0)
    for seat in range(4):
        mask = state.view(seat).legal_action_mask()
        assert mask.any() == (seat == state.current_player)
