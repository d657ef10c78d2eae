"""Carcassonne: The Castle: the compiled engine against the Python engine (the reference).

Lockstep games over every option value (one player count: 2), the rare phases (ORDER, DOUBLE,
EXTRA) included, snapshots crossing over both ways, the same errors for bad actions, seats,
options and snapshots, random playouts, clones, and fuzzed snapshots and actions fed straight
to the compiled class (refused or played, never a crash)."""

from __future__ import annotations

import copy
import random
from array import array

import numpy as np
import pytest

from boardgame_envs import engine_info
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.carcassonne_castle.castle import Castle
from boardgame_envs.core.native import native_module
from boardgame_envs.core.rules import InvalidStateError
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

GAME = "carcassonne_castle"
pytestmark = native_marks(GAME)

#: Every option at its bounds and its default (and both together).
OPTIONS = [
    {},
    {"keep_bonus_tiles": 0},
    {"keep_bonus_tiles": 76},
    {"wall9_points": 0},
    {"wall9_points": 100},
    {"keep_bonus_tiles": 13, "wall9_points": 37},
]
#: Seeds whose games with moves drawn by ``default_rng(seed)`` (as ``State.playout`` draws
#: them) reach ORDER (17), EXTRA (18) and DOUBLE (32) decisions.
RARE_PHASE_SEEDS = (17, 18, 32)


def random_state(seed: int, steps: int, **options):
    """A Python-engine state ``steps`` random moves into a seeded game."""
    python_rules, _ = engines(GAME)
    return advance(python_rules.new_state(2, seed=seed, **options), steps, seed)


def playout_lockstep(seed: int, views_every: int = 3) -> set[str]:
    """Both engines with the moves ``State.playout(seed=seed)`` plays, checked at every step;
    the phases met."""
    python_rules, native_rules = engines(GAME)
    python_state = python_rules.new_state(2, seed=seed)
    native_state = native_rules.new_state(2, seed=seed)
    rng = np.random.default_rng(seed)
    phases = set()
    steps = 0
    while True:
        assert_same_position(python_state, native_state, views=steps % views_every == 0)
        phases.add(python_state.phase)
        if python_state.is_terminal():
            return phases
        legal = python_state.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        python_state.apply(action)
        native_state.apply(action)
        steps += 1


# -- lockstep ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())) or "default"
)
def test_lockstep(options):
    games = 24 if not options else 8
    for seed in range(games):
        play_lockstep(GAME, 2, 7000 + 100 * len(options) + seed, options, views_every=9)


def test_lockstep_reaches_every_phase():
    phases = set()
    for seed in RARE_PHASE_SEEDS:
        phases |= playout_lockstep(seed)
    assert phases == {"PLACE", "FOLLOWER", "ORDER", "DOUBLE", "EXTRA", "GAME_OVER"}


def test_lockstep_with_large_seeds():
    for seed in (2**32, 2**63 - 1, 2**64 + 7, 2**200 + 3):
        play_lockstep(GAME, 2, seed, views_every=15)


@pytest.mark.slow
def test_lockstep_many_games():
    for seed in range(2000):
        play_lockstep(GAME, 2, 90_000 + seed, OPTIONS[seed % len(OPTIONS)], views_every=11)


@pytest.mark.slow
def test_lockstep_many_playout_games():
    for seed in range(300):
        playout_lockstep(seed, views_every=13)


# -- snapshots ---------------------------------------------------------------------------------
def test_snapshots_cross_over():
    for seed in range(30):
        snapshots_cross_over(GAME, 2, 300 + seed, OPTIONS[seed % len(OPTIONS)])


def test_every_phase_loads_natively_and_plays_on():
    """Snapshots of every decision type and of finished games, through the native class."""
    python_rules, native_rules = engines(GAME)
    seen: set[str] = set()
    for seed in RARE_PHASE_SEEDS:
        state = python_rules.new_state(2, seed=seed)
        rng = np.random.default_rng(seed)
        phases = set()  # each phase once a game, played on for a while
        while True:
            if state.phase not in phases:
                phases.add(state.phase)
                native = native_rules.from_reference(state)
                assert snapshot_text(native) == snapshot_text(state)
                assert_same_position(state, native)
                continue_lockstep(state.clone(), native, seed, views_every=9, max_steps=40)
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[int(rng.integers(len(legal)))])
        seen |= phases
    assert seen == {*python_rules.phases, "GAME_OVER"}


