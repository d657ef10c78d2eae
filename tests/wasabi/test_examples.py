"""Every worked example of the spec's §10, from a constructed position, exact outcomes."""

from __future__ import annotations

import pytest

from boardgame_envs.wasabi.data import kind_id, recipe_id
from boardgame_envs.wasabi.rules import (
    AFTER_PLACEMENT,
    CHOPPED_TILE,
    DISCARD_MORE,
    DONE,
    DRAFT_PICK,
    GAME_OVER,
    GIFT_PICK,
    PLACE_DUE,
    PLACE_TARGET,
    REFILL_INGREDIENT,
    REFILL_RECIPE,
    REWARD_DISCARD,
    REWARD_PICK,
    STEP1_START,
    SWITCH_SECOND,
    covered_cells,
)
from tests.wasabi.helpers import (
    CARD,
    CELL,
    KIND,
    LENGTH,
    RULES,
    SLOT,
    cell,
    put_on_top,
    table,
)

#: Every scenario runs on the Python engine and, where built, in lockstep on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def counts(state, seat: int) -> dict[str, int]:
    from boardgame_envs.wasabi.data import KIND_NAMES

    return {KIND_NAMES[k]: c for k, c in enumerate(state.tiles[seat]) if c}


def cards_of(state, seat: int) -> dict[str, int]:
    from boardgame_envs.wasabi.data import CARD_NAMES

    return {CARD_NAMES[t]: c for t, c in enumerate(state.cards[seat]) if c}


def kitchen(state) -> dict[str, int]:
    from boardgame_envs.wasabi.data import CARD_NAMES

    return {CARD_NAMES[t]: c for t, c in enumerate(state.kitchen) if c}


# -- Example 1: a column completion without style (2 players) --------------------------
def example_1():
    return table(
        2,
        board={(2, 3): "Salmon"},
        hands={0: "Rice Tuna Avocado"},
        menus={0: ["Salmon Nigiri", "Kappa Maki", "Dragon Roll"]},
    )


def test_example_1_column_completion_without_style():
    state = example_1()
    state.apply(KIND("Rice"))
    state.apply(CELL(1, 3))
    assert state.completed[0] == ((recipe_id("R2-01"), False),)
    assert state.scores()[0] == 2 and state.cubes[0] == 0
    assert state.tokens[0] == (3, 3, 2, 1)
    assert state.picks == 1
    assert state.menus[0] == (None, recipe_id("Kappa Maki"), recipe_id("Dragon Roll"))


def test_example_1_contrast_ideal_below():
    state = example_1()
    state.apply(KIND("Rice"))
    state.apply(CELL(3, 3))
    assert state.completed[0] == ((recipe_id("R2-01"), True),)
    assert state.scores()[0] == 3 and state.cubes[0] == 1


# -- Example 2: an ideal dish in a row (4 players) -------------------------------------
def test_example_2_ideal_row():
    state = table(
        4,
        board={(4, 2): "Maki", (4, 3): "Eel", (4, 4): "Avocado", (4, 6): "Tuna"},
        hands={1: "Cucumber"},
        menus={1: ["Dragon Roll"]},
        active=1,
    )
    state.apply(KIND("Cucumber"))
    state.apply(CELL(4, 5))
    assert state.completed[1] == ((recipe_id("R4-01"), True),)
    assert state.scores()[1] == 7 and state.points(1) == 4 and state.cubes[1] == 3


@pytest.mark.parametrize("either, cubes", [(False, 0), (True, 3)])
def test_example_2_contrast_backwards_is_not_ideal(either, cubes):
    state = table(
        4,
        board={(4, 2): "Cucumber", (4, 3): "Avocado", (4, 4): "Eel", (4, 6): "Tuna"},
        hands={1: "Maki"},
        menus={1: ["Dragon Roll"]},
        active=1,
        style_either_direction=either,
    )
    state.apply(KIND("Maki"))
    state.apply(CELL(4, 5))
    assert state.completed[1] == ((recipe_id("R4-01"), either),)
    assert state.points(1) == 4 and state.cubes[1] == cubes


