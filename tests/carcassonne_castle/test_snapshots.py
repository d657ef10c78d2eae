"""Snapshots (issue 11, A7-A9, A4, B3, B6): what ``from_dict`` refuses, that ``to_dict``
hands out copies, that ``view`` checks its seat, the option ranges, and what a finished
game and its observation keep."""

from __future__ import annotations

import json

import numpy as np
import pytest

from boardgame_envs.carcassonne_castle import encoding as enc
from boardgame_envs.carcassonne_castle.castle import CELL_GRID, CODE_LOWEST
from boardgame_envs.carcassonne_castle.data import (
    EXTRA_TURN,
    HOUSE,
    STOCKED_CORNERS,
    TOWER_X2,
)
from boardgame_envs.carcassonne_castle.rules import (
    DOUBLE,
    EXTRA,
    FOLLOWER,
    GAME_OVER,
    ORDER,
    PLACE,
    YES,
    State,
)
from boardgame_envs.core.rules import InvalidConfigError, InvalidStateError
from tests.carcassonne_castle.helpers import (
    PASS,
    RARE_PHASE_SEEDS,
    RULES,
    A,
    first_state,
    place,
    play,
    position,
    random_game,
)


def snapshot(state: State) -> dict:
    return json.loads(state.to_json())


def refused(data: dict, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        RULES.from_dict(data)


def in_phase(phase: str) -> State:
    """A state of a seeded random game in ``phase``, with a few tiles laid."""
    return first_state(lambda s: s.phase == phase and len(s.castle.history) >= 3)


def every_phase() -> list[State]:
    return [in_phase(phase) for phase in (PLACE, FOLLOWER, ORDER, DOUBLE, EXTRA, GAME_OVER)]


# -- A7: types, ranges, seats, version ----------------------------------------------------------
@pytest.mark.parametrize(
    "field, value, message",
    [
        ("turn", 8.7, r"turn: 8\.7 is not an integer"),
        ("turn", 8.0, r"turn: 8\.0 is not an integer"),
        ("turn", True, "turn: True is not an integer"),
        ("turn", "8", "turn: '8' is not an integer"),
        ("turn", 0, r"turn: 0 is out of range >= 1"),
        ("active", 2, r"active: 2 is out of range 0\.\.1"),
        ("active", True, "active: True is not an integer"),
        ("start_player", -1, r"start_player: -1 is out of range 0\.\.1"),
        ("num_players", 3, "num_players: 3 is out of range"),
        ("num_players", 2.0, r"num_players: 2\.0 is not an integer"),
        ("version", 0, "version: 0 is not this engine's snapshot version 1"),
        ("version", "1", "version: '1' is not this engine's snapshot version"),
        ("version", True, "version: True is not"),
        ("extra_turn", 0, "extra_turn: 0 is not true or false"),
        ("tile", 46, r"tile: 46 is out of range 0\.\.45"),
        ("tile", 3.0, r"tile: 3\.0 is not an integer"),
        ("scores", [-1, 0], r"scores\[0\]: -1 is out of range >= 0"),
        ("scores", [0], "scores: 1 entries, not 2"),
        ("supply", [6, 7], r"supply\[1\]: 7 is out of range 0\.\.6"),
        ("corners", [0] * 12, "corners: 12 entries, not 13"),
        ("stack", None, "stack: None is not a list"),
        ("used", [[1, 2]], r"used\[0\]\[1\]: 2 is out of range 0\.\.1"),
        ("used", [[7, 0]], r"used\[0\]\[0\]: 7 is out of range 1\.\.3"),
        ("held", [[[1, 0]]], "held: 1 entries, not 2"),
        ("held", [[[10, 0]], []], r"held\[0\]\[0\]\[0\]: 10 is out of range 1\.\.9"),
        ("events", [3], "events: 3 is not a text"),
        ("config", [], "config: .* is not an object"),
        ("config", {"wall9_points": 5.5}, "config: option wall9_points=5.5 is not allowed"),
        ("phase", "NAP", "phase: unknown phase 'NAP'"),
        ("doubling", 316, "doubling: 316 is not the ORDER name"),
    ],
)
def test_wrong_types_and_ranges_are_refused_naming_the_field(field, value, message):
    data = snapshot(RULES.new_state(2, seed=1))
    data[field] = value
    refused(data, message)


def test_seats_out_of_range_in_placements_and_followers():
    state = first_state(lambda s: s.phase == PLACE and s.castle.followers)
    data = snapshot(state)
    data["placements"][0][3] = 2
    refused(data, r"placements\[0\]\[3\]: 2 is out of range 0\.\.1")
    data = snapshot(state)
    data["followers"][0][1] = -1
    refused(data, r"followers\[0\]\[1\]: -1 is out of range 0\.\.1")
    data = snapshot(state)
    data["followers"][0][2] = True
    refused(data, r"followers\[0\]\[2\]: True is not an integer")


def test_missing_unknown_and_non_object_snapshots():
    data = snapshot(RULES.new_state(2, seed=1))
    del data["turn"]
    refused(data, "missing field.*'turn'")
    data = snapshot(RULES.new_state(2, seed=1))
    data["colour"] = "red"
    refused(data, "unknown field.*'colour'")
    with pytest.raises(InvalidStateError, match="is a JSON object, not list"):
        RULES.from_json("[1, 2]")


# -- A7: keeps against complete houses ----------------------------------------------------------
def test_keeps_must_stand_on_a_complete_house_of_their_size():
    state = first_state(lambda s: s.phase == PLACE and s.keeps[0] and s.keeps[1] is None)
    seat = 0
    size, locations = state.keeps[seat]
    RULES.from_dict(snapshot(state))  # the real one loads
    data = snapshot(state)
    data["keeps"][seat][0] = size + 1
    refused(data, r"keeps\[0\]: .* is not the size and locations of a complete house")
    data = snapshot(state)
    empty = next(CELL_GRID[c] for c in range(76) if state.castle.is_empty(c))
    data["keeps"][seat][1] = [empty] * size if size == 1 else [empty] + locations[1:]
    refused(data, r"keeps\[0\]")
    # a keep on a house that is not complete
    castle = state.castle
    open_house = next(
        root
        for root in castle.roots()
        if castle.kind[root] == HOUSE and not castle.is_complete(root)
    )
    data = snapshot(state)
    data["keeps"][seat] = [int(castle.size[open_house]), castle.locations(open_house)]
    refused(data, r"keeps\[0\]")
    # both keeps on one house
    data = snapshot(state)
    data["keeps"][1] = [size, list(locations)]
    refused(data, r"keeps\[1\]")


# -- A7: wall-tile turns against the current turn ----------------------------------------------
def test_wall_tiles_cannot_be_taken_after_the_current_turn():
    state = first_state(lambda s: s.phase == PLACE and (s.held[0] or s.held[1]))
    seat = 0 if state.held[0] else 1
    data = snapshot(state)
    data["held"][seat][0][1] = state.turn + 1
    refused(data, rf"held\[{seat}\]: a kind-\d wall tile taken in turn {state.turn + 1}, after")
    data = snapshot(state)
    data["held"][seat][0][1] = state.turn  # PLACE: nothing has been scored yet this turn
    refused(data, rf"held\[{seat}\]: .* before any scoring of the current turn")
    data["held"][seat][0][1] = state.turn - 1
    RULES.from_dict(data)


# -- A7: pending features and the phase context --------------------------------------------------
def test_pending_features_must_be_what_the_last_placement_completed():
    state = in_phase(ORDER)
    data = snapshot(state)
    group = 0 if data["groups"][0] else 1
    castle = state.castle
    other = next(  # a name of the just-placed tile whose feature is not complete
        n
        for n in [*range(304, 316), *range(318, 326)]
        if not castle.is_complete(castle.feature_named(state.last_cell, n))
    )
    data["groups"][group][0] = other
    refused(data, "pending features .* are not distinct features the last placement completed")
    data = snapshot(state)
    data["groups"][group][1] = data["groups"][group][0]
    refused(data, "not distinct")
    data = snapshot(state)
    data["groups"] = [data["groups"][1], data["groups"][0]]  # the other seat's group
    refused(data, "groups")


def test_the_completed_list_of_a_follower_decision_is_checked():
    state = first_state(lambda s: s.phase == FOLLOWER and s.completed)
    data = snapshot(state)
    data["completed"] = []
    refused(data, "completed: .* are not the features the last placement completed")
    data = snapshot(in_phase(PLACE))
    data["completed"] = [304]
    refused(data, "completed: phase PLACE has no unresolved completions")


@pytest.mark.parametrize(
    "phase, change, message",
    [
        (PLACE, lambda d: d.update(last_cell=d["placements"][-1][0]), "last_cell: phase PLACE"),
        (GAME_OVER, lambda d: d.update(last_cell=d["placements"][-1][0]), "last_cell: phase"),
        (GAME_OVER, lambda d: d.update(extra_turn=True), "a finished game has neither"),
        (FOLLOWER, lambda d: d.update(active=1 - d["active"]), "active: seat .* is deciding"),
        (FOLLOWER, lambda d: d.update(last_cell=d["placements"][0][0]), "last_cell: .* is not"),
        (FOLLOWER, lambda d: d.update(tile=d["stack"].pop()), "tile: phase FOLLOWER has no"),
        (PLACE, lambda d: d.update(extra_turn=True), "extra_turn: the active player has used"),
        (PLACE, lambda d: d.update(final=[[["bonus", 1]], []]), "final: phase PLACE comes"),
        (PLACE, lambda d: d.update(groups=[[304], []]), "groups, doubling: phase PLACE has no"),
        (EXTRA, lambda d: [h.__setitem__(1, d["turn"]) for h in d["held"][d["active"]]],
         "EXTRA needs a usable extra-turn wall tile"),
        (DOUBLE, lambda d: d.update(phase=ORDER), "groups|doubling"),
        (ORDER, lambda d: d.update(phase=FOLLOWER), "completed"),
        (GAME_OVER, lambda d: d.update(phase=PLACE), "tile: phase PLACE needs a drawn tile"),
    ],
)  # fmt: skip
def test_phase_context_is_checked(phase, change, message):
    data = snapshot(in_phase(phase))
    change(data)
    refused(data, message)


def _complete_segment(state: State) -> tuple[int, int, int] | None:
    """(cell, placer, lowest slot) of a segment on a complete tower, house or path, on a
    tile with no follower, or None."""
    castle = state.castle
    for cell, code, seat in castle.history:
        g = CELL_GRID[cell]
        if g in castle.followers:
            continue
        for lowest in CODE_LOWEST[code]:
            if castle.is_complete(castle.feature_at(g, lowest)):
                return cell, seat, lowest
    return None


def test_followers_only_on_their_placers_tiles_and_not_on_scored_features():
    state = first_state(lambda s: s.phase == PLACE and _complete_segment(s) is not None)
    cell, seat, lowest = _complete_segment(state)
    data = snapshot(state)
    data["followers"].append([cell, 1 - seat, lowest])  # on a tile the other seat laid
    data["supply"][1 - seat] -= 1
    refused(data, r"followers: seat \d's follower on .* a tile seat \d laid")
    data = snapshot(state)
    data["followers"].append([cell, seat, lowest])  # on a feature scored (or tied) already
    data["supply"][seat] -= 1
    refused(data, "followers: a follower on the complete .* not waiting to be scored")


def test_a_marker_on_a_stocked_corner_tower_is_refused():
    data = snapshot(RULES.new_state(2, seed=0))
    data["scores"][0] = STOCKED_CORNERS[0].spaces[1]  # 12: C1, still stocked
    refused(data, "scores: seat 0's marker stands on corner C1")
    data["scores"][0] = 10
    RULES.from_dict(data)


def test_real_snapshots_of_every_phase_load_back_identically():
    for seed in (*RARE_PHASE_SEEDS, 0, 1):
        for state in random_game(seed):
            copy = RULES.from_json(state.to_json())
            assert copy.to_json() == state.to_json()


# -- A8: snapshots are copies -------------------------------------------------------------------
def _mutate_every_container(obj) -> None:
    if isinstance(obj, dict):
        for value in list(obj.values()):
            _mutate_every_container(value)
        obj["__mutated__"] = 1
    elif isinstance(obj, list):
        for item in list(obj):
            _mutate_every_container(item)
        obj.append(999)
        if len(obj) > 1:
            obj[0] = -7


def test_to_dict_hands_out_copies():
    for state in every_phase():
        before = state.to_json()
        view_before = state.view(0).observation()
        _mutate_every_container(state.to_dict())
        assert state.to_json() == before, state.phase
        assert np.array_equal(state.view(0).observation(), view_before)
        fresh = state.clone()
        if not fresh.is_terminal():  # still plays like the original
            fresh.apply(fresh.legal_actions()[0])


# -- A9: view checks its seat ----------------------------------------------------------------------
@pytest.mark.parametrize("seat", [-1, 2, True, 1.0, "0", None])
def test_view_refuses_seats_out_of_range(seat):
    state = RULES.new_state(2, seed=0)
    with pytest.raises(InvalidConfigError, match="seat=.* is not allowed"):
        state.view(seat)


def test_view_accepts_numpy_seats():
    state = RULES.new_state(2, seed=0)
    assert state.view(np.int64(1)).seat == 1


# -- A4: option ranges ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, bad, good",
    [("keep_bonus_tiles", (-1, 77, 10**9, True, 1.5, "5"), (0, 76)),
     ("wall9_points", (-1, 101, 10**9, False, 5.0, None), (0, 100))],
)  # fmt: skip
def test_numeric_options_have_a_documented_range(name, bad, good):
    option = RULES.options[name]
    assert option.allowed_text == f"an integer 0 to {good[1]}"
    for value in bad:
        with pytest.raises(InvalidConfigError, match=f"{name}=.* is not allowed; allowed: an"):
            RULES.new_state(2, seed=0, **{name: value})
    for value in good:
        assert RULES.new_state(2, seed=0, **{name: value}).config[name] == value


