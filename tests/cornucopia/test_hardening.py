"""Issue 11 for Cornucopia: snapshots are checked in full on loading (A7), handed out as
copies (A8), views refuse seats that do not exist (A9), a finished game keeps no turn
context (B6, observation version 1)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from boardgame_envs import InvalidConfigError, InvalidStateError, game_info
from boardgame_envs.cornucopia import encoding as enc
from boardgame_envs.cornucopia.rules import (
    BET,
    BID,
    CARD,
    END_DECK,
    END_NO_CARDS,
    END_STACKS,
    GAME_OVER,
    PLACE_BASE,
    REDRAW,
    State,
)
from tests.cornucopia.helpers import EXAMPLE_2, RULES, bet, bid, table

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def revealed() -> State:
    """3 players, seat 0 bid 2, seat 1 bet NO 3 and seat 2 YES 1: revealed, phase CARD."""
    state = table(EXAMPLE_2, n=3, deck="E P")
    bid(state, 2)
    bet(state, "NO", 3)
    bet(state, "YES", 1)
    assert state.phase == CARD and state.bet_order == [1, 2]
    return state


def betting() -> State:
    """4 players, seat 0 bid 6, seat 1 bet YES 1; seat 2 to bet (then seat 3)."""
    state = table(EXAMPLE_2, n=4, deck="P")
    bid(state, 6)
    bet(state, "YES", 1)
    assert state.phase == BET and state.current_player == 2
    return state


def finished(seed: int = 8) -> State:
    state = RULES.new_state(2, seed=seed)
    rng = np.random.default_rng(seed)
    while not state.is_terminal():
        state.apply(int(rng.choice(state.legal_actions())))
    return state


def at_bid() -> State:
    state = RULES.new_state(3, seed=5)
    assert state.phase == BID
    return state


def edit(field: str, value: Any) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        data[field] = value

    return change


def edit_at(field: str, index: int, value: Any) -> Callable[[dict], None]:
    def change(data: dict) -> None:
        data[field][index] = value

    return change


def exhausted_twice_without_end(data: dict) -> None:
    data.update(exhaustions=2, shuffles=3, end_pending=False)


def one_more_blue_in_the_bank(data: dict) -> None:
    data["bank"][1] += 1


def one_more_blue_in_a_hand(data: dict) -> None:
    data["chips"][1][1] += 1


def pending_to_the_discard_pile(data: dict) -> None:
    data["discard"].append(data["pending"])
    data["pending"] = None


def one_bettor_less(data: dict) -> None:
    data.update(bet_order=[1], bet_index=1)


def unknown_field(data: dict) -> None:
    data["colour"] = "blue"


def beyond_the_draws(data: dict) -> None:
    """Turn 1 + 20n with only 9 seeding cards dealt: far more turns than cards drawn."""
    data["turn"] += 20 * data["num_players"]


CASES = [
    # The holes the issue names.
    (revealed, edit_at("bets", 1, None), "bets: the bettors"),
    (revealed, edit("placed", 2), "placed: is 2; bid 2 allows 0..1"),
    (revealed, exhausted_twice_without_end, "end_pending: must be True"),
    (revealed, one_more_blue_in_the_bank, "bank: chips in hands"),
    (at_bid, one_more_blue_in_the_bank, "bank: chips in hands"),
    (at_bid, one_more_blue_in_a_hand, "bank: chips in hands"),
    # Types: no coercion; a bool is not an int.
    (at_bid, edit("turn", 8.7), "turn: is 8.7, not an integer"),
    (at_bid, edit("turn", True), "turn: is True, not an integer"),
    (revealed, edit("placed", True), "placed: is True"),
    (revealed, edit("bid", 2.0), "bid: is 2.0, not an integer or null"),
    (at_bid, edit("end_pending", 0), "end_pending: is 0, not true or false"),
    (at_bid, edit_at("deck", 0, 1.0), "deck: .* not an integer"),
    (at_bid, edit_at("chips", 0, [0, 3]), r"chips\[0\]: has 2 entries, not 3"),
    (revealed, edit_at("bets", 1, [1, True]), r"bets\[1\]: .* not an integer"),
    (at_bid, edit("won", None), "won: is None, not a list"),
    (at_bid, edit("log", ["P0 bids 3", 7]), "log: holds a line that is not a string"),
    (at_bid, edit("phase", None), "phase: is None, not a string"),
    (at_bid, edit("num_players", True), "num_players: is True"),
    (at_bid, edit("num_players", 9), "num_players: .*allowed: 2 to 5"),
    (at_bid, edit("config", [1]), "config: is \\[1\\], not a dict"),
    (at_bid, edit("config", {"variant_red3": 1}), "config: .*variant_red3=1 is not allowed"),
    (at_bid, edit("seed", -1), "seed: is -1"),
    (at_bid, edit("seed", 1.5), "seed: is 1.5, not an integer"),
    (at_bid, unknown_field, "unknown field.*'colour'"),
    # The version.
    (at_bid, edit("version", 0), "version: is 0; this is cornucopia version 1"),
    (at_bid, edit("version", "1"), "version: is '1', not an integer"),
    # Seats in range, and the turn order.
    (at_bid, edit("turn_player", 5), "turn_player: is 5, not a seat 0..2"),
    (at_bid, edit("start_player", -1), "start_player: is -1"),
    (at_bid, edit("turn", 2), "turn: turn 2 from start player"),
    (at_bid, edit("turn", 0), "turn: is 0, not 1..121"),
    (at_bid, beyond_the_draws, "turn: turn 61 with 56 cards still in the first deck"),
    (betting, edit("bet_order", [5, 2, 3]), "bet_order: .*a seat outside 0..3"),
    # Deck exhaustions and shuffles go together.
    (at_bid, edit("shuffles", 0), "shuffles: is 0: the setup shuffle"),
    (at_bid, edit("exhaustions", 3), "exhaustions: is 3, not 0, 1 or 2"),
    (at_bid, edit("end_pending", True), "end_pending: must be False"),
    # The phase context.
    (at_bid, edit("phase", "DECLARE"), "phase: DECLARE happens only with variant_red3"),
    (at_bid, edit("phase", CARD), "bid: phase CARD needs"),
    (at_bid, edit("red_used", True), "red_used: a red chip is spent only"),
    (at_bid, edit("declared", 1), "declared: declared red chips exist only"),
    (at_bid, edit("bets_revealed", True), "bets_revealed: bets are revealed exactly"),
    (at_bid, edit("bet_order", [1, 2]), "bet_order: phase BID has no bettors"),
    (revealed, edit("pending", None), "deck, discard, baskets, pending: crop cards per"),
    (revealed, pending_to_the_discard_pile, "pending: a drawn card is pending exactly"),
    (revealed, edit("bet_order", [2, 1]), "bet_order: .*not other seats in clockwise order"),
    (revealed, one_bettor_less, r"bets: the bettors \[1\] hold the revealed bets"),
    (revealed, edit("bet_index", 1), "bet_index: is 1; after REVEAL it is 2"),
    (revealed, edit("bets_revealed", False), "bets_revealed"),
    (revealed, edit("end_reason", END_DECK), "end_reason: is 'deck run out twice' while"),
    (betting, edit("bet_order", [3, 1, 2]), r"bet_order: is \[3, 1, 2\]; the seats able"),
    (betting, edit("bet_order", [1, 3]), r"bet_order: is \[1, 3\]; the seats able"),
    (betting, edit("bet_index", 3), "bet_index: is 3: phase BET with no bettor left"),
    (betting, edit_at("bets", 2, [0, 1]), r"bets: the seats that have bet are \[1\]"),
    (betting, edit_at("bets", 1, None), r"bets: the seats that have bet are \[1\]"),
    # A finished game: no turn context, a real end.
    (finished, edit("placed", 1), "placed: is 1; cards are placed only in phase CARD"),
    (finished, edit("bet_order", [1]), "bet_order: phase GAME_OVER has no bettors"),
    (finished, edit("end_reason", None), "end_reason: is None"),
    (finished, edit("end_reason", END_NO_CARDS), "end_reason: is 'deck and discard"),
    (finished, edit("end_reason", END_STACKS), "end_reason: only .* bid stacks are empty"),
    (finished, edit("end_reason", "bored"), "end_reason: is 'bored'"),
]


@pytest.mark.parametrize(
    "build, change, message", CASES, ids=[f"{b.__name__}-{m[:28]}" for b, _, m in CASES]
)
def test_snapshots_that_are_no_position_are_refused_naming_the_field(build, change, message):
    state = build()
    data = json.loads(state.to_json())
    RULES.from_dict(json.loads(json.dumps(data)))  # the unchanged snapshot loads
    change(data)
    with pytest.raises(InvalidStateError, match=message):
        RULES.from_dict(data)


def test_a_snapshot_must_be_a_dict():
    with pytest.raises(InvalidStateError, match="is a dict .* not list"):
        RULES.from_dict([1, 2])
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("[1, 2")


def test_numpy_integers_load_as_ints():
    data = at_bid().to_dict()
    data["turn"] = np.int64(1)
    data["deck"] = [np.int32(c) for c in data["deck"]]
    state = RULES.from_dict(data)
    assert type(state.turn) is int and all(type(c) is int for c in state.deck)
    assert RULES.from_json(state.to_json()).to_json() == at_bid().to_json()


def test_a_live_state_with_three_empty_stacks_is_refused():
    with pytest.raises(InvalidStateError, match="stacks: 3 bid stacks are empty"):
        table(EXAMPLE_2, stacks={1: 0, 2: 0, 3: 0})


def test_built_positions_count_their_shuffles_and_a_pending_end():
    """``position()`` builds what a dealt game would hold: 1 + exhaustions shuffles."""
    assert table(EXAMPLE_2).shuffles == 1
    once = table(EXAMPLE_2, exhaustions=1)
    assert once.shuffles == 2 and not once.end_pending
    twice = table(EXAMPLE_2, exhaustions=2)
    assert twice.shuffles == 3 and twice.end_pending
    for state in (once, twice):
        assert RULES.from_json(state.to_json()).to_json() == state.to_json()


def test_snapshots_of_real_games_load_in_every_phase():
    phases = set()
    for num_players, variant in [(2, False), (3, True), (5, False)]:
        state = RULES.new_state(num_players, seed=num_players, variant_red3=variant)
        rng = np.random.default_rng(num_players)
        while True:
            phases.add(state.phase)
            assert RULES.from_json(state.to_json()).to_json() == state.to_json()
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
    assert phases == {"DECLARE", BID, BET, CARD, GAME_OVER}


# -- A8: snapshots are copies ----------------------------------------------------------------
def containers(value: Any) -> list[Any]:
    """Every list and dict inside ``value``, ``value`` included."""
    found = []
    if isinstance(value, (list, dict)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found += containers(item)
    return found


@pytest.mark.parametrize("build", [at_bid, betting, revealed, finished])
def test_editing_a_snapshot_leaves_the_state_alone(build):
    state = build()
    before = state.to_json()
    legal = state.legal_actions()
    views = [state.view(seat).observation() for seat in range(state.num_players)]
    snapshot = state.to_dict()
    everything = containers(snapshot)
    assert len(everything) > 10
    for container in everything:
        if isinstance(container, dict):
            container["edited"] = True
        else:
            if container:
                container[0] = "edited"
            container.append("edited")
    assert state.to_json() == before
    assert state.legal_actions() == legal
    for seat, observation in enumerate(views):
        assert np.array_equal(state.view(seat).observation(), observation)


# -- A9: views of seats that do not exist ----------------------------------------------------
@pytest.mark.parametrize("num_players", [2, 5])
def test_view_refuses_a_seat_out_of_range(num_players):
    state = RULES.new_state(num_players, seed=1)
    for seat in (-1, num_players, True, 1.0, "0", None):
        with pytest.raises(InvalidConfigError, match="seat="):
            state.view(seat)
    assert state.view(np.int64(num_players - 1)).seat == num_players - 1
    assert type(state.view(np.int64(0)).seat) is int


# -- B6: a finished game keeps no turn context -----------------------------------------------
def test_a_finished_game_keeps_no_turn_context():
    ended_by_a_placement = 0
    for seed in range(40):
        state = RULES.new_state(3, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            action = int(rng.choice(state.legal_actions()))
            state.apply(action)
        # The last action placed a card (k >= 1 then) or forfeited a dead one.
        ended_by_a_placement += PLACE_BASE <= action < REDRAW
        assert state.phase == GAME_OVER
        assert state.bid is None and state.pending is None
        assert state.placed == 0 and not state.red_used and state.declared == 0
        assert state.bet_order == [] and state.bet_index == 0
        assert state.bets == [None] * 3 and not state.bets_revealed
        for seat in range(3):
            obs = state.view(seat).observation()
            assert obs[enc.PLACED] == 0 and obs[enc.PLACEMENTS_LEFT] == 0
    assert ended_by_a_placement >= 25


def test_the_last_turns_redraw_and_placements_are_gone_when_the_game_ends():
    """Ann redraws a C, completes B3 with a P (k = 1 of her bid 2) and empties a third bid
    stack: the game is over, and neither her placement nor her red chip is still "used"."""
    state = table(EXAMPLE_2, n=2, stacks={1: 0, 2: 1, 3: 0, 4: 2}, deck="C P E G")
    bid(state, 2)
    bet(state, "YES", 1)
    state.apply(REDRAW)
    assert state.red_used and state.pending == 2
    state.apply(PLACE_BASE + 3)  # P into B3: SUCCESS, stack 2 is empty too
    assert state.is_terminal() and state.end_reason == END_STACKS
    assert state.placed == 0 and not state.red_used
    assert state.bet_order == [] and state.bet_index == 0
    assert state.view(0).observation()[enc.PLACED] == 0
    assert RULES.from_json(state.to_json()).to_json() == state.to_json()


def test_the_observation_version_is_1():
    assert RULES.version == 1
    assert game_info("cornucopia").pettingzoo_id == "boardgame_envs/cornucopia-v1"
    assert game_info("cornucopia").gymnasium_id == "boardgame_envs/Cornucopia-v1"
