"""Cornucopia's compiled heuristic, heuristic playouts, determinizer and leaf evaluation
against their Python references, position by position:

* ``heuristic_action(seat, rng)`` against
  ``boardgame_envs.agents.games.cornucopia.heuristic.HeuristicAgent`` (the same move, the two
  generators left in the same state);
* ``turn_outlook(seat)`` (what search reads) against the reference's, for every seat, as
  equal floats (their ``repr``: the sign of a zero counts);
* ``heuristic_playout(seed, depth, epsilon)`` against the same loop on the Python engine
  with one reference agent drawing from ``default_rng(seed)``;
* ``sample(seat, rng)`` against ``rules.sample_state(view, rng)`` (the same snapshot, the
  generators in the same state), a sample that shows the seat its view and does not read
  what the seat cannot see;
* ``leaf_values()`` against ``boardgame_envs.agents.leaf_values.leaf_evaluator("cornucopia")``.

Positions come from Python-engine games at every player count, with and without
``variant_red3``, played by the heuristic with random moves mixed in.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from boardgame_envs.agents.games.cornucopia.heuristic import HeuristicAgent
from boardgame_envs.agents.heuristic import heuristic_playout as python_heuristic_playout
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.core.native import native_module
from boardgame_envs.core.testing import assert_views_equal
from tests.cornucopia.test_hidden_and_snapshots import resample_hidden
from tests.native.lockstep import engines, native_marks

GAME = "cornucopia"
pytestmark = native_marks(GAME)

#: Every player count with and without ``variant_red3`` (the game's one option).
CONFIGS = [(n, variant) for n in (2, 3, 4, 5) for variant in (False, True)]
CONFIG_IDS = [f"{n}p-{'red3' if variant else 'base'}" for n, variant in CONFIGS]
#: The share of random moves in the games the positions come from.
NOISE = 0.3


@pytest.fixture(scope="module")
def rules():
    return engines(GAME)


def pcg64():
    return native_module().Pcg64


def positions(python_rules, num_players: int, variant: bool, seed: int, every: int):
    """Every ``every``-th position of a seeded Python-engine game (its end included), played
    by the heuristic with a share ``NOISE`` of random moves."""
    state = python_rules.new_state(num_players, seed=seed, variant_red3=variant)
    player = HeuristicAgent()
    noise = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if step % every == seed % every:
            yield state.clone()
        legal = state.legal_actions()
        if noise.random() < NOISE:
            action = noise.choice(legal)
        else:
            action = player.act(state.view(state.current_player))
        state.apply(action)
        step += 1
    yield state


def rng_state(generator) -> int:
    """The 128-bit state of a numpy Generator or a native Pcg64."""
    if isinstance(generator, np.random.Generator):
        return generator.bit_generator.state["state"]["state"]
    return generator.state["state"]["state"]


def check_heuristic(python_state, native, seed: int, where: str) -> None:
    seat = python_state.current_player
    reference = HeuristicAgent()
    reference.rng = np.random.default_rng(seed)
    expected = reference.act(python_state.view(seat))
    rng = pcg64().from_seed(seed)
    assert native.heuristic_action(seat, rng) == expected, where
    assert rng_state(rng) == rng_state(reference.rng), where


def check_outlooks(python_state, native, where: str) -> None:
    reference = HeuristicAgent()
    for seat in range(python_state.num_players):
        expected = reference.turn_outlook(python_state.view(seat))
        got = native.turn_outlook(seat)
        assert type(got) is tuple and all(type(x) is float for x in got), where
        assert repr(got) == repr(expected), f"{where} seat {seat}"


def check_leaf_values(python_state, native, where: str) -> None:
    before = native.to_dict()
    expected = leaf_evaluator(GAME)(python_state.clone())
    got = native.leaf_values()
    assert repr(got) == repr(expected), where
    assert native.to_dict() == before, f"{where}: leaf_values changed the state"


def check_samples(python_rules, python_state, native, seed: int, where: str) -> None:
    for seat in range(python_state.num_players):
        generator = np.random.default_rng(seed + seat)
        expected = python_rules.sample_state(python_state.view(seat), generator)
        rng = pcg64().from_seed(seed + seat)
        sample = native.sample(seat, rng)
        assert sample.to_dict() == expected.to_dict(), f"{where} seat {seat}"
        assert rng_state(rng) == rng_state(generator), f"{where} seat {seat}"


def check_playouts(python_state, native, seed: int, depth: int, where: str) -> None:
    for epsilon in (0.0, 0.2):
        reference = python_state.clone()
        played = python_heuristic_playout(reference, seed, depth, epsilon)
        copy = native.clone()
        assert copy.heuristic_playout(seed, depth, epsilon) == played, f"{where} eps {epsilon}"
        assert copy.to_dict() == reference.to_dict(), f"{where} eps {epsilon}"


def check_games(rules, num_players, variant, seeds, every, playout_every, full_every):
    """Every check at the positions of the games of ``seeds``; playouts at every
    ``playout_every``-th position (8 decisions deep, every ``full_every``-th to the end).
    Returns the number of positions."""
    python_rules, native_rules = rules
    count = 0
    for seed in seeds:
        for state in positions(python_rules, num_players, variant, seed, every):
            where = f"{num_players}p variant={variant} seed={seed} turn={state.turn}"
            native = native_rules.from_reference(state)._native
            if not state.is_terminal():
                check_heuristic(state, native, seed + count, where)
            check_outlooks(state, native, where)
            check_leaf_values(state, native, where)
            check_samples(python_rules, state, native, seed + count, where)
            if count % playout_every == 0:
                depth = 0 if count % full_every == 0 else 8
                check_playouts(state, native, seed + count, depth, where)
            count += 1
    return count


@pytest.mark.parametrize("num_players, variant", CONFIGS, ids=CONFIG_IDS)
def test_lockstep_with_the_references(rules, num_players, variant):
    count = check_games(rules, num_players, variant, [10 * num_players + variant], 4, 6, 30)
    assert count >= 25


@pytest.mark.slow
@pytest.mark.parametrize("num_players, variant", CONFIGS, ids=CONFIG_IDS)
def test_lockstep_with_the_references_many_games(rules, num_players, variant):
    first = 1000 + 100 * num_players + 50 * variant
    count = check_games(rules, num_players, variant, range(first, first + 12), 1, 10, 100)
    assert count >= 1000


def test_every_decision_of_heuristic_games(rules):
    """The moves of whole games played by the heuristic alone (no noise), every seat."""
    python_rules, native_rules = rules
    for num_players, variant in CONFIGS:
        state = python_rules.new_state(num_players, seed=7 + num_players, variant_red3=variant)
        native = native_rules.from_reference(state)._native
        reference = HeuristicAgent()
        rng = pcg64().from_seed(3)
        while not state.is_terminal():
            seat = state.current_player
            action = reference.act(state.view(seat))
            assert native.heuristic_action(seat, rng) == action, (num_players, variant)
            state.apply(action)
            native.apply(action)


def test_heuristic_playout_from_a_new_game_to_the_end(rules):
    python_rules, native_rules = rules
    for num_players, variant in [(2, False), (3, True), (5, False)]:
        state = python_rules.new_state(num_players, seed=num_players, variant_red3=variant)
        native = native_rules.from_reference(state)._native
        for epsilon in (0.0, 0.2, 1.0):
            reference = state.clone()
            played = python_heuristic_playout(reference, 99, 0, epsilon)
            copy = native.clone()
            assert copy.heuristic_playout(99, 0, epsilon) == played
            assert copy.is_terminal() and copy.to_dict() == reference.to_dict()


def test_samples_and_the_heuristic_read_nothing_hidden(rules):
    """A native sample shows the seat exactly its view; states that differ only in what the
    seat cannot see (deck order, seed, others' unrevealed bets) give the same sample, the
    same move and the same turn outlook."""
    python_rules, native_rules = rules
    hidden = np.random.default_rng(5)
    checked = 0
    for num_players, variant in CONFIGS:
        for state in positions(python_rules, num_players, variant, 300 + num_players, 7):
            native_state = native_rules.from_reference(state)
            native = native_state._native
            for seat in range(num_players):
                sample = native_rules.wrap(native.sample(seat, pcg64().from_seed(seat)))
                assert_views_equal(sample.view(seat), native_state.view(seat))
                other = native_rules.from_reference(resample_hidden(state, seat, hidden))
                again = other._native.sample(seat, pcg64().from_seed(seat))
                assert again.to_dict() == sample.to_dict()
                outlook = native.turn_outlook(seat)
                assert repr(other._native.turn_outlook(seat)) == repr(outlook)
                if seat == state.current_player:
                    move = native.heuristic_action(seat, pcg64().from_seed(0))
                    assert other._native.heuristic_action(seat, pcg64().from_seed(0)) == move
                checked += 1
    assert checked > 100


def test_bad_arguments_are_refused(rules):
    python_rules, native_rules = rules
    state = native_rules.new_state(3, seed=1)._native
    rng = pcg64().from_seed(0)
    seat = state.current_player
    other = (seat + 1) % 3
    for method in ("heuristic_action", "sample"):
        call = getattr(state, method)
        for bad in ("0", 1.0, None, True):
            with pytest.raises(TypeError, match="seat: not an int"):
                call(bad, rng)
        for bad in (-1, 3, 2**70):
            with pytest.raises(IndexError, match="is not a seat"):
                call(bad, rng)
        for bad in (None, 0, np.random.default_rng(0), "rng"):
            with pytest.raises(TypeError):
                call(seat, bad)
    for bad in ("0", None, False):
        with pytest.raises(TypeError, match="seat: not an int"):
            state.turn_outlook(bad)
    with pytest.raises(IndexError, match="is not a seat"):
        state.turn_outlook(3)
    with pytest.raises(ValueError, match=f"seat {other} is not the seat to decide \\({seat}\\)"):
        state.heuristic_action(other, rng)
    assert rng_state(rng) == rng_state(np.random.default_rng(0))
    for bad in (-0.1, 1.5, float("nan"), float("inf"), -1, 2):
        with pytest.raises(ValueError, match="epsilon: not a number from 0 to 1"):
            state.heuristic_playout(0, 1, bad)
    for bad in (True, None, "0.5", [0.5]):
        with pytest.raises(TypeError, match="epsilon"):
            state.heuristic_playout(0, 1, bad)
    for bad in (-1, 1.0, True, None):
        with pytest.raises(ValueError, match="depth"):
            state.heuristic_playout(0, bad, 0.0)
    for bad in (-1, 2**128, 1.0, None, True):
        with pytest.raises(ValueError, match="seed"):
            state.heuristic_playout(bad, 1, 0.0)
    assert state.to_dict() == native_rules.new_state(3, seed=1)._native.to_dict()
    # Integer epsilons 0 and 1 are numbers from 0 to 1.
    assert state.clone().heuristic_playout(0, 2, 0) == 2
    assert state.clone().heuristic_playout(0, 2, 1) == 2
    over = state.clone()
    over.heuristic_playout(4, 0, 0.0)
    assert over.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        over.heuristic_action(0, rng)
    assert over.heuristic_playout(4, 0, 0.0) == 0
    # A finished game still has a turn outlook, leaf values and samples (as the references).
    python_over = python_rules.from_dict(over.to_dict())
    check_outlooks(python_over, over, "game over")
    check_leaf_values(python_over, over, "game over")
    check_samples(python_rules, python_over, over, 11, "game over")
