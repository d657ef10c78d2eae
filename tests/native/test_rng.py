"""The native generator against numpy itself: seeding, raw draws, bounded integers, shuffles."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.native import native_module

native = native_module()
pytestmark = [
    pytest.mark.native,
    pytest.mark.skipif(native is None, reason="the native extension is not built"),
]

SEEDS = [0, 1, 2, 7, 42, 2**31 - 1, 2**32 - 1, 2**32, 2**32 + 5, 2**40 + 3, 2**63 - 1, 2**64 - 1]


@pytest.mark.parametrize("seed", SEEDS)
def test_seeding_matches_default_rng(seed):
    reference = np.random.default_rng(seed)
    assert native.Pcg64.from_seed(seed).state == reference.bit_generator.state


@pytest.mark.parametrize("pair", [(0, 0), (5, 3), (2**62 + 9, 17), (2**32, 2**32 + 1)])
def test_seeding_with_a_pair_matches_default_rng(pair):
    reference = np.random.default_rng(pair)
    assert native.Pcg64.from_seed_pair(*pair).state == reference.bit_generator.state


def test_raw_draws_and_the_half_kept_for_the_next_32_bit_draw():
    reference = np.random.default_rng(3)
    rng = native.Pcg64.from_seed(3)
    for _ in range(50):
        assert rng.next_uint64() == reference.bit_generator.random_raw()
    for i in range(101):
        expected = int(reference.integers(2**32, dtype=np.uint64))
        assert rng.integers(2**32) == expected, i
        assert rng.state == reference.bit_generator.state


@pytest.mark.parametrize("seed", range(20))
def test_bounded_integers_match(seed):
    reference = np.random.default_rng(seed)
    rng = native.Pcg64.from_seed(seed)
    for high in [1, 2, 3, 5, 7, 10, 52, 1000, 2**31 + 11, 2**32, 2**32 + 1, 2**40, 2**63]:
        for _ in range(5):
            assert rng.integers(high) == int(reference.integers(high))
    assert rng.state == reference.bit_generator.state


@pytest.mark.parametrize("seed", [0, 5, 2**40 + 3])
def test_random_floats_match_and_keep_the_32_bit_half(seed):
    """rng.random() as numpy draws it, between 32-bit draws: the half of a 64-bit draw that
    integers() keeps for the next 32-bit draw is left for it, as numpy leaves it."""
    reference = np.random.default_rng(seed)
    rng = native.Pcg64.from_seed(seed)
    assert [rng.random() for _ in range(7)] == reference.random(7).tolist()
    for k in range(1, 6):
        assert rng.integers(1000) == int(reference.integers(1000))  # buffers half a draw
        assert [rng.random() for _ in range(k)] == reference.random(k).tolist()
        assert rng.state == reference.bit_generator.state
    assert rng.integers(6) == int(reference.integers(6))
    assert rng.state == reference.bit_generator.state


def test_integers_with_size_draw_one_after_another():
    reference = np.random.default_rng(11)
    rng = native.Pcg64.from_seed(11)
    expected = reference.integers(2**63, size=9).tolist()
    assert [rng.integers(2**63) for _ in range(9)] == expected


@pytest.mark.parametrize("seed", range(20))
def test_permutations_and_shuffles_match(seed):
    reference = np.random.default_rng(seed)
    rng = native.Pcg64.from_seed(seed)
    for n in [0, 1, 2, 3, 13, 52, 100]:
        assert rng.permutation(n) == reference.permutation(n).tolist()
    values = [5, 5, 9, 1, 3, 3, 3, 8, 40, 2]
    assert rng.shuffle(values) == reference.permutation(np.array(values)).tolist()
    assert rng.state == reference.bit_generator.state


def test_a_state_round_trips_through_numpy():
    reference = np.random.default_rng(99)
    reference.integers(2**32, dtype=np.uint64)  # leaves half a draw buffered
    rng = native.Pcg64.from_state(reference.bit_generator.state)
    assert rng.state == reference.bit_generator.state
    assert [rng.integers(6) for _ in range(20)] == reference.integers(6, size=20).tolist()


def test_a_bad_state_is_refused():
    state = np.random.default_rng(1).bit_generator.state
    state["state"]["inc"] = 4
    with pytest.raises(ValueError, match="odd"):
        native.Pcg64.from_state(state)
    state["state"]["inc"] = 2**130 + 1
    with pytest.raises(ValueError, match="2\\*\\*128"):
        native.Pcg64.from_state(state)
