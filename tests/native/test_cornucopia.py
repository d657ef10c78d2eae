"""Cornucopia's compiled engine against the Python reference: lockstep games over every
player count and option, snapshots both ways, the same errors, fuzzed snapshots fed straight
to the extension, playouts, clones."""

from __future__ import annotations

import copy
import json
import random
from functools import partial

import numpy as np
import pytest

from boardgame_envs import engine_info
from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import InvalidStateError
from tests.native.lockstep import (
    assert_same_position,
    continue_lockstep,
    engines,
    native_marks,
    play_lockstep,
    same_errors,
    snapshot_text,
    snapshots_cross_over,
)

GAME = "cornucopia"
pytestmark = native_marks(GAME)

#: Every player count with and without ``variant_red3`` (the game's one option).
CONFIGS = [(n, variant) for n in (2, 3, 4, 5) for variant in (False, True)]
CONFIG_IDS = [f"{n}p-{'red3' if variant else 'base'}" for n, variant in CONFIGS]


def options(variant: bool) -> dict:
    return {"variant_red3": variant}


@pytest.fixture(scope="module")
def rules():
    return engines(GAME)


def native_class():
    return native_module().CornucopiaState


def random_position(rules, num_players: int, variant: bool, seed: int, steps: int):
    """The same seeded random position on both engines (``steps`` decisions or the end)."""
    python_rules, native_rules = rules
    python_state = python_rules.new_state(num_players, seed=seed, **options(variant))
    native_state = native_rules.new_state(num_players, seed=seed, **options(variant))
    moves = random.Random(seed)
    for _ in range(steps):
        if python_state.is_terminal():
            break
        action = moves.choice(python_state.legal_actions())
        python_state.apply(action)
        native_state.apply(action)
    return python_state, native_state


# -- lockstep ----------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players, variant", CONFIGS, ids=CONFIG_IDS)
def test_lockstep_games(num_players, variant):
    for seed in range(12):
        play_lockstep(GAME, num_players, 1000 * num_players + seed, options(variant), views_every=4)


@pytest.mark.slow
@pytest.mark.parametrize("num_players, variant", CONFIGS, ids=CONFIG_IDS)
def test_lockstep_many_games(num_players, variant):
    for seed in range(300):
        play_lockstep(GAME, num_players, 50_000 + seed, options(variant), views_every=9)


def test_lockstep_from_seeds_beyond_64_bits():
    for seed in (2**63 - 1, 2**64 - 1, 2**64, 2**100 + 7, 2**128 - 1):
        play_lockstep(GAME, 3, seed, options(seed % 2 == 1), views_every=10)


@pytest.mark.parametrize("num_players, variant", CONFIGS, ids=CONFIG_IDS)
def test_snapshots_cross_over(num_players, variant):
    for seed in range(4):
        snapshots_cross_over(GAME, num_players, 700 + 10 * num_players + seed, options(variant))


def test_built_positions_cross_over(rules):
    """``rules.position`` (hand-built positions, a short deck, exhaustions) on both engines."""
    python_rules, native_rules = rules
    for exhaustions, deck_size in ((0, None), (1, 6), (2, 3)):
        kwargs = dict(
            baskets=[[1, 2], [3, 3], [0, 5], [1, 3, 4, 0], [0, 1]],
            chips=[(0, 3, 2), (1, 0, 1), (0, 0, 0)],
            turn_player=1,
            deck_top=[4, 2, 0],
            deck_size=deck_size,
            exhaustions=exhaustions,
            seed=5,
        )
        python_state = python_rules.position(**kwargs)
        native_state = native_rules.position(**kwargs)
        assert snapshot_text(native_state) == snapshot_text(python_state)
        continue_lockstep(python_state, native_state, seed=exhaustions)


# -- errors ------------------------------------------------------------------------------------
BAD_ACTIONS = [-1, 23, 24, 2**70, -(2**70), True, False, 1.0, 2.5, "3", None, [1], (1,)]


def odd_actions(state) -> list:
    """In-range illegal actions, numpy forms of a legal and an illegal one, bad types."""
    legal = state.legal_actions()
    illegal = [a for a in range(23) if a not in legal]
    out = list(BAD_ACTIONS) + illegal
    for a in (legal[0], illegal[0]):
        out += [np.int64(a), np.int8(a), np.uint32(a), np.array(a), np.array(a, dtype=np.uint8)]
    out += [np.array(1.0), np.array([legal[0]]), np.float32(legal[0]), np.bool_(True)]
    return out


