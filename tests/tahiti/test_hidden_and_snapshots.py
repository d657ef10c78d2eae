"""Hidden information stays hidden; clone and JSON copies continue identically."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.testing import check_continuations, check_hidden_information, play_trace
from boardgame_envs.tahiti.rules import State
from tests.tahiti.helpers import ENGINES, RULES, engine_rules


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """Change what ``seat`` cannot know (§7): the other seats' favourite tiles (among the
    tiles it does not hold, the unused one included), the order of each stack below its top,
    the order of the face-down depletion tokens, and the bag's future draws (the generator).
    A native position is resampled on its Python copy and loaded back natively."""
    if not isinstance(state, State):
        return state.rules.from_reference(resample_hidden(state.to_reference(), seat, rng))
    other = state.clone()
    hidden = [f for s, f in enumerate(other.favourites) if s != seat] + other.unused_favourites
    rng.shuffle(hidden)
    for s in range(other.num_players):
        if s != seat:
            other.favourites[s] = hidden.pop()
    other.unused_favourites = hidden
    for stack in other.stacks:
        below = stack[1:]
        rng.shuffle(below)
        stack[1:] = below
    rng.shuffle(other.token_pile)
    other.rng = np.random.default_rng(int(rng.integers(2**63)))
    other._rng_shared = False
    return other


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_observation_ignores_what_the_seat_cannot_know(num_players, engine):
    rng = np.random.default_rng(num_players)
    changed = 0
    games = 4 if engine == "python" else 1  # a native resample goes through two snapshots
    for seed in range(games):
        state = engine_rules(engine).new_state(num_players, seed=seed, max_rounds=30)
        for step in range(400):
            if state.is_terminal():
                break
            if step % 3 == 0:
                for seat in range(num_players):
                    check_hidden_information(state, seat, resample_hidden, rng, tries=1)
            other = resample_hidden(state, 0, rng)
            changed += other.to_json() != state.to_json()
            state.apply(int(rng.choice(state.legal_actions())))
    assert changed > 25 * games  # the resampler really changes hidden facts


def test_the_continuation_differs_after_resampling():
    """Guard: the resampled facts matter to the game (they are not dead data)."""
    state = RULES.new_state(4, seed=3)
    other = resample_hidden(state, 0, np.random.default_rng(1))
    assert other.favourites[0] == state.favourites[0]
    assert other.favourites != state.favourites or other.token_pile != state.token_pile
    assert play_trace(state.clone(), 60, seed=0) != play_trace(other, 60, seed=0)


def test_observation_changes_with_the_seats_own_favourite():
    state = RULES.new_state(4, seed=2)
    other = state.clone()
    other.favourites[0], other.favourites[1] = other.favourites[1], other.favourites[0]
    assert not np.array_equal(state.view(0).observation(), other.view(0).observation())
    assert not np.array_equal(state.view(1).observation(), other.view(1).observation())
    assert np.array_equal(state.view(2).observation(), other.view(2).observation())


def test_view_holds_no_hidden_fact():
    state = RULES.new_state(3, seed=4)
    view = state.view(0)
    fields = set(view.__dataclass_fields__)
    assert not fields & {"favourites", "stacks", "token_pile", "rng", "unused_favourites"}
    assert view.favourite == state.favourites[0]
    assert view.stack_tops == (state.stacks[0][0], state.stacks[1][0])
    assert view.unplaced == frozenset(state.stacks[0] + state.stacks[1])
    assert view.tokens_left == (12, 6)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("num_players, at_step", [(2, 0), (3, 45), (4, 160), (2, 400)])
def test_clone_and_json_copy_continue_identically(num_players, at_step, engine):
    check_continuations(engine_rules(engine), num_players, seed=num_players * 17, at_step=at_step)


@pytest.mark.parametrize("engine", ENGINES)
def test_clone_is_independent_and_draws_its_own_chance(engine):
    rules = engine_rules(engine)
    state = rules.new_state(2, seed=3)
    reference = rules.new_state(2, seed=3).to_json()
    clone = state.clone()
    play_trace(clone, 300, seed=0)
    assert state.to_json() == reference
    # both continue as a fresh copy would, though they shared a generator for a while
    a, b = state.clone(), rules.from_json(reference)
    assert play_trace(a, 300, seed=9) == play_trace(b, 300, seed=9)


@pytest.mark.parametrize("engine", ENGINES)
def test_json_round_trip_of_a_finished_game(engine):
    rules = engine_rules(engine)
    state = rules.new_state(2, seed=5, max_rounds=3)
    play_trace(state, 10_000, seed=1)
    assert state.is_terminal() and state.truncated
    copy = rules.from_json(state.to_json())
    assert copy.to_json() == state.to_json() and copy.is_terminal() and copy.truncated
    assert copy.scores() == state.scores()