def test_observation_stays_in_bounds_at_the_option_extremes():
    low, high = RULES.observation_bounds
    for options in ({"keep_bonus_tiles": 76, "wall9_points": 100}, {"keep_bonus_tiles": 0}):
        for seed in range(3):
            state = RULES.new_state(2, seed=seed, **options)
            rng = np.random.default_rng(seed)
            while True:
                for seat in (0, 1):
                    obs = state.view(seat).observation()
                    assert obs.min() >= low and obs.max() <= high
                if state.is_terminal():
                    break
                state.apply(int(rng.choice(state.legal_actions())))


# -- B3, B6: the end of the game keeps no turn context ------------------------------------------
def _channel(obs: np.ndarray, channel: int) -> np.ndarray:
    return obs[channel * 132 : (channel + 1) * 132]


def test_just_placed_channel_only_during_a_turn_after_the_placement():
    for seed in (*RARE_PHASE_SEEDS, 0):
        for state in random_game(seed):
            during = state.phase in (FOLLOWER, ORDER, DOUBLE, EXTRA)
            for seat in (0, 1):
                plane = _channel(state.view(seat).observation(), enc.JUST_PLACED)
                if during:
                    assert plane.sum() == 1 and plane[CELL_GRID[state.last_cell]] == 1
                else:
                    assert plane.sum() == 0, (seed, state.phase)


