"""The observation tensor and the action table: layout, range, point of view."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.cornucopia import encoding as enc
from boardgame_envs.cornucopia.rules import (
    FORFEIT,
    NO,
    NUM_ACTIONS,
    REDRAW,
    YES,
    bet_action,
    bid_action,
    declare_action,
    place_action,
)
from tests.cornucopia.helpers import EXAMPLE_2, RULES, bet, bid, place, table

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def test_layout_blocks_tile_the_tensor():
    blocks = [
        (enc.PLAYER_COUNT, 4),
        (enc.VARIANT, 1),
        (enc.PHASE, 4),
        (enc.TURN_SEAT, 5),
        (enc.ACTING_SEAT, 5),
        (enc.STACKS, 6),
        (enc.BID_NUMBER, 6),
        (enc.PLACED, 1),
        (enc.PLACEMENTS_LEFT, 1),
        (enc.REDRAW_AVAILABLE, 1),
        (enc.DECLARED, 1),
        (enc.PENDING, 6),
        (enc.BASKETS, 5 * enc.BASKET_SIZE),
        (enc.DECK_SIZE, 1),
        (enc.EXHAUSTIONS, 3),
        (enc.DECK_COUNTS, 6),
        (enc.DISCARD_COUNTS, 6),
        (enc.SEATS, 5 * enc.SEAT_SIZE),
    ]
    offset = 0
    for start, size in blocks:
        assert start == offset
        offset += size
    assert offset == enc.OBSERVATION_SIZE == 177
    assert RULES.observation_shape == (177,) and RULES.action_size == NUM_ACTIONS == 23


def test_action_table():
    assert [bid_action(n) for n in range(1, 7)] == list(range(6))
    assert [bet_action(YES, s) for s in (1, 2, 3)] == [6, 7, 8]
    assert [bet_action(NO, s) for s in (1, 2, 3)] == [9, 10, 11]
    assert [place_action(j) for j in range(5)] == list(range(12, 17))
    assert (REDRAW, FORFEIT) == (17, 18)
    assert [declare_action(d) for d in range(4)] == [19, 20, 21, 22]


@pytest.mark.parametrize("num_players, variant", [(2, False), (3, True), (4, False), (5, True)])
def test_same_shape_and_in_bounds_for_every_player_count(num_players, variant):
    rng = np.random.default_rng(0)
    low, high = RULES.observation_bounds
    state = RULES.new_state(num_players, seed=1, variant_red3=variant)
    while not state.is_terminal():
        for seat in range(num_players):
            obs = state.view(seat).observation()
            assert obs.shape == (177,) and obs.dtype == np.float32
            assert low <= obs.min() and obs.max() <= high
            present = obs[enc.SEATS + enc.PRESENT : enc.SEATS + 5 * enc.SEAT_SIZE : enc.SEAT_SIZE]
            assert present.tolist() == [1] * num_players + [0] * (5 - num_players)
            assert obs[enc.PLAYER_COUNT + num_players - 2] == 1 and obs[enc.VARIANT] == variant
            assert obs[enc.PHASE : enc.PHASE + 4].sum() == 1
            mask = state.view(seat).legal_action_mask()
            assert mask.any() == (seat == state.current_player)
        state.apply(int(rng.choice(state.legal_actions())))
    obs = state.view(0).observation()
    assert obs[enc.PHASE : enc.PHASE + 4].sum() == 0 and obs[enc.ACTING_SEAT :][:5].sum() == 0


def test_fields_of_a_constructed_position():
    state = table(EXAMPLE_2, n=3, chips={2: (4, 7, 1)}, deck="E C", turn=1, won={2: "2 5 5"})
    bid(state, 3)  # P1 bids 3; P2 then P0 bet
    bet(state, "YES", 2)
    bet(state, "NO", 1)
    place(state, 0)  # E into B0: C T E
    obs = state.view(2).observation()  # seen by P2: P2 is relative 0, P0 is 1, P1 is 2
    assert obs[enc.PLAYER_COUNT + 1] == 1
    assert obs[enc.PHASE + 3] == 1  # CARD
    assert obs[enc.TURN_SEAT + 2] == 1 and obs[enc.ACTING_SEAT + 2] == 1
    assert obs[enc.STACKS : enc.STACKS + 6] * np.array([4, 4, 5, 5, 6, 6]) == pytest.approx(
        [4, 3, 4, 5, 4, 6]
    )
    assert obs[enc.BID_NUMBER + 2] == 1
    assert obs[enc.PLACED] * 6 == pytest.approx(1)
    assert obs[enc.PLACEMENTS_LEFT] * 6 == pytest.approx(2)
    assert obs[enc.REDRAW_AVAILABLE] == 1 and obs[enc.DECLARED] == 0
    assert obs[enc.PENDING + 1] == 1  # C drawn
    b0 = obs[enc.BASKETS : enc.BASKETS + enc.BASKET_SIZE]
    assert b0[:6] * 5 == pytest.approx([0, 1, 0, 1, 1, 0])  # C T E
    assert b0[6:9].tolist() == [0, 0, 1] and b0[9] * 5 == pytest.approx(3)  # DIFFERENT
    b2 = obs[enc.BASKETS + 2 * enc.BASKET_SIZE : enc.BASKETS + 3 * enc.BASKET_SIZE]
    assert b2[6:9].tolist() == [1, 0, 0]  # W G: AMBIGUOUS
    b4 = obs[enc.BASKETS + 4 * enc.BASKET_SIZE : enc.BASKETS + 5 * enc.BASKET_SIZE]
    assert b4[:6] * 5 == pytest.approx([1, 1, 0, 0, 0, 0]) and b4[6:9].tolist() == [0, 1, 0]
    view = state.view(2)
    assert obs[enc.DECK_SIZE] * 65 == pytest.approx(view.deck_size)
    assert obs[enc.EXHAUSTIONS] == 1
    assert obs[enc.DECK_COUNTS : enc.DECK_COUNTS + 6] * 11 == pytest.approx(view.deck_counts)
    mine = obs[enc.SEATS : enc.SEATS + enc.SEAT_SIZE]
    # P2 staked 2 of (4, 7, 1) at REVEAL: (4, 5, 1) in hand; bid cards 2, 5, 5; YES 2.
    assert mine[1:4] * 10 == pytest.approx([4, 5, 1])
    assert mine[4:10] * np.array([4, 4, 5, 5, 6, 6]) == pytest.approx([0, 1, 0, 0, 2, 0])
    assert mine[10:14] == pytest.approx([1, 1, 0, 2 / 3])
    turn_player = obs[enc.SEATS + 2 * enc.SEAT_SIZE : enc.SEATS + 3 * enc.SEAT_SIZE]
    assert turn_player[10:14].tolist() == [0, 0, 0, 0]  # the turn player never bets


def test_chip_counts_are_clipped_to_the_bounds():
    state = table(EXAMPLE_2, chips={0: (250, 130, 0)})
    obs = state.view(1).observation()
    base = enc.SEATS + enc.SEAT_SIZE
    assert obs[base + 1 : base + 4].tolist() == [10, 10, 0]


def test_every_index_describes_its_move():
    state = table(EXAMPLE_2, deck="T")
    described = [state.describe_action(a) for a in range(NUM_ACTIONS)]
    assert len(set(described)) == NUM_ACTIONS
    assert described[bet_action(NO, 2)] == "bet NO 2"
