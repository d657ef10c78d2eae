"""Issue 11 for Tahiti: checked snapshots (A7), independent snapshots (A8), checked seats
(A9), bounded options (A4), the public placement plane and Haumea's steps at the grid's rim
(B4), clean finished states (B6) and the round-limit truncation (C5)."""

from __future__ import annotations

import copy
import json
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import boardgame_envs
from boardgame_envs.core.rules import InvalidConfigError, InvalidStateError
from boardgame_envs.tahiti import encoding as enc
from boardgame_envs.tahiti.rules import (
    END,
    GAME_OVER,
    MAX_ROUNDS_LIMIT,
    NEIGHBOURS,
    PLACE,
    PLACE_BASE,
    State,
    cell_of,
)
from tests.tahiti.helpers import RULES, position
from tests.tahiti.test_playouts import busy_action

DOC = Path(__file__).resolve().parents[2] / "docs" / "games" / "tahiti.md"


def snapshot_in(phase: str, num_players: int = 2, **wanted: Any) -> dict[str, Any]:
    """The first snapshot of seeded random games in ``phase`` (with the ``wanted`` values)."""
    for seed in range(200):
        state = RULES.new_state(num_players, seed=seed, max_rounds=8)
        rng = np.random.default_rng(seed)
        while True:
            data = state.to_dict()
            if data["phase"] == phase and all(wanted[k](data[k]) for k in wanted):
                return data
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
    raise AssertionError(f"no {phase} position with {sorted(wanted)} found")


def refused(data: dict[str, Any], match: str, **changes: Any) -> None:
    data = copy.deepcopy(data)
    data.update(changes)
    with pytest.raises(InvalidStateError, match=match):
        RULES.from_dict(data)


# -- A7: snapshots that load are positions ----------------------------------------------------
def test_wrong_types_are_refused_not_coerced():
    """``round: true`` used to load as round 1; every integer field refuses bool, float and
    str, every flag refuses non-bools."""
    data = RULES.new_state(2, seed=1).to_dict()
    for field in ("round", "taken", "first_player", "turn_player", "version", "num_players"):
        for bad in (True, 1.0, "1", None):
            refused(data, field, **{field: bad})
    for field in ("end_triggered", "truncated"):
        for bad in (0, 1, "false", None):
            refused(data, f"{field}={bad!r} is not true or false", **{field: bad})
    refused(data, "bag\\[0\\]=8.7 is not an integer", bag=[8.7, *data["bag"][1:]])
    refused(data, "bag\\[4\\]=True is not an integer", bag=[*data["bag"][:4], True])
    refused(data, "cargo\\[1\\]\\[2\\]=False", cargo=[[0] * 5, [0, 0, False, 0, 0]])
    refused(data, "charts\\[0\\] has 4 entries, not 5", charts=[[0] * 4, [0] * 5])
    refused(data, "board\\[0\\]: tile HOME rotation=True", board=[["HOME", 0, 0, True]])
    refused(data, "canoes\\[1\\]: q=True is not an integer", canoes=[[0, 0], [True, 0]])
    refused(data, "haumea: r=0.0 is not an integer", haumea=[0, 0.0])
    refused(data, "last_event=5 is not a string", last_event=5)
    refused(data, "config: option max_rounds=True is not allowed", config={"max_rounds": True})
    refused(data, "config names 'rounds'", config={"rounds": 5})
    refused(
        data,
        "island_cubes\\['I01'\\]=\\['C', 'B'\\] is not a string",
        island_cubes={**data["island_cubes"], "I01": ["C", "B"]},
    )
    refused(
        data,
        "island_cubes\\['I01'\\]='CC': a goods space holds one cube",
        island_cubes={**data["island_cubes"], "I01": "CC"},
    )
    rng = copy.deepcopy(data["rng"])
    rng["state"]["state"] = 8.7  # numpy would take it as 8
    refused(data, "rng.state.state=8.7 is not an integer", rng=rng)
    rng = copy.deepcopy(data["rng"])
    rng["has_uint32"] = True
    refused(data, "rng.has_uint32=True", rng=rng)
    rng = copy.deepcopy(data["rng"])
    rng["state"]["inc"] += 1
    refused(data, "increment is odd", rng=rng)


def test_version_fields_and_seats_are_checked():
    data = RULES.new_state(4, seed=2).to_dict()
    assert data["version"] == RULES.version == 2
    refused(data, "version=1: this is version 2 of tahiti", version=1)
    refused(data, "version=3", version=3)
    refused(data, "unknown snapshot field 'colour'", colour="red")
    del data["last_event"]
    refused(data, "missing field 'last_event'")
    data = RULES.new_state(4, seed=2).to_dict()
    refused(data, "turn_player=4 is out of range 0..3", turn_player=4)
    refused(data, "first_player=-1 is out of range 0..3", first_player=-1)
    refused(data, "favourites has 3 entries, not 4", favourites=data["favourites"][:3])
    refused(data, "canoes has 5 entries, not 4", canoes=data["canoes"] + [[0, 0]])


