"""Determinization (``rules.sample_state``): a full state drawn from one seat's view.

Positions come from seeded games of two kinds: uniformly random play under a small round limit
(the explore phase, Haumea's departure, depletion, the truncating stop) and a "busy" policy
whose games reach the natural end of the season (end trigger, final turns, unloading), plus
the constructed rare Haumea case (HAUMEA_STEP), which random play almost never reaches.
Every seat is checked at every chosen position, not just the one to move.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from boardgame_envs.core.testing import (
    assert_views_equal,
    check_determinization,
    check_sample_reads_view_only,
    play_trace,
)
from boardgame_envs.tahiti.data import FAVOURITE_SETS, FISHING, NUM_GOODS
from boardgame_envs.tahiti.rules import PHASES, State
from tests.tahiti.helpers import RULES, island
from tests.tahiti.test_examples import example_11_position
from tests.tahiti.test_hidden_and_snapshots import resample_hidden
from tests.tahiti.test_playouts import INVARIANTS, busy_action
from tests.tahiti.test_rules import rare_case_position

GAMES_PER_KIND = 4  # per player count: uniformly random games, and busy games
RANDOM_ROUNDS = 10  # round limit of the uniformly random games
BUSY_ROUNDS = {2: 100, 3: 50, 4: 40}  # round limits of the busy games: above their length
EVERY = 23  # steps between two checked positions of one game
PLAY_TO_END_EVERY = 8  # one (position, seat) pair in 8 also plays its sample on to the end


def positions(num_players: int) -> list[State]:
    """Checked positions of seeded games (copies), the final position of each game included."""
    out = []
    for seed in range(GAMES_PER_KIND):
        for busy in (False, True):
            rounds = BUSY_ROUNDS[num_players] if busy else RANDOM_ROUNDS
            state = RULES.new_state(num_players, seed=100 * num_players + seed, max_rounds=rounds)
            rng = np.random.default_rng(seed)
            step = 0
            left = trigger = False
            while not state.is_terminal():
                # every EVERY-th step, and the first steps after Haumea left / the season ended
                if (
                    step % EVERY == seed % EVERY
                    or (state.haumea < 0 and not left)
                    or (state.end_triggered and not trigger)
                ):
                    out.append(state.clone())
                left, trigger = state.haumea < 0, state.end_triggered
                if busy:
                    state.apply(busy_action(state, rng))
                else:
                    state.apply(int(rng.choice(state.legal_actions())))
                step += 1
            out.append(state)
    return out


@pytest.fixture(scope="module", params=[2, 3, 4])
def played(request) -> list[State]:
    return positions(request.param)


def test_positions_cover_every_phase_and_the_end(played):
    phases = {state.phase for state in played} | {rare_case_position().phase}
    assert phases == set(PHASES)
    assert any(s.end_triggered and not s.is_terminal() for s in played)  # the final round
    assert any(s.is_terminal() and not s.truncated for s in played)  # the season's end
    assert any(s.truncated for s in played)  # the round limit
    assert any(s.haumea < 0 and not s.is_terminal() for s in played)  # Haumea has left
    assert any(s.stacks[0] and s.stacks[1] for s in played)


def test_samples_reproduce_every_seats_view(played):
    n = played[0].num_players
    for i, state in enumerate(played):
        for seat in range(n):
            k = i * n + seat
            check_determinization(
                state, seat, k, INVARIANTS, play_to_end=k % PLAY_TO_END_EVERY == 0
            )


def test_samples_read_the_view_only(played):
    n = played[0].num_players
    rng = np.random.default_rng(n)
    differ = 0
    for i, state in enumerate(played):
        for seat in range(n):
            other = resample_hidden(state, seat, rng)
            a, b = state.to_dict(), other.to_dict()
            del a["rng"], b["rng"]  # the resampler always replaces the generator
            differ += a != b
            check_sample_reads_view_only(state, other, seat, seed=i)
    # besides the generator, the two states differed in favourites, stacks or tokens
    assert differ > len(played)


def test_constructed_positions_and_a_custom_round_limit():
    state = rare_case_position()
    for seat in range(3):
        # no round limit (1000 rounds): one random continuation to the end is enough
        sample = check_determinization(state, seat, seat, INVARIANTS, play_to_end=seat == 0)
        assert sample.phase == "HAUMEA_STEP"
    state = example_11_position()  # stack A empty, one tile left in stack B
    for seat in range(4):
        sample = check_determinization(state, seat, seat, INVARIANTS, play_to_end=False)
        assert sample.stacks == [[], [island("I18")]]
    state = RULES.new_state(3, seed=8, max_rounds=7)
    play_trace(state, 40, seed=2)
    sample = RULES.sample_state(state.view(1), np.random.default_rng(0))
    assert sample.config == state.config == {"max_rounds": 7}
    play_trace(sample, 100_000, seed=3)
    assert sample.truncated and sample.round == 7


def test_bounty_cubes_set_aside_are_kept():
    """A fish drawn before a cube with a choice waits aside (public): the sample keeps it."""
    found = 0
    for seed in range(40):
        state = RULES.new_state(2, seed=seed, max_rounds=6)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if any(state.aside):
                sample = check_determinization(state, 0, seed, INVARIANTS, play_to_end=False)
                assert sample.aside == state.aside and sample.bounty == state.bounty
                found += 1
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if found >= 3:
            break
    assert found >= 3


# -- the hidden parts really vary ---------------------------------------------------------
SAMPLES = 1200


def samples_of(state: State, seat: int, count: int = SAMPLES) -> list[State]:
    rng = np.random.default_rng(seat)
    view = state.view(seat)
    return [RULES.sample_state(view, rng) for _ in range(count)]


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_every_unseen_favourite_lands_with_every_other_seat(num_players):
    state = RULES.new_state(num_players, seed=5)
    seat = 1
    own = state.favourites[seat]
    unseen = sorted(set(FAVOURITE_SETS[num_players]) - {own})
    places = [s for s in range(num_players) if s != seat] + ["unused"] * (num_players == 2)
    counts = Counter()
    for sample in samples_of(state, seat):
        assert sample.favourites[seat] == own
        for s in range(num_players):
            if s != seat:
                counts[sample.favourites[s], s] += 1
        for f in sample.unused_favourites:
            counts[f, "unused"] += 1
    expected = SAMPLES / len(unseen)
    for f in unseen:
        for place in places:
            assert 0.75 * expected < counts[f, place] < 1.25 * expected, (f, place, counts)
    assert sum(counts.values()) == SAMPLES * len(unseen)


@pytest.mark.parametrize("num_players", [2, 3])
def test_stack_order_below_the_tops_is_a_uniform_deal(num_players):
    state = RULES.new_state(num_players, seed=6)
    tops = [stack[0] for stack in state.stacks]
    below = sorted(k for stack in state.stacks for k in stack[1:])
    slots = [(i, j) for i, stack in enumerate(state.stacks) for j in range(1, len(stack))]
    counts = Counter()
    for sample in samples_of(state, 0):
        assert [stack[0] for stack in sample.stacks] == tops
        assert [len(stack) for stack in sample.stacks] == [len(s) for s in state.stacks]
        assert sorted(k for stack in sample.stacks for k in stack[1:]) == below
        for i, j in slots:
            counts[sample.stacks[i][j], i, j] += 1
    expected = SAMPLES / len(below)
    for k in below:
        for i, j in slots:  # every hidden tile in every hidden slot of both stacks
            assert 0.5 * expected < counts[k, i, j] < 1.6 * expected, (k, i, j)


def test_token_order_varies_and_keeps_the_composition():
    state = RULES.new_state(4, seed=7)
    first_fishing = Counter()
    for sample in samples_of(state, 2):
        assert sorted(sample.token_pile) == sorted(state.token_pile)
        for i, kind in enumerate(sample.token_pile):
            first_fishing[i] += kind == FISHING
    # 6 fishing tokens among 18: each position holds one in a third of the samples
    assert all(0.75 * SAMPLES / 3 < first_fishing[i] < 1.25 * SAMPLES / 3 for i in range(18))


def test_future_bag_draws_vary_with_the_bag_counts():
    state = RULES.new_state(2, seed=9)
    play_trace(state, 30, seed=4)
    samples = samples_of(state, 1, count=2000)
    assert len({json_rng(sample) for sample in samples}) == len(samples)
    drawn = Counter(sample._draw(1)[0] for sample in samples)
    bag = state.bag
    for g in range(NUM_GOODS):
        expected = len(samples) * bag[g] / sum(bag)
        assert 0.75 * expected <= drawn[g] <= 1.25 * expected + 1, (g, drawn, bag)


def json_rng(sample: State) -> str:
    return repr(sample.rng.bit_generator.state)


# -- independence ---------------------------------------------------------------------------
MUTABLE = (list, dict, set, bytearray, np.ndarray, np.random.Generator, np.random.BitGenerator)


def mutable_ids(root: object) -> dict[int, str]:
    """Ids of the mutable objects reachable from ``root`` (the rules object excluded)."""
    found: dict[int, str] = {}
    stack = [(root, "root")]
    seen = set()
    while stack:
        obj, path = stack.pop()
        if id(obj) in seen or obj is RULES:
            continue
        seen.add(id(obj))
        if isinstance(obj, MUTABLE):
            found[id(obj)] = path
        if isinstance(obj, dict):
            stack += [(v, f"{path}[{k!r}]") for k, v in obj.items()]
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack += [(v, f"{path}[{i}]") for i, v in enumerate(obj)]
        elif isinstance(obj, np.random.Generator):
            stack.append((obj.bit_generator, f"{path}.bit_generator"))
        elif dataclasses.is_dataclass(obj):
            stack += [(getattr(obj, f.name), f"{path}.{f.name}") for f in dataclasses.fields(obj)]
        elif isinstance(obj, State):
            stack += [(v, f"{path}.{k}") for k, v in vars(obj).items()]
    return found


@pytest.mark.parametrize("num_players, steps", [(2, 0), (3, 60), (4, 200), (2, 500)])
def test_the_sample_shares_no_mutable_object(num_players, steps):
    state = RULES.new_state(num_players, seed=11)
    play_trace(state, steps, seed=5)
    for seat in range(num_players):
        view = state.view(seat)
        before = state.to_json()
        sample = RULES.sample_state(view, np.random.default_rng(seat))
        ours = mutable_ids(sample)
        theirs = {**mutable_ids(view), **mutable_ids(state)}
        shared = [ours[i] for i in ours.keys() & theirs.keys()]
        assert not shared, f"the sample shares {shared}"
        assert set(vars(sample)) == set(vars(state.clone()))  # every attribute of a State
        # playing the sample on (chance included) leaves the view and the state untouched
        play_trace(sample, 300, seed=seat)
        assert state.to_json() == before
        assert_views_equal(state.view(seat), view, "after playing the sample on")