@pytest.mark.parametrize("num_players, variant", [(2, False), (3, True), (5, True)])
def test_illegal_actions_raise_the_same_errors_and_change_nothing(rules, num_players, variant):
    for steps in (0, 1, 2, 3, 5, 8, 13, 40, 400):
        python_state, native_state = random_position(rules, num_players, variant, 31, steps)
        for action in odd_actions(python_state) if not python_state.is_terminal() else [0, -1]:
            python_copy, native_copy = python_state.clone(), native_state.clone()
            same_errors(partial(python_copy.apply, action), partial(native_copy.apply, action))
            assert snapshot_text(native_copy) == snapshot_text(python_copy)
            if snapshot_text(python_copy) == snapshot_text(python_state):  # refused
                assert native_copy.legal_actions() == native_state.legal_actions()
        assert_same_position(python_state, native_state)


def test_the_compiled_state_refuses_illegal_actions_itself(rules):
    _, native_rules = rules
    state = native_rules.new_state(3, seed=4)._native
    before = state.to_dict()
    for action in (-1, 23, 2**80, True, 1.5, "1", None, 12):
        assert not state.is_legal(action)
        with pytest.raises((ValueError, TypeError)):
            state.apply(action)
        assert state.to_dict() == before


@pytest.mark.parametrize("num_players", [2, 5])
def test_bad_seats_raise_the_same_errors(rules, num_players):
    python_state, native_state = random_position(rules, num_players, False, 3, 7)
    for seat in (-1, num_players, 99, True, 1.0, "0", None, np.int64(num_players), 2**70):
        same_errors(partial(python_state.view, seat), partial(native_state.view, seat))
        same_errors(
            partial(python_state.observation, seat), partial(native_state.observation, seat)
        )
    for seat in (0, np.int64(1), np.int32(num_players - 1)):
        assert native_state.observation(seat).tobytes() == python_state.observation(seat).tobytes()
    raw = native_state._native
    for seat in (-1, num_players, True, 2**70, "0"):
        with pytest.raises((IndexError, ValueError, TypeError)):
            raw.observation(seat)
        with pytest.raises((IndexError, ValueError, TypeError)):
            raw.view_fields(seat)


@pytest.mark.parametrize(
    "num_players, seed, opts",
    [
        (1, 0, {}),
        (6, 0, {}),
        (True, 0, {}),
        (2.0, 0, {}),
        ("3", 0, {}),
        (2, -1, {}),
        (2, 1.5, {}),
        (2, True, {}),
        (2, "7", {}),
        (2, 0, {"variant_red3": 1}),
        (2, 0, {"variant_red3": "yes"}),
        (2, 0, {"variant_red3": None}),
        (2, 0, {"red3": True}),
        (np.int64(3), np.int64(9), {"variant_red3": True}),
    ],
)
def test_new_state_refuses_the_same_options(rules, num_players, seed, opts):
    python_rules, native_rules = rules
    same_errors(
        lambda: python_rules.new_state(num_players, seed=seed, **opts).to_json(),
        lambda: native_rules.new_state(num_players, seed=seed, **opts).to_json(),
    )


def test_the_compiled_constructor_checks_its_arguments():
    cls = native_class()
    for args in [(1, 0, False), (6, 0, False), (True, 0, False), (2, -1, False),
                 (2, 2**128, False), (2, 1.0, False), (2, 0, 1), (2**70, 0, False)]:  # fmt: skip
        with pytest.raises((ValueError, TypeError)):
            cls.new_state(*args)


def test_seeds_the_native_engine_cannot_hold_are_refused(rules):
    _, native_rules = rules
    with pytest.raises(ValueError, match="2\\*\\*128"):
        native_rules.new_state(2, seed=2**128)


def test_invalid_snapshots_give_the_same_errors(rules):
    from tests.cornucopia.test_hardening import CASES

    python_rules, native_rules = rules
    for build, change, _ in CASES:
        data = json.loads(build().to_json())
        change(data)
        same_errors(
            partial(python_rules.from_dict, copy.deepcopy(data)),
            partial(native_rules.from_dict, copy.deepcopy(data)),
        )
        # Straight to the extension: refused as well (its own words), never a crash.
        with pytest.raises((ValueError, TypeError, IndexError)):
            native_class().from_dict(copy.deepcopy(data))
    for data in ([1, 2], None, "{}", {}):
        same_errors(partial(python_rules.from_dict, data), partial(native_rules.from_dict, data))


