"""Tahiti's compiled heuristic, heuristic playouts, determinizer and leaf evaluation, held to
the Python references (``agents/games/tahiti/heuristic.py``, ``boardgame_envs/tahiti/sample.py``,
``agents/leaf_values.py``) position by position.

Positions come from Python-engine games played by the heuristic and random moves (every
player count, the default round limit and short, truncated ones). At each position:

* the reference ``HeuristicAgent`` (its ``rng`` seeded) and ``heuristic_action`` choose the
  same action and leave their generators in the same state;
* ``leaf_values`` equals ``leaf_evaluator("tahiti")`` exactly;
* ``sample`` equals ``rules.sample_state`` for the seat to decide and one other seat
  (snapshot and generator state), terminal positions included;
* at some positions, ``heuristic_playout`` plays what the Python loop with one shared
  generator plays (epsilon 0 and 0.2) and ends in the same position.

Then the determinizer contract of ``boardgame_envs.core.testing`` on native states, whole
heuristic games, HAUMEA_STEP positions (built: these games never reach one) and bad input.
"""

from __future__ import annotations

import collections
import math
import random

import numpy as np
import pytest

from boardgame_envs.agents.games.tahiti.heuristic import HeuristicAgent
from boardgame_envs.agents.heuristic import heuristic_playout as python_heuristic_playout
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.core.native import native_module
from boardgame_envs.core.testing import check_determinization, check_sample_reads_view_only
from tests.native.lockstep import engines, native_marks

GAME = "tahiti"
pytestmark = native_marks(GAME)
COUNTS = (2, 3, 4)
#: round limits: the default, and short games that end truncated
ROUND_LIMITS = (1000, 1, 3, 8)


@pytest.fixture(scope="module")
def rules():
    return engines(GAME)


def snapshot(state) -> dict:
    """``to_dict()`` of either engine's state (both write JSON values: lists, dicts, str)."""
    return state.to_dict()


def rng_state(rng) -> dict:
    """The ``state`` part of a numpy Generator's or a native Pcg64's bit_generator state."""
    if isinstance(rng, np.random.Generator):
        return rng.bit_generator.state["state"]
    return rng.state["state"]


def game_positions(
    python_rules, num_players: int, seed: int, max_rounds: int = 1000, share: float = 0.25
):
    """Every position (a clone) of a Python-engine game whose moves are the heuristic's
    (seeded) or, a ``share`` of them, uniformly random; the terminal one included."""
    state = python_rules.new_state(num_players, seed=seed, max_rounds=max_rounds)
    agent = HeuristicAgent(seed)
    moves = random.Random(seed)
    out = [state.clone()]
    while not state.is_terminal():
        if moves.random() < share:
            action = moves.choice(state.legal_actions())
        else:
            action = agent.act(state.view(state.current_player))
        state.apply(action)
        out.append(state.clone())
    return out


def check_position(python_rules, native_rules, state, seed: int, playout_depth: int | None):
    """Every comparison at one Python-engine position; the phase (or GAME_OVER) checked."""
    module = native_module()
    native = native_rules.from_reference(state)._native
    before = snapshot(native)
    # the heuristic, for the seat to decide
    if not state.is_terminal():
        seat = state.current_player
        agent = HeuristicAgent()
        agent.rng = np.random.default_rng(seed)
        expected = agent.act(state.view(seat))
        native_rng = module.Pcg64.from_seed(seed)
        got = native.heuristic_action(seat, native_rng)
        assert got == expected, (state.to_json(), seat, got, expected)
        assert rng_state(native_rng) == rng_state(agent.rng)
    # the leaf evaluation (the Python evaluator may change its state: give it a clone)
    expected_values = leaf_evaluator(GAME)(state.clone())
    assert native.leaf_values() == expected_values, state.to_json()
    # the determinizer, for the seat to decide and another one in turn
    n = state.num_players
    for seat in sorted({max(state.current_player, 0), seed % n}):
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


def run_lockstep(python_rules, native_rules, num_players, games, playout_every, depths):
    """The positions of ``games`` (seed, max_rounds) checked; the positions per phase."""
    phases: collections.Counter = collections.Counter()
    picks = random.Random(num_players)
    for seed, max_rounds in games:
        share = 0.25 if seed % 2 == 0 else 0.6  # more random moves: odder positions
        positions = game_positions(python_rules, num_players, seed, max_rounds, share)
        for i, state in enumerate(positions):
            depth = picks.choice(depths) if i % playout_every == 0 else None
            phase = check_position(python_rules, native_rules, state, 7 * seed + i, depth)
            phases[phase] += 1
    return phases


@pytest.mark.parametrize("num_players", COUNTS)
def test_heuristic_sample_leaf_values_and_playouts_agree(rules, num_players):
    """A few hundred positions per player count: one whole game and two short ones."""
    python_rules, native_rules = rules
    games = [(100 + num_players, 1000), (201, 1), (203, 3)]
    phases = run_lockstep(python_rules, native_rules, num_players, games, 12, (8, 20))
    assert sum(phases.values()) > 200
    assert {"HAUMEA_MOVE", "STACK", "PLACE", "ACTION", "GAME_OVER"} <= set(phases)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", COUNTS)
def test_thousands_of_positions_agree(rules, num_players):
    """Thousands of positions per player count (every round limit), every phase seen."""
    python_rules, native_rules = rules
    games = [(10_000 + seed, ROUND_LIMITS[seed % 4]) for seed in range(40)]
    phases = run_lockstep(python_rules, native_rules, num_players, games, 5, (1, 10, 40, 0))
    assert sum(phases.values()) > 3000, phases
    # HAUMEA_STEP, which these games do not reach, has its own test below
    phases_seen = {"HAUMEA_MOVE", "STACK", "PLACE", "BOUNTY_PLACE", "ACTION", "DEPLETE"}
    assert phases_seen | {"GAME_OVER"} <= set(phases), phases