def test_snapshot_texts_are_kept_as_written():
    """The event log and the final labels of a snapshot are any texts; kept, then logged on."""
    python_rules, native_rules = engines(GAME)
    state = random_state(4, 30)
    data = state.to_dict()
    data["events"] = ["anything", "", "é ü 🐉", *data["events"]]
    python_state = python_rules.from_dict(data)
    native_state = native_rules.from_dict(data)
    assert snapshot_text(native_state) == snapshot_text(python_state)
    continue_lockstep(python_state, native_state, 4, views_every=10)


def test_invalid_snapshots_raise_the_same_errors():
    python_rules, native_rules = engines(GAME)
    base = random_state(6, 45).to_dict()
    mutations = [
        ("turn", 8.7),
        ("turn", 0),
        ("active", 2),
        ("version", 0),
        ("extra_turn", 0),
        ("tile", 46),
        ("phase", "BIDDING"),
        ("stack", base["stack"][1:]),
        ("supply", [7, 6]),
        ("scores", [-1, 0]),
        ("corners", [0] * 13),
        ("keeps", [[3, [1, 2, 3]], None]),
        ("placements", base["placements"] + [[0, 0, 0, 0]]),
        ("followers", [[0, 0, 0]]),
        ("groups", [[304], []]),
        ("doubling", 316),
        ("final", [[["x", 1]], []]),
        ("events", [1]),
        ("config", {"keep_bonus_tiles": 77}),
        ("game", "wasabi"),
    ]
    for field, value in mutations:
        data = copy.deepcopy(base)
        data[field] = value
        same_errors(
            lambda d=data: python_rules.from_dict(d), lambda d=data: native_rules.from_dict(d)
        )
        with pytest.raises(InvalidStateError):
            native_rules.from_dict(data)
    for data in ({k: v for k, v in base.items() if k != "turn"}, {**base, "extra": 1}, [], None):
        same_errors(
            lambda d=data: python_rules.from_dict(d), lambda d=data: native_rules.from_dict(d)
        )


# -- errors ------------------------------------------------------------------------------------
BAD_ACTIONS = [*bad_actions(326), np.uint8(250)]


def test_illegal_actions_raise_the_same_errors_and_change_nothing():
    _, native_rules = engines(GAME)
    for seed, steps in ((0, 0), (1, 1), (2, 7), (3, 30), (4, 10**6)):
        state = random_state(seed, steps)
        native = native_rules.from_reference(state)
        legal = set(state.legal_actions())
        illegal = [a for a in range(326) if a not in legal]
        candidates = random.Random(seed).sample(illegal, 12) + BAD_ACTIONS
        candidates += [np.int64(a) for a in illegal[:3]] + [np.array(a) for a in illegal[-3:]]
        before = snapshot_text(state)
        for action in candidates:
            same_errors(lambda a=action: state.apply(a), lambda a=action: native.apply(a))  # noqa: B023
            assert snapshot_text(state) == before and snapshot_text(native) == before
        assert_same_position(state, native, views=False)
        if legal:  # legal actions as numpy integers and 0-d arrays are accepted alike
            action = sorted(legal)[0]
            python_copy, native_copy = state.clone(), native.clone()
            python_copy.apply(np.int32(action))
            native_copy.apply(np.array(action))
            assert snapshot_text(python_copy) == snapshot_text(native_copy)


@pytest.mark.parametrize("seat", [-1, 2, 5, 2**65, True, False, 1.0, "0", None, np.int64(7)])
def test_bad_seats_raise_the_same_errors(seat):
    python_rules, native_rules = engines(GAME)
    python_state = python_rules.new_state(2, seed=0)
    native_state = native_rules.new_state(2, seed=0)
    same_errors(lambda: python_state.view(seat), lambda: native_state.view(seat))
    same_errors(lambda: python_state.observation(seat), lambda: native_state.observation(seat))