# -- Examples 3 and 4: Stack! and Chop! (2 players) ------------------------------------
def example_3(menu0=("Tuna Nigiri", "Kappa Maki", "Dragon Roll")):
    return table(
        2,
        board={(3, 1): "Tuna Salmon"},
        hands={0: "Rice Maki Carrot", 1: "Crab Shrimp Squid"},
        cards={0: "Chop!"},
        menus={0: list(menu0), 1: ["Seafood Boat", "Chef's Roll", "Master's Plate"]},
    )


def test_example_3_only_the_top_tile_counts():
    state = example_3()
    state.apply(KIND("Rice"))
    state.apply(CELL(4, 1))
    assert state.phase == AFTER_PLACEMENT
    assert state.legal_actions() == [CARD("Chop!"), DONE]
    state.apply(DONE)
    assert state.completed[0] == () and state.scores()[0] == 0 and state.picks == 0
    assert state.phase == REFILL_INGREDIENT


def test_example_3_variant_salmon_nigiri_would_be_ideal():
    state = example_3(("Salmon Nigiri", "Kappa Maki", "Dragon Roll"))
    state.apply(KIND("Rice"))
    state.apply(CELL(4, 1))
    assert state.completed[0] == ((recipe_id("Salmon Nigiri"), True),)
    assert state.scores()[0] == 3


def play_example_3_then_p1_elsewhere():
    state = example_3()
    state.apply(KIND("Rice"))
    state.apply(CELL(4, 1))
    state.apply(DONE)  # D6: no card
    state.apply(DONE)  # D15: keep 2 tiles; D16 is skipped (menu full)
    assert state.current_player == 1 and state.phase == STEP1_START
    state.apply(KIND("Crab"))  # P1 plays elsewhere, away from column 1
    state.apply(CELL(0, 4))
    assert state.legal_actions() == [DONE]  # D6, P1 holds no card: forced
    state.apply(DONE)
    state.apply(DONE)  # D15
    assert state.current_player == 0 and state.phase == STEP1_START
    return state


def test_example_4_chop_reveals_and_the_chopped_tile_is_replayed():
    state = play_example_3_then_p1_elsewhere()
    hand_before = counts(state, 0)
    state.apply(62)  # CARD(Chop!)
    state.apply(22)  # CELL(3,1): Salmon lifted, Tuna shows
    assert state.stacks[cell((3, 1))] == (kind_id("Tuna"),)
    assert state.completed[0] == ((recipe_id("Tuna Nigiri"), True),)
    assert state.scores()[0] == 3
    assert state.phase == CHOPPED_TILE and state.lifted == kind_id("Salmon")
    assert CELL(3, 1) not in state.legal_actions()  # not the cell it came from
    state.apply(15)  # CELL(2,1)
    column = [state.stacks[cell((r, 1))] for r in (2, 3, 4)]
    assert column == [(kind_id("Salmon"),), (kind_id("Tuna"),), (kind_id("Rice"),)]
    assert len(state.completed[0]) == 1  # nothing new
    assert counts(state, 0) == hand_before  # no tile left P0's hand
    assert state.phase == REWARD_PICK and state.picks == 1
    # Chop! (now in the kitchen) is forbidden while another type is available.
    assert state.legal_actions() == [CARD(c) for c in ("Stack!", "Spicy!", "Switch!")] + [
        CARD("Wasabi!"),
        DONE,
    ]


def test_example_4_alternative_returns_the_salmon_and_places_from_hand():
    state = play_example_3_then_p1_elsewhere()
    salmon = state.pantry[kind_id("Salmon")]
    state.apply(62)
    state.apply(22)
    state.apply(DONE)  # D10: back to the pantry
    assert state.pantry[kind_id("Salmon")] == salmon + 1
    assert state.phase == PLACE_DUE
    assert DONE not in state.legal_actions()  # the placement from hand is due
    assert state.legal_actions() == [KIND("Maki"), KIND("Carrot")]