# -- fuzz ----------------------------------------------------------------------------------------
def test_fuzzed_snapshots_never_crash_and_agree_with_the_reference(rules):
    """Mutated snapshots go straight to the extension: it may refuse them, never crash, and
    it accepts exactly what the reference accepts (then both write the same snapshot)."""
    from tests.cornucopia.test_snapshot_fuzz import mutate, snapshots

    python_rules, _ = rules
    cls = native_class()
    sources = snapshots()
    rng = np.random.default_rng(77)
    accepted = 0
    for i in range(1500):
        source = sources[int(rng.integers(len(sources)))]
        data, path = mutate(source, rng)
        try:
            expected = python_rules.from_dict(copy.deepcopy(data))
        except InvalidStateError:
            expected = None
        try:
            native = cls.from_dict(data)
        except (ValueError, TypeError, IndexError, OverflowError):
            native = None
        where = f"mutation {i}: {path}"
        assert (native is None) == (expected is None), where
        if native is not None:
            accepted += 1
            assert json.dumps(native.to_dict()) == expected.to_json(), where
            native.playout(i, 0)
            assert native.is_terminal()
    assert accepted > 60


def test_random_actions_of_any_kind_on_compiled_states():
    cls = native_class()
    rng = random.Random(5)
    for game in range(12):
        state = cls.new_state(2 + game % 4, game, game % 2 == 1)
        while not state.is_terminal():
            action = rng.choice([rng.randrange(-3, 26), rng.randrange(23), 2**64 + 1, -(2**65)])
            if state.is_legal(action):
                state.apply(action)
            else:
                with pytest.raises(ValueError):
                    state.apply(action)
            state.observation(rng.randrange(state.num_players))
        assert not state.legal_mask().any() and state.current_player == -1
        with pytest.raises(ValueError):
            state.apply(0)


# -- playouts, clones, engine info -------------------------------------------------------------
@pytest.mark.parametrize("num_players, variant", [(2, False), (3, True), (5, False)])
def test_playouts_play_the_same_moves(rules, num_players, variant):
    for seed, depth, start in ((1, 0, 0), (2, 7, 0), (3, 0, 25), (4, 40, 13), (2**64 + 3, 0, 2)):
        python_state, native_state = random_position(rules, num_players, variant, seed, start)
        played = native_state.playout(seed=seed, depth=depth)
        assert played == python_state.playout(seed=seed, depth=depth)
        assert_same_position(python_state, native_state)
        if depth:  # depth honoured: that many decisions, or fewer where the game ended
            assert played == depth or (played < depth and native_state.is_terminal())
        else:
            assert native_state.is_terminal()
    state = rules[1].new_state(2, seed=0)
    assert state.playout(seed=5, depth=3) == 3


def test_playout_arguments_are_checked(rules):
    python_rules, native_rules = rules
    for kwargs in ({"depth": -1}, {"seed": -2}, {"policy": "greedy"}, {"depth": 1.5}):
        same_errors(
            partial(python_rules.new_state(2, seed=1).playout, **kwargs),
            partial(native_rules.new_state(2, seed=1).playout, **kwargs),
        )


def test_clone_is_independent(rules):
    _, native_rules = rules
    state = native_rules.new_state(4, seed=12, variant_red3=True)
    state.playout(seed=1, depth=30)
    before = snapshot_text(state)
    other = state.clone()
    other.playout(seed=2)
    assert other.is_terminal() and snapshot_text(state) == before
    view = state.view(state.current_player)
    observation = view.observation()
    state.playout(seed=3)
    assert view.observation().tobytes() == observation.tobytes()  # the view keeps its copy


def test_loaded_logs_are_kept_and_extended(rules):
    """Log lines come back as loaded (any text), with the new events after them."""
    python_rules, native_rules = rules
    state = python_rules.new_state(3, seed=8)
    state.apply(state.legal_actions()[0])
    data = state.to_dict()
    data["log"] = ["anything", "at all ✓"]
    data["last_log"] = ["x"]
    python_state = python_rules.from_dict(copy.deepcopy(data))
    native_state = native_rules.from_dict(copy.deepcopy(data))
    continue_lockstep(python_state, native_state, seed=8, views_every=3)


def test_engine_info_names_the_native_engine():
    if engine_info()["requested"] == "python":
        pytest.skip("BOARDGAME_ENVS_ENGINE=python asks for the reference")
    assert engine_info()["engines"][GAME] == "native"
