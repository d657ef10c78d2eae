"""Lockstep play of the two engines: at every step the acting seat, the legal mask, the
snapshot, every seat's view and observation agree byte for byte, and at the end the scores,
winners and returns. Each game's ``tests/native/test_<game>.py`` runs these over its player
counts and options; ``make test-all`` runs more games than ``make test``."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import numpy as np
import pytest

from boardgame_envs import make_rules
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import State


def engines(game: str) -> tuple[Any, Any]:
    """The Python and native Rules of ``game``."""
    return make_rules(game, engine="python"), make_rules(game, engine="native")


def has_native(game: str) -> bool:
    return game in native_games()


def native_marks(game: str) -> list[pytest.MarkDecorator]:
    """A native test module's ``pytestmark``: marked ``native``, skipped where the build does
    not hold ``game``."""
    return [
        pytest.mark.native,
        pytest.mark.skipif(not has_native(game), reason=f"{game}'s native engine is not built"),
    ]


def advance(state: State, steps: int, seed: int) -> State:
    """``state`` after ``steps`` moves drawn by ``random.Random(seed)`` (fewer at the end)."""
    moves = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(moves.choice(state.legal_actions()))
    return state


def bad_actions(action_size: int) -> list[Any]:
    """Actions no position takes: out of range, beyond int64, bools, other types, numpy
    scalars and arrays (compared between the engines with :func:`same_errors`)."""
    return [
        -1,
        action_size,
        1000,
        -(2**70),
        2**70,
        2**64,
        True,
        False,
        2.0,
        "3",
        None,
        [1],
        np.int64(-1),
        np.int64(action_size),
        np.array(45),
        np.array([1]),
        np.float32(1.0),
        np.bool_(True),
    ]


def snapshot_text(state: State) -> str:
    return json.dumps(state.to_dict())


def assert_same_view(python_view: Any, native_view: Any) -> None:
    """Every field of the two views equal (arrays by value), and their observations."""
    assert isinstance(native_view, type(python_view)), type(native_view)
    for field in dataclasses.fields(python_view):
        if field.name == "rules":
            continue
        expected = getattr(python_view, field.name)
        got = getattr(native_view, field.name)
        if isinstance(expected, np.ndarray):
            assert isinstance(got, np.ndarray) and got.dtype == expected.dtype, field.name
            assert np.array_equal(got, expected), field.name
        else:
            assert type(got) is type(expected), (field.name, type(got), type(expected))
            assert got == expected, field.name
    assert np.array_equal(native_view.legal_action_mask(), python_view.legal_action_mask())
    expected_obs = python_view.observation()
    got_obs = native_view.observation()
    assert got_obs.dtype == expected_obs.dtype and got_obs.shape == expected_obs.shape
    assert got_obs.tobytes() == expected_obs.tobytes()


def assert_same_position(python_state: State, native_state: State, views: bool = True) -> None:
    """The two engines' positions agree on everything the contract exposes."""
    assert native_state.current_player == python_state.current_player
    assert native_state.is_terminal() == python_state.is_terminal()
    assert snapshot_text(native_state) == snapshot_text(python_state)
    python_mask = python_state.legal_action_mask()
    native_mask = native_state.legal_action_mask()
    assert native_mask.dtype == np.bool_ and np.array_equal(native_mask, python_mask)
    for seat in range(python_state.num_players):
        python_obs = python_state.observation(seat)
        native_obs = native_state.observation(seat)
        assert native_obs.dtype == np.float32 and native_obs.shape == python_obs.shape
        assert native_obs.tobytes() == python_obs.tobytes(), f"observation of seat {seat}"
        if views:
            assert_same_view(python_state.view(seat), native_state.view(seat))
    if python_state.is_terminal():
        assert native_state.scores() == python_state.scores()
        assert native_state.winners() == python_state.winners()
        assert native_state.returns() == python_state.returns()
        assert native_state.truncated == python_state.truncated


def play_lockstep(
    game: str,
    num_players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    views_every: int = 1,
    max_steps: int | None = None,
) -> int:
    """One seeded game on both engines with the same random moves; the steps played."""
    python_rules, native_rules = engines(game)
    options = options or {}
    python_state = python_rules.new_state(num_players, seed=seed, **options)
    native_state = native_rules.new_state(num_players, seed=seed, **options)
    return continue_lockstep(python_state, native_state, seed, views_every, max_steps)


def continue_lockstep(
    python_state: State,
    native_state: State,
    seed: int,
    views_every: int = 1,
    max_steps: int | None = None,
) -> int:
    """Play both states on with the same random moves, checking every position."""
    moves = random.Random(seed)
    steps = 0
    while True:
        assert_same_position(python_state, native_state, views=steps % views_every == 0)
        if python_state.is_terminal() or (max_steps is not None and steps >= max_steps):
            return steps
        action = moves.choice(python_state.legal_actions())
        python_state.apply(action)
        native_state.apply(action)
        steps += 1


def snapshots_cross_over(game: str, num_players: int, seed: int, options=None) -> None:
    """Snapshots of random mid-game positions move between the engines both ways and play
    on identically."""
    python_rules, native_rules = engines(game)
    options = options or {}
    state = python_rules.new_state(num_players, seed=seed, **options)
    moves = random.Random(seed)
    stop_at = moves.randrange(1, 200)
    for _ in range(stop_at):
        if state.is_terminal():
            break
        state.apply(moves.choice(state.legal_actions()))
    native_state = native_rules.from_dict(state.to_dict())
    assert snapshot_text(native_state) == snapshot_text(state)
    back = python_rules.from_dict(native_state.to_dict())
    assert snapshot_text(back) == snapshot_text(state)
    continue_lockstep(state, native_state, seed + 1, views_every=5)


def same_errors(python_call, native_call) -> None:
    """Both calls raise the same exception type with the same message, or neither raises."""
    outcomes = []
    for call in (python_call, native_call):
        try:
            call()
            outcomes.append(None)
        except Exception as error:  # noqa: BLE001 - compared, not swallowed
            outcomes.append((type(error), str(error)))
    assert outcomes[0] == outcomes[1]
