"""Hidden information stays hidden; clone and JSON copies continue identically."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.testing import check_continuations, check_hidden_information, play_trace
from boardgame_envs.factors_multiples.rules import State
from tests.factors_multiples.helpers import HAS_NATIVE, RULES, rules_for


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """Reshuffle what ``seat`` cannot know among the places that hold it: the other seats'
    hand cards it has not seen shown, every draw pile, the hidden discard (less its own
    discards), and the match seed (later rounds' shuffles)."""
    other = state.clone()
    slots: list[tuple[list[int], int]] = []  # (zone, index) of every unknown card
    for s in range(state.num_players):
        if s != seat:
            slots += [
                (other.hands[s], i)
                for i, c in enumerate(other.hands[s])
                if c not in state.reveals[s]
            ]
        slots += [(other.piles[s], i) for i in range(len(other.piles[s]))]
    own = set(state.own_discards[seat])
    slots += [(other.hidden_discard, i) for i, c in enumerate(other.hidden_discard) if c not in own]
    pool = [zone[i] for zone, i in slots]
    rng.shuffle(pool)
    for (zone, i), card in zip(slots, pool):
        zone[i] = card
    for hand in other.hands:
        hand.sort()
    other.seed = int(rng.integers(2**63))
    return other


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observation_ignores_what_the_seat_cannot_know(num_players):
    rng = np.random.default_rng(num_players)
    for seed in range(8):
        state = RULES.new_state(num_players, seed=seed)
        for _ in range(150):
            if state.is_terminal():
                break
            for seat in range(num_players):
                check_hidden_information(state, seat, resample_hidden, rng, tries=1)
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.native
@pytest.mark.skipif(not HAS_NATIVE, reason="factors_multiples is not compiled")
@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_native_observation_ignores_what_the_seat_cannot_know(num_players):
    """The compiled engine's observation of a seat equals the reference's of every
    resampling of what the seat cannot know (resampled on the reference)."""
    native_rules = rules_for("native")
    rng = np.random.default_rng(num_players + 10)

    def resample_on_the_reference(state, seat, rng):
        return resample_hidden(state.to_reference(), seat, rng)

    for seed in range(3):
        state = native_rules.new_state(num_players, seed=seed)
        for step in range(120):
            if state.is_terminal():
                break
            if step % 3 == 0:
                for seat in range(num_players):
                    check_hidden_information(state, seat, resample_on_the_reference, rng, tries=1)
            state.apply(int(rng.choice(state.legal_actions())))


def test_resampling_really_changes_hidden_cards():
    """Guard for the test above: the resampler moves cards the seat cannot see."""
    state = RULES.new_state(4, seed=0)
    other = resample_hidden(state, 0, np.random.default_rng(1))
    assert other.piles != state.piles and other.hands[0] == state.hands[0]


def test_observation_changes_with_the_seats_own_cards():
    state = RULES.new_state(3, seed=2)
    seat = state.current_player
    other = state.clone()
    mine = other.hands[seat][0]
    pile = other.piles[(seat + 1) % 3]
    index = next(i for i, c in enumerate(pile) if c // 4 != mine // 4)  # another rank
    other.hands[seat][0], pile[index] = pile[index], mine
    other.hands[seat].sort()
    assert not np.array_equal(state.view(seat).observation(), other.view(seat).observation())


@pytest.mark.native
@pytest.mark.skipif(not HAS_NATIVE, reason="factors_multiples is not compiled")
def test_native_observation_changes_with_the_seats_own_cards():
    native_rules = rules_for("native")
    state = native_rules.new_state(3, seed=2)
    seat = state.current_player
    other = state.to_reference()
    mine = other.hands[seat][0]
    pile = other.piles[(seat + 1) % 3]
    index = next(i for i, c in enumerate(pile) if c // 4 != mine // 4)  # another rank
    other.hands[seat][0], pile[index] = pile[index], mine
    other.hands[seat].sort()
    changed = native_rules.from_position(other)
    assert not np.array_equal(state.view(seat).observation(), changed.view(seat).observation())


def test_view_holds_no_hidden_fact(engine):
    state = rules_for(engine).new_state(3, seed=4)
    view = state.view(0)
    fields = set(view.__dataclass_fields__) | set(getattr(view, "__dict__", ()))  # slotted
    assert not fields & {"piles", "hands", "hidden_discard", "seed"}
    assert view.hand == tuple(state.hands[0])


@pytest.mark.parametrize("num_players, at_step", [(2, 0), (3, 37), (4, 120), (5, 250)])
def test_clone_and_json_copy_continue_identically(num_players, at_step, engine):
    check_continuations(rules_for(engine), num_players, seed=num_players * 17, at_step=at_step)


def test_clone_is_independent(engine):
    state = rules_for(engine).new_state(2, seed=3)
    clone = state.clone()
    play_trace(clone, 50, seed=0)
    assert state.to_json() == rules_for(engine).new_state(2, seed=3).to_json()


def test_memoised_mask_equals_a_fresh_one_through_clones_and_snapshots(engine):
    rng = np.random.default_rng(5)
    for seed in range(6):
        state = rules_for(engine).new_state(2 + seed % 4, seed=seed)
        while not state.is_terminal():
            fresh = state._compute_mask()
            assert np.array_equal(state.legal_action_mask(), fresh)
            assert np.array_equal(state.clone().legal_action_mask(), fresh)
            assert np.array_equal(
                rules_for(engine).from_json(state.to_json()).legal_action_mask(), fresh
            )
            handed_out = state.legal_action_mask()
            handed_out[:] = False  # a copy: the memo is untouched
            assert np.array_equal(state.legal_action_mask(), fresh)
            state.apply(int(rng.choice(state.legal_actions())))
