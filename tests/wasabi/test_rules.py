"""The rules of the spec one by one (the worked examples are in test_examples.py)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from boardgame_envs import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.wasabi.data import (
    ACTIVE_COLUMNS,
    CARDS_IN_PLAY,
    DECK_RECIPES,
    INGREDIENTS,
    NUM_RECIPES,
    NUM_TILES,
    RECIPES,
    TOKENS,
    card_type,
    kind_id,
    recipe_id,
)
from boardgame_envs.wasabi.rules import (
    AFTER_PLACEMENT,
    CHOPPED_TILE,
    DISCARD_MORE,
    DONE,
    DRAFT_PICK,
    GAME_OVER,
    GIFT_PICK,
    NUM_ACTIONS,
    PLACE_DUE,
    PLACE_TARGET,
    REFILL_INGREDIENT,
    REFILL_RECIPE,
    REWARD_PICK,
    STEP1_START,
    geometry,
)
from tests.wasabi.helpers import CARD, CELL, KIND, LENGTH, RULES, SLOT, cell, kinds, table

#: Every scenario runs on the Python engine and, where built, in lockstep on the native one.
pytestmark = pytest.mark.usefixtures("engine")


# -- data (spec §2): the totals the spec gives ----------------------------------------------
def test_ingredient_totals():
    assert len(INGREDIENTS) == 17 and NUM_TILES == 72
    assert len({i.category for i in INGREDIENTS}) == 6
    assert [i.name for i in INGREDIENTS if not i.giftable] == ["Rice", "Fugu", "Uni", "Lobster"]


def test_recipe_totals_and_properties():
    assert NUM_RECIPES == 52
    assert [len(deck) for deck in DECK_RECIPES] == [16, 14, 12, 10]
    assert all(len(set(r.kinds)) == r.length for r in RECIPES)  # different ingredients
    assert len({frozenset(r.kinds) for r in RECIPES}) == 52  # no two share a set
    rice, maki = kind_id("Rice"), kind_id("Maki")
    unique = {kind_id(k) for k in ("Fugu", "Uni", "Lobster")}
    assert not any(rice in r.kinds and maki in r.kinds for r in RECIPES)
    assert all(len(unique & set(r.kinds)) <= 1 for r in RECIPES)
    appearances = Counter(k for r in RECIPES for k in r.kinds)
    assert sum(appearances.values()) == 172
    assert appearances[rice] == 21 and appearances[maki] == 22
    assert all(appearances[k] == 10 for k in range(2, 14))
    assert all(appearances[k] == 3 for k in unique)
    names = {r.name for r in RECIPES}
    assert {"Squid Salad Sandwich", "Snapper Crunch", "Poison Pill"} <= names


def test_token_totals():
    assert [TOKENS[L].per_player for L in (2, 3, 4, 5)] == [4, 3, 2, 1]
    assert sum(t.per_player * t.points for t in TOKENS.values()) == 30
    assert sum(t.per_player * t.cubes for t in TOKENS.values()) == 20


def test_action_cards_by_player_count():
    assert {n: sum(c) for n, c in CARDS_IN_PLAY.items()} == {2: 5, 3: 7, 4: 10}
    assert all(max(c) <= 2 for c in CARDS_IN_PLAY.values())


def test_names_parse_and_reject():
    assert kind_id("sa") == kind_id("Salmon") == 2
    assert recipe_id("r2-01") == recipe_id("Salmon Nigiri") == 0
    assert card_type("chop") == card_type("Chop!") == 3
    with pytest.raises(ValueError, match="unknown ingredient 'Kale'; known: Rice, Maki"):
        kind_id("Kale")
    with pytest.raises(ValueError, match="unknown recipe 'Pizza'"):
        recipe_id("Pizza")
    with pytest.raises(ValueError, match="unknown action card 'Joker'"):
        card_type("Joker")


# -- board (spec §2.1) and Wasabi! anchors -------------------------------------------------
@pytest.mark.parametrize(
    "n, columns, cells, anchors", [(2, 5, 30, 20), (3, 6, 36, 25), (4, 7, 42, 30)]
)
def test_active_area_and_anchor_count(n, columns, cells, anchors):
    assert ACTIVE_COLUMNS[n] == columns
    geo = geometry(columns)
    assert len(geo.active) == cells and len(geo.anchors) == anchors
    state = table(n, cards={0: "Wasabi!"})
    state.apply(CARD("Wasabi!"))
    assert len(state.legal_actions()) == anchors
    assert max(state.legal_actions()) == CELL(4, columns - 2)


def test_cells_outside_the_active_area_are_never_legal():
    state = table(2, hands={0: "Rice"})
    state.apply(KIND("Rice"))
    assert all(a % 7 < 5 for a in state.legal_actions()) and len(state.legal_actions()) == 30


# -- setup (spec §3) -------------------------------------------------------------------------
def test_setup_gift_then_draft_then_first_turn():
    state = RULES.new_state(2, seed=5, start_player=1)
    assert state.phase == GIFT_PICK and state.current_player == 1
    assert state.kitchen == (1, 1, 1, 1, 1) and sum(state.pantry) == 72
    for name in ("Maki", "Tuna", "Crab"):
        state.apply(KIND(name))
    assert state.tiles[0][kind_id("Maki")] == 1 and state.current_player == 0
    for name in ("Salmon", "Eel", "Roe"):
        state.apply(KIND(name))
    assert state.phase == DRAFT_PICK and state.current_player == 1
    assert state.legal_actions() == [64, 65, 66, 67]
    top3 = state.decks[1][0]
    state.apply(LENGTH(3))
    assert state.menus[1] == (top3, None, None)  # the lowest empty slot
    state.apply(LENGTH(2))
    state.apply(LENGTH(5))
    assert state.current_player == 0 and state.phase == DRAFT_PICK
    for length in (2, 2, 2):
        state.apply(LENGTH(length))
    assert state.phase == STEP1_START and state.current_player == 1 and state.turn == 0
    assert [sum(t) for t in state.tiles] == [3, 3]


def test_start_player_is_drawn_from_the_seed():
    starts = {RULES.new_state(4, seed=s).start_player for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert RULES.new_state(3, seed=7).to_json() == RULES.new_state(3, seed=7).to_json()
    decks = [RULES.new_state(2, seed=s).decks[0] for s in range(3)]
    assert decks[0] != decks[1] != decks[2]
    assert sorted(decks[0]) == list(DECK_RECIPES[0])


# -- Step 1 (spec §4.1, §4.4) ----------------------------------------------------------------
def test_step1_start_options():
    state = table(2, hands={0: "Rice Tuna"}, cards={0: "Stack! Chop!"}, menus={0: ["R2-01"]})
    # Stack! and Chop! need an occupied cell: none yet.
    assert state.legal_actions() == [KIND("Rice"), KIND("Tuna"), SLOT(0)]
    state = table(
        2,
        board={(0, 0): "Maki"},
        hands={0: "Rice Tuna"},
        cards={0: "Stack! Chop!"},
        menus={0: ["R2-01"]},
    )
    assert state.legal_actions() == [KIND("Rice"), KIND("Tuna"), CARD("Stack!"), CARD("Chop!"), 68]


def test_a_player_without_tiles_is_never_forced_to_discard_or_play():
    state = table(2, cards={0: "Switch!"}, board={(0, 0): "Maki"}, menus={0: ["R2-01"]})
    assert state.legal_actions() == [CARD("Switch!"), SLOT(0), DONE]
    state.apply(DONE)
    assert state.phase == REFILL_INGREDIENT and state.card_used is None


def test_placement_is_mandatory_and_done_is_offered_after_it():
    state = table(2, hands={0: "Rice"})
    assert DONE not in state.legal_actions()
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 0))
    assert state.phase == AFTER_PLACEMENT and state.legal_actions() == [DONE]


def test_stack_places_on_an_occupied_cell_and_only_the_top_counts():
    state = table(
        2,
        board={(0, 0): "Salmon", (1, 0): "Rice"},
        hands={0: "Tuna Eel"},
        cards={0: "Stack!"},
        menus={0: ["Tuna Nigiri", "Salmon Nigiri"]},
    )
    state.apply(CARD("Stack!"))
    assert state.phase == PLACE_DUE and DONE not in state.legal_actions()
    state.apply(KIND("Tuna"))
    assert state.phase == PLACE_TARGET and len(state.legal_actions()) == 30
    state.apply(CELL(0, 0))
    assert state.stacks[cell((0, 0))] == tuple(kinds("Salmon Tuna"))
    # Tuna on Rice completes Tuna Nigiri; the buried Salmon does not count.
    assert state.completed[0] == ((recipe_id("Tuna Nigiri"), True),)
    assert state.phase == REWARD_PICK  # one card per turn: no placement left, no D6


def test_stack_is_not_legal_after_placing():
    state = table(2, board={(0, 0): "Maki"}, hands={0: "Rice Tuna"}, cards={0: "Stack!"})
    state.apply(KIND("Rice"))
    state.apply(CELL(3, 3))
    assert state.legal_actions() == [DONE]


def test_spicy_after_placing_gives_one_optional_placement():
    state = table(2, hands={0: "Rice Tuna Eel"}, cards={0: "Spicy!"})
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 0))
    state.apply(CARD("Spicy!"))
    assert state.phase == PLACE_DUE
    assert state.legal_actions() == [KIND("Tuna"), KIND("Eel"), DONE]
    state.apply(KIND("Eel"))
    state.apply(CELL(0, 1))
    assert state.phase == REFILL_INGREDIENT  # no third placement, no second card
    assert state.kitchen[card_type("Spicy!")] == 1


def test_spicy_before_second_placement_may_be_declined():
    state = table(2, hands={0: "Rice Tuna"}, cards={0: "Spicy!"})
    state.apply(CARD("Spicy!"))
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 0))
    assert state.legal_actions() == [KIND("Tuna"), DONE]
    state.apply(DONE)
    assert state.phase == REFILL_INGREDIENT and state.tiles[0][kind_id("Tuna")] == 1


def test_switch_needs_adjacent_uncovered_cells_not_both_empty():
    state = table(2, board={(0, 0): "Maki"}, cards={0: "Switch!"}, hands={0: "Rice"})
    state.apply(CARD("Switch!"))
    assert state.legal_actions() == [CELL(0, 0), CELL(0, 1), CELL(1, 0)]
    state.apply(CELL(0, 1))
    assert state.legal_actions() == [CELL(0, 0)]  # (0,2), (1,1) are empty too
    state.apply(CELL(0, 0))
    assert state.stacks[cell((0, 1))] == (kind_id("Maki"),) and not state.stacks[0]
    assert state.phase == PLACE_DUE and DONE not in state.legal_actions()  # before placing


def test_switch_moves_whole_stacks():
    state = table(
        2, board={(2, 2): "Rice Tuna", (2, 3): "Eel"}, cards={0: "Switch!"}, hands={0: "Maki"}
    )
    state.apply(CARD("Switch!"))
    state.apply(CELL(2, 2))
    state.apply(CELL(2, 3))
    assert state.stacks[cell((2, 3))] == tuple(kinds("Rice Tuna"))
    assert state.stacks[cell((2, 2))] == tuple(kinds("Eel"))


def test_chop_after_placing_returns_the_tile_and_can_complete():
    state = table(
        2,
        board={(1, 1): "Maki Tuna"},
        hands={0: "Rice"},
        cards={0: "Chop!"},
        menus={0: ["Tekka Maki"]},
    )
    state.apply(KIND("Rice"))
    state.apply(CELL(4, 4))
    state.apply(CARD("Chop!"))
    assert state.legal_actions() == [CELL(1, 1), CELL(4, 4)]
    tuna = state.pantry[kind_id("Tuna")]
    state.apply(CELL(1, 1))
    assert state.stacks[cell((1, 1))] == (kind_id("Maki"),)
    assert state.pantry[kind_id("Tuna")] == tuna + 1 and state.lifted is None
    assert state.phase == REFILL_INGREDIENT  # Tekka Maki needs Maki and Tuna in a line


def test_chopped_tile_may_not_return_to_its_own_cell():
    state = table(2, board={(0, 0): "Rice"}, cards={0: "Chop!"}, hands={0: "Maki"})
    state.apply(CARD("Chop!"))
    state.apply(CELL(0, 0))
    assert state.phase == CHOPPED_TILE and CELL(0, 0) not in state.legal_actions()
    assert len(state.legal_actions()) == 30  # 29 empty cells + DONE


def test_chop_before_placing_with_an_empty_hand_lapses_the_placement():
    state = table(2, board={(0, 0): "Rice"}, cards={0: "Chop!"})
    state.apply(CARD("Chop!"))
    state.apply(CELL(0, 0))
    state.apply(DONE)
    assert state.phase == PLACE_DUE and state.legal_actions() == [DONE]


def test_wasabi_cards_never_overlap_and_block_every_effect():
    state = table(3, anchors=[(1, 1)], cards={0: "Wasabi!"}, hands={0: "Rice"})
    assert state.kitchen[card_type("Wasabi!")] == 0
    state.apply(CARD("Wasabi!"))
    legal = state.legal_actions()
    for rc in [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]:
        assert CELL(*rc) not in legal  # these blocks would overlap
    assert CELL(0, 3) in legal and CELL(3, 0) in legal and len(legal) == 25 - 9
    state.apply(CELL(3, 3))
    assert state.anchors == (cell((1, 1)), cell((3, 3))) and state.cubes[0] == 1
    assert state.phase == PLACE_DUE  # played before placing: the placement follows
    state.apply(KIND("Rice"))
    covered = {cell(rc) for rc in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (3, 4), (4, 3), (4, 4)]}
    assert not covered & set(state.legal_actions()) and len(state.legal_actions()) == 36 - 8


def test_wasabi_card_in_hand_until_laid():
    state = table(2, cards={0: "Wasabi!"}, hands={0: "Rice"})
    state.apply(CARD("Wasabi!"))
    assert state.cards[0][card_type("Wasabi!")] == 1 and state.card_used == card_type("Wasabi!")
    state.apply(CELL(0, 0))
    assert state.cards[0][card_type("Wasabi!")] == 0


def test_completion_with_more_matches_than_tokens_prefers_ideal_then_lower_slot():
    state = table(
        2,
        board={(0, 0): "Maki", (1, 0): "Tuna", (0, 2): "Maki"},
        hands={0: "Cucumber"},
        menus={0: ["Tekka Maki", "Kappa Maki"]},
        completed_lengths={0: [2, 2, 2]},
    )
    # Kappa Maki becomes ideal (Maki, Cucumber left to right); Tekka Maki matches too
    # (Maki above Tuna, top to bottom: ideal). One token left: both ideal, lower slot wins.
    state.apply(KIND("Cucumber"))
    state.apply(CELL(0, 3))
    assert state.completed[0][-1] == (recipe_id("Tekka Maki"), True)
    assert state.menus[0][1] == recipe_id("Kappa Maki") and state.picks == 1
    state = table(
        2,
        board={(0, 0): "Tuna", (0, 1): "Maki", (0, 3): "Maki"},
        hands={0: "Cucumber"},
        menus={0: ["Tekka Maki", "Kappa Maki"]},
        completed_lengths={0: [2, 2, 2]},
    )
    # Tekka Maki only backwards (Tuna, Maki): not ideal; Kappa Maki ideal: it wins.
    state.apply(KIND("Cucumber"))
    state.apply(CELL(0, 4))
    assert state.completed[0][-1] == (recipe_id("Kappa Maki"), True)
    assert state.menus[0][0] == recipe_id("Tekka Maki")


def test_windows_inside_longer_runs_count_and_share_tiles():
    state = table(
        4,
        board={(3, 0): "Squid", (3, 1): "Maki", (3, 2): "Tuna", (3, 4): "Radish"},
        hands={0: "Cucumber"},
        menus={0: ["Tekka Maki", "Spicy Tuna Roll", "Kappa Maki"]},
    )
    state.apply(KIND("Cucumber"))
    state.apply(CELL(3, 3))
    done = {r for r, _ in state.completed[0]}
    assert done == {recipe_id("Tekka Maki"), recipe_id("Spicy Tuna Roll")}
    assert state.picks == 2 and state.scores()[0] == 3 + 5


def test_diagonals_never_count():
    state = table(2, board={(0, 0): "Salmon"}, hands={0: "Rice"}, menus={0: ["Salmon Nigiri"]})
    state.apply(KIND("Rice"))
    state.apply(CELL(1, 1))
    assert state.completed[0] == ()


def test_only_the_active_players_recipes_complete():
    state = table(
        2,
        board={(0, 0): "Salmon"},
        hands={0: "Rice"},
        menus={0: ["Kappa Maki"], 1: ["Salmon Nigiri"]},
    )
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 1))
    assert state.completed == ((), ())


def test_passing_marks_slots_and_discards_to_the_bottom_in_slot_order():
    state = table(2, menus={0: ["Tekka Maki", "Lobster Feast", "Kappa Maki"]}, hands={0: "Rice"})
    state.apply(SLOT(2))
    assert state.phase == DISCARD_MORE and state.legal_actions() == [SLOT(0), SLOT(1), DONE]
    state.apply(SLOT(0))
    assert state.legal_actions() == [SLOT(1), DONE]
    state.apply(DONE)
    assert state.decks[0][-2:] == [recipe_id("Tekka Maki"), recipe_id("Kappa Maki")]
    assert state.menus[0] == (None, recipe_id("Lobster Feast"), None)
    assert state.phase == REFILL_INGREDIENT and state.tiles[0][kind_id("Rice")] == 1


# -- Step 2 (spec §4.7) ----------------------------------------------------------------------
def test_refills_are_optional_and_chosen():
    state = table(2, hands={0: "Rice"}, menus={0: ["Tekka Maki"]})
    state.apply(KIND("Rice"))
    state.apply(CELL(0, 0))
    state.apply(DONE)
    assert state.phase == REFILL_INGREDIENT
    assert KIND("Fugu") in state.legal_actions()  # rice and unique kinds may be taken
    state.apply(KIND("Fugu"))
    state.apply(DONE)
    assert state.phase == REFILL_RECIPE and sum(state.tiles[0]) == 1
    state.apply(LENGTH(5))
    assert state.menus[0][1] is not None and state.menus[0][2] is None
    state.apply(DONE)
    assert state.current_player == 1 and state.menus[0][2] is None


def wasabi_then_tekka_maki(kitchen_empty: bool):
    state = table(
        4,
        board={(0, 0): "Maki"},
        anchors=[(3, 0)],
        hands={0: "Tuna"},
        cards={0: "Wasabi!"},
        menus={0: ["Tekka Maki"]},
    )
    if kitchen_empty:  # every other card is in P1's hand, for this test only
        held = tuple(a + b for a, b in zip(state.cards[1], state.kitchen))
        state.cards = (state.cards[0], held, *state.cards[2:])
        state.kitchen = (0, 0, 0, 0, 0)
    state.apply(CARD("Wasabi!"))
    state.apply(CELL(0, 3))
    state.apply(KIND("Tuna"))
    state.apply(CELL(0, 1))
    assert state.phase == REWARD_PICK
    return state


def test_reward_pick_restriction_counts_board_wasabi_cards():
    # Only Wasabi! cards are on offer (both on the board): allowed ("no other choice").
    state = wasabi_then_tekka_maki(kitchen_empty=True)
    assert state.legal_actions() == [CELL(0, 3), CELL(3, 0), DONE]
    # With kitchen cards of other types on offer, board Wasabi! cards are forbidden.
    state = wasabi_then_tekka_maki(kitchen_empty=False)
    others = [CARD(t) for t in ("Stack!", "Spicy!", "Switch!", "Chop!")]
    assert state.legal_actions() == others + [DONE]


def test_no_completion_check_in_step_2():
    state = table(
        2,
        board={(0, 0): "Maki", (0, 1): "Tuna", (4, 4): "Salmon"},
        anchors=[(0, 0)],
        hands={0: "Rice"},
        menus={0: ["Salmon Nigiri", "Tekka Maki"]},
    )
    state.apply(KIND("Rice"))
    state.apply(CELL(3, 4))  # Salmon Nigiri (backwards)
    state.apply(DONE)
    state.apply(CELL(0, 0))  # pick the Wasabi! card up: Maki, Tuna uncovered
    assert state.anchors == () and len(state.completed[0]) == 1  # Tekka Maki waits
    assert state.menus[0][1] == recipe_id("Tekka Maki")


# -- end of the game (spec §6) ------------------------------------------------------------
def test_turn_limit_ends_the_game_as_a_full_board_end():
    state = table(2, hands={0: "Rice", 1: "Tuna"}, max_turns=2, cubes={1: 1})
    for _ in range(2):
        state.apply(state.legal_actions()[0])  # place
        state.apply(state.legal_actions()[0])  # the first cell
        while state.phase not in (STEP1_START, GAME_OVER):
            state.apply(DONE)
    assert state.is_terminal() and state.turn == 2 and not state.board_full()
    assert state.winners() == [1] and state.returns() == [-1.0, 1.0]


def test_a_board_full_mid_turn_is_not_the_end():
    names = "Maki Salmon Tuna Eel Shrimp Squid Crab Roe Avocado".split()
    cells = [(r, c) for r in range(6) for c in range(5) if (r, c) != (5, 4)]
    state = table(
        2,
        board={rc: names[i % len(names)] for i, rc in enumerate(cells)},
        hands={0: "Rice"},
        cards={0: "Chop!"},
    )
    state.apply(KIND("Rice"))
    state.apply(CELL(5, 4))
    assert state.board_full()
    state.apply(CARD("Chop!"))
    state.apply(CELL(0, 0))
    assert not state.board_full()
    state.apply(DONE)  # D15
    state.apply(DONE)  # D16
    assert not state.is_terminal() and state.current_player == 1


# -- bad input -------------------------------------------------------------------------------
def test_bad_player_count_and_options():
    with pytest.raises(InvalidConfigError, match="num_players=5 is not allowed; allowed: 2 to 4"):
        RULES.new_state(5)
    with pytest.raises(InvalidConfigError, match="unknown option 'colour'; known: gift_excludes"):
        RULES.new_state(2, colour="red")
    with pytest.raises(InvalidConfigError, match="max_turns=0 is not allowed; allowed: an int"):
        RULES.new_state(2, max_turns=0)
    with pytest.raises(InvalidConfigError, match="start_player=3 is not allowed with 3 players"):
        RULES.new_state(3, start_player=3)
    with pytest.raises(InvalidConfigError, match="style_either_direction='yes' is not allowed"):
        RULES.new_state(2, style_either_direction="yes")


def test_illegal_and_out_of_range_actions_change_nothing():
    state = table(2, hands={0: "Rice"})
    before = state.to_json()
    with pytest.raises(
        IllegalActionError,
        match=r"action 45 \(place Tuna\) is not legal in phase STEP1_START for seat 0; "
        r"legal: 42",
    ):
        state.apply(KIND("Tuna"))
    with pytest.raises(IllegalActionError, match="out of range 0..71; legal: 42"):
        state.apply(NUM_ACTIONS)
    with pytest.raises(IllegalActionError, match="not an integer"):
        state.apply("42")
    assert state.to_json() == before


def test_actions_after_the_end_are_refused():
    state = table(2, max_turns=1)
    state.apply(DONE)
    while not state.is_terminal():
        state.apply(DONE)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(DONE)


@pytest.mark.parametrize(
    "corrupt, message",
    [
        (lambda d: d.pop("pantry"), "not a wasabi snapshot: missing field\\(s\\) pantry"),
        (lambda d: d.update(game="chess"), "snapshot is of game 'chess', not 'wasabi'"),
        (lambda d: d.update(phase="DANCE"), "unknown phase 'DANCE'; known: GIFT_PICK"),
        (lambda d: d["pantry"].__setitem__(0, 3), "the 72 tiles are not conserved"),
        (lambda d: d["kitchen"].__setitem__(0, 2), "action cards are not conserved"),
        (lambda d: d["decks"][0].pop(), "the 52 recipes are not each in one place"),
        (lambda d: d["tokens"][0].__setitem__(0, 1), "seat 0: 1 unused length-2 tokens"),
        (lambda d: d.update(num_players=7), "num_players=7 is not allowed"),
        (lambda d: d["config"].update(max_turns=-1), "max_turns=-1 is not allowed"),
        (lambda d: d["stacks"].__setitem__(6, [0]), "outside the active area of 2 players"),
        (lambda d: d.update(anchors=[4]), "Wasabi! card at \\(0,4\\) is misplaced"),
        (lambda d: d.update(active="x"), "invalid wasabi snapshot: active: is 'x', not an int"),
    ],
)
def test_corrupt_snapshots_are_rejected(corrupt, message):
    state = RULES.new_state(2, seed=3)
    data = json.loads(state.to_json())
    corrupt(data)
    with pytest.raises(InvalidStateError, match=message):
        RULES.from_dict(data)


def test_snapshot_that_is_not_json():
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("{oops")
    with pytest.raises(InvalidStateError, match="expected a JSON object"):
        RULES.from_json("[1, 2]")


def test_describe_action_names_the_move():
    state = table(2, board={(0, 0): "Maki"}, hands={0: "Rice"}, cards={0: "Chop!"})
    assert state.describe_action(KIND("Rice")) == "place Rice"
    assert state.describe_action(CARD("Chop!")) == "play Chop!"
    assert state.describe_action(SLOT(1)) == "discard the recipe in slot 1"
    state.apply(CARD("Chop!"))
    assert state.describe_action(CELL(0, 0)) == "Chop! the top tile of (0,0)"
    state.apply(CELL(0, 0))
    assert state.describe_action(CELL(2, 2)) == "put the chopped Maki on (2,2)"
    assert state.describe_action(DONE) == "return the chopped tile to the pantry"
    assert state.describe_action(LENGTH(4)) == "draw a length-4 recipe"
    assert "out of range" in state.describe_action(99)
