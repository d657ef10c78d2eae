"""Factors and Multiples: the compiled engine against the Python engine (the reference).

Lockstep games over every player count and option value, snapshots crossing over both ways,
the same errors for bad actions, seats, options and snapshots, random playouts, clones, and
fuzzed snapshots and actions fed straight to the compiled class (refused or played, never a
crash)."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from boardgame_envs import engine_info
from boardgame_envs.core.native import native_module
from tests.native.lockstep import (
    advance,
    assert_same_position,
    bad_actions,
    continue_lockstep,
    engines,
    native_marks,
    play_lockstep,
    same_errors,
    snapshot_text,
    snapshots_cross_over,
)

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


def rules_pair():
    return engines(GAME)


def random_state(num_players: int, seed: int, steps: int, **options):
    """A Python-engine state ``steps`` random moves into a seeded match."""
    python_rules, _ = rules_pair()
    return advance(python_rules.new_state(num_players, seed=seed, **options), steps, seed)


# -- lockstep ----------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o)) or "default")
def test_lockstep(num_players, options):
    games = 4 if options else 8
    for seed in range(games):
        play_lockstep(GAME, num_players, 1000 * num_players + seed, options, views_every=4)


def test_lockstep_of_a_long_match_and_large_seeds():
    play_lockstep(GAME, 3, 5, {"rounds": 12}, views_every=25)
    for seed in (2**32, 2**63 - 1, 2**64 + 7, 2**200 + 3):
        play_lockstep(GAME, 2, seed, {"rounds": 1}, views_every=10)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_lockstep_many_games(num_players):
    for seed in range(600):
        options = OPTIONS[seed % len(OPTIONS)]
        play_lockstep(GAME, num_players, 50_000 + seed, options, views_every=7)


# -- snapshots ---------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_snapshots_cross_over(num_players):
    for seed in range(8):
        snapshots_cross_over(GAME, num_players, 300 + seed, OPTIONS[seed % len(OPTIONS)])


def test_every_phase_loads_natively_and_plays_on():
    """Snapshots of every decision type and of finished matches, through the native class."""
    python_rules, native_rules = rules_pair()
    seen: set[str] = set()
    for seed in range(12):
        state = random_state(2 + seed % 4, seed, 0, rounds=2, k_discard_optional=seed % 2 == 1)
        rng = random.Random(seed)
        phases = set()  # each phase once a match, played on for a while
        while True:
            if state.phase not in phases:
                phases.add(state.phase)
                native = native_rules.from_reference(state)
                assert snapshot_text(native) == snapshot_text(state)
                assert_same_position(state, native)
                continue_lockstep(state.clone(), native, seed, views_every=9, max_steps=40)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        seen |= phases
    assert seen == {*python_rules.phases, "GAME_OVER"}


# -- errors ------------------------------------------------------------------------------------
BAD_ACTIONS = [*bad_actions(40), 41, np.uint8(200)]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_illegal_actions_raise_the_same_errors_and_change_nothing(num_players):
    for seed in range(4):
        state = random_state(num_players, seed, 7 * seed, k_discard_optional=seed == 3)
        _, native_rules = rules_pair()
        native = native_rules.from_reference(state)
        legal = set(state.legal_actions())
        candidates = [a for a in range(40) if a not in legal] + BAD_ACTIONS
        candidates += [np.int64(a) for a in range(40) if a not in legal][:3]
        candidates += [np.array(a) for a in range(40) if a not in legal][:3]
        before = snapshot_text(state)
        for action in candidates:
            same_errors(
                lambda a=action, s=state: s.apply(a),
                lambda a=action, s=native: s.apply(a),
            )
            assert snapshot_text(state) == before and snapshot_text(native) == before
            assert_same_position(state, native, views=False)
        # legal actions given as numpy integers and 0-d arrays are accepted alike
        action = sorted(legal)[0]
        python_copy, native_copy = state.clone(), native.clone()
        python_copy.apply(np.int32(action))
        native_copy.apply(np.array(action))
        assert snapshot_text(python_copy) == snapshot_text(native_copy)


def test_actions_after_the_end_raise_the_same_error():
    state = random_state(3, 1, 10**6, rounds=1)
    assert state.is_terminal()
    _, native_rules = rules_pair()
    native = native_rules.from_reference(state)
    for action in (0, 13, 39, 40, -1, "x"):
        same_errors(lambda a=action: state.apply(a), lambda a=action: native.apply(a))
    assert_same_position(state, native)


@pytest.mark.parametrize("seat", [-1, 3, 5, 2**65, True, False, 1.0, "0", None, np.int64(7)])
def test_bad_seats_raise_the_same_errors(seat):
    python_rules, native_rules = rules_pair()
    python_state = python_rules.new_state(3, seed=0)
    native_state = native_rules.new_state(3, seed=0)
    same_errors(lambda: python_state.view(seat), lambda: native_state.view(seat))
    same_errors(lambda: python_state.observation(seat), lambda: native_state.observation(seat))


def test_numpy_seats_are_accepted_alike():
    python_rules, native_rules = rules_pair()
    python_state = python_rules.new_state(3, seed=0)
    native_state = native_rules.new_state(3, seed=0)
    for seat in (np.int64(2), np.uint8(1)):
        assert type(native_state.view(seat).seat) is int
        assert native_state.observation(seat).tobytes() == python_state.observation(seat).tobytes()


@pytest.mark.parametrize(
    "args, options",
    [
        ((1,), {}),
        ((6,), {}),
        ((True,), {}),
        ((2.0,), {}),
        (("3",), {}),
        ((2,), {"round": 2}),
        ((2,), {"rounds": 0}),
        ((2,), {"rounds": 101}),
        ((2,), {"rounds": 10**30}),
        ((2,), {"rounds": True}),
        ((2,), {"rounds": 2.0}),
        ((2,), {"start_draw": "bottom"}),
        ((2,), {"start_draw": 1}),
        ((2,), {"a_needs_discard": 1}),
        ((2,), {"k_discard_optional": None}),
        ((2,), {"choose_after_refill": "yes"}),
        ((2, -1), {}),
        ((2, 1.5), {}),
        ((2, "7"), {}),
        ((2, True), {}),
    ],
)
def test_bad_counts_options_and_seeds_raise_the_same_errors(args, options):
    python_rules, native_rules = rules_pair()
    same_errors(
        lambda: python_rules.new_state(*args, **options),
        lambda: native_rules.new_state(*args, **options),
    )


def test_seeds_as_numpy_integers_and_none():
    python_rules, native_rules = rules_pair()
    a = python_rules.new_state(4, seed=np.int64(9))
    b = native_rules.new_state(4, seed=np.uint32(9))
    assert snapshot_text(a) == snapshot_text(b)
    unseeded = native_rules.new_state(4)
    assert snapshot_text(python_rules.from_dict(unseeded.to_dict())) == snapshot_text(unseeded)


def test_the_compiled_class_checks_its_arguments():
    cls = native_module().FactorsMultiplesState
    state = cls.new_state(2, 0)
    for bad in (
        lambda: cls.new_state(6, 0),
        lambda: cls.new_state(2, -1),
        lambda: cls.new_state(2, 2**300),
        lambda: cls.new_state(2, 0, 0),
        lambda: cls.new_state(2, 0, 3, "bottom"),
        lambda: cls.new_state(2, 0, 3, "top", 1),
        lambda: cls.new_state(2.0, 0),
        lambda: state.apply(-1),
        lambda: state.apply(2**80),
        lambda: state.apply(True),
        lambda: state.apply(None),
        lambda: state.observation(2),
        lambda: state.observation(-(2**70)),
        lambda: state.observation("0"),
        lambda: state.view_fields(9, None),
        lambda: state.playout(-1, 0),
        lambda: state.playout(0, -1),
        lambda: state.playout(0, 2**64),
        lambda: cls.from_dict([]),
        lambda: cls.from_dict({}),
    ):
        with pytest.raises((ValueError, TypeError, IndexError)):
            bad()
    for action in (-1, 40, 2**80, -(2**80), True, None, 1.0, "1", np.int64(1)):
        assert state.is_legal(action) is False
    assert json.dumps(state.to_dict()) == json.dumps(cls.new_state(2, 0).to_dict())


def _hardening_cases():
    from tests.factors_multiples import test_hardening

    return test_hardening.BAD, test_hardening.reach


def test_invalid_snapshots_give_the_same_errors():
    bad, reach = _hardening_cases()
    python_rules, native_rules = rules_pair()
    cls = native_module().FactorsMultiplesState
    for phase, mutate, _ in bad:
        data = reach(2 if phase != "K_DISCARD" else 3, phase, rounds=2)
        mutate(data)
        text = json.dumps(data)
        same_errors(
            lambda d=data: python_rules.from_dict(d), lambda d=data: native_rules.from_dict(d)
        )
        same_errors(
            lambda t=text: python_rules.from_json(t), lambda t=text: native_rules.from_json(t)
        )
        # the compiled class refuses each on its own (its own words)
        with pytest.raises((ValueError, TypeError)):
            cls.from_dict(data)
    same_errors(lambda: python_rules.from_json("{no"), lambda: native_rules.from_json("{no"))
    same_errors(lambda: python_rules.from_dict([1]), lambda: native_rules.from_dict([1]))


# -- playouts and clones -----------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_playouts_play_the_same_moves(num_players):
    python_rules, native_rules = rules_pair()
    for seed in range(3):
        options = OPTIONS[(seed + num_players) % len(OPTIONS)]
        python_state = python_rules.new_state(num_players, seed=seed, **options)
        native_state = native_rules.new_state(num_players, seed=seed, **options)
        for depth in (1, 17, 0):
            played = python_state.playout(seed=seed + depth, depth=depth)
            assert native_state.playout(seed=seed + depth, depth=depth) == played
            assert depth == 0 or played == depth or python_state.is_terminal()
            assert_same_position(python_state, native_state, views=depth == 0)
        assert native_state.is_terminal()
        assert native_state.playout(seed=1) == 0


def test_playout_seeds_of_any_size_and_bad_arguments():
    python_rules, native_rules = rules_pair()
    for seed in (2**64 + 1, 2**150):
        a, b = python_rules.new_state(2, seed=3), native_rules.new_state(2, seed=3)
        assert a.playout(seed=seed, depth=30) == b.playout(seed=seed, depth=30)
        assert snapshot_text(a) == snapshot_text(b)
    state = native_rules.new_state(2, seed=3)
    for args in ({"policy": "greedy"}, {"depth": -1}, {"depth": 1.0}, {"seed": -2}):
        same_errors(
            lambda a=args: python_rules.new_state(2, seed=3).playout(**a),
            lambda a=args: state.playout(**a),
        )
    assert snapshot_text(state) == snapshot_text(native_rules.new_state(2, seed=3))


def test_clone_is_independent():
    _, native_rules = rules_pair()
    state = native_rules.new_state(3, seed=8)
    state.apply(state.legal_actions()[0])
    before = snapshot_text(state)
    view = state.view(state.current_player)
    observation = view.observation()
    clone = state.clone()
    clone.playout(seed=1)
    assert clone.is_terminal() and not state.is_terminal()
    assert snapshot_text(state) == before
    # a view keeps the position it was taken of
    state.playout(seed=2, depth=5)
    assert view.observation().tobytes() == observation.tobytes()


def test_engine_info_names_the_native_engine():
    assert engine_info()["engines"][GAME] == "native"
    _, native_rules = rules_pair()
    assert native_rules.engine == "native" and native_rules.new_state(2, seed=0).engine == "native"


def test_fields_read_on_python_states_work_on_native_ones():
    """What agents and tests read on the Python engine's states beyond the contract."""
    python_rules, native_rules = rules_pair()
    python_state = random_state(4, 12, 40)
    native_state = native_rules.from_reference(python_state)
    for name in (
        "hands",
        "piles",
        "value",
        "phase",
        "round",
        "round_scores",
        "went_out",
        "k_player",
        "turn_player",
        "reveals",
        "hidden_discard",
        "own_discards",
        "config",
        "seed",
        "start_player",
        "turns_started",
    ):
        assert getattr(native_state, name) == getattr(python_state, name), name
    assert native_state.play_pile == python_state.play_pile
    assert [native_state.total(s) for s in range(4)] == [python_state.total(s) for s in range(4)]
    assert sorted(native_state.card_zones()) == sorted(python_state.card_zones())
    assert native_state.describe_action(13) == python_state.describe_action(13)
    assert native_state.render_text(0) == python_state.render_text(0)
    with pytest.raises(AttributeError):
        native_state.no_such_field  # noqa: B018
    position = native_rules.position([[0, 5], [9, 30]], [[], []], value=None)
    assert position.engine == "native" and position.hands == [[0, 5], [9, 30]]


