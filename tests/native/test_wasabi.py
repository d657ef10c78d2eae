"""Wasabi!'s native engine against the Python engine (the reference): lockstep games over
every player count and option, snapshots both ways, the same errors, random playouts, and
fuzzed snapshots and actions that must never crash the interpreter."""

from __future__ import annotations

import copy
import json
import random

import numpy as np
import pytest

from boardgame_envs import InvalidConfigError, InvalidStateError, engine_info
from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import IllegalActionError
from tests.native.lockstep import (
    advance,
    engines,
    native_marks,
    play_lockstep,
    same_errors,
    snapshot_text,
    snapshots_cross_over,
)

GAME = "wasabi"
pytestmark = native_marks(GAME)
PLAYERS = (2, 3, 4)


def rules():
    return engines(GAME)


# -- lockstep ----------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_lockstep_whole_games(num_players):
    for seed in range(6):
        play_lockstep(GAME, num_players, seed, views_every=8)


#: Every option value, with turn limits that keep the games short (and end some by the limit).
OPTIONS = [
    {"style_either_direction": True, "max_turns": 30},
    {"gift_excludes_maki": True, "max_turns": 12},
    {"hide_opponent_hands": True, "max_turns": 30},
    {"hide_opponent_hands": True, "style_either_direction": True, "gift_excludes_maki": True},
    {"max_turns": 1},
    {"max_turns": 4},
    {"start_player": 0, "max_turns": 8},
    {"start_player": 1, "max_turns": 8},
]


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
@pytest.mark.parametrize("num_players", PLAYERS)
def test_lockstep_options(num_players, options):
    for seed in range(3):
        play_lockstep(GAME, num_players, 100 + seed, options, views_every=5)


@pytest.mark.parametrize("num_players", [3, 4])
def test_lockstep_last_start_seats(num_players):
    for start in range(2, num_players):
        play_lockstep(GAME, num_players, 7, {"start_player": start, "max_turns": 6})


def test_lockstep_big_and_small_seeds():
    for seed in (0, 2**32 - 1, 2**32, 2**63 - 1, 2**64 + 5, 2**100 + 3):
        play_lockstep(GAME, 2, seed, {"max_turns": 3})


@pytest.mark.slow
@pytest.mark.parametrize("num_players", PLAYERS)
def test_lockstep_many_games(num_players):
    options = [{}, *OPTIONS]
    for seed in range(700):
        play_lockstep(GAME, num_players, 1000 + seed, options[seed % len(options)], views_every=40)


# -- snapshots -----------------------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_snapshots_cross_over(num_players):
    for seed in range(8):
        options = {"hide_opponent_hands": True} if seed % 3 == 0 else {}
        snapshots_cross_over(GAME, num_players, 500 + seed, options)


def snapshots(count: int = 60) -> list[dict]:
    """Python snapshots of random positions (every decision point appears)."""
    python, _ = rules()
    found = []
    for seed in range(count):
        n = PLAYERS[seed % 3]
        state = python.new_state(n, seed=seed, hide_opponent_hands=seed % 2 == 1)
        advance(state, random.Random(seed).randrange(0, 400), seed)
        found.append(state.to_dict())
    return found


def test_invalid_snapshots_give_the_same_errors():
    python, native = rules()
    rng = random.Random(3)
    bad_values = [None, -1, 99, 10**30, 1.5, "x", True, [], [0], {}]
    for data in snapshots(30):
        for _ in range(12):
            broken = copy.deepcopy(data)
            field = rng.choice(list(broken))
            broken[field] = rng.choice(bad_values)
            same_errors(lambda b=broken: python.from_dict(b), lambda b=broken: native.from_dict(b))
    for bad in (None, [], "x", {"game": "wasabi"}):
        same_errors(lambda b=bad: python.from_dict(b), lambda b=bad: native.from_dict(b))
    with pytest.raises(InvalidStateError):
        native.from_dict({**snapshots(1)[0], "version": 0})


# -- errors ---------------------------------------------------------------------------------
BAD_ACTIONS = [-1, 72, 10**20, -(10**20), True, False, 1.0, "3", None, [3], np.float32(2)]