def test_numpy_seats_are_accepted_alike():
    python_rules, native_rules = engines(GAME)
    python_state, native_state = (
        python_rules.new_state(2, seed=0),
        native_rules.new_state(2, seed=0),
    )
    for seat in (np.int64(1), np.uint8(0)):
        assert type(native_state.view(seat).seat) is int
        assert native_state.observation(seat).tobytes() == python_state.observation(seat).tobytes()


@pytest.mark.parametrize(
    "args, options",
    [
        ((1,), {}),
        ((3,), {}),
        ((True,), {}),
        ((2.0,), {}),
        (("2",), {}),
        ((2,), {"keep_bonus": 2}),
        ((2,), {"keep_bonus_tiles": -1}),
        ((2,), {"keep_bonus_tiles": 77}),
        ((2,), {"keep_bonus_tiles": 10**30}),
        ((2,), {"keep_bonus_tiles": True}),
        ((2,), {"keep_bonus_tiles": 2.0}),
        ((2,), {"wall9_points": 101}),
        ((2,), {"wall9_points": "5"}),
        ((2,), {"wall9_points": None}),
        ((2, -1), {}),
        ((2, 1.5), {}),
        ((2, "7"), {}),
        ((2, True), {}),
    ],
)
def test_bad_counts_options_and_seeds_raise_the_same_errors(args, options):
    python_rules, native_rules = engines(GAME)
    same_errors(
        lambda: python_rules.new_state(*args, **options),
        lambda: native_rules.new_state(*args, **options),
    )


def test_seeds_and_options_as_numpy_integers_and_none():
    python_rules, native_rules = engines(GAME)
    a = python_rules.new_state(2, seed=np.int64(9), wall9_points=7)
    b = native_rules.new_state(np.int64(2), seed=np.uint32(9), wall9_points=np.int16(7))
    assert snapshot_text(a) == snapshot_text(python_rules.from_dict(b.to_dict()))
    assert snapshot_text(b) == snapshot_text(a)
    unseeded = native_rules.new_state(2)
    assert snapshot_text(python_rules.from_dict(unseeded.to_dict())) == snapshot_text(unseeded)


def test_the_compiled_class_checks_its_arguments():
    cls = native_module().CarcassonneCastleState
    state = cls.new_state(2, 0)
    for bad in (
        lambda: cls.new_state(3, 0),
        lambda: cls.new_state(2, -1),
        lambda: cls.new_state(2, 2**300),
        lambda: cls.new_state(2, 0, 77),
        lambda: cls.new_state(2, 0, 5, -1),
        lambda: cls.new_state(2, 0, 5, 2**70),
        lambda: cls.new_state(2, "0"),
        lambda: state.observation(2),
        lambda: state.observation(-(2**70)),
        lambda: state.view_fields(2, None, tuple),
        lambda: state.apply(2**80),
        lambda: state.apply(None),
        lambda: state.apply(-1),
        lambda: state.playout(-1, 0),
        lambda: state.playout(0, -1),
        lambda: cls.from_dict(None),
        lambda: cls.from_dict({}),
    ):
        with pytest.raises((ValueError, TypeError, IndexError, KeyError)):
            bad()
    assert not state.is_legal(2**80) and not state.is_legal(-1) and not state.is_legal("1")
    assert not state.is_legal(326) and not state.is_legal(None)


# -- playouts, clones --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 17, 18, 32, 2**64 + 1])
def test_playout_plays_the_same_moves(seed):
    python_rules, native_rules = engines(GAME)
    for depth in (0, 1, 7, 60):
        python_state = python_rules.new_state(2, seed=seed + depth)
        native_state = native_rules.new_state(2, seed=seed + depth)
        played = python_state.playout(seed=seed, depth=depth)
        assert native_state.playout(seed=seed, depth=depth) == played
        assert played == depth or (python_state.is_terminal() and (depth == 0 or played < depth))
        assert_same_position(python_state, native_state, views=depth == 7)
    # from a loaded mid-game position
    state = random_state(seed % 1000, 25)
    native = native_rules.from_reference(state)
    assert native.playout(seed=3) == state.playout(seed=3)
    assert snapshot_text(native) == snapshot_text(state)


