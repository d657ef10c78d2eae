"""``rules.sample_state(view, rng)``: a full state drawn from what one seat knows.

Hidden from both seats (spec §7): the order of the draw stack and the kinds of the
face-down wall tiles on the stocked corners and in the box. Everything else, the castle
included, is public and must come back exactly.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from boardgame_envs import make_rules
from boardgame_envs.carcassonne_castle.castle import Castle
from boardgame_envs.carcassonne_castle.data import NUM_STOCKED, WALL_TILES
from boardgame_envs.carcassonne_castle.rules import GAME_OVER, PHASES, State
from boardgame_envs.core.native import native_games
from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
    play_trace,
)
from tests.carcassonne_castle.helpers import RULES, position
from tests.carcassonne_castle.test_hidden_and_snapshots import resample_hidden
from tests.carcassonne_castle.test_playouts import INVARIANTS, public_fields_match_a_rebuild
from tests.native.lockstep import continue_lockstep

#: the samples' cached view tuples must also equal a rebuild (they come from the template)
SAMPLE_INVARIANTS = (*INVARIANTS, public_fields_match_a_rebuild)


def with_hidden_facts_of(sample: State, state: State) -> State:
    """A clone of ``state`` with ``sample``'s stack order and face-down wall tiles."""
    twin = state.clone()
    twin.stack, twin.corners, twin.boxed = list(sample.stack), sample.corners[:], sample.boxed[:]
    return twin


def positions(seeds, rate: float, options: dict | None = None):
    """Positions of seeded random games: a share ``rate`` of the PLACE and FOLLOWER ones,
    every ORDER, DOUBLE and EXTRA one (they are rare), and the end."""
    for seed in seeds:
        state = RULES.new_state(2, seed=seed, **(options or {}))
        rng = np.random.default_rng(seed)  # as test_json_round_trip_in_every_phase
        pick = np.random.default_rng(seed + 50_000)
        while True:
            if state.is_terminal() or state.phase in ("ORDER", "DOUBLE", "EXTRA"):
                yield seed, state
            elif pick.random() < rate:
                yield seed, state
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))


# seeds 17, 18 and 32 reach ORDER, EXTRA and DOUBLE decisions (test_hidden_and_snapshots)
GAMES = [(seed, None) for seed in (17, 18, 32, 0, 1, 2, 5, 6, 7, 8)] + [
    (3, {"keep_bonus_tiles": 2, "wall9_points": 0}),
    (4, {"keep_bonus_tiles": 0, "wall9_points": 11}),
]


def test_samples_show_every_seat_its_view_in_every_phase():
    phases: Counter[str] = Counter()
    checked = played = 0
    for seed, options in GAMES:
        for _, state in positions([seed], rate=0.2, options=options):
            for seat in (0, 1):
                play = checked % 4 == 0
                where = 10_000 * seed + checked
                sample = check_determinization(state, seat, where, SAMPLE_INVARIANTS, play)
                # the hidden parts are rearranged, never changed in kind or number
                assert sorted(sample.stack) == sorted(state.stack)
                assert [bool(k) for k in sample.corners] == [bool(k) for k in state.corners]
                assert sorted(sample.corners + sample.boxed) == sorted(state.corners + state.boxed)
                # and everything else is the original's, down to the last snapshot field
                assert with_hidden_facts_of(sample, state).to_json() == sample.to_json()
                checked += 1
                played += play
            phases[state.phase] += 1
    assert set(phases) == {*PHASES, GAME_OVER}, phases
    assert checked >= 500 and played >= 125, (checked, played)


def test_samples_depend_on_the_view_only():
    rng = np.random.default_rng(7)
    changed = 0
    for n, (seed, state) in enumerate(positions(range(40, 46), rate=0.15)):
        for seat in (0, 1):
            other = resample_hidden(state, seat, rng)
            changed += other.stack != state.stack or other.corners != state.corners
            check_sample_reads_view_only(state, other, seat, seed=100 * seed + n)
    assert changed >= 100  # the resampler really changed hidden facts


def test_same_view_same_rng_same_sample_and_other_seeds_differ():
    state = RULES.new_state(2, seed=5)
    play_trace(state, 30, seed=5)
    view = state.view(1)
    first = RULES.sample_state(view, np.random.default_rng(3)).to_json()
    assert RULES.sample_state(view, np.random.default_rng(3)).to_json() == first
    # a fresh view of the same position (no cached template) gives the same sample
    assert RULES.sample_state(state.view(1), np.random.default_rng(3)).to_json() == first
    others = {RULES.sample_state(view, np.random.default_rng(s)).to_json() for s in range(20)}
    assert len(others) == 20


def _spread(samples: list[State], where) -> Counter:
    """How often each (place, kind) occurs among ``samples``; ``where(state)`` lists the
    (place, kind) pairs of one state."""
    counts: Counter = Counter()
    for sample in samples:
        counts.update(where(sample))
    return counts