# -- Example 5: Switch! completes a recipe (3 players) ---------------------------------
def test_example_5_switch_after_placing():
    state = table(
        3,
        board={(0, 0): "Maki", (0, 1): "Crab", (0, 2): "Radish", (1, 2): "Avocado"},
        hands={2: "Carrot"},
        cards={2: "Switch!"},
        menus={2: ["California Roll"]},
        active=2,
    )
    state.apply(KIND("Carrot"))
    state.apply(CELL(5, 5))
    assert state.completed[2] == () and state.phase == AFTER_PLACEMENT
    state.apply(CARD("Switch!"))
    state.apply(CELL(0, 2))
    assert state.phase == SWITCH_SECOND
    assert state.legal_actions() == [CELL(0, 1), CELL(0, 3), CELL(1, 2)]
    state.apply(CELL(1, 2))
    assert state.stacks[cell((0, 2))] == (kind_id("Avocado"),)
    assert state.stacks[cell((1, 2))] == (kind_id("Radish"),)
    assert state.completed[2] == ((recipe_id("California Roll"), True),)
    assert state.scores()[2] == 5
    assert state.phase == REWARD_PICK
    assert CARD("Switch!") not in state.legal_actions()
    assert state.legal_actions() == [
        CARD("Stack!"),
        CARD("Spicy!"),
        CARD("Chop!"),
        CARD("Wasabi!"),
        DONE,
    ]


# -- Example 6: a Wasabi! card blocks a recipe (2 players) -----------------------------
def example_6():
    state = table(
        2,
        board={(2, 0): "Maki", (2, 1): "Tuna"},
        hands={0: "Salmon Crab Roe", 1: "Cucumber Rice Shrimp"},
        cards={0: "Wasabi!", 1: "Chop! Switch!"},
        menus={
            0: ["Lobster Feast", "Uni Supreme", "Festival Roll"],
            1: ["Spicy Tuna Roll", "Salmon Nigiri", "Sunset Roll"],
        },
    )
    state.apply(KIND("Salmon"))
    state.apply(CELL(5, 4))
    state.apply(CARD("Wasabi!"))
    state.apply(8)  # CELL(1,1)
    return state


def test_example_6_wasabi_card_covers_and_gives_a_cube():
    state = example_6()
    assert state.anchors == (cell((1, 1)),)
    assert state.cubes[0] == 1 and state.scores()[0] == 1
    assert state.cards[0] == (0, 0, 0, 0, 0)
    assert state.phase == REFILL_INGREDIENT  # Step 1 ended (played after placing)
    state.apply(DONE)  # D15; D16 is skipped (menu full)
    assert state.current_player == 1
    covered = {c for c, on in enumerate(covered_cells(state.anchors)) if on}
    assert covered == {cell(rc) for rc in [(1, 1), (1, 2), (2, 1), (2, 2)]}
    assert state.board_full() is False


def test_example_6_p1_cannot_use_the_covered_cells():
    state = example_6()
    state.apply(DONE)
    assert state.current_player == 1
    # Switch! and Chop! may not touch (2,1) or (2,2).
    probe = state.clone()
    probe.apply(CARD("Chop!"))
    assert CELL(2, 1) not in probe.legal_actions()
    assert probe.legal_actions() == [CELL(2, 0), CELL(5, 4)]
    probe = state.clone()
    probe.apply(CARD("Switch!"))
    for rc in [(1, 1), (1, 2), (2, 1), (2, 2)]:
        assert CELL(*rc) not in probe.legal_actions()
    probe.apply(CELL(2, 0))
    assert probe.legal_actions() == [CELL(1, 0), CELL(3, 0)]  # not (2,1)
    # (2,2) cannot receive a tile, and Spicy Tuna Roll cannot complete in row 2.
    state.apply(KIND("Cucumber"))
    assert CELL(2, 2) not in state.legal_actions()
    assert len(state.legal_actions()) == 30 - 4 - 2  # not the 4 covered, not (2,0), (5,4)
    probe = state.clone()
    stacks = list(probe.stacks)
    stacks[cell((2, 2))] = (kind_id("Cucumber"),)  # even with the tile there
    probe.stacks = tuple(stacks)
    probe._add_tile(1, kind_id("Cucumber"), -1)
    probe.apply(CELL(0, 0))
    assert probe.completed[1] == ()