def test_the_board_is_the_starting_layout_plus_connected_tiles():
    data = RULES.new_state(4, seed=0).to_dict()
    board = [e for e in data["board"] if e[0] != "I01"] + [["I01", 1, -1, 0]]
    refused(data, "the starting tile I01 stands at \\(1, -1\\) with rotation 4", board=board)
    refused(
        data, "water tile W3 is not used with 4 players", board=data["board"] + [["W3", 2, 0, 0]]
    )
    stacks = [[t for t in stack if t != "I05"] for stack in data["stacks"]]
    lonely = data["board"] + [["I05", 5, 0, 0]]
    refused(data, "tiles I05 are not connected to the home tile", board=lonely, stacks=stacks)
    refused(
        data,
        "the home tile must be at \\(0, 0\\) with rotation 0",
        board=[["HOME", 0, 0, 2], *data["board"][1:]],
    )
    a, b = data["stacks"]
    refused(data, "stacks\\[0\\]: 8 tiles; stack A starts with 7", stacks=[a + b[:1], b[1:]])


def test_the_phase_context_is_checked():
    start = RULES.new_state(2, seed=3).to_dict()  # HAUMEA_MOVE, the first turn
    refused(start, "taken=2: actions are counted in ACTION only", taken=2)
    refused(
        start,
        "hand_tile is set in phase HAUMEA_MOVE",
        hand_tile=start["stacks"][0][0],
        stacks=[start["stacks"][0][1:], start["stacks"][1]],
    )
    refused(start, "truncated=True: a live game", truncated=True)
    refused(start, "round=1000, truncated=False: a live game", round=1000)
    refused(start, "round=1001 is out of range 0..1000", round=1001)
    action = snapshot_in("ACTION")
    pile = list(action["token_pile"])
    pile.remove("plain")
    refused(
        action, "revealed_token is set in phase ACTION", revealed_token="plain", token_pile=pile
    )
    bag = list(action["bag"])
    bag[4] -= 1
    refused(action, "bounty is set in phase ACTION", bounty=["fish"], bag=bag)
    refused(action, "aside is set in phase ACTION", aside=[0, 0, 0, 0, 1], bag=bag)
    choice = snapshot_in("BOUNTY_PLACE", bounty=lambda b: len(b) == 1, aside=lambda a: not any(a))
    bag = list(choice["bag"])
    bag[4] -= 1
    refused(
        choice, "the pending fish cube has no choice", bounty=["fish", *choice["bounty"]], bag=bag
    )
    refused(snapshot_in("STACK"), "phase STACK: Haumea must stand on an edge tile", haumea=[0, 0])
    deplete = snapshot_in("DEPLETE")
    refused(deplete, "taken=5 is out of range 0..4", taken=5)
    over = snapshot_in(GAME_OVER, charts=lambda c: c[0][0] > 0)
    assert over["truncated"] and not over["end_triggered"]
    refused(
        over,
        "canoes are unloaded when the game ends",
        cargo=[[1, 0, 0, 0, 0], [0] * 5],
        charts=[[over["charts"][0][0] - 1, *over["charts"][0][1:]], over["charts"][1]],
    )
    refused(over, "not both or neither", truncated=False)
    refused(over, "round=7: a game ends after a complete round, at the round limit 8", round=7)
    refused(
        over,
        "turn_player=.*: a game ends after the last seat of a round",
        turn_player=over["first_player"],
    )
    refused(over, "taken=1: actions are counted in ACTION only", taken=1)


def test_the_end_trigger_matches_the_undepleted_islands():
    for seed in range(50):
        state = RULES.new_state(2, seed=seed, max_rounds=200)
        rng = np.random.default_rng(seed)
        while not state.is_terminal() and not state.end_triggered:
            state.apply(busy_action(state, rng))
        if state.end_triggered and not state.is_terminal():
            break
    else:
        raise AssertionError("no final round found")
    refused(state.to_dict(), "end_triggered=False with [0-4] undepleted", end_triggered=False)


# -- A8: snapshots are copies -----------------------------------------------------------------
def scramble(node: Any) -> None:
    """Change every container inside ``node`` in place, recursively."""
    if isinstance(node, dict):
        for key in list(node):
            scramble(node[key])
            node[key] = "changed" if not isinstance(node[key], (dict, list)) else node[key]
        node["added"] = 1
    elif isinstance(node, list):
        for i, value in enumerate(node):
            scramble(value)
            if not isinstance(value, (dict, list)):
                node[i] = "changed"
        node.append("added")


def test_to_dict_hands_out_copies():
    states = [RULES.new_state(3, seed=4)]
    for phase in ("BOUNTY_PLACE", "DEPLETE", GAME_OVER):
        states.append(RULES.from_dict(snapshot_in(phase)))
    sample = RULES.sample_state(states[1].view(0), np.random.default_rng(0))
    for state in [*states, sample]:
        before = state.to_json()
        observation = state.view(0).observation()
        snapshot = state.to_dict()
        scramble(snapshot)
        assert state.to_json() == before
        assert np.array_equal(state.view(0).observation(), observation)
        assert RULES.from_json(before).to_json() == before