def test_illegal_actions_give_the_same_errors_and_change_nothing():
    python, native = rules()
    for seed in range(4):
        p = python.new_state(2 + seed % 3, seed=seed)
        n = native.new_state(2 + seed % 3, seed=seed)
        moves = random.Random(seed)
        for _ in range(50):
            legal = p.legal_actions()
            illegal = [a for a in range(72) if a not in legal]
            tries = BAD_ACTIONS + moves.sample(illegal, min(4, len(illegal)))
            tries += [np.int64(illegal[0]), np.array(illegal[0]), np.array([1, 2]), np.uint8(200)]
            before = snapshot_text(p)
            for action in tries:
                same_errors(lambda a=action, p=p: p.apply(a), lambda a=action, n=n: n.apply(a))
            assert snapshot_text(n) == snapshot_text(p) == before
            action = moves.choice(legal)
            kind = moves.randrange(3)
            wrapped = [action, np.int32(action), np.array(action, dtype=np.int16)][kind]
            p.apply(wrapped)
            n.apply(wrapped)
            if p.is_terminal():
                break
    # After the end, every action is refused alike.
    p.playout(seed=1)
    n.playout(seed=1)
    assert p.is_terminal() and n.is_terminal()
    for action in [0, 71, -1, 72, True]:
        same_errors(lambda a=action: p.apply(a), lambda a=action: n.apply(a))


def test_native_state_refuses_bad_actions_directly():
    state = native_module().WasabiState.new_state(2, 0, False, False, False, 250, "random")
    before = state.to_dict()
    for action in [-1, 72, 2**70, -(2**70)]:
        assert state.is_legal(action) is False
        with pytest.raises(ValueError):
            state.apply(action)
    for action in [1.0, "1", None, True]:
        with pytest.raises(TypeError):
            state.apply(action)
    assert state.to_dict() == before


@pytest.mark.parametrize("seat", [-1, 2, 2**70, True, 1.0, "0", None])
def test_bad_seats(seat):
    python, native = rules()
    p = python.new_state(2, seed=0)
    n = native.new_state(2, seed=0)
    same_errors(lambda: p.view(seat), lambda: n.view(seat))
    same_errors(lambda: p.observation(seat), lambda: n.observation(seat))
    raw = n._native
    with pytest.raises((IndexError, TypeError, ValueError)):
        raw.observation(seat)
    with pytest.raises((IndexError, TypeError, ValueError)):
        raw.view_fields(seat)


def test_numpy_seats_are_accepted():
    python, native = rules()
    p = python.new_state(3, seed=0)
    n = native.new_state(3, seed=0)
    for seat in (np.int64(1), np.uint8(2)):
        assert n.observation(seat).tobytes() == p.observation(seat).tobytes()
        assert n.view(seat).seat == p.view(seat).seat


@pytest.mark.parametrize(
    "num_players, options",
    [
        (1, {}),
        (5, {}),
        (True, {}),
        ("2", {}),
        (2.0, {}),
        (2, {"max_turns": 0}),
        (2, {"max_turns": 10**7}),
        (2, {"max_turns": True}),
        (2, {"max_turns": 2.0}),
        (2, {"start_player": 2}),
        (3, {"start_player": -1}),
        (2, {"start_player": "first"}),
        (2, {"start_player": True}),
        (2, {"hide_opponent_hands": 1}),
        (2, {"style_either_direction": "yes"}),
        (2, {"colour": "red"}),
        (2, {"seed": -1}),
        (2, {"seed": 1.5}),
        (2, {"seed": "1"}),
    ],
)
def test_new_state_errors(num_players, options):
    python, native = rules()
    with pytest.raises(InvalidConfigError):
        python.new_state(num_players, **options)
    same_errors(
        lambda: python.new_state(num_players, **options),
        lambda: native.new_state(num_players, **options),
    )


def test_raw_new_state_checks_its_arguments():
    cls = native_module().WasabiState
    good = dict(
        num_players=2,
        seed=0,
        style_either_direction=False,
        gift_excludes_maki=False,
        hide_opponent_hands=False,
        max_turns=250,
        start_player="random",
    )
    cls.new_state(**good)
    for key, value in [
        ("num_players", 1),
        ("num_players", 2**80),
        ("seed", -1),
        ("seed", 1.5),
        ("max_turns", 0),
        ("max_turns", 2**70),
        ("start_player", 2),
        ("start_player", "first"),
        ("start_player", None),
    ]:
        with pytest.raises((ValueError, TypeError)):
            cls.new_state(**{**good, key: value})