def test_example_6_the_card_is_picked_from_the_board_later():
    state = example_6()
    state.apply(DONE)
    # P1 completes Salmon Nigiri (not ideal) with the Salmon P0 placed at (5,4).
    state.apply(KIND("Rice"))
    state.apply(CELL(4, 4))
    assert state.completed[1] == ((recipe_id("Salmon Nigiri"), False),)
    state.apply(DONE)  # D6: no card now (P1 played none; keeps Chop! and Switch!)
    assert state.phase == REWARD_PICK and 8 in state.legal_actions()
    state.apply(8)  # take the Wasabi! card at (1,1)
    assert state.anchors == () and not any(covered_cells(state.anchors))
    assert state.phase == REWARD_DISCARD  # a third card
    assert state.legal_actions() == [CARD("Switch!"), CARD("Chop!")]
    state.apply(CARD("Switch!"))
    assert cards_of(state, 1) == {"Chop!": 1, "Wasabi!": 1}
    # The Tuna at (2,1) is back in play: it is a top tile again.
    assert state.view(1).tops()[cell((2, 1))] == kind_id("Tuna")


# -- Example 7: the full-board end (2 players) ------------------------------------------
FILLER = "Maki Snapper Eel Shrimp Squid Crab Roe Avocado Cucumber Carrot Salmon Tuna".split()


def example_7(cards1: str = ""):
    board = {(0, 0): "Maki", (1, 1): "Rice"}
    free = [(r, c) for r in range(6) for c in range(5)]
    skip = {(0, 0), (0, 1), (1, 0), (1, 1), (5, 4)}
    names = iter(["Rice"] * 9 + FILLER * 2)  # never a Radish, Fugu or Uni
    for rc in free:
        if rc not in skip:
            board[rc] = next(names)
    return table(
        2,
        board=board,
        anchors=[(0, 0)],
        hands={1: "Lobster Lobster Maki"},
        cards={1: cards1},
        # Each of P1's recipes needs a Radish, Fugu or Uni: none can complete.
        menus={1: ["Poison Pill", "Uni Spoon", "Oshinko Maki"]},
        active=1,
    )


def test_example_7_the_game_ends_when_every_cell_is_filled():
    state = example_7()
    assert sum(bool(s) for s in state.stacks) == 27
    state.apply(KIND("Lobster"))
    state.apply(CELL(5, 4))
    assert state.completed[1] == ()
    state.apply(DONE)  # D6
    assert not state.is_terminal()  # the test runs at the end of the turn
    state.apply(KIND("Maki"))  # D15: refill
    assert state.is_terminal() and state.phase == GAME_OVER
    assert state.board_full()
    assert state.winners() == [0, 1] and state.returns() == [0.0, 0.0]


def test_example_7_variant_chop_after_placing_keeps_the_game_going():
    state = example_7("Chop!")
    state.apply(KIND("Lobster"))
    state.apply(CELL(5, 4))
    state.apply(CARD("Chop!"))
    lifted = state.stacks[cell((3, 3))][-1]
    pantry = state.pantry[lifted]
    state.apply(CELL(3, 3))
    assert state.stacks[cell((3, 3))] == () and state.pantry[lifted] == pantry + 1
    state.apply(DONE)  # D15
    assert not state.is_terminal() and state.current_player == 0


def test_example_7_variant_passing_step_1_keeps_the_game_going():
    state = example_7()
    state.apply(SLOT(0))
    state.apply(DONE)
    state.apply(DONE)  # D16: draw nothing
    assert not state.is_terminal() and state.current_player == 0


# -- Example 8: tie-break (3 players) ---------------------------------------------------
def end_now(state):
    """The active player does nothing, and the turn limit ends the game."""
    assert state.legal_actions()[-1] == DONE
    while not state.is_terminal():
        state.apply(DONE)


