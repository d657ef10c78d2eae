"""Issue 11 for Factors and Multiples: snapshots that are positions (A7) and copies (A8),
views of real seats only (A9), a bounded ``rounds`` with nothing allocated per round (A4),
observations inside their Box for every option value (B5) and clean finished states (B5, B6).
The random mutations of snapshots are in test_snapshot_fuzz.py."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgame_envs import InvalidConfigError, InvalidStateError
from boardgame_envs.factors_multiples import encoding as enc
from boardgame_envs.factors_multiples.data import parse_cards
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    GAME_OVER,
    J_DIRECTION,
    K_ANSWER,
    K_DISCARD,
    MAX_ROUNDS,
    PLAY,
    SEVEN_NAME,
    round_seed,
)
from tests.factors_multiples.helpers import RULES, rules_for, table


def reach(num_players: int, phase: str, seed: int = 0, **options) -> dict:
    """The snapshot of the first position in ``phase`` of seeded random matches, past the
    first round and a few cards into the round."""
    for s in range(seed, seed + 200):
        state = RULES.new_state(num_players, seed=s, **options)
        rng = np.random.default_rng(s)
        while True:
            later = state.round > 0 and len(state.play_pile) >= 3
            if state.phase == phase and (phase == GAME_OVER or later):
                return state.to_dict()
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
    raise AssertionError(f"no {phase} position")


# -- A7: the holes the issue names, and the other checks one by one ------------------------
def test_the_issues_examples_are_refused():
    data = reach(2, PLAY)
    with pytest.raises(InvalidStateError, match="turn_player: 5 is not a seat"):
        RULES.from_dict({**data, "turn_player": 5})
    with pytest.raises(InvalidStateError, match="value: 5.0 is not None"):
        RULES.from_dict({**data, "value": 5.0})
    discard = reach(3, K_DISCARD)
    RULES.from_dict(discard)  # the real one loads
    with pytest.raises(InvalidStateError, match="k_player: None in K_DISCARD"):
        RULES.from_dict({**discard, "k_player": None})


def _set(path: tuple, value):
    def mutate(data: dict) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def _nobody_out_but_negative(data: dict) -> None:
    data["went_out"][0] = None  # a blocked round ...
    data["round_scores"][0][0] = -4  # ... where seat 0 would score as if it went out


# (phase of the real snapshot, mutation, the field the error must name)
BAD = [
    # types: no silent coercion, bool is not an int
    (PLAY, _set(("round",), True), "round: True is not an int"),
    (PLAY, _set(("turn_player",), 1.0), "turn_player: 1.0 is not a seat"),
    (PLAY, _set(("hands", 0, 0), 8.7), "hands: 8.7 is not an int"),
    (PLAY, _set(("value",), True), "value: True is not None"),
    (PLAY, _set(("turns_started", 0), "3"), "turns_started: '3' is not an int"),
    (PLAY, _set(("seed",), None), "seed: None is not an int"),
    (PLAY, _set(("seed",), -1), "seed: -1 is out of range"),
    (PLAY, _set(("piles",), None), "piles: None is not a list"),
    (PLAY, _set(("config", "rounds"), 10**9), "config: option rounds=1000000000"),
    (PLAY, _set(("config", "rounds"), 2.0), "config: option rounds=2.0"),
    (PLAY, _set(("config", "a_needs_discard"), 1), "config: option a_needs_discard=1"),
    (PLAY, _set(("num_players",), 2.0), "num_players: 2.0 is not allowed"),
    # the version and the game
    (PLAY, _set(("version",), 0), "version: the snapshot is of factors_multiples version 0"),
    (PLAY, _set(("version",), True), "version: True is not an int"),
    (PLAY, _set(("game",), "wasabi"), "game: the snapshot is of game 'wasabi'"),
    (PLAY, _set(("colour",), "red"), "unknown field 'colour'"),
    # seats and ranges
    (PLAY, _set(("start_player",), 3), "start_player: 3 is not a seat"),
    (PLAY, _set(("k_player",), -1), "k_player: -1 is not None or a seat"),
    (PLAY, _set(("play_pile", 0, 1), 2), "play_pile seat: 2 is not a seat"),
    (PLAY, _set(("went_out", 0), 7), "went_out: 7 is not None or a seat"),
    (PLAY, _set(("round",), 2), "round: 2 is out of range 0..1"),
    (PLAY, _set(("reveal_marks", 0), 10**6), "reveal_marks: 1000000 is out of range"),
    (PLAY, _set(("hands", 1, 0), 52), "hands: 52 is out of range 0..51"),
    # per-seat lists of the right length
    (PLAY, lambda d: d["hands"].append([]), "hands: has 3 entries, not 2"),
    (PLAY, lambda d: d["round_scores"].pop(), "round_scores: has 0 entries, not 1"),
    (PLAY, lambda d: d["reveals"].pop(), "reveals: has 1 entries, not 2"),
    # the match: scores are round scores, one per completed round
    (PLAY, _set(("round_scores", 0, 0), 27), r"round_scores\[0\]\[0\]: 27 is out of range"),
    (PLAY, lambda d: _nobody_out_but_negative(d), r"round_scores\[0\]\[0\]: -4 is out of"),
    # conservation
    (PLAY, lambda d: d["hands"][0].append(d["piles"][1][0]), "the 52 cards are not each"),
    (A_DISCARD, lambda d: d["own_discards"][1].append(d["hands"][1][0]), "own_discards"),
    (PLAY, lambda d: d["reveals"][0].append(d["hands"][1][0]), "reveals: seat 0 showed"),
    (PLAY, _set(("reveal_discard_marks",), [0]), "reveal_discard_marks"),
    # the phase context
    (PLAY, _set(("phase",), "BIDDING"), "phase: 'BIDDING' is not one of"),
    (PLAY, _set(("k_player",), 0), "k_player: 0 in PLAY"),
    (K_ANSWER, lambda d: d.update(k_player=d["turn_player"]), "k_player: .* the K player is"),
    (K_ANSWER, _set(("k_player",), None), "k_player: None in K_ANSWER"),
    (PLAY, _set(("phase",), A_DISCARD), "play_pile: A_DISCARD follows|hands: A_DISCARD"),
    (PLAY, _set(("phase",), SEVEN_NAME), "play_pile: SEVEN_NAME follows"),
    (J_DIRECTION, _set(("value",), None), "value: J_DIRECTION needs a determined value"),
    (K_ANSWER, _set(("phase",), K_DISCARD), "play_pile: K_DISCARD follows"),
    (PLAY, lambda d: d["hands"][0].clear(), "52 cards|hands: seat 0 holds no card"),
    (GAME_OVER, _set(("k_player",), 0), "k_player: 0: a finished match has None"),
    (GAME_OVER, _set(("turn_player",), 0), "turn_player: 0: a finished match has -1"),
    (GAME_OVER, _set(("round",), 0), "round: a finished match of 2 rounds ends in round 1"),
    (GAME_OVER, lambda d: d["round_scores"][-1].__setitem__(1, 25), "round_scores"),
]


@pytest.mark.parametrize("phase, mutate, message", BAD)
def test_bad_snapshots_are_refused_naming_the_field(phase, mutate, message, engine):
    data = reach(2 if phase != K_DISCARD else 3, phase, rounds=2)
    rules_for(engine).from_dict(json.loads(json.dumps(data)))  # unmutated, it loads
    mutate(data)
    with pytest.raises(InvalidStateError, match=message):
        rules_for(engine).from_dict(data)


def test_not_a_dict_and_missing_config_options_are_refused(engine):
    with pytest.raises(InvalidStateError, match="a dict is due, not list"):
        rules_for(engine).from_json("[1]")
    data = reach(2, PLAY)
    del data["config"]["rounds"]
    with pytest.raises(InvalidStateError, match="config: missing option 'rounds'"):
        rules_for(engine).from_dict(data)


def test_hand_limits_and_value_of_the_top_card_are_checked(engine):
    state = table(2, {0: "2♣ 5♦ 9♥", 1: "3♣ 4♦ Q♥"}, value=6, engine=engine)
    state.apply(1)  # the 2: the value is 2
    data = state.to_dict()
    rules_for(engine).from_dict(data)
    with pytest.raises(InvalidStateError, match="value: 6, but the last card played is a normal"):
        rules_for(engine).from_dict({**data, "value": 6})
    with pytest.raises(InvalidStateError, match="hands: seat 1 holds 2 cards with a pile"):
        broken = json.loads(json.dumps(data))
        broken["hidden_discard"].append(broken["hands"][1].pop())
        rules_for(engine).from_dict(broken)


def test_every_phase_of_real_play_loads_back_unchanged(engine):
    for phase in (PLAY, K_ANSWER, A_DISCARD, SEVEN_NAME, J_DIRECTION, K_DISCARD, GAME_OVER):
        for n in (2, 5):
            data = reach(n, phase, rounds=2)
            assert rules_for(engine).from_json(json.dumps(data)).to_dict() == data


def test_older_snapshots_without_reveal_discard_marks_still_load(engine):
    data = reach(3, PLAY)
    del data["reveal_discard_marks"]
    assert rules_for(engine).from_dict(data).reveal_discard_marks == [0, 0, 0]


def test_position_checks_its_seats(engine):
    hands, piles = [parse_cards("2♣ 5♦ 9♥"), parse_cards("3♣ 4♦ Q♥")], [[], []]
    with pytest.raises(InvalidStateError, match="turn_player: 5 is not a seat"):
        rules_for(engine).position(hands, piles, turn_player=5)
    with pytest.raises(InvalidStateError, match="k_player: 0 is not the seat before"):
        rules_for(engine).position(hands, piles, turn_player=0, k_player=0)
    with pytest.raises(InvalidStateError, match="value: 5.0"):
        rules_for(engine).position(hands, piles, value=5.0)
    with pytest.raises(InvalidStateError, match="seed: -1"):
        rules_for(engine).position(hands, piles, seed=-1)


# -- A8: snapshots are copies ------------------------------------------------------------
def _mutate_every_container(obj) -> None:
    """Change every list and dict inside ``obj``, deepest first."""
    if isinstance(obj, list):
        for item in obj:
            _mutate_every_container(item)
        if obj and isinstance(obj[0], int):
            obj[0] = -99
        obj.append(-1)
    elif isinstance(obj, dict):
        for item in obj.values():
            _mutate_every_container(item)
        for key in list(obj):
            if not isinstance(obj[key], (list, dict)):
                obj[key] = "changed"
        obj["extra"] = 1


@pytest.mark.parametrize("phase", [PLAY, K_DISCARD, GAME_OVER])
def test_editing_a_snapshot_leaves_the_state_alone(phase, engine):
    state = rules_for(engine).from_dict(reach(3, phase, rounds=2))
    before = state.to_json()
    mask = state.legal_action_mask()
    _mutate_every_container(state.to_dict())
    assert state.to_json() == before
    assert np.array_equal(state.legal_action_mask(), mask)
    assert rules_for(engine).from_json(before).to_json() == before


# -- A9: views of real seats only ----------------------------------------------------------
@pytest.mark.parametrize("seat", [-1, 3, 5, True, False, 1.0, "0", None])
def test_view_of_a_seat_out_of_range_raises(seat, engine):
    state = rules_for(engine).new_state(3, seed=0)
    with pytest.raises(InvalidConfigError, match="seat="):
        state.view(seat)


def test_view_accepts_numpy_seats(engine):
    state = rules_for(engine).new_state(3, seed=0)
    assert state.view(np.int64(2)).seat == 2 and type(state.view(np.int64(2)).seat) is int


# -- A4: rounds has a range, and nothing is kept per round ---------------------------------
def test_rounds_range_and_no_per_round_allocation(engine):
    assert MAX_ROUNDS == 100
    assert rules_for(engine).options["rounds"].allowed_text == "an integer from 1 to 100"
    for bad in (0, MAX_ROUNDS + 1, 10**9, -3, True, 3.0):
        with pytest.raises(InvalidConfigError, match="rounds"):
            rules_for(engine).new_state(2, seed=0, rounds=bad)
    short = rules_for(engine).new_state(2, seed=7, rounds=1)
    long = rules_for(engine).new_state(2, seed=7, rounds=MAX_ROUNDS)
    # the same first deal, and a snapshot of the same size: one match seed, no seed list
    assert long.hands == short.hands and long.piles == short.piles
    assert abs(len(long.to_json()) - len(short.to_json())) <= 2
    assert isinstance(long.to_dict()["seed"], int) and "seeds" not in long.to_dict()
    assert rules_for(engine).max_decisions(5, long.config) == 421 * MAX_ROUNDS


def test_round_seeds_are_those_of_version_0():
    """Each round's seed is still the round's draw of the match seed's generator, so a seed
    gives the same match as before the seeds were derived lazily."""
    for seed in (0, 1, 2**40):
        listed = np.random.default_rng(seed).integers(2**63, size=6).tolist()
        assert [round_seed(seed, r) for r in range(6)] == listed


def test_a_seedless_match_is_reproducible_from_its_snapshot(engine):
    state = rules_for(engine).new_state(3, rounds=2)
    copy = rules_for(engine).from_json(state.to_json())
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        action = int(rng.choice(state.legal_actions()))
        state.apply(action)
        copy.apply(action)
    assert copy.to_json() == state.to_json()


# -- B5: observations stay inside the Box for every allowed option value ------------------
def _assert_in_bounds(state, where: str) -> None:
    low, high = RULES.observation_bounds
    for seat in range(state.num_players):
        obs = state.view(seat).observation()
        assert low <= obs.min() and obs.max() <= high, (where, seat, obs.min(), obs.max())


@pytest.mark.parametrize("num_players", [2, 5])
def test_observations_in_bounds_over_a_longest_match(num_players, engine):
    state = rules_for(engine).new_state(num_players, seed=num_players, rounds=MAX_ROUNDS)
    rng = np.random.default_rng(0)
    step = 0
    while not state.is_terminal():
        if step % 4 == 0 or state.round == MAX_ROUNDS - 1:
            _assert_in_bounds(state, f"step {step} round {state.round}")
        state.apply(int(rng.choice(state.legal_actions())))
        step += 1
    _assert_in_bounds(state, "the end")
    assert len(state.round_scores) == MAX_ROUNDS


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observations_in_bounds_at_the_extreme_totals(num_players, engine):
    """The lowest and highest match totals any allowed setting can reach: every round
    gone out by one seat (n - 6 each) while another kept every card (52 // n each)."""
    data = rules_for(engine).new_state(num_players, seed=1, rounds=MAX_ROUNDS).to_dict()
    data["round"] = MAX_ROUNDS - 1
    row = [52 // num_players] * num_players
    row[0] = num_players - 6
    data["round_scores"] = [row] * (MAX_ROUNDS - 1)
    data["went_out"] = [0] * (MAX_ROUNDS - 1)
    state = rules_for(engine).from_dict(data)
    _assert_in_bounds(state, "extreme totals")
    obs = state.view(0).observation()
    scale = 10 * MAX_ROUNDS
    assert obs[enc.MATCH_TOTALS] == pytest.approx((num_players - 6) * 99 / scale)
    assert obs[enc.MATCH_TOTALS + 1] == pytest.approx(52 // num_players * 99 / scale)


def test_match_totals_are_scaled_as_before_up_to_three_rounds(engine):
    for rounds, scale in ((1, 30), (3, 30), (4, 40), (MAX_ROUNDS, 1000)):
        data = rules_for(engine).new_state(2, seed=1, rounds=max(rounds, 2)).to_dict()
        data["config"]["rounds"] = rounds
        data["round"] = min(1, rounds - 1)
        data["round_scores"] = [[-4, 20]][: data["round"]]
        data["went_out"] = [0][: data["round"]]
        obs = rules_for(engine).from_dict(data).view(1).observation()
        total = 20 if data["round"] else 0
        assert obs[enc.MATCH_TOTALS] == pytest.approx(total / scale)


# -- B5 / B6: a finished match keeps no turn context ---------------------------------------
def test_a_blocked_last_round_right_after_a_king_clears_the_king(engine):
    state = table(2, {0: "K♠ 9♥", 1: "5♣"}, piles={0: "", 1: ""}, value=8, rounds=1, engine=engine)
    state.apply(12)  # the K; then nobody can play and every pile is empty: blocked
    assert state.phase == GAME_OVER and state.round_scores == [[1, 1]]
    assert state.k_player is None and state.turn_player == -1 and state.current_player == -1
    view = state.view(1)
    assert view.k_player is None and view.turn_player == -1 and not view.legal_action_mask().any()
    assert "restricts" not in state.render_text()
    assert rules_for(engine).from_json(state.to_json()).to_json() == state.to_json()


def test_a_blocked_round_after_a_king_that_is_not_the_last_starts_the_next_clean(engine):
    state = table(2, {0: "K♠ 9♥", 1: "5♣"}, piles={0: "", 1: ""}, value=8, rounds=2, engine=engine)
    state.apply(12)
    assert state.round == 1 and state.phase == PLAY and state.k_player is None


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_every_finished_match_is_clean(num_players, engine):
    for seed in range(20):
        state = rules_for(engine).new_state(num_players, seed=seed, rounds=1)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            state.apply(int(rng.choice(state.legal_actions())))
        assert state.k_player is None and state.turn_player == -1
        assert state.view(0).k_player is None