def test_unseeded_games_differ_and_run():
    _, native = rules()
    a = native.new_state(2)
    b = native.new_state(2)
    assert a.to_dict()["decks"] != b.to_dict()["decks"]
    a.playout(seed=None)
    assert a.is_terminal()


# -- fuzz -----------------------------------------------------------------------------------
def mutate(value, rng: random.Random):
    """A random change somewhere inside ``value`` (a dict or list), returned."""
    choices = [
        None,
        -1,
        0,
        1,
        41,
        42,
        52,
        255,
        256,
        -(2**31),
        2**31,
        2**63,
        2**64 + 1,
        10**40,
        1.5,
        "GAME_OVER",
        "x",
        True,
        False,
        [],
        [0],
        [None],
        {},
        [[0, True]],
        list(range(80)),
    ]
    paths = []

    def walk(v, path):
        paths.append(path)
        if isinstance(v, dict):
            for k, item in v.items():
                walk(item, (*path, k))
        elif isinstance(v, list):
            for i, item in enumerate(v):
                walk(item, (*path, i))

    walk(value, ())
    path = rng.choice(paths[1:])
    parent = value
    for key in path[:-1]:
        parent = parent[key]
    old = parent[path[-1]]
    action = rng.randrange(5)
    if action == 0 and isinstance(old, list) and old:
        del old[rng.randrange(len(old))]
    elif action == 1 and isinstance(old, list):
        old.append(
            copy.deepcopy(rng.choice(old)) if old and rng.random() < 0.5 else rng.choice(choices)
        )
    elif action == 2 and isinstance(old, int) and not isinstance(old, bool):
        parent[path[-1]] = old + rng.choice([-2, -1, 1, 2, 40, -(10**9), 10**12])
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(choices))
    return value


def test_fuzzed_snapshots_never_crash_the_native_loader():
    cls = native_module().WasabiState
    python, _ = rules()
    rng = random.Random(11)
    loaded = 0
    for data in snapshots(30):
        for _ in range(30):
            broken = copy.deepcopy(data)
            for _ in range(rng.randrange(1, 4)):
                broken = mutate(broken, rng)
            try:
                state = cls.from_dict(broken)
            except (ValueError, TypeError, IndexError, KeyError):
                continue
            loaded += 1
            # Whatever loads is a position play goes on from; the Python engine agrees.
            python.from_dict(state.to_dict())
            state.observation(0)
            state.view_fields(state.num_players - 1)
            state.playout(rng.randrange(1000), 30)
    assert loaded > 0


def test_random_and_illegal_actions_on_native_states():
    _, native = rules()
    raw_cls = native_module().WasabiState
    rng = random.Random(5)
    for seed in range(6):
        state = raw_cls.new_state(
            2 + seed % 3, seed, seed % 2 == 0, False, seed % 3 == 0, 40, "random"
        )
        for _ in range(3000):
            if state.is_terminal():
                break
            action = rng.choice([rng.randrange(-5, 80), rng.randrange(72), 2**65, -(2**65)])
            legal = state.is_legal(action)
            if legal:
                state.apply(action)
            else:
                with pytest.raises(ValueError):
                    state.apply(action)
            if rng.random() < 0.01:
                native.from_dict(state.to_dict())  # every position reached loads back


# -- playouts, clones, engine ----------------------------------------------------------------------
@pytest.mark.parametrize("num_players", PLAYERS)
def test_playouts_match(num_players):
    python, native = rules()
    for seed in range(4):
        options = {"hide_opponent_hands": seed == 1, "style_either_direction": seed == 2}
        p = python.new_state(num_players, seed=seed, **options)
        n = native.new_state(num_players, seed=seed, **options)
        assert n.playout(seed=seed + 10) == p.playout(seed=seed + 10)
        assert snapshot_text(n) == snapshot_text(p)
        assert n.returns() == p.returns() and n.winners() == p.winners()
        assert n.scores() == p.scores()


