"""Wasabi!: the compiled heuristic, its board value, heuristic playouts, determinizer and leaf
evaluation against their Python references, position by position.

Positions come from Python-engine games of every player count and option, from the setup
and from a card-rich start (every seat holds two action cards, so the card decision points
come up), played by a mix of heuristic and random moves. At each one:

* ``heuristic_action(seat, Pcg64)`` is the move of
  ``boardgame_envs.agents.games.wasabi.heuristic``'s ``HeuristicAgent`` on the seat's view, and
  both generators end in the same state (the agent draws nothing);
* ``board_value(seat)`` is the reference planner's ``_setup(view)`` then ``value_now()``
  for every seat (the number the search's leaf evaluation reads), the same float;
* ``leaf_values()`` is ``boardgame_envs.agents.leaf_values.leaf_evaluator("wasabi")`` exactly, and
  leaves the state unchanged;
* ``sample(seat, Pcg64)`` is ``rules.sample_state(view, rng)`` for every seat: the same
  snapshot, the generator in the same state;
* ``heuristic_playout(seed, depth, epsilon)`` plays the decisions the Python loop plays (one
  shared generator for the epsilon draws and the heuristic) and ends in the same snapshot.
"""

from __future__ import annotations

import collections
import itertools
import json
import math
import random

import numpy as np
import pytest

from boardgame_envs.agents.games.wasabi.heuristic import HeuristicAgent
from boardgame_envs.agents.heuristic import heuristic_playout as python_heuristic_playout
from boardgame_envs.agents.leaf_values import leaf_evaluator
from boardgame_envs.core.native import native_module
from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
)
from boardgame_envs.wasabi.rules import PHASES
from tests.native.lockstep import engines, native_marks
from tests.wasabi.helpers import table
from tests.wasabi.test_determinization import built_positions, card_rich_start

GAME = "wasabi"
pytestmark = native_marks(GAME)

PLAYER_COUNTS = (2, 3, 4)
#: Every option, each value other than the default at least once (and all together).
OPTIONS = [
    {},
    {"style_either_direction": True},
    {"gift_excludes_maki": True},
    {"hide_opponent_hands": True},
    {"max_turns": 12},
    {"start_player": 1},
    {
        "style_either_direction": True,
        "gift_excludes_maki": True,
        "hide_opponent_hands": True,
        "max_turns": 40,
        "start_player": 0,
    },
]


def snapshot_text(state) -> str:
    return json.dumps(state.to_dict())


def native_of(state):
    _, native_rules = engines(GAME)
    return native_rules.from_reference(state)._native


def reference_action(view, seed: int) -> tuple[int, dict]:
    """The reference's move on ``view`` with its generator seeded ``seed``, and the
    generator's state after it."""
    agent = HeuristicAgent()
    agent.rng = np.random.default_rng(seed)
    return agent.act(view), agent.rng.bit_generator.state


def reference_board_value(view) -> float:
    """What agents/leaf_values.py reads: a planner's _setup(view), then value_now()."""
    planner = HeuristicAgent()
    planner._setup(view)
    return planner.value_now()


def positions(num_players: int, options: dict, seed: int, every: int = 1):
    """Python-engine positions of seeded games (endless: take what you need), moves by the
    heuristic or at random (each game its own share of heuristic moves), every ``every``-th
    step and the final one. Odd games start from a card-rich first turn."""
    python_rules, _ = engines(GAME)
    for game in itertools.count():
        moves = random.Random(seed + game)
        agent = HeuristicAgent(seed + game)
        share = (0.5, 0.8, 0.0, 1.0)[game % 4]
        if game % 2:
            state = card_rich_start(num_players, options.get("hide_opponent_hands", False))
            # The other options do not change a first turn (the start player is seat 0).
            state.config.update({k: v for k, v in options.items() if k != "start_player"})
        else:
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


