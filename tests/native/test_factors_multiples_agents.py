"""Factors and Multiples: the compiled heuristic, heuristic playouts, determinizer and leaf
evaluation against their Python references, position by position.

Positions come from Python-engine matches of every player count and option, played by a mix
of heuristic and random moves. At each one:

* ``heuristic_action(seat, Pcg64)`` is the move of the ``HeuristicAgent`` of
  ``boardgame_envs.agents.games.factors_multiples.heuristic`` on the seat's view, and both
  generators end in the same state;
* ``heuristic_playout(seed, depth, epsilon)`` plays the decisions the Python loop plays (one
  shared generator for the epsilon draws and the heuristic) and ends in the same snapshot;
* ``sample(seat, Pcg64)`` is ``rules.sample_state(view, rng)`` for every seat: the same
  snapshot, the generator in the same state;
* ``leaf_values()`` is ``boardgame_envs.agents.leaf_values.leaf_evaluator`` exactly, and
  leaves the state unchanged.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re

import numpy as np
import pytest

from boardgame_envs.agents.games.factors_multiples.heuristic import HeuristicAgent
from boardgame_envs.agents.heuristic import heuristic_playout as python_heuristic_playout
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.core.native import native_module
from boardgame_envs.core.testing import assert_views_equal, check_determinization
from tests.native.lockstep import engines, native_marks

GAME = "factors_multiples"
pytestmark = native_marks(GAME)

PLAYER_COUNTS = (2, 3, 4, 5)
#: Every option, each value other than the default at least once (and all together).
OPTIONS = [
    {},
    {"start_draw": "random"},
    {"a_needs_discard": True},
    {"k_discard_optional": True},
    {"choose_after_refill": True},
    {"rounds": 1},
    {"rounds": 4},
    {
        "start_draw": "random",
        "a_needs_discard": True,
        "k_discard_optional": True,
        "choose_after_refill": True,
        "rounds": 2,
    },
]


def snapshot_text(state) -> str:
    return json.dumps(state.to_dict())


def reference_action(view, seed: int) -> tuple[int, dict]:
    """The reference's move on ``view`` with its generator seeded ``seed``, and the
    generator's state after it."""
    agent = HeuristicAgent()
    agent.rng = np.random.default_rng(seed)
    action = agent.act(view)
    return action, agent.rng.bit_generator.state


def positions(num_players: int, options: dict, seed: int, every: int = 1):
    """Python-engine positions of seeded matches (endless: take what you need), moves by the
    heuristic or at random (each match its own share of heuristic moves), every
    ``every``-th step and the final one."""
    python_rules, _ = engines(GAME)
    for game in itertools.count():
        moves = random.Random(seed + game)
        agent = HeuristicAgent(seed + game)
        share = (0.0, 0.5, 0.8, 1.0)[game % 4]
        state = python_rules.new_state(num_players, seed=seed + game, **options)
        step = 0
        while not state.is_terminal():
            if step % every == 0:
                yield state.clone()
            if moves.random() < share:
                action = agent.act(state.view(state.current_player))
            else:
                action = moves.choice(state.legal_actions())
            state.apply(action)
            step += 1
        yield state


def native_of(state):
    _, native_rules = engines(GAME)
    return native_rules.from_reference(state)._native


def check_position(state, seed: int, playouts: tuple[tuple[int, float], ...]) -> None:
    """Every comparison of the module docstring at ``state`` (a Python-engine state)."""
    Pcg64 = native_module().Pcg64
    python_rules, _ = engines(GAME)
    native = native_of(state)
    here = f"n={state.num_players} config={state.config} seed={seed} {snapshot_text(state)}"
    assert snapshot_text(native) == snapshot_text(state)

    if not state.is_terminal():
        seat = state.current_player
        expected, rng_state = reference_action(state.view(seat), seed)
        rng = Pcg64.from_seed(seed)
        assert native.heuristic_action(seat, rng) == expected, here
        assert rng.state == rng_state, here

    before = snapshot_text(native)
    assert native.leaf_values() == leaf_evaluator(GAME)(state.clone()), here
    assert snapshot_text(native) == before

    for seat in range(state.num_players):
        python_rng = np.random.default_rng(seed + seat)
        expected = python_rules.sample_state(state.view(seat), python_rng)
        rng = Pcg64.from_seed(seed + seat)
        sample = native.sample(seat, rng)
        assert snapshot_text(sample) == snapshot_text(expected), f"seat {seat} {here}"
        assert rng.state == python_rng.bit_generator.state, f"seat {seat} {here}"
    assert snapshot_text(native) == before

    for depth, epsilon in playouts:
        python_state = state.clone()
        native_state = native.clone()
        played = python_heuristic_playout(python_state, seed, depth, epsilon)
        assert native_state.heuristic_playout(seed, depth, epsilon) == played, here
        assert snapshot_text(native_state) == snapshot_text(python_state), here


def run_lockstep(num_players: int, options: dict, count: int, every: int, full_every: int) -> None:
    """check_position at ``count`` positions, every ``every``-th step of matches; playouts of
    12 decisions at each, to the end at every ``full_every``-th."""
    base = 50_000 * num_players + 1_000 * OPTIONS.index(options)
    for index, state in enumerate(
        itertools.islice(positions(num_players, options, base, every), count), 1
    ):
        depth = 0 if index % full_every == 0 else 12
        check_position(state, base + index, ((depth, 0.0), (depth, 0.2)))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o)) or "default")