def test_playout_depth_and_midgame_start():
    python, native = rules()
    p = advance(python.new_state(3, seed=4), 50, 4)
    n = native.from_reference(p)
    assert n.playout(seed=2**70, depth=17) == p.playout(seed=2**70, depth=17) == 17
    assert snapshot_text(n) == snapshot_text(p)
    assert n.playout(depth=0, seed=3) == p.playout(depth=0, seed=3)
    assert snapshot_text(n) == snapshot_text(p)
    assert n.playout(seed=1) == 0
    with pytest.raises(InvalidConfigError):
        n.playout(depth=-1)
    with pytest.raises(InvalidConfigError):
        n.playout(policy="greedy")


def test_clone_is_independent():
    _, native = rules()
    state = advance(native.new_state(3, seed=9), 40, 9)
    copy_ = state.clone()
    before = snapshot_text(state)
    copy_.playout(seed=0)
    assert copy_.is_terminal() and snapshot_text(state) == before
    view = state.view(state.current_player)
    observation = view.observation()
    state.playout(seed=1)
    assert view.observation().tobytes() == observation.tobytes()  # the view keeps its position


def test_instant_victory_scores_and_returns():
    python, native = rules()
    # A seat one recipe short of 10 completes its 10th: only the winner ranks.
    from tests.wasabi.helpers import table

    state = table(
        2,
        board={(0, 0): "Salmon"},
        hands={0: "Rice"},
        menus={0: ["Salmon Nigiri"]},
        completed_lengths={0: [2, 2, 2, 3, 3, 3, 4, 4, 5], 1: [2, 2, 2, 2, 3, 3, 3, 4, 4]},
        cubes={1: 30},
    )
    n = native.from_reference(state)
    from tests.wasabi.helpers import CELL, KIND

    for engine_state in (state, n):
        engine_state.apply(KIND("Rice"))
        engine_state.apply(CELL(0, 1))
    assert n.is_terminal() and n.winners() == state.winners() == [0]
    assert n.returns() == state.returns() and n.scores() == state.scores()
    assert snapshot_text(n) == snapshot_text(state)


def test_the_native_engine_is_selected():
    assert engine_info()["engines"]["wasabi"] == "native"
    _, native = rules()
    assert native.engine == "native" and native.new_state(2, seed=0).engine == "native"
    state = native.new_state(2, seed=0)
    assert "give" in state.describe_action(45) and state.render_text()
    with pytest.raises(IllegalActionError):
        state.apply(0)


def test_position_builder_loads_natively():
    python, native = rules()
    kwargs = dict(board={0: [2], 8: [3, 0]}, tiles={0: [0, 1]}, menus={0: [0, None, 30]})
    p = python.position(2, **kwargs)
    n = native.position(2, **kwargs)
    assert n.engine == "native" and snapshot_text(n) == snapshot_text(p)


def test_snapshot_json_round_trip():
    _, native = rules()
    state = advance(native.new_state(4, seed=2, hide_opponent_hands=True), 120, 2)
    again = native.from_json(state.to_json())
    assert snapshot_text(again) == snapshot_text(state)
    assert json.loads(state.to_json()) == state.to_dict()


def test_determinizations_of_native_views_match():
    """``sample_state`` of a native view is the Python engine's sample of the same view."""
    from tests.native.lockstep import assert_same_view

    python, native = rules()
    count = 0
    for seed in range(3):
        n = PLAYERS[seed]
        options = {"hide_opponent_hands": seed != 1}
        p = python.new_state(n, seed=seed, **options)
        s = native.new_state(n, seed=seed, **options)
        moves = random.Random(seed)
        while not p.is_terminal():
            if moves.random() < 0.05:
                seat = moves.randrange(n)
                a = native.sample_state(s.view(seat), np.random.default_rng(count))
                b = python.sample_state(p.view(seat), np.random.default_rng(count))
                assert a.engine == "native" and snapshot_text(a) == snapshot_text(b)
                assert_same_view(b.view(seat), a.view(seat))
                count += 1
            action = moves.choice(p.legal_actions())
            p.apply(action)
            s.apply(action)
    assert count > 20