def check_position(state, seed: int, playouts: tuple[tuple[int, float], ...]) -> str | None:
    """Every comparison of the module docstring at ``state`` (a Python-engine state); the
    phase of a heuristic decision with a choice, if one was compared."""
    Pcg64 = native_module().Pcg64
    python_rules, _ = engines(GAME)
    native = native_of(state)
    here = f"n={state.num_players} config={state.config} seed={seed} {snapshot_text(state)}"
    assert snapshot_text(native) == snapshot_text(state)
    decided = None

    if not state.is_terminal():
        seat = state.current_player
        view = state.view(seat)
        expected, rng_state = reference_action(view, seed)
        rng = Pcg64.from_seed(seed)
        assert native.heuristic_action(seat, rng) == expected, here
        assert rng.state == rng_state, here
        if len(view.legal_actions()) > 1:
            decided = state.phase

    before = snapshot_text(native)
    for seat in range(state.num_players):
        assert native.board_value(seat) == reference_board_value(state.view(seat)), here
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
    return decided


def run_lockstep(
    num_players: int, options: dict, count: int, every: int, playout_every: int, full_every: int
) -> collections.Counter:
    """check_position at ``count`` positions, every ``every``-th step of games; playouts
    (epsilon 0 and 0.2) of 10 decisions at every ``playout_every``-th, to the end at every
    ``full_every``-th. The phases of the heuristic decisions compared."""
    base = 50_000 * num_players + 1_000 * OPTIONS.index(options)
    decided: collections.Counter = collections.Counter()
    for index, state in enumerate(
        itertools.islice(positions(num_players, options, base, every), count), 1
    ):
        playouts: tuple[tuple[int, float], ...] = ()
        if index % full_every == 0:
            playouts = ((0, 0.0), (0, 0.2))
        elif index % playout_every == 0:
            playouts = ((10, 0.0), (10, 0.2))
        phase = check_position(state, base + index, playouts)
        if phase is not None:
            decided[phase] += 1
    return decided


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o)) or "default")
def test_agents_lockstep(num_players, options):
    run_lockstep(num_players, options, count=12, every=13, playout_every=4, full_every=1000)


def test_agents_lockstep_every_decision_point():
    """Heuristic decisions with a choice at every decision point, a few of them played out
    to the end: games of each player count, and the positions the determinization tests
    build for the rare decision points (REWARD_DISCARD, WASABI_ANCHOR, CHOP_TARGET,
    CHOPPED_TILE, SWITCH_SECOND), with and without hidden hands."""
    decided: collections.Counter = collections.Counter()
    for num_players in PLAYER_COUNTS:
        decided += run_lockstep(
            num_players, OPTIONS[num_players], count=40, every=5, playout_every=20, full_every=40
        )
    for hide in (False, True):
        for index, state in enumerate(built_positions(hide)):
            phase = check_position(state, 70 + index, ((8, 0.0), (8, 0.2)))
            if phase is not None:
                decided[phase] += 1
    assert set(decided) == set(PHASES), set(PHASES) - set(decided)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_agents_lockstep_many(num_players):
    decided: collections.Counter = collections.Counter()
    for options in OPTIONS:  # 3,150 positions per player count
        decided += run_lockstep(
            num_players, options, count=450, every=2, playout_every=6, full_every=150
        )
    assert set(decided) == set(PHASES), set(PHASES) - set(decided)


def test_board_value_multiplies_in_python_set_order():
    """A partial window's chance is the product of its missing kinds' supplies in the order
    the reference iterates ``kind_set.difference(present)`` (CPython's set order), and that
    order changes the double: here Dragon Roll (Maki > Eel > Avocado > Cucumber) with a Maki
    on the board, Avocado and Cucumber in the pantry (0.7 each), the Eels gone (0.15)."""
    state = table(2, board={(0, 0): "Maki", (5, 4): "Eel Eel Eel Eel Rice"}, menus={0: ["R4-01"]})
    in_set_order = (4 + 3.0) * (0.05 + 0.45 * 0.25 * 0.25) * (1.0 * 0.7 * 0.7 * 0.15)
    in_kind_order = (4 + 3.0) * (0.05 + 0.45 * 0.25 * 0.25) * (1.0 * 0.15 * 0.7 * 0.7)
    assert in_set_order != in_kind_order
    assert reference_board_value(state.view(0)) == in_set_order
    assert native_of(state).board_value(0) == in_set_order