def test_clone_is_independent():
    _, native_rules = engines(GAME)
    state = native_rules.new_state(2, seed=11)
    for _ in range(5):
        state.apply(state.legal_actions()[0])
    before = snapshot_text(state)
    copy_ = state.clone()
    copy_.playout(seed=1)
    assert copy_.is_terminal() and snapshot_text(state) == before
    view = state.view(0)
    observation = view.observation()
    state.playout(seed=2)
    assert np.array_equal(view.observation(), observation)  # the view kept its position


def test_engine_info_reports_native():
    assert engine_info()["engines"][GAME] == "native"


def test_native_views_castles_equal_the_reference():
    """The reference Castle a native view rebuilds is the live board, field for field."""
    python_rules, native_rules = engines(GAME)
    state = random_state(12, 70)
    native = native_rules.from_reference(state)
    castle, rebuilt = state.castle, native.view(1).castle
    assert rebuilt == castle
    for name in ("parent", "kind", "open", "count", "size", "seg_at", "root_at", "key", "board"):
        assert getattr(rebuilt, name) == getattr(castle, name), name
    assert rebuilt.num_segments == castle.num_segments and rebuilt.locs == castle.locs


#: Castle attributes that are caches made on first use (None in a fresh castle).
CASTLE_CACHES = ("_arrays", "_parts", "_keys")


def assert_same_castle(expected: Castle, got: Castle) -> None:
    """Every attribute of the Python engine's castle, value and type (arrays by typecode and
    bytes, lists item by item); ``followers`` as a dict (the compiled castle lists them by
    grid position, the Python one by when they were put)."""
    for name in Castle.__slots__:
        if name in CASTLE_CACHES:
            continue
        want, have = getattr(expected, name), getattr(got, name)
        assert type(have) is type(want), (name, type(have), type(want))
        if isinstance(want, array):
            assert have.typecode == want.typecode and have.tobytes() == want.tobytes(), name
        elif isinstance(want, list):
            assert have == want, name
            assert [type(x) for x in have] == [type(x) for x in want], name
            for x, y in zip(have, want, strict=True):
                if isinstance(y, tuple):
                    assert [type(v) for v in x] == [type(v) for v in y], name
        elif isinstance(want, dict):
            assert have == want, name
            assert all(type(k) is int and type(v) is tuple for k, v in have.items()), name
        else:
            assert have == want, name
    for name, view in got.arrays().items():
        other = expected.arrays()[name]
        assert view.dtype == other.dtype and view.shape == other.shape, name
        assert view.tobytes() == other.tobytes(), name
    assert got._keys is None or got._key_view().tobytes() == expected._key_view().tobytes()


@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(map(str, o.items())) or "default"
)
def test_native_castles_equal_the_reference_at_every_step(options):
    """Along lockstep games the castle of the native state and of both its views is the
    Python state's, attribute for attribute; the views of one position share it, a new
    position makes a new one and leaves the old one as it was."""
    python_rules, native_rules = engines(GAME)
    for seed in range(5):
        python_state = python_rules.new_state(2, seed=500 + seed, **options)
        native_state = native_rules.new_state(2, seed=500 + seed, **options)
        moves = random.Random(seed)
        previous = None
        steps = 0
        while True:
            castle = native_state.castle
            assert_same_castle(python_state.castle, castle)
            views = [native_state.view(seat) for seat in range(2)]
            assert views[0].castle is castle and views[1].castle is castle
            if previous is not None:
                old_castle, old_state = previous
                assert old_castle is not castle
                assert_same_castle(old_state.castle, old_castle)  # left as it was
            if python_state.is_terminal():
                break
            steps += 1
            previous = (castle, python_state.clone()) if steps % 10 == 0 else None
            action = moves.choice(python_state.legal_actions())
            python_state.apply(action)
            native_state.apply(action)
        # a snapshot's castle is the reference's rebuild of it
        rebuilt = python_rules.from_dict(python_state.to_dict())
        assert_same_castle(rebuilt.castle, native_rules.from_dict(rebuilt.to_dict()).castle)


