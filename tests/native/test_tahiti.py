"""Tahiti's compiled engine held to the Python engine (the reference), bit for bit.

Lockstep games over every player count and round limit (masks, seats, snapshots, every seat's
view and observation, final scores), snapshots crossing between the engines mid-game, the same
errors for bad actions, seats, options and snapshots, a fuzz of the native snapshot loader
(it may refuse, never crash), playouts, clones and engine selection.
"""

from __future__ import annotations

import copy
import json
import random

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

GAME = "tahiti"
pytestmark = native_marks(GAME)
COUNTS = (2, 3, 4)


@pytest.fixture(scope="module")
def rules():
    return engines(GAME)


# -- lockstep ---------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", COUNTS)
def test_whole_games_in_lockstep(num_players):
    """Complete games (the season's end): every view at every fourth step."""
    for seed in range(2):
        steps = play_lockstep(GAME, num_players, 1000 * num_players + seed, views_every=4)
        assert steps > 300


@pytest.mark.parametrize("num_players", COUNTS)
@pytest.mark.parametrize("max_rounds", [1, 2, 3, 6])
def test_round_limits_in_lockstep(num_players, max_rounds):
    """Short games ending at the round limit (truncated), many seeds."""
    for seed in range(8):
        play_lockstep(GAME, num_players, seed, {"max_rounds": max_rounds}, views_every=2)


@pytest.mark.parametrize("num_players", COUNTS)
def test_the_largest_round_limit_in_lockstep(num_players):
    play_lockstep(GAME, num_players, 77, {"max_rounds": 1_000_000}, views_every=25)


@pytest.mark.slow
@pytest.mark.parametrize("num_players", COUNTS)
def test_many_games_in_lockstep(num_players):
    """Hundreds of complete games step by step, and thousands of whole playouts compared at a
    random depth and at the end (the snapshot holds the generator: every draw agrees)."""
    for seed in range(100):
        play_lockstep(GAME, num_players, 50_000 + seed, views_every=40)
    python_rules, native_rules = engines(GAME)
    picks = random.Random(num_players)
    for seed in range(1000):
        options = {"max_rounds": picks.choice([1000, 1000, 4, 30])}
        states = [r.new_state(num_players, seed=seed, **options) for r in engines(GAME)]
        depth = picks.randrange(1, 400)
        counts = [s.playout(seed=seed + 7, depth=depth) for s in states]
        assert counts[0] == counts[1] and snapshot_text(states[0]) == snapshot_text(states[1])
        assert_same_position(*states, views=False)
        counts = [s.playout(seed=seed + 8) for s in states]
        assert counts[0] == counts[1]
        assert_same_position(*states, views=False)


@pytest.mark.parametrize("num_players", COUNTS)
def test_snapshots_cross_over(num_players):
    for seed in range(8):
        snapshots_cross_over(GAME, num_players, 300 * num_players + seed, {"max_rounds": 12})


def test_snapshots_cross_over_late_in_the_game(rules):
    """Positions after Haumea has left, during depletion and in the final round."""
    python_rules, native_rules = rules
    for n in COUNTS:
        moves = random.Random(n)
        state = python_rules.new_state(n, seed=900 + n)
        seen = set()
        while not state.is_terminal():
            key = (state.haumea < 0, state.phase, state.end_triggered)
            if key not in seen and moves.random() < 0.5:
                seen.add(key)
                native = native_rules.from_dict(state.to_dict())
                assert snapshot_text(native) == snapshot_text(state)
                continue_lockstep(state.clone(), native, n, views_every=7, max_steps=60)
            state.apply(moves.choice(state.legal_actions()))
        assert any(key[0] for key in seen) and any(key[1] == "DEPLETE" for key in seen)


# -- new games, seeds, options ------------------------------------------------------------------
def test_seeds_of_any_size_deal_the_same_game(rules):
    python_rules, native_rules = rules
    for seed in (0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5, 2**100 + 3):
        a = python_rules.new_state(3, seed=seed)
        b = native_rules.new_state(3, seed=seed)
        assert snapshot_text(a) == snapshot_text(b)
    c = native_rules.new_state(2)  # fresh entropy
    assert c.current_player in (0, 1) and c.to_dict()["rng"]["bit_generator"] == "PCG64"