def test_large_seeds_and_whole_games():
    """Seeds beyond 64 bits seed the playout generator as numpy does; playouts to the end."""
    python_rules, _ = engines(GAME)
    state = python_rules.new_state(3, seed=11, hide_opponent_hands=True)
    native = native_of(state)
    for seed, epsilon in ((0, 0.0), (2**63 - 1, 0.2), (2**64 + 7, 1.0), (2**200 + 3, 1)):
        python_state, native_state = state.clone(), native.clone()
        played = python_heuristic_playout(python_state, seed, 0, epsilon)
        assert native_state.heuristic_playout(seed, 0, epsilon) == played
        assert native_state.is_terminal()
        assert snapshot_text(native_state) == snapshot_text(python_state)
    assert native.clone().heuristic_playout(5, 1) == 1


def test_samples_pass_the_determinizer_checks():
    """The native rules' sample_state is the compiled determinizer on native views: the
    same view for the seat, the same sample for the same seed, play continues; and the
    sample does not depend on what the seat cannot see."""
    python_rules, native_rules = engines(GAME)
    rng = np.random.default_rng(5)
    changed = checked = 0
    for num_players in PLAYER_COUNTS:
        found = itertools.islice(positions(num_players, OPTIONS[-1], 90 + num_players, 17), 8)
        for count, state in enumerate(found):
            native_state = native_rules.from_reference(state)
            for seat in range(num_players):
                checked += 1
                # play_to_end reads state.config, which a native Wasabi! state does not
                # expose: the sample is played to the end below instead.
                sample = check_determinization(
                    native_state, seat, count * 10 + seat, play_to_end=False
                )
                assert type(sample._native) is native_rules.native_class
                assert_views_equal(sample.view(seat), native_state.view(seat))
                if count % 4 == 0:
                    sample.playout(seed=seat)
                    assert sample.is_terminal()
                    python_rules.from_dict(sample.to_dict())  # a valid finished game
                # Another position this seat cannot tell apart: a sample of its view (the
                # resamplers of tests/wasabi may break the setup's gifts, which a native
                # state refuses).
                other = python_rules.sample_state(state.view(seat), rng)
                changed += snapshot_text(other) != snapshot_text(state)
                check_sample_reads_view_only(
                    native_state, native_rules.from_reference(other), seat, seed=count
                )
    assert changed >= checked * 3 // 4  # the other positions really differ


def test_bad_arguments_are_refused():
    python_rules, _ = engines(GAME)
    Pcg64 = native_module().Pcg64
    state = python_rules.new_state(3, seed=2)
    native = native_of(state)
    seat = state.current_player
    other = (seat + 1) % 3
    rng = Pcg64.from_seed(0)
    for bad in (True, "0", 0.0, None):
        for method in (native.heuristic_action, native.sample):
            with pytest.raises(TypeError, match="seat: not an int"):
                method(bad, rng)
        with pytest.raises(TypeError, match="seat: not an int"):
            native.board_value(bad)
    for bad in (-1, 3, 2**70):
        for method in (native.heuristic_action, native.sample):
            with pytest.raises(IndexError, match="is not a seat"):
                method(bad, rng)
        with pytest.raises(IndexError, match="is not a seat"):
            native.board_value(bad)
    message = f"seat {other} is not the seat to decide ({seat})"
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        native.heuristic_action(other, rng)
    for bad in (np.random.default_rng(0), None, 0):
        for method in (native.heuristic_action, native.sample):
            with pytest.raises(TypeError, match="rng: not a Pcg64"):
                method(seat, bad)
    assert rng.state == np.random.default_rng(0).bit_generator.state  # never drawn from

    for bad, error in (
        (-1, ValueError),
        ("1", TypeError),
        (True, TypeError),
        (None, TypeError),
        (1.0, TypeError),
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
    # A finished game is valued and sampled as the Python engine does.
    finished = python_rules.from_dict(native.to_dict())
    check_position(finished, 4, ())