def test_a_finished_game_keeps_no_turn_context():
    state = random_game(5)[-1]
    assert state.phase == GAME_OVER
    assert state.last_cell is None and state.tile is None and state.doubling is None
    assert state.completed == [] and state.groups == [[], []] and not state.extra_turn
    for seat in (0, 1):
        obs = state.view(seat).observation()
        assert _channel(obs, enc.JUST_PLACED).sum() == 0
        assert obs[enc.PHASE : enc.PHASE + 5].sum() == 0 and obs[enc.EXTRA_TURN] == 0


def test_a_game_that_ends_in_an_extra_turn_ends_clean():
    state = position(
        tile="T04", active=A, held=[[(EXTRA_TURN, 5)], []], turn=10, stack=["T03"],
        rest="discards",
    )  # fmt: skip
    play(state, place(9, 3, 0), PASS, YES)  # the extra turn draws the last tile
    assert state.extra_turn and state.phase == PLACE
    play(state, state.legal_actions()[0], PASS)
    assert state.phase == GAME_OVER and not state.extra_turn and state.last_cell is None
    assert state.view(A).observation()[enc.EXTRA_TURN] == 0


def test_usable_now_is_a_presence_flag_as_documented():
    state = position(
        ("T18", 0, (4, 0)),
        ("T07", 1, (5, 0)),
        followers={(5, 0): (A, 2)},
        tile="T07",
        held=[[TOWER_X2, TOWER_X2], []],
    )
    obs = state.view(A).observation()
    assert obs[enc.MY_WALL + TOWER_X2 - 1] == 1.0  # two held: 2 / 2
    assert obs[enc.MY_USABLE + TOWER_X2 - 1] == 0.5  # usable: a flag, 1 / 2
    row = next(line for line in enc.__doc__.splitlines() if line.startswith("335 "))
    assert "a flag" in row and row.endswith("0/0.5")