def test_bad_counts_options_and_seeds_give_the_same_errors(rules):
    python_rules, native_rules = rules
    for args, options in [
        ((1,), {}),
        ((5,), {}),
        ((True,), {}),
        (("2",), {}),
        ((2.0,), {}),
        ((2,), {"max_rounds": 0}),
        ((2,), {"max_rounds": 1_000_001}),
        ((2,), {"max_rounds": True}),
        ((2,), {"max_rounds": 2.0}),
        ((2,), {"max_rounds": "5"}),
        ((2,), {"rounds": 5}),
        ((2,), {"seed": -1}),
        ((2,), {"seed": "1"}),
        ((2,), {"seed": 1.0}),
        ((2,), {"seed": True}),
    ]:
        same_errors(
            lambda a=args, o=options: python_rules.new_state(*a, **o),
            lambda a=args, o=options: native_rules.new_state(*a, **o),
        )
    a = python_rules.new_state(np.int64(3), seed=np.uint64(9), max_rounds=7)
    b = native_rules.new_state(np.int64(3), seed=np.uint64(9), max_rounds=7)
    assert snapshot_text(a) == snapshot_text(b)


# -- errors -------------------------------------------------------------------------------------
def positions(rules, count=12):
    """Pairs of equal positions in every phase (and a finished game)."""
    python_rules, native_rules = rules
    out = []
    for n in COUNTS:
        state = python_rules.new_state(n, seed=n, max_rounds=200)
        moves = random.Random(n)
        step = 0
        while not state.is_terminal():
            if step % 97 == 0 or state.phase in ("BOUNTY_PLACE", "HAUMEA_STEP"):
                out.append(state.clone())
            state.apply(moves.choice(state.legal_actions()))
            step += 1
        out.append(state)
    phases = {}
    for state in out:
        phases.setdefault(state.phase, []).append(state)
    chosen = [s for group in phases.values() for s in group[:count]]
    return [(s, native_rules.from_reference(s)) for s in chosen]


def test_illegal_actions_raise_the_same_errors_and_change_nothing(rules):
    for python_state, native_state in positions(rules):
        legal = python_state.legal_actions()
        illegal = [a for a in range(69) if a not in legal]
        some = legal[0] if legal else 0
        bad = [
            *illegal[:8],
            -1,
            69,
            10**30,
            -(10**30),
            True,
            False,
            1.0,
            float(some),
            "3",
            None,
            [some],
            np.float64(some),
            np.array([some]),
            np.array(some, dtype=np.float32),
            np.bool_(True),
        ]
        before = snapshot_text(native_state)
        for action in bad:
            same_errors(
                lambda s=python_state, a=action: s.apply(a),
                lambda s=native_state, a=action: s.apply(a),
            )
            assert snapshot_text(native_state) == before == snapshot_text(python_state)
        # numpy integers and 0-d integer arrays are actions
        for action in (np.int64(some), np.uint8(some), np.array(some)):
            if legal:
                a, b = python_state.clone(), native_state.clone()
                a.apply(action)
                b.apply(action)
                assert snapshot_text(a) == snapshot_text(b)


def test_the_raw_native_class_refuses_without_crashing(rules):
    _, native_rules = rules
    state = native_rules.new_state(2, seed=4)._native
    before = state.to_dict()
    for action in (-1, 69, 2**70, -(2**70), True, None, "1", 1.5, [1], np.int64(1), *range(69)):
        if not state.is_legal(action):
            with pytest.raises(ValueError):
                state.apply(action)
    assert state.to_dict() == before
    for seat in (-1, 2, 2**70, None, "0", 0.0, True):
        with pytest.raises((IndexError, ValueError, TypeError)):
            state.observation(seat)
        with pytest.raises((IndexError, ValueError, TypeError)):
            state.view_fields(seat)
    with pytest.raises((ValueError, TypeError)):
        state.playout(-1, 0)
    with pytest.raises((ValueError, TypeError)):
        state.playout(1, -1)


