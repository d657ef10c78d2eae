"""Seeded random matches for every player count, with the spec's invariants at every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgame_envs.core.testing import random_playouts
from boardgame_envs.factors_multiples.data import HAND_LIMIT, NUM_CARDS
from boardgame_envs.factors_multiples.rules import GAME_OVER, K_ANSWER, PLAY, State
from tests.factors_multiples.helpers import ENGINES, rules_for

MATCHES_PER_PLAYER_COUNT = 50
#: and these more in ``make test-all`` (slow)
MORE_MATCHES_PER_PLAYER_COUNT = 250
#: On the compiled engine (every game it plays is also checked move for move against the
#: reference in tests/native), fewer matches: its fields are read through snapshots here.
NATIVE_MATCHES_PER_PLAYER_COUNT = 8


def all_cards_conserved(state: State) -> None:
    """I2: the 52 cards are each in exactly one zone."""
    assert sorted(state.card_zones()) == list(range(NUM_CARDS))


def hand_limits(state: State) -> None:
    """I1 and I4: at a turn's start everyone with a pile holds >= 3 cards; nobody is empty
    during a live round; refills never take a hand past 3, so a larger hand was shown."""
    if state.phase == GAME_OVER:
        return
    for seat in range(state.num_players):
        hand, pile = state.hands[seat], state.piles[seat]
        assert hand, f"seat {seat} has no card in a live round"
        if state.phase in (PLAY, K_ANSWER) and pile:
            assert len(hand) >= HAND_LIMIT, f"seat {seat} holds {len(hand)} with a pile"
        if len(hand) > HAND_LIMIT:
            assert state.reveals[seat], f"seat {seat} holds {len(hand)} without showing"


def value_in_range(state: State) -> None:
    """I3: the value is undetermined or 2..12."""
    assert state.value is None or 2 <= state.value <= 12


def scores_consistent(state: State) -> None:
    assert len(state.round_scores) == state.round + (state.phase == GAME_OVER)
    for scores, went_out in zip(state.round_scores, state.went_out):
        n = state.num_players
        assert [s < 0 for s in scores] == [seat == went_out for seat in range(n)]


INVARIANTS = (all_cards_conserved, hand_limits, value_in_range, scores_consistent)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_matches_keep_every_invariant(num_players, engine):
    matches = MATCHES_PER_PLAYER_COUNT if engine == "python" else NATIVE_MATCHES_PER_PLAYER_COUNT
    stats = random_playouts(rules_for(engine), num_players, range(matches), INVARIANTS)
    assert stats.games == matches
    # Every decision type and every action index occurs somewhere in 50 matches (and
    # already in the first 8).
    assert stats.phases_seen == {
        "PLAY",
        "K_ANSWER",
        "A_DISCARD",
        "SEVEN_NAME",
        "J_DIRECTION",
        "K_DISCARD",
    }
    assert stats.actions_seen == set(range(40))


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_more_random_matches_keep_every_invariant(num_players):
    start = MATCHES_PER_PLAYER_COUNT
    matches = range(start, start + MORE_MATCHES_PER_PLAYER_COUNT)
    stats = random_playouts(rules_for("python"), num_players, matches, INVARIANTS)
    assert stats.games == MORE_MATCHES_PER_PLAYER_COUNT


@pytest.mark.parametrize(
    "options",
    [
        {"a_needs_discard": True},
        {"k_discard_optional": True},
        {"choose_after_refill": True},
        {"start_draw": "random"},
        {"rounds": 1},
        {"rounds": 5},
    ],
)
def test_random_matches_with_options(options, engine):
    matches = 40 if engine == "python" else 3
    stats = random_playouts(rules_for(engine), 3, range(matches), INVARIANTS, options=options)
    assert stats.games == matches


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=30, deadline=None)
@given(num_players=st.integers(2, 5), seed=st.integers(0, 2**32), data=st.data())
def test_any_action_sequence_keeps_invariants(engine, num_players, seed, data):
    """Hypothesis draws the moves, so a failing game shrinks to a short one."""
    state = rules_for(engine).new_state(num_players, seed=seed, rounds=1)
    while not state.is_terminal():
        state.apply(data.draw(st.sampled_from(state.legal_actions())))
        for invariant in INVARIANTS:
            invariant(state)
