"""Carcassonne: The Castle's compiled heuristic, its placement values, heuristic playouts, the
determinizer and the leaf evaluation, held to the Python references
(``agents/games/carcassonne_castle/heuristic.py``, ``boardgame_envs/carcassonne_castle/sample.py``,
``agents/leaf_values.py``) position by position.

Positions come from Python-engine games played by the heuristic and random moves (one
player count, 2; every option at its bounds). At each position:

* the reference ``HeuristicAgent`` (its ``rng`` seeded) and ``heuristic_action`` choose the
  same action and leave their generators in the same state (a PLACE decision draws one
  tie-break per placement);
* ``placement_values`` equals ``HeuristicAgent.placement_values`` (same keys in the same
  order, equal floats);
* ``leaf_values`` equals ``leaf_evaluator("carcassonne_castle")`` exactly;
* ``sample`` equals ``rules.sample_state`` for both seats (snapshot and generator state);
* at some positions, ``heuristic_playout`` plays what the Python loop with one shared
  generator plays (epsilon 0 and 0.2) and ends in the same position.
"""

from __future__ import annotations

import collections
import json
import math
import random

import numpy as np
import pytest

from boardgame_envs.agents.games.carcassonne_castle.heuristic import HeuristicAgent
from boardgame_envs.agents.heuristic import heuristic_playout as python_heuristic_playout
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.core.native import native_module
from boardgame_envs.core.testing import check_determinization, check_sample_reads_view_only
from tests.native.lockstep import engines, native_marks

GAME = "carcassonne_castle"
pytestmark = native_marks(GAME)
#: Every option at its bounds and its default (the heuristic ignores them; the leaf
#: evaluation reads both).
OPTIONS = [
    {},
    {"keep_bonus_tiles": 0},
    {"keep_bonus_tiles": 76},
    {"wall9_points": 0},
    {"wall9_points": 100},
    {"keep_bonus_tiles": 13, "wall9_points": 37},
]


@pytest.fixture(scope="module")
def rules():
    return engines(GAME)


def snapshot(state) -> dict:
    """``to_dict()`` as JSON values (tuples as lists), for either engine's state."""
    return json.loads(json.dumps(state.to_dict()))


def rng_state(rng) -> dict:
    """The ``state`` part of a numpy Generator's or a native Pcg64's bit_generator state."""
    if isinstance(rng, np.random.Generator):
        return rng.bit_generator.state["state"]
    return rng.state["state"]


def game_positions(python_rules, seed: int, options: dict, random_share: float = 0.3):
    """Every position (a clone) of a Python-engine game whose moves are the heuristic's
    (seeded) or, with probability ``random_share``, uniformly random; the terminal one
    included."""
    state = python_rules.new_state(2, seed=seed, **options)
    agent = HeuristicAgent(seed)
    moves = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        if moves.random() < random_share:
            action = moves.choice(state.legal_actions())
        else:
            action = agent.act(state.view(state.current_player))
        state.apply(action)
        out.append(state.clone())
    return out


def check_position(python_rules, native_rules, state, seed: int, playout_depth: int | None):
    """Every comparison at one Python-engine position; returns its phase."""
    module = native_module()
    native = native_rules.from_reference(state)._native
    before = snapshot(native)
    agent = HeuristicAgent()
    # the heuristic and its placement values, for the seat to decide
    if not state.is_terminal():
        seat = state.current_player
        view = state.view(seat)
        agent.rng = np.random.default_rng(seed)
        expected = agent.act(view)
        native_rng = module.Pcg64.from_seed(seed)
        got = native.heuristic_action(seat, native_rng)
        assert got == expected, (state.to_json(), seat, got, expected)
        assert rng_state(native_rng) == rng_state(agent.rng), state.to_json()
    for seat in range(2):  # {} for the seat not to decide and outside PLACE
        expected_values = agent.placement_values(state.view(seat))
        got_values = native.placement_values(seat)
        assert list(got_values.items()) == list(expected_values.items()), (state.to_json(), seat)
    # the leaf evaluation (the Python evaluator may change its state: give it a clone)
    assert native.leaf_values() == leaf_evaluator(GAME)(state.clone()), state.to_json()
    # the determinizer, for every seat
    for seat in range(2):
        py_rng = np.random.default_rng(seed + seat)
        native_rng = module.Pcg64.from_seed(seed + seat)
        expected_sample = python_rules.sample_state(state.view(seat), py_rng)
        got_sample = native.sample(seat, native_rng)
        assert snapshot(got_sample) == snapshot(expected_sample), (state.to_json(), seat)
        assert rng_state(native_rng) == rng_state(py_rng)
    assert snapshot(native) == before, "the native calls changed the position"
    # heuristic playouts
    if playout_depth is not None:
        for epsilon in (0.0, 0.2):
            python_state = state.clone()
            native_state = native.clone()
            played = python_heuristic_playout(python_state, seed, playout_depth, epsilon)
            assert native_state.heuristic_playout(seed, playout_depth, epsilon) == played
            assert snapshot(native_state) == snapshot(python_state), (state.to_json(), epsilon)
    return state.phase


def run_lockstep(python_rules, native_rules, games, playout_every: int, depths):
    """The positions of ``games`` (seed, options) checked; the positions per phase."""
    phases: collections.Counter = collections.Counter()
    picks = random.Random(len(games))
    for seed, options in games:
        for i, state in enumerate(game_positions(python_rules, seed, options)):
            depth = picks.choice(depths) if i % playout_every == 0 else None
            phase = check_position(python_rules, native_rules, state, 7 * seed + i, depth)
            phases[phase] += 1
    return phases