def test_bad_seats_give_the_same_errors(rules):
    python_rules, native_rules = rules
    a = python_rules.new_state(3, seed=5)
    b = native_rules.new_state(3, seed=5)
    for seat in (-1, 3, 10**20, True, None, "0", 1.0, np.float32(1)):
        same_errors(lambda s=seat: a.view(s), lambda s=seat: b.view(s))
        same_errors(lambda s=seat: a.observation(s), lambda s=seat: b.observation(s))
    assert np.array_equal(a.observation(np.int64(2)), b.observation(np.int64(2)))


# -- snapshots --------------------------------------------------------------------------------
def invalid_snapshots(rules):
    python_rules, _ = rules
    data = python_rules.new_state(2, seed=1).to_dict()
    out = [
        {**data, "round": True},
        {**data, "taken": 1.0},
        {**data, "version": 0},
        {**data, "colour": "red"},
        {k: v for k, v in data.items() if k != "last_event"},
        {**data, "turn_player": 2},
        {**data, "bag": [8.7, *data["bag"][1:]]},
        {**data, "charts": [[0] * 4, [0] * 5]},
        {**data, "haumea": [0, 0.0]},
        {**data, "haumea": [9, 9]},
        {**data, "end_triggered": 0},
        {**data, "config": {"max_rounds": 0}},
        {**data, "board": data["board"][:-1]},
        {**data, "phase": "DEPLETE"},
        {**data, "phase": "NOPE"},
        {**data, "favourites": ["F5", "F5"]},
        {**data, "stacks": [data["stacks"][0], data["stacks"][0]]},
        {**data, "token_pile": data["token_pile"][1:]},
        {**data, "island_cubes": {**data["island_cubes"], "I01": "CC"}},
        {**data, "bounty": ["fish"]},
        {**data, "rng": {**data["rng"], "has_uint32": True}},
        "not a dict",
        [],
    ]
    rng = copy.deepcopy(data["rng"])
    rng["state"]["inc"] += 1
    out.append({**data, "rng": rng})
    return out


def test_invalid_snapshots_give_the_same_errors(rules):
    python_rules, native_rules = rules
    for data in invalid_snapshots(rules):
        with pytest.raises(InvalidStateError):
            python_rules.from_dict(copy.deepcopy(data))
        same_errors(
            lambda d=data: python_rules.from_dict(copy.deepcopy(d)),
            lambda d=data: native_rules.from_dict(copy.deepcopy(d)),
        )
        same_errors(
            lambda d=data: python_rules.from_json(json.dumps(d)),
            lambda d=data: native_rules.from_json(json.dumps(d)),
        )


def test_snapshot_fuzz_of_the_native_loader(rules):
    """One-field mutations of real snapshots straight into the compiled loader: it refuses
    (ValueError, TypeError, IndexError) exactly what the Python engine refuses, and loads the
    rest as the Python engine does; a loaded position then plays any action, legal or not,
    without harm."""
    from tests.tahiti.test_snapshot_fuzz import canonical, mutate, source_snapshots

    python_rules, native_rules = rules
    loader = native_module().TahitiState.from_dict
    sources = source_snapshots()
    rng = np.random.default_rng(77)
    loaded = 0
    for i in range(1500):
        snapshot = sources[int(rng.integers(len(sources)))]
        path, new, mutated = mutate(snapshot, rng)
        where = f"mutation {i}: {'.'.join(map(str, path))} = {new!r}"
        try:
            native = loader(copy.deepcopy(mutated))
        except (ValueError, TypeError, IndexError):
            native = None
        try:
            python = python_rules.from_dict(copy.deepcopy(mutated))
        except InvalidStateError:
            python = None
        assert (native is None) == (python is None), where
        if python is None:
            continue
        assert canonical(native.to_dict()) == canonical(python.to_dict()), where
        loaded += 1
        moves = random.Random(i)
        for _ in range(40):
            if native.is_terminal():
                break
            action = moves.choice([*native.legal_actions(), moves.randrange(-3, 75), 10**20])
            if native.is_legal(action):
                native.apply(action)
            else:
                with pytest.raises(ValueError):
                    native.apply(action)
    assert loaded > 50