def _within(observed: int, n: int, p: float, where: str) -> None:
    """``observed`` of ``n`` Bernoulli(p) trials, within 5 standard deviations."""
    sigma = (n * p * (1 - p)) ** 0.5
    assert abs(observed - n * p) <= 5 * sigma + 1, f"{where}: {observed} of {n}, p = {p:.3f}"


def test_every_unseen_tile_lands_in_every_stack_position():
    state = RULES.new_state(2, seed=9)
    play_trace(state, 50, seed=9)
    view = state.view(0)
    size, counts = view.stack_size, view.stack_counts
    assert size >= 20
    n = 3000
    rng = np.random.default_rng(11)
    samples = [RULES.sample_state(view, rng) for _ in range(n)]
    spread = _spread(samples, lambda s: enumerate(s.stack))
    for position_ in range(size):
        for tile, copies in enumerate(counts):
            if copies:
                observed = spread[(position_, tile)]
                assert observed > 0, (position_, tile)
                _within(observed, n, copies / size, f"tile {tile} at stack position {position_}")
            else:
                assert spread[(position_, tile)] == 0
    # the order varies as a whole, not only its top
    assert len({tuple(s.stack) for s in samples}) == n


def test_every_unseen_wall_tile_lands_on_every_stocked_corner_and_in_the_box():
    state = RULES.new_state(2, seed=1)
    view = state.view(1)
    assert sum(view.stocked) == NUM_STOCKED
    n = 3000
    rng = np.random.default_rng(12)
    samples = [RULES.sample_state(view, rng) for _ in range(n)]

    def places(sample: State):
        for corner, kind in enumerate(sample.corners):
            yield corner, kind
        for kind in sample.boxed:
            yield "box", kind

    spread = _spread(samples, places)
    for kind in range(1, 10):
        for corner in range(NUM_STOCKED):
            _within(spread[(corner, kind)], n, 2 / 18, f"kind {kind} on corner C{corner + 1}")
        # 5 box places, each holding ``kind`` with probability 2/18
        assert spread[("box", kind)] > 0
        assert abs(spread[("box", kind)] - 5 * n * 2 / 18) <= 5 * (5 * n * 2 / 18) ** 0.5


def test_seen_wall_tiles_are_never_dealt_and_taken_corners_stay_empty():
    """Kind 1: one copy held by seat 0, one used by seat 1; kind 2: one held, one unseen.
    Only C1, C5, C9 are stocked."""
    state = position(
        ("T18", 0, (4, 0)), tile="T35", corners={1: 4, 5: 3, 9: 9}, held=([1, (2, 3)], [1])
    )
    state.held[1].clear()
    state.used.append([1, 1])
    state._changed_public()
    state._check()
    view = state.view(0)
    unseen = Counter(WALL_TILES) - Counter([1, 1, 2])
    rng = np.random.default_rng(13)
    on_corner: Counter = Counter()
    in_box: Counter = Counter()
    for _ in range(600):
        sample = RULES.sample_state(view, rng)
        assert [bool(k) for k in sample.corners] == list(view.stocked)
        assert Counter(k for k in sample.corners if k) + Counter(sample.boxed) == unseen
        assert sample.held == [[[1, 0], [2, 3]], []] and sample.used == [[1, 1]]
        on_corner.update((corner, kind) for corner, kind in enumerate(sample.corners) if kind)
        in_box.update(sample.boxed)
    stocked = {0, 4, 8}
    assert {corner for corner, _ in on_corner} == stocked
    for kind in unseen:  # the kinds with an unseen copy (a Counter drops zeros)
        for corner in stocked:
            assert on_corner[(corner, kind)] > 0, (corner, kind)
        assert in_box[kind] > 0, kind
    assert on_corner[(0, 2)] < on_corner[(0, 3)]  # one unseen copy of kind 2, two of kind 3
    assert not any(kind == 1 for _, kind in on_corner) and in_box[1] == 0


def _mutables(obj, seen: dict[int, object], depth: int = 0) -> None:
    """Every mutable container reachable from ``obj`` (lists, dicts, sets, arrays, numpy
    arrays, castles, memoryviews), by id."""
    if depth > 8 or isinstance(obj, (str, bytes, int, float, bool, type(None))):
        return
    if isinstance(obj, (list, dict, set, bytearray, np.ndarray, memoryview, Castle)) or (
        type(obj).__name__ == "array"
    ):
        if id(obj) in seen:
            return
        seen[id(obj)] = obj
    if isinstance(obj, dict):
        for key, value in obj.items():
            _mutables(key, seen, depth + 1)
            _mutables(value, seen, depth + 1)
    elif isinstance(obj, (list, tuple, set)):
        for item in obj:
            _mutables(item, seen, depth + 1)
    elif isinstance(obj, Castle):
        for name in Castle.__slots__:
            _mutables(getattr(obj, name, None), seen, depth + 1)


def _state_mutables(state: State) -> dict[int, object]:
    seen: dict[int, object] = {}
    _mutables({k: v for k, v in vars(state).items() if k != "rules"}, seen)
    return seen