@pytest.mark.parametrize(
    "p1_lengths, p1_cubes, winners, returns",
    [
        ([2, 2, 2, 3, 3, 4, 4], 3, [0], [1.0, 0.0, -1.0]),
        ([2, 2, 2, 2, 3, 3, 4], 5, [0, 1], [0.5, 0.5, -1.0]),
    ],
)
def test_example_8_tie_break_by_cubes(p1_lengths, p1_cubes, winners, returns):
    state = table(
        3,
        completed_lengths={0: [2, 2, 2, 2, 3, 3, 4], 1: p1_lengths, 2: [2, 2, 2, 2, 3, 5]},
        cubes={0: 5, 1: p1_cubes, 2: 5},
        max_turns=1,
    )
    assert [state.points(s) for s in range(3)] == [18, 18 if p1_cubes == 5 else 20, 16]
    assert state.scores() == [23, 23, 21]
    end_now(state)
    assert state.phase == GAME_OVER and state.turn == 1
    assert state.winners() == winners
    assert state.returns() == pytest.approx(returns)


# -- Example 9: instant victory with the 10th recipe (4 players) ------------------------
def test_example_9_tenth_recipe_wins_at_once():
    state = table(
        4,
        board={(0, 6): "Rice", (1, 6): "Eel"},
        hands={3: "Cucumber Maki Tuna"},
        menus={3: ["Unadon"]},
        completed_lengths={0: [2, 2, 2, 2, 3, 3, 4], 3: [2, 2, 2, 2, 3, 3, 4, 4, 5]},
        cubes={0: 15, 3: 0},
        active=3,
    )
    assert state.points(3) == 27 and state.tokens[3] == (0, 1, 0, 0)
    assert state.scores()[0] == 33
    state.apply(KIND("Cucumber"))
    state.apply(CELL(2, 6))
    assert state.completed[3][-1] == (recipe_id("Unadon"), True)
    assert state.scores()[3] == 27 + 3 + 2
    assert state.is_terminal() and state.winner == 3
    assert state.phase == GAME_OVER and not state.legal_actions().__len__()
    assert state.tiles[3][kind_id("Maki")] == 1  # no Step 2: no refill
    assert state.winners() == [3]
    assert state.returns() == pytest.approx([-1 / 3, -1 / 3, -1 / 3, 1.0])


# -- Example 10: no token left for that length (2 players) -------------------------------
def test_example_10_no_token_no_completion():
    state = table(
        2,
        board={(5, 0): "Maki"},
        hands={0: "Cucumber"},
        menus={0: ["Kappa Maki"]},
        completed_lengths={0: [2, 2, 2, 2]},
    )
    state.apply(KIND("Cucumber"))
    state.apply(36)  # CELL(5,1)
    assert len(state.completed[0]) == 4 and state.picks == 0
    assert state.menus[0][0] == recipe_id("Kappa Maki")
    assert state.phase == AFTER_PLACEMENT and state.legal_actions() == [DONE]


# -- Example 11: pick restriction and hand limit (4 players) -----------------------------
def test_example_11_pick_restriction_and_hand_limit():
    state = table(
        4,
        board={(0, 0): "Salmon", (3, 3): "Maki", (3, 5): "Tuna"},
        hands={1: "Rice"},
        cards={0: "Stack! Spicy!", 1: "Switch! Stack!", 2: "Spicy! Wasabi!", 3: "Chop! Wasabi!"},
        menus={1: ["Salmon Nigiri", "Tekka Maki"]},
        active=1,
    )
    assert kitchen(state) == {"Switch!": 1, "Chop!": 1}
    state.apply(KIND("Rice"))
    state.apply(CELL(1, 0))  # recipe A: Salmon Nigiri
    assert len(state.completed[1]) == 1
    state.apply(CARD("Switch!"))
    state.apply(CELL(3, 4))
    state.apply(CELL(3, 5))  # recipe B: Tekka Maki
    assert [r for r, _ in state.completed[1]] == [recipe_id("Salmon Nigiri"), recipe_id("R2-09")]
    assert kitchen(state) == {"Switch!": 2, "Chop!": 1}
    assert cards_of(state, 1) == {"Stack!": 1}
    assert state.phase == REWARD_PICK and state.picks == 2
    assert state.legal_actions() == [62, DONE]
    state.apply(62)
    assert cards_of(state, 1) == {"Stack!": 1, "Chop!": 1}
    assert kitchen(state) == {"Switch!": 2}
    assert state.legal_actions() == [61, DONE]  # no other choice: Switch! allowed
    state.apply(61)
    assert state.phase == REWARD_DISCARD and state.legal_actions() == [59, 62]
    state.apply(59)
    assert cards_of(state, 1) == {"Switch!": 1, "Chop!": 1}
    assert kitchen(state) == {"Switch!": 1, "Stack!": 1}