def haumea_step_position(python_rules, num_players: int, seed: int, canoe: tuple[int, int]):
    """A HAUMEA_STEP decision (no game played by these agents reached one in thousands):
    the second ring around home filled from the stacks, so that Haumea, at home, is two
    steps from the nearest edge tile; the seat's canoe at ``canoe``."""
    data = python_rules.new_state(num_players, seed=seed).to_dict()
    ring = [
        (q, r) for q in range(-2, 3) for r in range(-2, 3) if max(abs(q), abs(r), abs(q + r)) == 2
    ]
    rest = data["stacks"][0] + data["stacks"][1]
    data["board"] += [[rest[i], q, r, i % 6] for i, (q, r) in enumerate(ring)]
    left = rest[len(ring) :]
    data["stacks"] = [left[:1], left[1:]]
    data["phase"] = "HAUMEA_STEP"
    data["canoes"][data["turn_player"]] = list(canoe)
    return python_rules.from_dict(data)


def test_haumea_steps_agree(rules):
    python_rules, native_rules = rules
    for n in COUNTS:
        for i, canoe in enumerate([(0, 0), (1, 0), (-1, 1), (2, -2), (0, -2), (-1, 2)]):
            state = haumea_step_position(python_rules, n, 10 * n + i, canoe)
            assert check_position(python_rules, native_rules, state, i, 20) == "HAUMEA_STEP"


def test_determinizer_contract(rules):
    """The core determinizer checks on native-engine states (the compiled sample), and the
    sample depends on nothing the seat cannot see."""
    python_rules, native_rules = rules
    for n in COUNTS:
        positions = game_positions(python_rules, n, 300 + n)
        for i in range(0, len(positions), 40):
            state = positions[i]
            native = native_rules.from_reference(state)
            for seat in range(n):
                seed = 1000 * n + i + seat
                check_determinization(native, seat, seed, play_to_end=False)
                # a state differing only in what seat cannot see: a sample of its view
                other = native_rules.from_reference(
                    python_rules.sample_state(state.view(seat), np.random.default_rng(seed + 1))
                )
                check_sample_reads_view_only(native, other, seat, seed)


def test_whole_heuristic_games_agree(rules):
    """Heuristic playouts from a new deal to the end, also through
    ``state.playout("heuristic", ...)`` of the native engine."""
    python_rules, native_rules = rules
    for n in COUNTS:
        for seed, epsilon in ((n, 0.0), (10 + n, 0.1)):
            reference = python_rules.new_state(n, seed=seed)
            played = python_heuristic_playout(reference, seed + 1, 0, epsilon)
            state = native_rules.new_state(n, seed=seed)
            assert state.playout("heuristic", seed=seed + 1, epsilon=epsilon) == played
            assert snapshot(state) == snapshot(reference) and state.is_terminal()


# -- bad input ----------------------------------------------------------------------------------
def test_bad_input_is_refused(rules):
    python_rules, native_rules = rules
    module = native_module()
    state = native_rules.new_state(3, seed=1)._native
    seat = state.current_player
    rng = module.Pcg64.from_seed(0)
    for bad in ("0", 1.0, None, True, np.int64(seat)):
        with pytest.raises(TypeError, match="seat: not an int"):
            state.heuristic_action(bad, rng)
        with pytest.raises(TypeError, match="seat: not an int"):
            state.sample(bad, rng)
    for bad in (-1, 3, 2**70):
        with pytest.raises(IndexError, match="is not a seat"):
            state.heuristic_action(bad, rng)
        with pytest.raises(IndexError, match="is not a seat"):
            state.sample(bad, rng)
    other = (seat + 1) % 3
    with pytest.raises(ValueError, match=f"seat {other} is not the seat to decide \\({seat}\\)"):
        state.heuristic_action(other, rng)
    for bad_rng in (np.random.default_rng(0), None, 0, np.random.PCG64(0)):
        with pytest.raises(TypeError):
            state.heuristic_action(seat, bad_rng)
        with pytest.raises(TypeError):
            state.sample(seat, bad_rng)
    assert rng.state == module.Pcg64.from_seed(0).state  # nothing drawn by refused calls
    for bad in (-0.1, 1.5, math.nan, math.inf, "0.2", True, None, np.float32(0.5)):
        with pytest.raises(ValueError, match="epsilon"):
            state.clone().heuristic_playout(0, 5, bad)
    for bad in (-1, 1.5, True, None):
        with pytest.raises(ValueError, match="depth"):
            state.clone().heuristic_playout(0, bad, 0.0)
    for bad in (-1, 2.0, None, False):
        with pytest.raises(ValueError, match="seed"):
            state.clone().heuristic_playout(bad, 5, 0.0)
    before = snapshot(state)
    assert state.clone().heuristic_playout(0, 5, 1) == 5  # ints 0 and 1 are numbers too
    assert snapshot(state) == before
    # a finished game: no seat decides; sampling it is allowed
    state.heuristic_playout(3, 0, 0.0)
    assert state.is_terminal()
    with pytest.raises(ValueError, match="the game is over"):
        state.heuristic_action(0, rng)
    assert state.heuristic_playout(3, 0, 0.0) == 0
    assert state.sample(0, rng).is_terminal()
