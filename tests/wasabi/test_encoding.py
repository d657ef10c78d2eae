"""The observation tensor: layout, range, point of view."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.wasabi import encoding as enc
from boardgame_envs.wasabi.data import kind_id
from boardgame_envs.wasabi.rules import NUM_ACTIONS, PHASE_INDEX, PLACE_TARGET
from tests.wasabi.helpers import CARD, CELL, KIND, RULES, table


def plane(obs: np.ndarray, index: int) -> np.ndarray:
    return obs[: enc.BOARD_SIZE].reshape(40, 6, 7)[index]


def test_layout_blocks_tile_the_tensor():
    blocks = [
        (0, 40 * 42),
        (enc.OWN_TILES, 17),
        (enc.OWN_CARDS, 5),
        (enc.MENU, 270),
        (enc.MARKED, 3),
        (enc.OWN_TOKENS, 4),
        (enc.OWN_STATS, 3),
        (enc.OPPONENTS, 102),
        (enc.PANTRY, 17),
        (enc.KITCHEN, 5),
        (enc.DECKS, 4),
        (enc.DECISION, 16),
        (enc.CARD_USED, 6),
        (enc.STACK_ON, 1),
        (enc.PLACEMENTS, 3),
        (enc.PICKS, 1),
        (enc.GIFT, 17),
        (enc.LIFTED, 17),
        (enc.PLAYER_COUNT, 3),
        (enc.SEAT_FROM_START, 4),
        (enc.DECIDER, 1),
        (enc.TURN, 1),
        (enc.PENDING_KIND, 17),
    ]
    offset = 0
    for start, size in blocks:
        assert start == offset
        offset += size
    # Spec §11.4's 2180 values first, then the pending kind.
    assert enc.PENDING_KIND == 2180 and offset == enc.OBSERVATION_SIZE == 2197
    assert RULES.observation_shape == (2197,) and RULES.action_size == NUM_ACTIONS == 72


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_same_shape_and_in_bounds_for_every_player_count(num_players):
    rng = np.random.default_rng(num_players)
    low, high = RULES.observation_bounds
    state = RULES.new_state(num_players, seed=num_players)
    while not state.is_terminal():
        for seat in range(num_players):
            obs = state.view(seat).observation()
            assert obs.shape == (2197,) and obs.dtype == np.float32
            assert low <= obs.min() and obs.max() <= high
            present = obs[enc.OPPONENTS : enc.PANTRY : enc.OPPONENT_SIZE]
            assert present.tolist() == [1] * (num_players - 1) + [0] * (4 - num_players)
            assert obs[enc.PLAYER_COUNT + num_players - 2] == 1
            assert obs[enc.DECIDER] == (seat == state.current_player)
            assert plane(obs, enc.ACTIVE).sum() == 6 * (3 + num_players)
        state.apply(int(rng.choice(state.legal_actions())))


def test_board_planes():
    state = table(
        2,
        board={(0, 0): "Rice Tuna", (2, 3): "Maki Eel Salmon Crab Roe", (4, 4): "Squid"},
        anchors=[(3, 3)],
        hands={0: "Rice"},
        cards={0: "Switch!"},
    )
    state.apply(CARD("Switch!"))
    state.apply(CELL(2, 3))
    obs = state.view(0).observation()
    assert plane(obs, kind_id("Tuna"))[0, 0] == 1 and plane(obs, kind_id("Rice"))[0, 0] == 0
    assert plane(obs, 17 + kind_id("Rice"))[0, 0] == 1  # the tile below the top
    assert plane(obs, kind_id("Roe"))[2, 3] == 1 and plane(obs, 17 + kind_id("Crab"))[2, 3] == 1
    assert plane(obs, kind_id("Squid"))[4, 4] == 1  # covered tiles still show
    heights = plane(obs, enc.HEIGHT)
    assert heights[0, 0] == 0.5 and heights[2, 3] == 1.0 and heights[4, 4] == 0.25
    assert plane(obs, enc.COVERED).sum() == 4 and plane(obs, enc.COVERED)[4, 4] == 1
    assert plane(obs, enc.ANCHOR).sum() == 1 and plane(obs, enc.ANCHOR)[3, 3] == 1
    assert plane(obs, enc.EMPTY_TARGET).sum() == 30 - 4 - 2  # (0,0), (2,3) occupied
    assert plane(obs, enc.SELECTED).sum() == 1 and plane(obs, enc.SELECTED)[2, 3] == 1
    assert plane(obs, enc.ACTIVE)[:, 5:].sum() == 0


def test_egocentric_seats_and_fields():
    state = table(
        3,
        hands={0: "Rice", 1: "Tuna Tuna Eel", 2: "Maki"},
        cards={2: "Chop!"},
        menus={1: ["Tekka Maki", None, "Lobster Feast"], 2: ["Kappa Maki"]},
        completed={2: [("Salmon Nigiri", True)]},
        active=1,
    )
    obs = state.view(1).observation()
    assert obs[enc.OWN_TILES + kind_id("Tuna")] == pytest.approx(2 / 3)
    menu = obs[enc.MENU : enc.MENU + 270].reshape(3, 90)
    assert menu[0, 0] == 1 and menu[0, 1] == 1  # present, length 2
    assert menu[0, 5 + kind_id("Maki")] == 1 and menu[0, 5 + 17 + kind_id("Tuna")] == 1
    assert menu[0].sum() == 4 and menu[1].sum() == 0 and menu[2].sum() == 7
    # Relative seat 1 is P2 (left neighbour), relative seat 2 is P0.
    p2 = obs[enc.OPPONENTS : enc.OPPONENTS + 34]
    assert p2[enc.OPP_TILES + kind_id("Maki")] == pytest.approx(1 / 3)
    assert p2[enc.OPP_CARDS + 3] == 1  # Chop!
    assert p2[enc.OPP_RECIPES + 0] == pytest.approx(1 / 3)  # one length-2 recipe held
    assert p2[enc.OPP_TOKENS + 0] == pytest.approx(3 / 4)
    assert p2[enc.OPP_STATS :].tolist() == pytest.approx([1 / 20, 3 / 50, 1 / 10])
    p0 = obs[enc.OPPONENTS + 34 : enc.OPPONENTS + 68]
    assert p0[enc.OPP_TILES + kind_id("Rice")] == pytest.approx(1 / 3)
    assert obs[enc.SEAT_FROM_START + 1] == 1  # start player P0, observer P1
    assert obs[enc.DECISION + 2] == 1 and obs[enc.CARD_USED + 5] == 1
    assert obs[enc.PLACEMENTS + 1] == 1
    state.apply(KIND("Tuna"))
    obs = state.view(1).observation()
    assert state.phase == PLACE_TARGET
    assert obs[enc.DECISION + PHASE_INDEX[PLACE_TARGET]] == 1
    assert obs[enc.PENDING_KIND + kind_id("Tuna")] == 1
    # Another seat sees the chosen kind too, but not the recipes of P1.
    other = state.view(0).observation()
    assert other[enc.PENDING_KIND + kind_id("Tuna")] == 1 and other[enc.DECIDER] == 0
    assert other[enc.MENU : enc.MENU + 270].sum() == 0


def test_hidden_hands_are_zero():
    state = table(3, hands={1: "Tuna"}, cards={1: "Chop!"}, hide_opponent_hands=True)
    obs = state.view(0).observation()
    block = obs[enc.OPPONENTS : enc.OPPONENTS + 34]
    assert block[enc.OPP_PRESENT] == 1 and block[enc.OPP_TILES : enc.OPP_RECIPES].sum() == 0


def test_supplies_and_clipped_scores():
    state = table(2, cubes={0: 150})
    obs = state.view(0).observation()
    assert obs[enc.OWN_STATS] == 4.0 and obs[enc.OWN_STATS + 1] == 3.0
    assert obs[enc.PANTRY] == 1.0 and obs[enc.PANTRY + kind_id("Fugu")] == pytest.approx(0.2)
    assert obs[enc.KITCHEN : enc.KITCHEN + 5].tolist() == [0.5] * 5
    assert obs[enc.DECKS : enc.DECKS + 4].tolist() == pytest.approx([1, 14 / 16, 12 / 16, 10 / 16])


def test_mask_zero_for_a_seat_not_to_move():
    state = RULES.new_state(4, seed=0)
    for seat in range(4):
        mask = state.view(seat).legal_action_mask()
        assert mask.any() == (seat == state.current_player)


def test_memoised_blocks_are_read_only_and_observations_are_fresh():
    state = table(2, board={(0, 0): "Rice"})
    first = state.view(0).observation()
    first[:] = 7.0  # the caller owns its array ...
    second = state.view(0).observation()
    assert second.max() <= 1.0  # ... and cannot spoil the memo
    view = state.view(0)
    assert isinstance(enc.board_bytes(view.columns, view.stacks, view.anchors), bytes)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_memoised_encoding_equals_a_fresh_one(num_players):
    """Observations through the board memo equal ones encoded with an empty memo, at every
    step of seeded random games, for the state, a clone and a JSON copy."""
    for seed in range(2):
        state = RULES.new_state(num_players, seed=seed, hide_opponent_hands=seed == 1)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            for copy in (state, state.clone(), RULES.from_json(state.to_json())):
                for seat in range(num_players):
                    memoised = copy.view(seat).observation()
                    enc._BOARD_BY_STACKS.clear()
                    fresh = copy.view(seat).observation()
                    assert np.array_equal(memoised, fresh)
                    assert memoised.dtype == np.float32 and memoised.shape == (2197,)
            state.apply(int(rng.choice(state.legal_actions())))
