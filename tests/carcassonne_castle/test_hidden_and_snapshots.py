"""Hidden information stays hidden; clone and JSON copies continue identically."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.carcassonne_castle.rules import State
from boardgame_envs.core.testing import check_continuations, check_hidden_information, play_trace
from tests.carcassonne_castle.helpers import RULES

pytestmark = pytest.mark.usefixtures("engine")  # each test on both engines (conftest.py)
#: tests that read or edit the Python engine's fields (skipped on the native engine)
PYTHON_ONLY = {
    "test_resampling_really_changes_hidden_facts": "edits the stack and corners",
    "test_observation_changes_with_public_facts": "edits the drawn tile and scores",
    "test_clones_share_the_castle_until_one_changes_it": "the Python castle's copy on write",
}


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """Reshuffle what nobody can know (spec §7): the order of the draw stack, and the kinds
    of the face-down wall tiles among the stocked corners and the box."""
    if state.engine == "native":  # the same reshuffle, through a snapshot
        data = state.to_dict()
        data["stack"] = [data["stack"][i] for i in rng.permutation(len(data["stack"]))]
        stocked = [i for i, kind in enumerate(data["corners"]) if kind]
        pool = [data["corners"][i] for i in stocked] + data["boxed"]
        pool = [pool[i] for i in rng.permutation(len(pool))]
        for i, kind in zip(stocked, pool):
            data["corners"][i] = kind
        data["boxed"] = pool[len(stocked) :]
        return state.rules.from_dict(data)
    other = state.clone()
    other.stack = [other.stack[i] for i in rng.permutation(len(other.stack))]
    stocked = [i for i, kind in enumerate(other.corners) if kind]
    pool = [other.corners[i] for i in stocked] + other.boxed
    pool = [pool[i] for i in rng.permutation(len(pool))]
    for i, kind in zip(stocked, pool):
        other.corners[i] = kind
    other.boxed = pool[len(stocked) :]
    return other


def test_observations_ignore_the_stack_order_and_face_down_wall_tiles():
    rng = np.random.default_rng(0)
    for seed in range(6 if RULES.engine == "python" else 1):  # native: snapshots, slower
        state = RULES.new_state(2, seed=seed)
        while not state.is_terminal():
            for seat in (0, 1):
                check_hidden_information(state, seat, resample_hidden, rng, tries=1)
            state.apply(int(rng.choice(state.legal_actions())))


def test_resampling_really_changes_hidden_facts():
    state = RULES.new_state(2, seed=0)
    other = resample_hidden(state, 0, np.random.default_rng(1))
    assert other.stack != state.stack and sorted(other.stack) == sorted(state.stack)
    assert other.corners != state.corners
    assert [bool(k) for k in other.corners] == [bool(k) for k in state.corners]


def test_observation_changes_with_public_facts():
    state = RULES.new_state(2, seed=2)
    seat = state.current_player
    before = state.view(seat).observation()
    other = state.clone()
    other.tile, other.stack[0] = other.stack[0], other.tile  # another drawn tile
    other.unseen = [other.stack.count(t) for t in range(46)]
    if other.tile != state.tile:
        assert not np.array_equal(other.view(seat).observation(), before)
    other = state.clone()
    other.scores_[1 - seat] += 3
    assert not np.array_equal(other.view(seat).observation(), before)


def test_view_holds_no_hidden_fact():
    view = RULES.new_state(2, seed=4).view(0)
    fields = set(view.__dataclass_fields__)
    assert not fields & {"stack", "corners", "boxed", "seed"}
    assert view.stocked == (True,) * 13


@pytest.mark.parametrize("at_step", [0, 17, 60, 110])
def test_clone_and_json_copy_continue_identically(at_step):
    check_continuations(RULES, 2, seed=at_step + 5, at_step=at_step)


def test_clone_is_independent():
    state = RULES.new_state(2, seed=3)
    clone = state.clone()
    play_trace(clone, 80, seed=0)
    assert state.to_json() == RULES.new_state(2, seed=3).to_json()
    assert clone.to_json() != state.to_json()


def test_clones_share_the_castle_until_one_changes_it():
    state = RULES.new_state(2, seed=3)
    clone = state.clone()
    assert clone.castle is state.castle
    clone.apply(clone.legal_actions()[0])
    assert clone.castle is not state.castle and len(state.castle.history) == 0


def test_json_round_trip_in_every_phase():
    phases = set()
    for seed in (18, 32, 17):  # games with an EXTRA, a DOUBLE, an ORDER decision
        state = RULES.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        every = np.random.default_rng(0)
        while not state.is_terminal():
            if state.phase not in phases or every.random() < 0.05:
                phases.add(state.phase)
                copy = RULES.from_json(state.to_json())
                assert copy.to_json() == state.to_json()
                assert np.array_equal(copy.legal_action_mask(), state.legal_action_mask())
                for seat in (0, 1):
                    assert np.array_equal(
                        copy.view(seat).observation(), state.view(seat).observation()
                    )
            state.apply(int(rng.choice(state.legal_actions())))
    assert phases >= {"PLACE", "FOLLOWER", "ORDER", "DOUBLE", "EXTRA"}
