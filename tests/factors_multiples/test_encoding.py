"""The observation tensor: layout, range, point of view."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.factors_multiples import encoding as enc
from boardgame_envs.factors_multiples.rules import NUM_ACTIONS, SHOW_AND_DRAW
from tests.factors_multiples.helpers import RULES, rules_for, table


def test_layout_blocks_tile_the_tensor():
    blocks = [
        (enc.HAND, 13),
        (enc.HAND_SIZES, 5),
        (enc.PILE_SIZES, 5),
        (enc.PRESENT, 5),
        (enc.VALUE, 12),
        (enc.LAST_RANK, 13),
        (enc.LAST_SEAT, 5),
        (enc.PHASE, 6),
        (enc.PLAYED, 13),
        (enc.OWN_DISCARDS, 13),
        (enc.HIDDEN_DISCARD, 1),
        (enc.REVEALS, 52),
        (enc.REVEAL_AGES, 4),
        (enc.PLAYER_COUNT, 4),
        (enc.ROUNDS_LEFT, 3),
        (enc.MATCH_TOTALS, 5),
    ]
    offset = 0
    for start, size in blocks:
        assert start == offset
        offset += size
    assert offset == enc.OBSERVATION_SIZE == 159
    assert RULES.observation_shape == (159,) and RULES.action_size == NUM_ACTIONS == 40


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_same_shape_and_in_bounds_for_every_player_count(num_players, engine):
    rng = np.random.default_rng(0)
    low, high = rules_for(engine).observation_bounds
    state = rules_for(engine).new_state(num_players, seed=1)
    while not state.is_terminal():
        for seat in range(num_players):
            obs = state.view(seat).observation()
            assert obs.shape == (159,) and obs.dtype == np.float32
            assert low <= obs.min() and obs.max() <= high
            assert obs[enc.PRESENT : enc.PRESENT + 5].tolist() == [1] * num_players + [0] * (
                5 - num_players
            )
            assert obs[enc.PLAYER_COUNT + num_players - 2] == 1
        state.apply(int(rng.choice(state.legal_actions())))


def test_egocentric_seats_and_fields(engine):
    state = table(
        3, {0: "K♠ 4♦ 9♣", 1: "3♥ 3♦ 8♥ 9♥"}, piles={1: ("", 4)}, value=8, rounds=2, engine=engine
    )
    state.apply(12)  # P0 plays K: P1 is restricted
    obs = state.view(1).observation()
    assert obs[enc.HAND : enc.HAND + 13].tolist() == pytest.approx(
        [0, 0, 0.5, 0, 0, 0, 0, 0.25, 0.25, 0, 0, 0, 0]
    )
    # relative seat 0 is P1 (4 cards), 1 is P2, 2 is P0
    assert obs[enc.HAND_SIZES : enc.HAND_SIZES + 3] * 26 == pytest.approx([4, 3, 3])
    assert obs[enc.PILE_SIZES] * 26 == pytest.approx(4)
    assert obs[enc.VALUE + 8 - 2] == 1
    assert obs[enc.LAST_RANK + 12] == 1 and obs[enc.LAST_SEAT + 2] == 1  # K by P0
    assert obs[enc.PHASE + 1] == 1  # K_ANSWER
    assert obs[enc.ROUNDS_LEFT + 1] == 1  # 2 rounds left
    state.apply(SHOW_AND_DRAW)
    obs = state.view(0).observation()
    # P1 (relative seat 1 for P0) showed 3 3 8 9, age 0
    reveal = obs[enc.REVEALS : enc.REVEALS + 13] * 4
    assert reveal.tolist() == [0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0]
    assert obs[enc.REVEAL_AGES] == 0


def test_mask_zero_for_a_seat_not_to_move(engine):
    state = rules_for(engine).new_state(4, seed=0)
    for seat in range(4):
        mask = state.view(seat).legal_action_mask()
        assert mask.any() == (seat == state.current_player)
