"""Issue 11 for Wasabi!: strict snapshots (A7), snapshot copies (A8), view seats (A9),
option ranges (A4), the hidden pending kind (B1), the discard marks (B2) and clean finished
states (B6)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from boardgame_envs import InvalidConfigError, InvalidStateError
from boardgame_envs.wasabi.data import SPICY, TILE_COUNTS, kind_id
from boardgame_envs.wasabi.encoding import MARKED, PENDING_KIND
from boardgame_envs.wasabi.rules import (
    CHOP_TARGET,
    DISCARD_MORE,
    DONE,
    DRAFT_PICK,
    GAME_OVER,
    GIFT_PICK,
    MAX_TURNS_LIMIT,
    PLACE_TARGET,
    REFILL_RECIPE,
    REWARD_DISCARD,
    REWARD_PICK,
    STEP1_START,
    SWITCH_FIRST,
    State,
)
from tests.wasabi.helpers import CARD, CELL, KIND, RULES, SLOT, table
from tests.wasabi.test_determinization import built_positions

HIDE = {"hide_opponent_hands": True}


def play_until(state: State, phase: str, seed: int = 0, limit: int = 3000) -> State:
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if state.phase == phase:
            return state
        state.apply(int(rng.choice(state.legal_actions())))
    raise AssertionError(f"no {phase} within {limit} decisions")


def snapshot(state: State) -> dict[str, Any]:
    return json.loads(state.to_json())


def refused(data: dict[str, Any], field: str) -> str:
    """Loading ``data`` raises InvalidStateError naming ``field``; returns the message."""
    with pytest.raises(InvalidStateError) as error:
        RULES.from_dict(data)
    message = str(error.value)
    assert field in message.split(": ")[1].split(", "), message  # "invalid ...: FIELDS: ..."
    return message


# -- A7: the holes ---------------------------------------------------------------
def test_place_target_without_a_chosen_kind_is_refused():
    state = play_until(RULES.new_state(2, seed=1), PLACE_TARGET)
    data = snapshot(state)
    RULES.from_dict(data)  # the real one loads
    data["kind"] = None
    refused(data, "kind")
    # A kind the mover does not hold is no better.
    data["kind"] = next(k for k in range(17) if not state.tiles[state.active][k])
    refused(data, "kind")
    # Nor is a kind outside PLACE_TARGET.
    data = snapshot(play_until(RULES.new_state(2, seed=1), STEP1_START))
    data["kind"] = 0
    refused(data, "kind")


def test_hand_limit_discard_without_its_new_card_is_refused():
    state = built_positions(hide=False)[0]
    assert state.phase == REWARD_DISCARD
    data = snapshot(state)
    RULES.from_dict(data)
    data["new_card"] = None
    refused(data, "new_card")
    # The new card must be one the mover holds, with 3 cards in hand.
    held = state.cards[state.active]
    data["new_card"] = next(t for t in range(5) if not held[t])
    refused(data, "new_card")


@pytest.mark.parametrize(
    "field, value",
    [
        ("turn", 8.7),
        ("turn", True),
        ("active", True),
        ("active", 1.0),
        ("picks", "0"),
        ("card_before", 0),
        ("must_place", 1),
        ("winner", False),
        ("version", 1.0),
        ("num_players", True),
    ],
)
def test_wrong_types_are_refused_not_coerced(field, value):
    data = snapshot(play_until(RULES.new_state(2, seed=2), STEP1_START))
    data[field] = value
    refused(data, field)


def test_nested_wrong_types_are_refused():
    base = snapshot(play_until(RULES.new_state(2, seed=2), REFILL_RECIPE))
    for field, change in (
        ("pantry", lambda d: d["pantry"].__setitem__(0, 9.0)),
        ("tiles[1]", lambda d: d["tiles"][1].__setitem__(0, True)),
        ("stacks", lambda d: d.__setitem__("stacks", "none")),
        ("menus[0]", lambda d: d["menus"][0].__setitem__(0, "R2-01")),
        ("completed[0]", lambda d: d["completed"].__setitem__(0, [[0, 1]])),
        ("config", lambda d: d["config"].pop("max_turns")),
        ("config", lambda d: d["config"].__setitem__("max_turns", 2.0)),
    ):
        data = json.loads(json.dumps(base))
        change(data)
        refused(data, field)


def test_version_and_fields_are_checked():
    data = snapshot(RULES.new_state(2, seed=0))
    assert data["version"] == RULES.version == 1
    data["version"] = 0
    assert "this is wasabi version 1" in refused(data, "version")
    data = snapshot(RULES.new_state(2, seed=0))
    data["extra"] = 1
    with pytest.raises(InvalidStateError, match="unknown field\\(s\\) 'extra'"):
        RULES.from_dict(data)


@pytest.mark.parametrize("field, value", [("active", 2), ("start_player", -1), ("winner", 5)])
def test_seats_out_of_range_are_refused(field, value):
    data = snapshot(play_until(RULES.new_state(2, seed=3), STEP1_START))
    data[field] = value
    refused(data, field)


def test_a_fixed_start_player_option_must_match():
    data = snapshot(RULES.new_state(3, seed=0, start_player=1))
    data["start_player"] = 2
    refused(data, "start_player")


def test_phase_context_is_checked():
    # Pending picks at REWARD_PICK: at least one, no more than the recipes completed.
    state = play_until(card_state(), REWARD_PICK)
    data = snapshot(state)
    RULES.from_dict(data)
    data["picks"] = 0  # the old engine looped in REWARD_PICK with negative picks
    refused(data, "picks")
    data["picks"] = 4
    refused(data, "picks")
    # The turn context must be one the decision point can have.
    data = snapshot(play_until(RULES.new_state(2, seed=4), STEP1_START))
    data["card_used"] = SPICY
    refused(data, "card_used")
    data = snapshot(play_until(RULES.new_state(2, seed=4), STEP1_START))
    data["placements_left"] = 7
    refused(data, "placements_left")
    # A selected cell only at SWITCH_SECOND and CHOPPED_TILE; a lifted tile only at the latter.
    data = snapshot(play_until(RULES.new_state(2, seed=4), STEP1_START))
    data["selected"] = 3
    refused(data, "selected")
    # Marks only while passing Step 1, on non-empty slots.
    state = play_until(RULES.new_state(2, seed=4), STEP1_START)
    state.apply(SLOT(0))
    assert state.phase == DISCARD_MORE
    data = snapshot(state)
    RULES.from_dict(data)
    data["marked"] = [0, 0]
    refused(data, "marked")
    data["marked"] = []
    refused(data, "marked")


def test_refills_and_draws_that_cannot_happen_are_refused():
    state = play_until(RULES.new_state(2, seed=5), REFILL_RECIPE)
    data = snapshot(state)
    full = next(s for s in range(2) if None not in state.menus[s])
    data["active"] = full  # a full menu cannot draw (the old engine crashed in index())
    data["start_player"] = (full - state.turn) % 2
    refused(data, "menus")
    # A drafter with 3 recipes is done; the next one drafts.
    state = play_until(RULES.new_state(2, seed=5), DRAFT_PICK)
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.phase == DRAFT_PICK
    data = snapshot(state)
    RULES.from_dict(data)
    data["active"] = state.start_player
    refused(data, "menus")


def test_setup_hands_must_be_the_gifts_so_far():
    """With hidden hands the determinizer deals the setup's hidden hands as whole gifts
    (three different kinds) until the deal works: a snapshot whose hands are no gifts would
    make it loop for ever, so it is refused."""
    state = play_until(RULES.new_state(3, seed=6, start_player=0, **HIDE), DRAFT_PICK)
    data = snapshot(state)
    RULES.from_dict(data)
    tiles = data["tiles"]
    k = next(k for k in range(17) if tiles[2][k])
    j = next(j for j in range(17) if tiles[1][j] and not tiles[2][j] and j != k)
    tiles[1][j] -= 1
    tiles[2][k] += 1  # seat 2 now holds two of one kind: no gift
    refused(data, "tiles")
    # Mid-gift, the receiver holds exactly the gift so far.
    state = RULES.new_state(3, seed=6, start_player=0)
    state.apply(KIND("Tuna"))
    data = snapshot(state)
    RULES.from_dict(data)
    data["gift"] = []
    refused(data, "tiles")
    data["gift"] = [kind_id("Rice")]
    refused(data, "gift")


def test_end_of_game_is_checked():
    live = snapshot(play_until(RULES.new_state(2, seed=7), STEP1_START))
    data = json.loads(json.dumps(live))
    data["phase"] = GAME_OVER  # no full board, no 10th recipe, turn limit not reached
    refused(data, "phase")
    data = json.loads(json.dumps(live))
    data["winner"] = 0
    refused(data, "winner")
    data = json.loads(json.dumps(live))
    data["turn"] = data["config"]["max_turns"]
    refused(data, "turn")
    data = json.loads(json.dumps(live))
    data["cubes"][0] = 10**30
    refused(data, "cubes")


def test_a_decision_without_a_legal_action_is_refused():
    state = table(2, board={(0, 0): "Rice"}, hands={0: "Tuna"}, cards={0: "Switch!"})
    state.apply(CARD("Switch!"))
    assert state.phase == SWITCH_FIRST
    data = snapshot(state)
    RULES.from_dict(data)
    data["stacks"][0] = []  # no tile left: no Switch! pair (the pantry takes the Rice back)
    data["pantry"][kind_id("Rice")] += 1
    refused(data, "phase")


def card_state() -> State:
    from tests.wasabi.test_determinization import card_rich_start

    return card_rich_start(3, hide=False)


def test_built_positions_still_load_and_samples_pass_the_checks():
    for hide in (False, True):
        for state in built_positions(hide):
            assert RULES.from_json(state.to_json()).to_json() == state.to_json()
            for seat in range(state.num_players):
                sample = RULES.sample_state(state.view(seat), np.random.default_rng(seat))
                RULES.from_json(sample.to_json())


# -- A8: snapshots are copies --------------------------------------------------------------
def containers(value: Any) -> list[Any]:
    found = []
    if isinstance(value, (dict, list)):
        found.append(value)
        for item in value.values() if isinstance(value, dict) else value:
            found += containers(item)
    return found


@pytest.mark.parametrize("phase", [GIFT_PICK, PLACE_TARGET, CHOP_TARGET, REWARD_PICK, GAME_OVER])
def test_to_dict_hands_out_copies(phase):
    state = play_until(card_state(), phase) if phase != GIFT_PICK else RULES.new_state(3, 1)
    before = state.to_json()
    data = state.to_dict()
    found = containers(data)
    assert len(found) > 50
    for item in found:
        if isinstance(item, dict):
            item["spoiled"] = 1
        else:
            item.append(99)
    assert state.to_json() == before
    assert state.config == RULES.from_json(before).config


# -- A9: view seats ---------------------------------------------------------------------
@pytest.mark.parametrize("seat", [-1, 2, True, 1.0, "0", None])
def test_view_refuses_a_seat_out_of_range(seat):
    state = RULES.new_state(2, seed=0)
    with pytest.raises(InvalidConfigError, match="seat="):
        state.view(seat)


def test_view_accepts_numpy_seats():
    state = RULES.new_state(3, seed=0)
    assert state.view(np.int64(2)).seat == 2 and type(state.view(np.int64(2)).seat) is int


# -- A4: option ranges --------------------------------------------------------------------
def test_max_turns_has_a_documented_range():
    option = RULES.options["max_turns"]
    assert option.allowed_text == "an integer from 1 to 1,000,000"
    assert MAX_TURNS_LIMIT == 1_000_000
    for bad in (0, -1, MAX_TURNS_LIMIT + 1, 10**9, True, 2.0, "5"):
        with pytest.raises(InvalidConfigError, match="max_turns"):
            RULES.new_state(2, seed=0, max_turns=bad)
    # The largest allowed value allocates nothing in proportion to it.
    state = RULES.new_state(2, seed=0, max_turns=MAX_TURNS_LIMIT)
    for _ in range(30):
        state.apply(state.legal_actions()[0])
    assert len(state.to_json()) < 5000
    from pathlib import Path

    doc = Path(__file__).parents[2] / "docs" / "games" / "wasabi.md"
    assert "1 to 1,000,000" in doc.read_text()


# -- B1: the pending kind under hidden hands ------------------------------------------------
def test_hidden_pending_kind_is_shown_only_to_the_placer():
    """The issue's example: 3 players, seed 0, hidden hands, start player 0, the first legal
    action each time; after 19 decisions seat 0 places and seat 1 must not see the kind."""
    state = RULES.new_state(3, seed=0, hide_opponent_hands=True, start_player=0)
    for _ in range(19):
        state.apply(state.legal_actions()[0])
    assert state.phase == PLACE_TARGET and state.kind is not None
    block = slice(PENDING_KIND, PENDING_KIND + 17)
    for seat in range(3):
        view = state.view(seat)
        shown = view.observation()[block]
        if seat == state.active:
            assert view.kind == state.kind and shown.argmax() == state.kind and shown.sum() == 1
            assert "placing" in state.render_text(seat)
        else:
            assert view.kind is None and not shown.any()
            assert "placing" not in state.render_text(seat)
    # Without the option the kind is public (spec §7: every move of a tile is open).
    state = RULES.new_state(3, seed=0, start_player=0)
    for _ in range(19):
        state.apply(state.legal_actions()[0])
    assert all(state.view(s).observation()[block].sum() == 1 for s in range(3))


# -- B2: the discard marks ----------------------------------------------------------------
def test_discard_marks_are_shown_to_their_owner_only():
    state = play_until(RULES.new_state(3, seed=8), STEP1_START)
    p = state.active
    slots = [i for i, r in enumerate(state.menus[p]) if r is not None]
    state.apply(SLOT(slots[0]))
    assert state.phase == DISCARD_MORE
    block = slice(MARKED, MARKED + 3)
    for seat in range(3):
        shown = state.view(seat).observation()[block].tolist()
        expected = [float(i == slots[0]) for i in range(3)] if seat == p else [0.0] * 3
        assert shown == expected, seat
        assert state.view(seat).marked == (slots[0],)  # the fact itself stays public


# -- B6: clean finished states ------------------------------------------------------------
NINE = {0: [2, 2, 2, 2, 3, 3, 3, 4, 4]}  # only the length-5 token left


@pytest.mark.parametrize("card", ["Spicy!", "Chop!"])
def test_an_instant_victory_keeps_no_turn_context(card):
    """A 10th recipe in the middle of a turn (after a card): the finished state keeps no
    card used, placements, picks or lifted tile (a chopped tile goes back to the pantry)."""
    row = {(0, 0): "Rice", (0, 1): "Tuna", (0, 2): "Shrimp", (0, 3): "Squid"}
    if card == "Spicy!":
        board, actions = row, [CARD(card), KIND("Eel"), CELL(0, 4)]
    else:
        board, actions = {**row, (0, 4): "Eel Maki"}, [CARD(card), CELL(0, 4)]
    state = table(
        2,
        board=board,
        hands={0: "Eel Crab"},
        cards={0: card},
        menus={0: ["Ocean Platter"]},
        completed_lengths=NINE,
    )
    for action in actions:
        state.apply(action)
    assert state.phase == GAME_OVER and state.winner == 0
    fresh = RULES.new_state(2, seed=0)
    for field in ("card_used", "card_before", "stack_on", "placements_left", "must_place"):
        assert getattr(state, field) == getattr(fresh, field), field
    assert (state.kind, state.selected, state.lifted, state.marked, state.picks) == (
        None,
        None,
        None,
        (),
        0,
    )
    if card == "Chop!":
        assert state.pantry[kind_id("Maki")] == TILE_COUNTS[kind_id("Maki")]  # lifted, returned
    assert RULES.from_json(state.to_json()).to_json() == state.to_json()
    assert state.view(1).observation()[2126:2137].tolist() == [0] * 5 + [1, 0, 0, 1, 0, 0]


def test_a_finished_state_with_turn_context_is_refused():
    state = table(2, max_turns=1, hands={0: "Rice"})
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 0))
    while not state.is_terminal():
        state.apply(DONE)
    data = snapshot(state)
    RULES.from_dict(data)
    data["placements_left"] = 0
    refused(data, "placements_left")