def _view_mutables(view) -> dict[int, object]:
    seen: dict[int, object] = {}
    for name in view.__dataclass_fields__:
        if name != "rules":
            _mutables(getattr(view, name), seen)
    return seen


@pytest.mark.parametrize("steps", [0, 41, 77, 500])
def test_a_sample_shares_no_mutable_object_with_the_view_or_the_state(steps):
    state = RULES.new_state(2, seed=21)
    play_trace(state, steps, seed=21)
    for seat in (0, 1):
        state.view(seat).castle.arrays()  # fill the castle's lazy numpy views too
        view = state.view(seat)
        sample = RULES.sample_state(view, np.random.default_rng(seat))
        sample.castle.arrays()
        mine = _state_mutables(sample)
        assert len(mine) > 30  # the walk really finds the sample's lists and buffers
        for other in (_state_mutables(state), _view_mutables(view)):
            shared = mine.keys() & other.keys()
            assert not shared, [type(mine[i]).__name__ for i in shared]
        assert sample.castle is not view.castle and sample.castle == view.castle


def test_samples_the_original_and_the_view_never_change_each_other():
    """The castle is copied once per view and shared copy-on-write by its samples: playing
    on any of them (or on the original) leaves the others as they were."""
    state = RULES.new_state(2, seed=23)
    play_trace(state, 60, seed=23)
    seat = state.current_player
    view = state.view(seat)
    observation = view.observation()
    original = state.to_json()
    a = RULES.sample_state(view, np.random.default_rng(1))
    b = RULES.sample_state(view, np.random.default_rng(2))
    a_json, b_json = a.to_json(), b.to_json()
    assert a.castle is b.castle  # shared until one of them changes it
    play_trace(a, 40, seed=3)
    assert a.castle is not b.castle and a.castle != b.castle
    assert b.to_json() == b_json and state.to_json() == original
    assert np.array_equal(view.observation(), observation)
    # the original moves on with its live board, which the view reads: samples keep theirs
    play_trace(state, 40, seed=4)
    assert b.to_json() == b_json
    assert np.array_equal(b.view(seat).observation(), observation)
    c = RULES.sample_state(view, np.random.default_rng(1))  # the template kept its copy
    assert c.to_json() == a_json
    play_trace(b, 1000, seed=5)
    assert b.is_terminal() and c.to_json() == a_json


def test_a_sample_plays_on_like_the_hidden_order_it_drew():
    """A sample is a real state: its own stack decides its draws, exactly like the
    original's decides the original's when the two agree on the hidden facts."""
    state = RULES.new_state(2, seed=27)
    play_trace(state, 35, seed=27)
    sample = RULES.sample_state(state.view(0), np.random.default_rng(0))
    twin = with_hidden_facts_of(sample, state)
    assert twin.to_json() == sample.to_json() != state.to_json()
    assert play_trace(twin, 1000, seed=8) == play_trace(sample, 1000, seed=8)


def test_views_compare_castles_by_their_board():
    state = RULES.new_state(2, seed=2)
    castle = state.castle.clone()
    assert castle == state.castle and castle is not state.castle
    state.apply(state.legal_actions()[0])
    assert castle != state.castle
    with pytest.raises(TypeError):
        hash(castle)
    view = state.view(0)
    assert_views_equal(RULES.sample_state(view, np.random.default_rng(0)).view(0), view)


def test_sample_state_refuses_another_games_view():
    other = make_rules("cornucopia").new_state(2, seed=0)
    with pytest.raises(TypeError):
        RULES.sample_state(other.view(0), np.random.default_rng(0))


def test_the_view_stays_small_enough_to_build_fast():
    """Past 29 attributes CPython stops sharing instance-dict keys and a view costs about
    twice as much to build; a sampled view holds one more (its template)."""
    view = RULES.new_state(2, seed=0).view(0)
    assert len(view.__dataclass_fields__) + 1 <= 29
    RULES.sample_state(view, np.random.default_rng(0))
    assert len(vars(view)) <= 29


@pytest.mark.skipif(
    "carcassonne_castle" not in native_games(), reason="carcassonne_castle is not compiled"
)
def test_native_views_give_the_python_views_samples():
    """A native view (its castle and record rebuilt from the compiled position) holds all the
    determinizer reads: the same rng gives the same sample as from the Python view, on the
    native engine, and it plays on like the Python one."""
    native_rules = make_rules("carcassonne_castle", engine="native")
    checked = 0
    for seed, state in positions((17, 18, 32), rate=0.04):
        native = native_rules.from_reference(state)
        for seat in (0, 1):
            expected = RULES.sample_state(state.view(seat), np.random.default_rng(seat + seed))
            sample = native_rules.sample_state(
                native.view(seat), np.random.default_rng(seat + seed)
            )
            assert sample.engine == "native" and sample.to_json() == expected.to_json()
            checked += 1
        if checked % 10 == 0:
            continue_lockstep(expected, sample, seed, views_every=10, max_steps=20)
    assert checked >= 40