# -- Example 12: Spicy! completes two recipes (2 players) --------------------------------
def test_example_12_spicy_completes_two_recipes():
    state = table(
        2,
        board={(0, 0): "Maki", (2, 4): "Cucumber"},
        hands={1: "Tuna Crab Rice"},
        cards={1: "Spicy!"},
        menus={1: ["Tekka Maki", "Crab Salad", "Sashimi Trio"]},
        active=1,
    )
    state.apply(CARD("Spicy!"))
    assert state.phase == PLACE_DUE and DONE not in state.legal_actions()
    state.apply(KIND("Tuna"))
    state.apply(CELL(0, 1))
    assert state.completed[1] == ((recipe_id("Tekka Maki"), True),)
    assert state.phase == PLACE_DUE and DONE in state.legal_actions()  # second is optional
    state.apply(KIND("Crab"))
    state.apply(CELL(1, 4))
    assert state.completed[1][1] == (recipe_id("Crab Salad"), True)
    assert state.scores()[1] == 6 and state.points(1) == 4 and state.cubes[1] == 2
    assert state.phase == REWARD_PICK and state.picks == 2
    assert CARD("Spicy!") not in state.legal_actions()
    state.apply(DONE)
    state.apply(DONE)
    assert counts(state, 1) == {"Rice": 1}
    assert state.phase == REFILL_INGREDIENT
    state.apply(KIND("Maki"))
    state.apply(KIND("Tuna"))
    assert state.phase == REFILL_RECIPE  # 3 tiles: the ingredient refill ends by itself
    state.apply(LENGTH(2))
    state.apply(LENGTH(2))
    assert state.current_player == 0 and all(r is not None for r in state.menus[1])


# -- Example 13: an existing line completes at the next board change (2 players) ---------
def example_13():
    state = table(
        2,
        board={(3, 0): "Tuna", (3, 1): "Avocado"},
        hands={0: "Rice Rice Squid", 1: "Crab Roe Shrimp"},
        menus={0: ["Lobster Feast", "Uni Supreme"], 1: ["Lobster Roll"]},
    )
    put_on_top(state, "Tuna Tartare")
    state.apply(KIND("Squid"))
    state.apply(CELL(0, 4))
    state.apply(DONE)  # D6
    state.apply(DONE)  # D15
    state.apply(LENGTH(2))  # D16: draws Tuna Tartare
    assert state.menus[0][2] == recipe_id("Tuna Tartare")
    assert state.completed[0] == ()  # no check in Step 2
    assert state.current_player == 1
    state.apply(KIND("Crab"))  # P1 plays far away
    state.apply(CELL(5, 0))
    state.apply(DONE)
    state.apply(DONE)
    state.apply(DONE)  # D16
    assert state.current_player == 0 and state.phase == STEP1_START
    return state


def test_example_13_existing_line_completes_at_the_next_placement():
    state = example_13()
    state.apply(KIND("Rice"))
    state.apply(CELL(5, 4))
    assert state.completed[0] == ((recipe_id("Tuna Tartare"), True),)
    assert state.scores()[0] == 3


def test_example_13_passing_runs_no_check():
    state = example_13()
    state.apply(SLOT(0))
    state.apply(DONE)
    assert state.completed[0] == ()
    assert recipe_id("Tuna Tartare") in state.menus[0]