# -- fuzz --------------------------------------------------------------------------------------
def _fuzz_pool():
    from tests.factors_multiples.test_snapshot_fuzz import snapshots

    return snapshots()


def test_fuzzed_snapshots_are_refused_or_loaded_alike():
    """Snapshots with one field mutated, straight into the compiled class: it refuses
    exactly what the Python engine refuses (with a ValueError, TypeError or IndexError) and
    loads the rest to the same position; it never crashes."""
    from tests.factors_multiples.test_snapshot_fuzz import mutate

    python_rules, native_rules = rules_pair()
    cls = native_module().FactorsMultiplesState
    pool = _fuzz_pool()
    rng = np.random.default_rng(77)
    accepted = refused = 0
    for i in range(800):
        data = json.loads(json.dumps(pool[int(rng.integers(len(pool)))]))
        what = mutate(data, rng, pool[int(rng.integers(len(pool)))])
        if rng.random() < 0.2:  # a second mutation: further from anything real
            what += " and " + mutate(data, rng, pool[int(rng.integers(len(pool)))])
        try:
            reference = python_rules.from_dict(copy.deepcopy(data))
        except ValueError:
            reference = None
        try:
            native = cls.from_dict(data)
        except (ValueError, TypeError, IndexError):
            native = None
        assert (native is None) == (reference is None), f"mutation {i}: {what}"
        if native is None:
            refused += 1
            continue
        accepted += 1
        state = native_rules.wrap(native)
        assert snapshot_text(state) == snapshot_text(reference), what
        if accepted % 10 == 0:
            continue_lockstep(reference, state, i, views_every=6)
    assert refused > 200 and accepted > 50, (refused, accepted)


