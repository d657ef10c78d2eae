"""Hidden information stays hidden; clone and JSON copies continue identically."""

from __future__ import annotations

import numpy as np
import pytest

from boardgame_envs.core.testing import check_continuations, check_hidden_information, play_trace
from boardgame_envs.cornucopia import encoding as enc
from boardgame_envs.cornucopia.data import BLUE, BLUE_PER_YELLOW, STAKES, YELLOW
from boardgame_envs.cornucopia.rules import BET, CARD, NO, YES, State
from tests.cornucopia.helpers import EXAMPLE_2, RULES, bet, bid, table

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def resample_hidden(state: State, seat: int, rng: np.random.Generator) -> State:
    """Change what ``seat`` cannot know: the deck order, the seed of later reshuffles, and
    the side and stake of every other seat's bet that is not yet revealed."""
    if state.engine == "native":  # resampled on the reference's fields, loaded back
        return state.rules.from_reference(resample_hidden(state.to_reference(), seat, rng))
    other = state.clone()
    rng.shuffle(other.deck)
    other.seed = int(rng.integers(2**62))
    if not other.bets_revealed:
        for s, b in enumerate(other.bets):
            if b is not None and s != seat:
                chips = other.chips[s]
                funds = chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW]
                stakes = [x for x in STAKES if x <= funds]
                other.bets[s] = [int(rng.integers(2)), int(rng.choice(stakes))]
    return other


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observation_ignores_what_the_seat_cannot_know(num_players, engine):
    rng = np.random.default_rng(num_players)
    # Fewer games on the native engine: its resampling goes through two snapshot loads.
    for seed in range(6 if engine == "python" else 2):
        state = RULES.new_state(num_players, seed=seed)
        for _ in range(120):
            if state.is_terminal():
                break
            for seat in range(num_players):
                check_hidden_information(state, seat, resample_hidden, rng, tries=1)
            state.apply(int(rng.choice(state.legal_actions())))


def test_resampling_really_changes_hidden_facts():
    """Guard for the test above: the resampler changes the deck and a secret bet."""
    state = table(EXAMPLE_2, n=4, deck="P")
    bid(state, 6)
    bet(state, "YES", 1)
    bet(state, "YES", 1)
    assert state.phase == BET
    rng = np.random.default_rng(0)
    changed = [resample_hidden(state, 3, rng) for _ in range(10)]
    assert any(o.deck != state.deck for o in changed)
    assert any(o.bets[1] != state.bets[1] for o in changed)


def bet_fields(state: State, observer: int, seat: int) -> list[float]:
    obs = state.view(observer).observation()
    base = enc.SEATS + enc.SEAT_SIZE * ((seat - observer) % state.num_players)
    return obs[base + enc.COMMITTED : base + enc.STAKE + 1].tolist()


def test_bets_are_secret_until_reveal_then_public_until_settlement():
    state = table(EXAMPLE_2, n=3, deck="E P")
    bid(state, 2)
    bet(state, "NO", 3)  # seat 1
    assert bet_fields(state, 1, 1) == [1, 0, 1, 1]  # its own: side and stake
    assert bet_fields(state, 2, 1) == [1, 0, 0, 0]  # another seat: committed only
    assert bet_fields(state, 0, 1) == [1, 0, 0, 0]
    assert state.view(2).bets[1] is None and state.view(1).bets[1] == (NO, 3)
    # Chip counts do not give the stake away: it leaves the hand only at REVEAL.
    assert state.view(2).chips[1] == (0, 3, 2)
    bet(state, "YES", 1)  # seat 2: REVEAL
    assert state.phase == CARD
    assert bet_fields(state, 0, 1) == [1, 0, 1, 1]
    assert bet_fields(state, 1, 2) == pytest.approx([1, 1, 0, 1 / 3])
    state.apply(12)  # E into B0, k = 1 of 2
    state.apply(15)  # P into B3: SUCCESS, settled
    assert bet_fields(state, 0, 1) == [0, 0, 0, 0] and bet_fields(state, 0, 2) == [0, 0, 0, 0]


def test_observation_changes_with_the_seats_own_bet():
    state = table(EXAMPLE_2, n=3, deck="E")
    bid(state, 2)
    bet(state, "NO", 3)
    data = state.to_dict()
    data["bets"][1] = [YES, 3]
    other = RULES.from_dict(data)
    assert not np.array_equal(state.view(1).observation(), other.view(1).observation())
    assert np.array_equal(state.view(2).observation(), other.view(2).observation())


def test_view_holds_no_hidden_fact():
    state = RULES.new_state(3, seed=4)
    view = state.view(0)
    fields = set(view.__dataclass_fields__)
    assert not fields & {"deck", "seed", "shuffles", "bet_order"}
    assert view.deck_size == 56 and sum(view.deck_counts) == 56


@pytest.mark.parametrize(
    "num_players, at_step", [(2, 0), (3, 37), (4, 90), (5, 150), (2, 200), (3, 250)]
)
def test_clone_and_json_copy_continue_identically(num_players, at_step):
    check_continuations(RULES, num_players, seed=num_players * 17 + at_step, at_step=at_step)


def test_clone_and_json_copy_continue_identically_with_the_variant():
    state = RULES.new_state(4, seed=9, variant_red3=True)
    play_trace(state, 60, seed=1)
    clone, copy = state.clone(), RULES.from_json(state.to_json())
    original = play_trace(state, 10_000, seed=2)
    assert play_trace(clone, 10_000, seed=2) == original
    assert play_trace(copy, 10_000, seed=2) == original


def test_clone_is_independent():
    state = RULES.new_state(2, seed=3)
    clone = state.clone()
    play_trace(clone, 80, seed=0)
    assert state.to_json() == RULES.new_state(2, seed=3).to_json()


def test_json_round_trip_of_a_finished_game():
    state = RULES.new_state(2, seed=8)
    play_trace(state, 10_000, seed=8)
    assert state.is_terminal()
    copy = RULES.from_json(state.to_json())
    assert copy.to_json() == state.to_json() and copy.scores() == state.scores()
    assert copy.winners() == state.winners()
