"""Seeded random games for every player count, with the spec's invariants at every step.

Budget (the whole ``tests/wasabi`` must stay under a minute on one core): 150 games per
player count check the invariants and ``mask == legal actions`` at every step; 12 more per
player count also try every legal action on a clone and an illegal and an out-of-range
action on the state (``check_actions``, the expensive part); 30 per player count are
checked against a brute-force completion oracle. A game is 250-500 decisions.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardgame_envs import make_rules
from boardgame_envs.core.testing import random_playouts
from boardgame_envs.wasabi.data import (
    CARD_HAND_LIMIT,
    CARDS_IN_PLAY,
    LENGTHS,
    MENU_SLOTS,
    NUM_RECIPES,
    NUM_TILES,
    RECIPE_LENGTH,
    RECIPES,
    RECIPES_TO_WIN,
    TILE_COUNTS,
    TILE_HAND_LIMIT,
    TOKENS,
    WASABI,
)
from boardgame_envs.wasabi.rules import (
    AFTER_PLACEMENT,
    CHOP_TARGET,
    CHOPPED_TILE,
    GAME_OVER,
    PHASES,
    PLACE_TARGET,
    REWARD_DISCARD,
    STEP1_START,
    SWITCH_SECOND,
    WASABI_ANCHOR,
    State,
    covered_cells,
)
from tests.native.lockstep import has_native
from tests.wasabi.helpers import RULES

TOKEN_COUNTS = [TOKENS[length].per_player for length in LENGTHS]
GAMES = 60
#: and these more in ``make test-all`` (slow)
SLOW_GAMES = 140
CHECKED_GAMES = 12
ORACLE_GAMES = 30


def tiles_conserved(state: State) -> None:
    """72 tiles: pantry, hands, the board (stacks included), or lifted by Chop!."""
    counts = list(state.pantry)
    for stack in state.stacks:
        for k in stack:
            counts[k] += 1
    for hand in state.tiles:
        counts = [a + b for a, b in zip(counts, hand)]
    if state.lifted is not None:
        counts[state.lifted] += 1
    assert counts == list(TILE_COUNTS)
    assert sum(counts) == NUM_TILES
    assert min(state.pantry) >= 0 and all(min(h) >= 0 for h in state.tiles)


def recipes_conserved(state: State) -> None:
    """52 strips: decks, menus and completed piles, each strip in exactly one place."""
    everywhere = [r for deck in state.decks for r in deck]
    everywhere += [r for menu in state.menus for r in menu if r is not None]
    everywhere += [r for done in state.completed for r, _ in done]
    assert sorted(everywhere) == list(range(NUM_RECIPES))
    for i, deck in enumerate(state.decks):
        assert all(RECIPE_LENGTH[r] == LENGTHS[i] for r in deck)


def cards_conserved(state: State) -> None:
    """5, 7 or 10 action cards: kitchen, hands, or (Wasabi!) the board."""
    held = [sum(hand[t] for hand in state.cards) for t in range(5)]
    on_board = [0, 0, 0, 0, len(state.anchors)]
    total = [k + h + b for k, h, b in zip(state.kitchen, held, on_board)]
    assert total == list(CARDS_IN_PLAY[state.num_players])
    assert min(state.kitchen) >= 0


def hand_limits(state: State) -> None:
    """At most 2 cards (3 only while the pick's discard is due), 3 tiles, 3 recipes."""
    for seat in range(state.num_players):
        limit = CARD_HAND_LIMIT
        if state.phase == REWARD_DISCARD and seat == state.active:
            limit += 1
        assert sum(state.cards[seat]) <= limit, f"seat {seat} holds {state.cards[seat]}"
        assert sum(state.tiles[seat]) <= TILE_HAND_LIMIT
        assert len(state.menus[seat]) == MENU_SLOTS


def tokens_used_once(state: State) -> None:
    """Each token completes at most one recipe: unused + completed = the token count."""
    for seat in range(state.num_players):
        used = [0, 0, 0, 0]
        for r, _ in state.completed[seat]:
            used[RECIPE_LENGTH[r] - 2] += 1
        assert [t + u for t, u in zip(state.tokens[seat], used)] == TOKEN_COUNTS
        assert min(state.tokens[seat]) >= 0


def scores_consistent(state: State) -> None:
    """Style cubes come with ideal dishes; Wasabi! plays add one each on top."""
    scores = state.scores()
    for seat in range(state.num_players):
        style = sum(TOKENS[RECIPE_LENGTH[r]].cubes for r, ideal in state.completed[seat] if ideal)
        assert state.cubes[seat] >= style
        assert scores[seat] == state.points(seat) + state.cubes[seat]


def board_well_formed(state: State) -> None:
    geo = state.geo
    assert all(not state.stacks[c] for c in range(42) if not geo.is_active[c])
    covered = [0] * 42
    for anchor in state.anchors:
        assert anchor in geo.anchors
        for c in geo.block[anchor]:
            covered[c] += 1
    assert max(covered) <= 1, "two Wasabi! cards overlap"


def ends_properly(state: State) -> None:
    assert state.turn <= state.config["max_turns"]
    if state.phase != GAME_OVER:
        return
    if state.winner is not None:
        assert len(state.completed[state.winner]) == RECIPES_TO_WIN
    else:
        assert state.board_full() or state.turn == state.config["max_turns"]


INVARIANTS = (
    tiles_conserved,
    recipes_conserved,
    cards_conserved,
    hand_limits,
    tokens_used_once,
    scores_consistent,
    board_well_formed,
    ends_properly,
)


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_keep_every_invariant(num_players):
    stats = random_playouts(RULES, num_players, range(GAMES), INVARIANTS, check_actions=False)
    assert stats.games == GAMES
    # Every decision point of spec §4.4 occurs (a pick's discard needs two cards held,
    # rare in random play with 5 cards in the game), and nearly every action index.
    assert stats.phases_seen >= set(PHASES) - {REWARD_DISCARD}
    if num_players == 4:
        assert REWARD_DISCARD in stats.phases_seen
    assert len(stats.actions_seen) >= 58


@pytest.mark.slow
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_more_random_games_keep_every_invariant(num_players):
    games = range(GAMES, GAMES + SLOW_GAMES)
    stats = random_playouts(RULES, num_players, games, INVARIANTS, check_actions=False)
    assert stats.games == SLOW_GAMES


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_random_games_accept_every_legal_and_reject_illegal_actions(num_players):
    stats = random_playouts(RULES, num_players, range(10_000, 10_000 + CHECKED_GAMES), INVARIANTS)
    assert stats.games == CHECKED_GAMES


@pytest.mark.parametrize(
    "options",
    [
        {"style_either_direction": True},
        {"gift_excludes_maki": True},
        {"hide_opponent_hands": True},
        {"max_turns": 12},
        {"start_player": 1},
    ],
)
def test_random_games_with_options(options):
    stats = random_playouts(RULES, 3, range(6), INVARIANTS, options=options)
    assert stats.games == 6


def every_invariant_of_the_python_copy(state: State) -> None:
    """INVARIANTS for a native state, read through its Python copy (made once per step)."""
    python = state.to_reference()
    for invariant in INVARIANTS:
        invariant(python)


NATIVE_GAMES = 3


@pytest.mark.skipif(not has_native("wasabi"), reason="no native wasabi engine")
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_native_random_games_keep_every_invariant(num_players):
    """The native engine under the same checks (fewer games: tests/native/test_wasabi.py
    holds it to the Python engine move for move)."""
    native = make_rules("wasabi", engine="native")
    invariants = [every_invariant_of_the_python_copy]
    stats = random_playouts(
        native, num_players, range(NATIVE_GAMES), invariants, check_actions=False
    )
    assert stats.games == NATIVE_GAMES
    stats = random_playouts(native, num_players, range(10_000, 10_002))  # every action tried
    assert stats.games == 2


# -- an independent oracle for completions ------------------------------------------------
def brute_force_windows(state: State, recipe: int) -> tuple[bool, bool]:
    """(matches, ideal) by listing every row and column window the slow way."""
    covered = covered_cells(state.anchors)
    kinds = RECIPES[recipe].kinds
    length = len(kinds)
    lines = [[(r, c) for c in range(state.columns)] for r in range(6)]
    lines += [[(r, c) for r in range(6)] for c in range(state.columns)]
    match = ideal = False
    for line in lines:
        for start in range(len(line) - length + 1):
            cells = [r * 7 + c for r, c in line[start : start + length]]
            if any(not state.stacks[c] or covered[c] for c in cells):
                continue
            seen = [state.stacks[c][-1] for c in cells]
            if Counter(seen) == Counter(kinds):
                match = True
                either = state.config["style_either_direction"] and seen[::-1] == list(kinds)
                ideal = ideal or seen == list(kinds) or either
    return match, ideal


BOARD_CHANGES = {PLACE_TARGET, SWITCH_SECOND, CHOP_TARGET, CHOPPED_TILE, WASABI_ANCHOR}
STEP1 = BOARD_CHANGES | {STEP1_START, AFTER_PLACEMENT}


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_completions_agree_with_a_brute_force_scan(num_players):
    """Each completed recipe lies in a row or column of top tiles (ideal exactly when an
    ideal window exists), and after a board change in Step 1 no recipe that still has a
    token of its length matches (completion is mandatory)."""
    completions = 0
    for seed in range(ORACLE_GAMES):
        state = RULES.new_state(num_players, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            seat, phase = state.active, state.phase
            before = len(state.completed[seat])
            board = (state.stacks, state.anchors)
            state.apply(int(rng.choice(state.legal_actions())))
            for recipe, ideal in state.completed[seat][before:]:
                completions += 1
                assert brute_force_windows(state, recipe) == (True, ideal)
            changed = board != (state.stacks, state.anchors)
            if phase in BOARD_CHANGES and changed and state.winner is None:
                for recipe in state.menus[seat]:
                    if recipe is not None and state.tokens[seat][RECIPE_LENGTH[recipe] - 2]:
                        assert not brute_force_windows(state, recipe)[0], (seed, recipe)
            if phase not in STEP1 and changed:
                # Only a pick of a board Wasabi! changes the board outside Step 1.
                assert len(state.anchors) < len(board[1])
                assert state.cards[seat][WASABI] >= 1
    assert completions >= ORACLE_GAMES // 2


@settings(max_examples=15, deadline=None)
@given(num_players=st.integers(2, 4), seed=st.integers(0, 2**32), data=st.data())
def test_any_action_sequence_keeps_invariants(num_players, seed, data):
    """Hypothesis draws the moves, so a failing game shrinks to a short one."""
    state = RULES.new_state(num_players, seed=seed, max_turns=30)
    while not state.is_terminal():
        state.apply(data.draw(st.sampled_from(state.legal_actions())))
        for invariant in INVARIANTS:
            invariant(state)


def test_games_end_within_the_bound():
    for num_players in (2, 3, 4):
        bound = RULES.max_decisions(num_players, RULES.make_config({}))
        assert bound == 6 * num_players + 17 * 250