def test_native_view_castles_are_made_when_read():
    """A view made before the state's castle was read makes it, and the state then shares
    it; a playout makes the next one afresh."""
    python_rules, native_rules = engines(GAME)
    python_state = random_state(31, 40)
    native_state = native_rules.from_reference(python_state)
    view = native_state.view(native_state.current_player)
    assert_same_castle(python_state.castle, view.castle)
    assert native_state.castle is view.castle
    native_state.playout(seed=5)
    assert native_state.castle is not view.castle
    assert_same_castle(python_state.castle, view.castle)
    assert_same_castle(python_rules.from_dict(native_state.to_dict()).castle, native_state.castle)


def test_heuristic_plays_the_same_moves_on_both_engines():
    """The heuristic reads the native views' castles: the same moves as on the Python
    engine over 30 seeded games."""
    python_rules, native_rules = engines(GAME)
    for seed in range(30):
        states = [rules.new_state(2, seed=seed) for rules in (python_rules, native_rules)]
        agents = [make_agent("heuristic", GAME) for _ in states]
        for agent in agents:
            agent.reset(seed)
        while not states[0].is_terminal():
            moves = [
                agent.act(state.view(state.current_player))
                for agent, state in zip(agents, states, strict=True)
            ]
            assert moves[0] == moves[1], seed
            for state in states:
                state.apply(moves[0])
        assert states[1].is_terminal() and states[1].scores() == states[0].scores()


# -- fuzz: the compiled class never crashes ----------------------------------------------------
JUNK = [None, True, -1, 0, 1, 3, 45, 46, 75, 76, 131, 132, 304, 326, 2**31, 2**63, -(2**64),
        1.5, "x", "PLACE", [], [0], [[0, 0]], {}, {"a": 1}, (1, 2)]  # fmt: skip


def mutate(data, rng: random.Random):
    """A copy of a snapshot with one value somewhere inside replaced, removed or duplicated."""
    data = copy.deepcopy(data)
    path = []
    node = data
    while isinstance(node, (dict, list)) and node and rng.random() < 0.7:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append((node, key))
        node = node[key]
    if not path:
        return data
    parent, key = path[-1]
    roll = rng.random()
    if roll < 0.6:
        parent[key] = rng.choice(JUNK)
    elif roll < 0.75 and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif roll < 0.9:
        del parent[key]
    elif isinstance(node, int) and not isinstance(node, bool):
        parent[key] = node + rng.choice([-1, 1, 60, -60, 2**40])
    return data


def test_fuzzed_snapshots_never_crash_the_compiled_class():
    cls = native_module().CarcassonneCastleState
    rng = random.Random(5)
    sources = [random_state(seed, rng.randrange(0, 160)).to_dict() for seed in range(12)]
    loaded = 0
    for i in range(2500):
        data = mutate(rng.choice(sources), rng)
        if rng.random() < 0.3:
            data = mutate(data, rng)
        try:
            state = cls.from_dict(data)
        except (ValueError, TypeError, IndexError, KeyError, OverflowError):
            continue
        loaded += 1
        # whatever loads plays on without a crash: legal, illegal and absurd actions
        for _ in range(30):
            if state.is_terminal():
                break
            for seat in (0, 1):
                state.observation(seat)
            state.to_dict()
            action = rng.choice([rng.randrange(-3, 330), 2**70, rng.randrange(326)])
            if state.is_legal(action):
                state.apply(action)
            else:
                with pytest.raises((ValueError, TypeError)):
                    state.apply(action)
        state.playout(i, 0)
    assert loaded > 100  # mutations the engine tolerates (texts, counts it does not rely on)


def test_random_actions_on_native_states_never_crash():
    _, native_rules = engines(GAME)
    rng = random.Random(9)
    for seed in range(6):
        state = native_rules.new_state(2, seed=seed)
        native = state._native
        while not state.is_terminal():
            for _ in range(3):
                action = rng.choice([rng.randrange(-5, 340), -(2**63), 2**64, 316, 317])
                if not native.is_legal(action):
                    with pytest.raises((ValueError, TypeError)):
                        native.apply(action)
            state.apply(rng.choice(state.legal_actions()))
        assert not native.legal_mask().any()