def test_odd_python_objects_never_crash_the_compiled_class():
    cls = native_module().FactorsMultiplesState
    data = random_state(3, 4, 30).to_dict()

    class Weird(str):
        def __eq__(self, other):
            return True

        __hash__ = str.__hash__

    odd_values = [
        None,
        True,
        1.5,
        "x",
        b"x",
        [],
        {},
        (),
        [[]],
        2**100,
        -(2**100),
        float("nan"),
        object(),
        Weird("hands"),
        [None] * 60,
        list(range(60)),
        {"a": 1},
        [[0, 0]] * 60,
    ]
    for key in list(data):
        for value in odd_values:
            broken = dict(data)
            broken[key] = value
            try:
                cls.from_dict(broken)
            except (ValueError, TypeError, IndexError):
                pass
    for broken in ({Weird("game"): 1}, {1: 2}, {**data, Weird("extra"): 1}, {**data, 5: 1}):
        with pytest.raises((ValueError, TypeError)):
            cls.from_dict(broken)
    as_tuples = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
    assert json.dumps(cls.from_dict(as_tuples).to_dict()) == json.dumps(data)


def test_random_actions_including_illegal_ones_on_native_states():
    _, native_rules = rules_pair()
    cls = native_module().FactorsMultiplesState
    rng = random.Random(5)
    for seed in range(30):
        native = cls.new_state(2 + seed % 4, seed, 1 + seed % 3)
        while not native.is_terminal():
            action = rng.choice([rng.randrange(-3, 43), rng.randrange(-(2**70), 2**70)])
            before = json.dumps(native.to_dict())
            if native.is_legal(action):
                native.apply(action)
                continue
            with pytest.raises(ValueError):
                native.apply(action)
            assert json.dumps(native.to_dict()) == before
            legal = np.flatnonzero(native.legal_mask())
            native.apply(int(legal[rng.randrange(len(legal))]))
        assert not native.legal_mask().any() and native.current_player == -1
        state = native_rules.wrap(native)
        assert state.winners() and len(state.returns()) == state.num_players