def test_agents_lockstep(num_players, options):
    run_lockstep(num_players, options, count=12, every=11, full_every=6)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_agents_lockstep_many(num_players):
    for options in OPTIONS:  # 2,400 positions per player count
        run_lockstep(num_players, options, count=300, every=3, full_every=50)


def test_large_seeds_and_forced_moves():
    """Seeds beyond 64 bits seed the playout generator as numpy does; playouts to the end."""
    python_rules, _ = engines(GAME)
    state = python_rules.new_state(3, seed=11, k_discard_optional=True)
    native = native_of(state)
    for seed in (0, 2**63 - 1, 2**64 + 7, 2**200 + 3, 2**256 - 1):
        for epsilon in (0.0, 0.2, 1.0, 1):
            python_state, native_state = state.clone(), native.clone()
            played = python_heuristic_playout(python_state, seed, 0, epsilon)
            assert native_state.heuristic_playout(seed, 0, epsilon) == played
            assert native_state.is_terminal()
            assert snapshot_text(native_state) == snapshot_text(python_state)
    assert native.clone().heuristic_playout(5, 1) == 1


def test_samples_pass_the_determinizer_checks():
    """The native rules' sample_state is the compiled determinizer on native views: the
    same view for the seat, the same sample for the same seed, play continues."""
    _, native_rules = engines(GAME)
    for num_players in PLAYER_COUNTS:
        for count, state in enumerate(
            itertools.islice(positions(num_players, OPTIONS[-1], 90 + num_players, 20), 6)
        ):
            native_state = native_rules.from_reference(state)
            for seat in range(num_players):
                sample = check_determinization(
                    native_state, seat, count * 10 + seat, play_to_end=count % 3 == 0
                )
                assert type(sample._native) is native_rules.native_class
                assert_views_equal(sample.view(seat), native_state.view(seat))


def test_inconsistent_views_are_refused_alike():
    """A hand-built position whose reveals do not add up: the same ValueError."""
    python_rules, _ = engines(GAME)
    Native = native_module().FactorsMultiplesState
    state = python_rules.new_state(3, seed=4)
    pile = state.piles[1]
    state.reveals[1] = sorted(pile[:4])  # four cards shown, three hand slots, no discards
    with pytest.raises(ValueError) as expected:
        python_rules.sample_state(state.view(0), np.random.default_rng(0))
    native = Native.from_dict(state.to_dict(), strict=False)
    with pytest.raises(ValueError, match=re.escape(str(expected.value))):
        native.sample(0, native_module().Pcg64.from_seed(0))


def test_bad_arguments_are_refused():
    python_rules, _ = engines(GAME)
    Pcg64 = native_module().Pcg64
    state = python_rules.new_state(3, seed=2)
    native = native_of(state)
    seat = state.current_player
    other = (seat + 1) % 3
    rng = Pcg64.from_seed(0)
    for bad in (True, "0", 0.0, None):
        with pytest.raises(TypeError, match="seat: not an int"):
            native.heuristic_action(bad, rng)
        with pytest.raises(TypeError, match="seat: not an int"):
            native.sample(bad, rng)
    for bad in (-1, 3, 2**70):
        with pytest.raises(IndexError, match="is not a seat"):
            native.heuristic_action(bad, rng)
        with pytest.raises(IndexError, match="is not a seat"):
            native.sample(bad, rng)
    message = f"seat {other} is not the seat to decide ({seat})"
    with pytest.raises(ValueError, match=re.escape(message)):
        native.heuristic_action(other, rng)
    for bad in (np.random.default_rng(0), None, 0):
        with pytest.raises(TypeError, match="rng: not a Pcg64"):
            native.heuristic_action(seat, bad)
        with pytest.raises(TypeError, match="rng: not a Pcg64"):
            native.sample(seat, bad)
    assert rng.state == np.random.default_rng(0).bit_generator.state  # never drawn from

    for bad, error in (
        (-1, ValueError),
        (2**256, ValueError),
        ("1", TypeError),
        (True, TypeError),
        (None, TypeError),
    ):
        with pytest.raises(error, match="seed"):
            native.heuristic_playout(bad, 0, 0.0)
    for bad, error in ((-1, ValueError), (2**64, ValueError), (1.0, TypeError), (True, TypeError)):
        with pytest.raises(error, match="depth"):
            native.heuristic_playout(0, bad, 0.0)
    for bad, error in (
        (-0.1, ValueError),
        (1.5, ValueError),
        (math.nan, ValueError),
        (2, ValueError),
        ("0.1", TypeError),
        (True, TypeError),
        (None, TypeError),
    ):
        with pytest.raises(error, match="epsilon"):
            native.heuristic_playout(0, 0, bad)
    assert snapshot_text(native) == snapshot_text(state)  # nothing played

    native.heuristic_playout(3, 0, 0.0)
    assert native.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        native.heuristic_action(0, rng)
    assert native.heuristic_playout(3, 0, 0.5) == 0
    native.sample(0, rng)  # a finished match is sampled as the Python engine samples it
