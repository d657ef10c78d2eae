"""Seeded random games for every player count, with the spec's invariants at every step."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgame_envs.core.testing import random_playouts
from boardgame_envs.cornucopia.data import (
    BID_COPIES,
    COPIES_PER_TYPE,
    NUM_TYPES,
    START_CHIPS,
    WILD,
)
from boardgame_envs.cornucopia.rules import (
    CARD,
    GAME_OVER,
    SAME_BASKET,
    State,
    is_valid_basket,
)
from tests.cornucopia.helpers import RULES

#: Games per player count with every check at every step (every legal action tried on a
#: clone, an illegal and an out-of-range one on the state), then more with the mask and
#: invariant checks only: together they fit the suite's time budget.
CHECKED_GAMES = 20
MORE_GAMES = 30
#: and these more in ``make test-all`` (slow)
SLOW_GAMES = 200


def crop_cards_conserved(state: State) -> None:
    """66 crop cards, 11 of each type, across deck, discard, baskets and the drawn card."""
    cards = state.card_zones()
    assert len(cards) == 66
    assert [cards.count(t) for t in range(NUM_TYPES)] == [COPIES_PER_TYPE] * NUM_TYPES


def bid_cards_conserved(state: State) -> None:
    """30 bid cards across the stacks, the players and the pending bid."""
    held = [sum(column) for column in zip(state.stacks, *state.won)]
    if state.bid is not None:
        held[state.bid - 1] += 1
    assert held == list(BID_COPIES) and min(state.stacks) >= 0


def chips_never_negative_and_conserved(state: State) -> None:
    assert all(min(c) >= 0 for c in state.chips), state.chips
    n = state.num_players
    assert state.chip_totals() == [n * START_CHIPS[colour] for colour in range(3)]


def baskets_legal(state: State) -> None:
    """All same or all different (wilds wild), W* in B4, 2-4 cards at every decision."""
    assert state.baskets[SAME_BASKET][0] == WILD
    for j, basket in enumerate(state.baskets):
        assert is_valid_basket(basket, j == SAME_BASKET), (j, basket)
        assert 2 <= len(basket) <= 4, (j, basket)


def deck_exhausted_at_most_twice(state: State) -> None:
    assert state.exhaustions <= 2
    assert state.end_pending == (state.exhaustions >= 2)
    if state.phase == GAME_OVER and state.end_reason != "three bid stacks empty":
        assert state.exhaustions == 2


def turn_state_consistent(state: State) -> None:
    assert (state.phase == CARD) == (state.pending is not None)
    if state.bid is not None:
        assert 0 <= state.placed < state.bid
    assert state.turn <= 121
    if not state.variant:
        assert state.declared == 0


def compositions_match_the_piles(state: State) -> None:
    """The public deck and discard compositions in a view are the piles' real contents."""
    view = state.view(0)
    assert list(view.deck_counts) == [state.deck.count(t) for t in range(NUM_TYPES)]
    assert list(view.discard_counts) == [state.discard.count(t) for t in range(NUM_TYPES)]
    assert view.deck_size == len(state.deck)


INVARIANTS = (
    crop_cards_conserved,
    bid_cards_conserved,
    chips_never_negative_and_conserved,
    baskets_legal,
    deck_exhausted_at_most_twice,
    turn_state_consistent,
    compositions_match_the_piles,
)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_random_games_keep_every_invariant(num_players):
    checked = random_playouts(RULES, num_players, range(CHECKED_GAMES), INVARIANTS)
    more = random_playouts(
        RULES,
        num_players,
        range(CHECKED_GAMES, CHECKED_GAMES + MORE_GAMES),
        INVARIANTS,
        check_actions=False,
    )
    assert checked.games + more.games == CHECKED_GAMES + MORE_GAMES
    assert checked.phases_seen | more.phases_seen == {"BID", "BET", "CARD"}
    assert checked.actions_seen | more.actions_seen == set(range(19))


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_more_random_games_keep_every_invariant(num_players):
    start = CHECKED_GAMES + MORE_GAMES
    games = range(start, start + SLOW_GAMES)
    stats = random_playouts(RULES, num_players, games, INVARIANTS, check_actions=False)
    assert stats.games == SLOW_GAMES


@pytest.mark.parametrize("num_players", [2, 5])
def test_random_games_with_the_variant(num_players):
    options = {"variant_red3": True}
    checked = random_playouts(RULES, num_players, range(20), INVARIANTS, options=options)
    more = random_playouts(
        RULES, num_players, range(20, 70), INVARIANTS, options=options, check_actions=False
    )
    assert checked.phases_seen | more.phases_seen == {"DECLARE", "BID", "BET", "CARD"}
    # Declaring 3 needs 3 red chips: the stand-in rewards never pay red (spec §10 ex. 11).
    assert checked.actions_seen | more.actions_seen == set(range(22))


@pytest.mark.parametrize("engine", ["native"], indirect=True)
@pytest.mark.parametrize("num_players, variant", [(2, False), (3, True), (5, True)])
def test_random_native_games_keep_every_invariant(engine, num_players, variant):
    """The two tests above, shorter, on the native engine (its invariants read snapshots;
    tests/native plays many more games in lockstep with the reference)."""
    options = {"variant_red3": variant}
    checked = random_playouts(RULES, num_players, range(1), INVARIANTS, options=options)
    more = random_playouts(
        RULES, num_players, range(1, 3), INVARIANTS, options=options, check_actions=False
    )
    assert checked.games + more.games == 3
    assert {"BID", "BET", "CARD"} <= checked.phases_seen | more.phases_seen


@pytest.mark.usefixtures("engine")
def test_both_end_conditions_occur():
    reasons = set()
    for seed in range(60):
        state = RULES.new_state(3, seed=seed)
        while not state.is_terminal():
            # bid high and place anywhere: many completions, stacks 5 and 6 run out
            legal = state.legal_actions()
            state.apply(legal[-1] if state.phase == "BID" else legal[0])
        reasons.add(state.end_reason)
    assert reasons == {"deck run out twice", "three bid stacks empty"}


@settings(max_examples=25, deadline=None)
@given(
    num_players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    variant=st.booleans(),
    data=st.data(),
)
def test_any_action_sequence_keeps_invariants(num_players, seed, variant, data):
    """Hypothesis draws the moves, so a failing game shrinks to a short one."""
    state = RULES.new_state(num_players, seed=seed, variant_red3=variant)
    steps = 0
    while not state.is_terminal():
        state.apply(data.draw(st.sampled_from(state.legal_actions())))
        steps += 1
        for invariant in INVARIANTS:
            invariant(state)
    assert steps <= RULES.max_decisions(num_players, state.config)