# -- Example 14: passing Step 1 (2 players) ----------------------------------------------
def test_example_14_passing_step_1():
    state = table(
        2,
        hands={1: "Rice Tuna Crab"},
        menus={1: ["Lobster Feast", "Uni Spoon", "Tekka Maki"]},
        active=1,
    )
    board = state.to_dict()["stacks"]
    top2, top3 = state.decks[0][0], state.decks[1][0]
    state.apply(68)
    assert state.phase == DISCARD_MORE
    state.apply(69)
    state.apply(71)
    assert state.decks[3][-1] == recipe_id("Lobster Feast")
    assert state.decks[1][-1] == recipe_id("Uni Spoon")
    assert state.menus[1] == (None, None, recipe_id("Tekka Maki"))
    assert state.phase == REFILL_RECIPE  # hand already 3 tiles: D15 skipped
    assert state.picks == 0 and state.card_used is None
    state.apply(64)
    assert state.menus[1][0] == top2
    state.apply(65)
    assert state.menus[1] == (top2, top3, recipe_id("Tekka Maki"))
    assert state.to_dict()["stacks"] == board
    assert not state.is_terminal() and state.current_player == 0


# -- Example 15: legal and illegal gifts (3 players, setup) ------------------------------
def test_example_15_gifts():
    state = RULES.new_state(3, seed=0, start_player=0)
    assert state.phase == GIFT_PICK and state.current_player == 0
    legal = state.legal_actions()
    for name in ("Salmon", "Avocado", "Maki", "Tuna", "Crab"):
        assert KIND(name) in legal
    for name in ("Rice", "Fugu", "Uni", "Lobster"):
        assert KIND(name) not in legal
    state.apply(KIND("Tuna"))
    assert KIND("Tuna") not in state.legal_actions()  # kinds must differ
    state.apply(KIND("Crab"))
    state.apply(KIND("Salmon"))
    assert counts(state, 1) == {"Tuna": 1, "Crab": 1, "Salmon": 1}
    assert state.current_player == 1  # P1 gives to P2
    for name in ("Salmon", "Avocado", "Maki"):
        state.apply(KIND(name))
    assert counts(state, 2) == {"Salmon": 1, "Avocado": 1, "Maki": 1}
    assert state.current_player == 2  # P2 gives to P0
    for name in ("Squid", "Roe", "Radish"):
        state.apply(KIND(name))
    assert counts(state, 0) == {"Squid": 1, "Roe": 1, "Radish": 1}
    assert state.phase == DRAFT_PICK and state.current_player == 0


def test_example_15_gift_excluding_maki():
    state = RULES.new_state(3, seed=0, start_player=0, gift_excludes_maki=True)
    assert KIND("Maki") not in state.legal_actions()
    assert len(state.legal_actions()) == 12


# -- Example 16: the action sequence of Example 1 ----------------------------------------
def test_example_16_action_sequence():
    state = example_1()
    assert state.kitchen == (1, 1, 1, 1, 1)
    assert state.legal_actions() == [42, 45, 52, 68, 69, 70]
    state.apply(42)
    assert state.phase == PLACE_TARGET
    assert state.legal_actions() == [
        CELL(r, c) for r in range(6) for c in range(5) if (r, c) != (2, 3)
    ]
    state.apply(10)
    assert state.scores()[0] == 2
    assert state.phase == AFTER_PLACEMENT and state.legal_actions() == [71]
    state.apply(71)
    assert state.phase == REWARD_PICK and state.legal_actions() == [59, 60, 61, 62, 63, 71]
    state.apply(60)
    assert state.phase == REFILL_INGREDIENT
    assert state.legal_actions() == [42 + k for k in range(17) if state.pantry[k]] + [71]
    assert len(state.legal_actions()) == 18
    state.apply(45)
    assert state.phase == REFILL_RECIPE and state.legal_actions() == [64, 65, 66, 67, 71]
    state.apply(65)
    assert counts(state, 0) == {"Tuna": 2, "Avocado": 1}
    assert cards_of(state, 0) == {"Spicy!": 1}
    assert all(r is not None for r in state.menus[0])
    assert state.scores()[0] == 2
    assert not state.is_terminal() and state.current_player == 1
    assert state.phase == STEP1_START