# -- A9: views of seats that exist ------------------------------------------------------------
def test_view_refuses_a_seat_out_of_range():
    state = RULES.new_state(2, seed=0)
    for seat in (-1, 2, 5, True, 1.0, "0", None):
        with pytest.raises(InvalidConfigError, match="seat=.* is not allowed"):
            state.view(seat)
    assert state.view(np.int64(1)).seat == 1 and type(state.view(np.int64(1)).seat) is int


# -- A4: the option's range --------------------------------------------------------------------
def test_max_rounds_has_a_range_and_allocates_nothing_in_proportion():
    assert RULES.options["max_rounds"].allowed_text == "an integer from 1 to 1,000,000"
    assert "1 to 1,000,000" in DOC.read_text()
    for bad in (0, MAX_ROUNDS_LIMIT + 1, 10**9, True, 2.0):
        with pytest.raises(InvalidConfigError, match="max_rounds"):
            RULES.new_state(2, max_rounds=bad)
    tracemalloc.start()
    began = time.perf_counter()
    state = RULES.new_state(4, seed=0, max_rounds=MAX_ROUNDS_LIMIT)
    env = boardgame_envs.make("tahiti", num_players=4, max_rounds=MAX_ROUNDS_LIMIT)
    env.reset(seed=0)
    elapsed = time.perf_counter() - began
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert elapsed < 2.0 and peak < 20_000_000, (elapsed, peak)
    assert RULES.max_decisions(4, state.config) == 12 * 4 * MAX_ROUNDS_LIMIT


# -- B4: the placement plane is public; Haumea's steps stay on the grid -------------------------
def placement_cells(obs: np.ndarray) -> set[int]:
    plane = obs[enc.PLACEMENT_PLANE * 361 : (enc.PLACEMENT_PLANE + 1) * 361]
    return set(np.flatnonzero(plane).tolist())


def test_every_seat_sees_the_legal_placement_positions():
    state = position(4, haumea=(1, -1), phase=PLACE, hand_tile="I12", turn=2)
    expected = {cell_of(2, -1), cell_of(1, -2)}  # Example 2
    for seat in range(4):
        assert placement_cells(state.view(seat).observation()) == expected, seat
    # and in played games: from the mover's mask, the same for everyone
    checked = 0
    for seed in range(6):
        state = RULES.new_state(3, seed=seed, max_rounds=6)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            if state.phase == PLACE:
                mask = state.legal_action_mask()
                cells = {NEIGHBOURS[state.haumea][d] for d in range(6) if mask[PLACE_BASE + 6 * d]}
                for seat in range(3):
                    assert placement_cells(state.view(seat).observation()) == cells
                checked += 1
            else:
                assert not placement_cells(state.view(0).observation())
            state.apply(int(rng.choice(state.legal_actions())))
    assert checked > 50


class _NoNegativeIndex(list):
    """A cell-indexed list that refuses index -1 (which would wrap to the last cell)."""

    def __getitem__(self, index):
        if isinstance(index, int) and index < 0:
            raise AssertionError(f"read cell {index}: an off-grid neighbour was looked up")
        return super().__getitem__(index)


def test_haumea_steps_never_look_up_off_grid_neighbours():
    # a line of islands out to the rim of the grid, (9, 0), whose east neighbour is off-grid
    names = [f"I{k:02d}" for k in range(5, 13)]
    tiles = [(name, 2 + i, 0, 0) for i, name in enumerate(names)]
    state = position(4, tiles=tiles)
    state.haumea = cell_of(9, 0)
    assert -1 in NEIGHBOURS[state.haumea]
    state.cell_tile = _NoNegativeIndex(state.cell_tile)
    assert state._legal_haumea_steps() == []  # an edge tile: no step brings her closer
    state.haumea = cell_of(8, 0)  # not on the rim: unchanged behaviour
    assert state._legal_haumea_steps() == []


# -- B6: a finished state keeps no turn context ------------------------------------------------
def test_a_finished_state_keeps_no_actions_taken():
    state = position(2, turn=1, config={"max_rounds": 1})
    state.apply(next(a for a in state.legal_actions() if a < 6))  # paddle: one action taken
    assert state.taken == 1
    state.apply(END)
    assert state.is_terminal() and state.truncated
    assert state.taken == 0 and not state.bounty and not any(state.aside)
    assert state.hand_tile == 0 and state.revealed_token == 0
    assert RULES.from_json(state.to_json()).to_json() == state.to_json()


# -- C5: the round limit is a truncation, and the docs say so ----------------------------------
def test_the_round_limit_is_reported_as_a_truncation():
    env = boardgame_envs.make("tahiti", num_players=2, max_rounds=1)
    env.reset(seed=3)
    while not all(env.terminations.values()) and not all(env.truncations.values()):
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    state: State = env.unwrapped.state
    assert state.truncated and state.is_terminal()
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert sum(env.rewards.values()) == pytest.approx(0)
    text = " ".join(DOC.read_text().split())
    assert "reported as a termination" not in text
    assert "the env reports a truncation" in text


def test_doc_names_the_snapshot_version():
    assert json.loads(RULES.new_state(2, seed=0).to_json())["version"] == 2
    assert "tahiti-v2" in DOC.read_text() and "Tahiti-v2" in DOC.read_text()