def test_heuristic_values_sample_leaf_values_and_playouts_agree(rules):
    """About 400 positions: three whole games (options at their bounds)."""
    python_rules, native_rules = rules
    games = [(100, OPTIONS[0]), (101, OPTIONS[2]), (102, OPTIONS[4])]
    phases = run_lockstep(python_rules, native_rules, games, 25, (6, 20))
    assert sum(phases.values()) > 300, phases
    assert {"PLACE", "FOLLOWER", "GAME_OVER"} <= set(phases), phases


@pytest.mark.slow
def test_thousands_of_positions_agree(rules):
    """Thousands of positions (every option), every phase seen."""
    python_rules, native_rules = rules
    games = [(10_000 + seed, OPTIONS[seed % len(OPTIONS)]) for seed in range(36)]
    phases = run_lockstep(python_rules, native_rules, games, 10, (1, 8, 30, 0))
    assert sum(phases.values()) > 4000, phases
    assert set(phases) == {"PLACE", "FOLLOWER", "ORDER", "DOUBLE", "EXTRA", "GAME_OVER"}, phases


def test_determinizer_contract(rules):
    """The core determinizer checks on native-engine states (the compiled sample), and the
    sample depends on nothing the seat cannot see."""
    python_rules, native_rules = rules
    positions = game_positions(python_rules, 300, {})
    for i in range(0, len(positions), 30):
        state = positions[i]
        native = native_rules.from_reference(state)
        for seat in range(2):
            seed = 1000 + i + seat
            check_determinization(native, seat, seed, play_to_end=i == 0)
            # a state differing only in what seat cannot see: a sample of its view
            other = native_rules.from_reference(
                python_rules.sample_state(state.view(seat), np.random.default_rng(seed + 1))
            )
            check_sample_reads_view_only(native, other, seat, seed)


def test_whole_heuristic_games_agree(rules):
    """Heuristic playouts from a new deal to the end."""
    python_rules, native_rules = rules
    for seed, epsilon in ((1, 0.0), (2, 0.1)):
        reference = python_rules.new_state(2, seed=seed)
        played = python_heuristic_playout(reference, seed + 1, 0, epsilon)
        state = native_rules.new_state(2, seed=seed)._native
        assert state.heuristic_playout(seed + 1, 0, epsilon) == played
        assert snapshot(state) == snapshot(reference) and state.is_terminal()


# -- bad input ----------------------------------------------------------------------------------
def test_bad_input_is_refused(rules):
    _, native_rules = rules
    module = native_module()
    state = native_rules.new_state(2, seed=1)._native
    seat = state.current_player
    rng = module.Pcg64.from_seed(0)
    calls = (
        lambda bad: state.heuristic_action(bad, rng),
        lambda bad: state.sample(bad, rng),
        state.placement_values,
    )
    for bad in ("0", 1.0, None, True, np.int64(seat)):
        for call in calls:
            with pytest.raises(TypeError, match="seat: not an int"):
                call(bad)
    for bad in (-1, 2, 2**70):
        for call in calls:
            with pytest.raises(IndexError, match="is not a seat"):
                call(bad)
    other = 1 - seat
    with pytest.raises(ValueError, match=f"seat {other} is not the seat to decide \\({seat}\\)"):
        state.heuristic_action(other, rng)
    assert state.placement_values(other) == {}  # as the reference's, for a view without a move
    for bad_rng in (np.random.default_rng(0), None, 0, np.random.PCG64(0)):
        with pytest.raises(TypeError, match="rng: not a Pcg64"):
            state.heuristic_action(seat, bad_rng)
        with pytest.raises(TypeError, match="rng: not a Pcg64"):
            state.sample(seat, bad_rng)
    assert rng.state == module.Pcg64.from_seed(0).state  # nothing drawn by refused calls
    for bad in (-0.1, 1.5, math.nan, math.inf, -1, 2):
        with pytest.raises(ValueError, match="epsilon: out of range 0..1"):
            state.clone().heuristic_playout(0, 5, bad)
    for bad in ("0.2", True, None, np.float32(0.5)):
        with pytest.raises(TypeError, match="epsilon: not a float"):
            state.clone().heuristic_playout(0, 5, bad)
    with pytest.raises(ValueError, match="depth"):
        state.clone().heuristic_playout(0, -1, 0.0)
    for bad in (1.5, True, None):
        with pytest.raises(TypeError, match="depth"):
            state.clone().heuristic_playout(0, bad, 0.0)
    with pytest.raises(ValueError, match="seed"):
        state.clone().heuristic_playout(-1, 5, 0.0)
    for bad in (2.0, None, False):
        with pytest.raises(TypeError, match="seed"):
            state.clone().heuristic_playout(bad, 5, 0.0)
    before = snapshot(state)
    assert state.clone().heuristic_playout(0, 5, 1) == 5  # ints 0 and 1 are numbers too
    assert state.clone().heuristic_playout(0, 5, np.float64(0.5)) == 5  # a float subclass
    assert snapshot(state) == before
    # a finished game: no seat decides; its values and samples are allowed
    assert state.heuristic_playout(3, 0, 0.0) > 0
    assert state.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        state.heuristic_action(0, rng)
    assert state.heuristic_playout(3, 0, 0.0) == 0
    assert state.placement_values(0) == {}
    assert state.sample(0, rng).is_terminal()
    values = state.leaf_values()
    assert len(values) == 2 and all(-1.0 <= v <= 1.0 for v in values)