def test_a_loader_fed_garbage_refuses(rules):
    python_rules, _ = rules
    loader = native_module().TahitiState.from_dict
    data = python_rules.new_state(4, seed=3).to_dict()
    garbage = [None, 1, "x", [], {}, {"game": "tahiti"}, {**data, "rng": None}]
    garbage += [{**data, key: value} for key in data for value in (None, -1, 2**80, "x", [[]], {})]
    deep = {**data, "board": [[name, 2**80, -(2**80), 0] for name, *_ in data["board"]]}
    garbage.append(deep)
    for value in garbage:
        try:
            loader(value)
        except (ValueError, TypeError, IndexError):
            pass


# -- playouts, clones, engine --------------------------------------------------------------------
@pytest.mark.parametrize("num_players", COUNTS)
def test_playouts_play_the_same_moves(rules, num_players):
    python_rules, native_rules = rules
    for seed in range(3):
        a = python_rules.new_state(num_players, seed=seed)
        b = native_rules.new_state(num_players, seed=seed)
        assert a.playout(seed=seed + 1, depth=25) == b.playout(seed=seed + 1, depth=25) == 25
        assert snapshot_text(a) == snapshot_text(b)
        assert a.playout(seed=2**70 + seed) == b.playout(seed=2**70 + seed)
        assert snapshot_text(a) == snapshot_text(b) and b.is_terminal()
        assert a.playout(seed=1) == b.playout(seed=1) == 0
    b = native_rules.new_state(2, seed=1)
    assert b.playout(depth=3) == 3  # fresh entropy
    assert b.playout(seed=1, depth=2**80) > 0 and b.is_terminal()  # a depth no game reaches
    for bad in ({"policy": "greedy"}, {"depth": -1}, {"seed": -2}, {"depth": 1.0}):
        same_errors(
            lambda b=bad: python_rules.new_state(2, seed=1).playout(**b),
            lambda b=bad: native_rules.new_state(2, seed=1).playout(**b),
        )


def test_clones_are_independent(rules):
    _, native_rules = rules
    state = native_rules.new_state(3, seed=12)
    state.playout(seed=3, depth=150)
    before = snapshot_text(state)
    view = state.view(state.current_player)
    observation = view.observation()
    clone = state.clone()
    clone.playout(seed=4)
    assert clone.is_terminal() and snapshot_text(state) == before
    assert np.array_equal(view.observation(), observation)  # views keep their own position
    state.apply(state.legal_actions()[0])
    assert np.array_equal(view.observation(), observation)
    assert snapshot_text(clone) != before


def test_views_observations_and_words_come_from_the_native_position(rules):
    python_rules, native_rules = rules
    a = python_rules.new_state(4, seed=8)
    b = native_rules.new_state(4, seed=8)
    for state in (a, b):
        state.playout(seed=2, depth=90)
    assert_same_position(a, b)
    for action in range(69):
        assert b.describe_action(action) == a.describe_action(action)
    assert b.render_text() == a.render_text() and b.render_text(1) == a.render_text(1)
    assert repr(b).startswith("<native tahiti state")


def test_determinizations_of_native_views_equal_the_python_ones(rules):
    python_rules, native_rules = rules
    for python_state, native_state in positions(rules, count=2):
        if python_state.is_terminal():
            continue
        for seat in range(python_state.num_players):
            a = python_rules.sample_state(python_state.view(seat), np.random.default_rng(seat))
            b = native_rules.sample_state(native_state.view(seat), np.random.default_rng(seat))
            assert snapshot_text(a) == snapshot_text(b)
            assert_same_position(a, b, views=False)


def test_engine_info_names_the_native_engine():
    assert engine_info()["engines"]["tahiti"] == "native"
    assert "tahiti" in native_module().GAMES
