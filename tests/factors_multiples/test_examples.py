"""Every worked example of the spec's §10, from a constructed position."""

from __future__ import annotations

import pytest

from boardgame_envs.core.env import score_potentials
from boardgame_envs.factors_multiples.data import NUM_CARDS, parse_card, parse_cards, strength
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    GAME_OVER,
    J_DIRECTION,
    J_DOWN,
    J_UP,
    K_ANSWER,
    K_DISCARD,
    PLAY,
    SEVEN_NAME,
    SHOW_AND_DRAW,
    State,
)
from tests.factors_multiples.helpers import HAS_NATIVE, RULES, cards, rules_for, set_turn, table

RANK_INDEX = {
    "A": 0,
    "2": 1,
    "3": 2,
    "4": 3,
    "5": 4,
    "6": 5,
    "7": 6,
    "8": 7,
    "9": 8,
    "10": 9,
    "J": 10,
    "Q": 11,
    "K": 12,
}


def plays(ranks: str) -> list[int]:
    """Action indices of PLAY for ranks written "2 5 Q"."""
    return sorted(RANK_INDEX[r] for r in ranks.split())


def discards(ranks: str) -> list[int]:
    return sorted(14 + RANK_INDEX[r] for r in ranks.split())


# -- Example 1: legal normal plays ---------------------------------------------------------
@pytest.mark.parametrize(
    "value, hand, legal",
    [
        (6, "2♣ 5♦ 9♥", "2"),
        (9, "3♠ 6♥ Q♣", "3"),
        (10, "2♦ 4♠ 5♥", "2 5"),
        (12, "4♣ 8♦ 9♠", "4"),
        (5, "10♣ 2♥ 3♦", "10"),
        (8, "6♣ 9♦ Q♥", ""),
        (7, "2♠ 3♥ 4♦", ""),
        (11, "5♠ 10♥ Q♦", ""),
        (None, "5♣ 9♦ Q♠", "5 9 Q"),
    ],
)
def test_example_1_legal_normal_plays(value, hand, legal, engine):
    state = table(2, {0: hand}, value=value, engine=engine)
    assert state.legal_actions() == (plays(legal) if legal else [SHOW_AND_DRAW])


# -- Example 2: the last-card rule for special cards ---------------------------------------
@pytest.mark.parametrize(
    "hand, pile, value, legal",
    [
        ("7♣", 0, 4, ""),
        ("7♣ 3♦", 0, 11, "7"),
        ("J♠ K♥", 0, 5, "J K"),
        ("A♦", 0, 9, ""),
        ("4♠ J♦", 0, 8, "4 J"),
        ("A♣ 5♥ 9♠", 4, 7, "A"),
    ],
)
def test_example_2_last_card_rule(hand, pile, value, legal, engine):
    state = table(2, {0: hand}, piles={0: ("", pile)}, value=value, engine=engine)
    assert state.legal_actions() == (plays(legal) if legal else [SHOW_AND_DRAW])


def test_example_2_stranded_seven_shows_and_draws_nothing(engine):
    state = table(2, {0: "7♣"}, piles={0: ""}, value=4, engine=engine)
    state.apply(SHOW_AND_DRAW)
    assert state.hands[0] == cards("7♣")
    assert state.reveals[0] == cards("7♣")
    assert state.turn_player == 1


# -- Example 3: setup and start player -----------------------------------------------------
def deal_with_selection(n: int, selection: str) -> State:
    """A deck whose pile tops are ``selection`` (seat order), the rest in id order."""
    tops = parse_cards(selection)
    rest = [c for c in range(NUM_CARDS) if c not in tops]
    per = NUM_CARDS // n
    deck = []
    for seat in range(n):
        deck += [tops[seat]] + [rest.pop(0) for _ in range(per - 1)]
    deck += rest
    state = RULES.new_state(n, seed=0)
    state._deal(deck)
    return state


@pytest.mark.parametrize(
    "n, selection, strengths, start, pile, hidden",
    [
        (4, "K♣ 9♠ K♥ 2♦", [44, 31, 46, 1], 2, 10, 0),
        (3, "A♣ K♠ Q♥", [48, 47, 42], 0, 14, 1),
        (2, "10♠ 10♥", [35, 34], 0, 23, 0),
    ],
)
def test_example_3_setup_and_start_player(n, selection, strengths, start, pile, hidden):
    assert [strength(c) for c in parse_cards(selection)] == strengths
    state = deal_with_selection(n, selection)
    assert state.start_player == start and state.current_player == start
    for seat, card in enumerate(parse_cards(selection)):
        assert card in state.hands[seat]  # the selection card stays in hand (R2)
        assert state.reveals[seat] == [card]  # and is public
        assert len(state.hands[seat]) == 3
        assert len(state.piles[seat]) == pile
    assert len(state.hidden_discard) == hidden
    assert state.value is None and state.phase == PLAY


def test_example_3_five_players(engine):
    state = rules_for(engine).new_state(5, seed=3)
    assert [len(p) for p in state.piles] == [7] * 5
    assert [len(h) for h in state.hands] == [3] * 5
    assert len(state.hidden_discard) == 2


# -- Example 4: special card as the first play ---------------------------------------------
def test_example_4a_jack_on_undetermined_value(engine):
    state = table(4, {2: "J♠ 4♦ 6♦", 3: "9♦ 5♣ 3♠"}, turn=2, engine=engine)
    state.apply(10)
    assert state.value is None and state.phase == PLAY and state.turn_player == 3
    assert state.legal_actions() == plays("3 5 9")
    state.apply(8)
    assert state.value == 9


def test_example_4b_seven_first(engine):
    state = table(4, {0: "7♠ 4♦ 6♦"}, engine=engine)
    state.apply(6)
    assert state.phase == SEVEN_NAME and state.legal_actions() == list(range(27, 38))
    state.apply(30)
    assert state.value == 5


def test_example_4c_ace_first(engine):
    state = table(4, {0: "A♠ 4♦ 6♦"}, piles={0: ("Q♣ 9♣", 5)}, engine=engine)
    state.apply(0)
    assert state.phase == A_DISCARD and state.hands[0] == cards("4♦ 6♦ Q♣")
    state.apply(14 + 3)  # discard the 4
    assert state.hands[0] == cards("6♦ Q♣ 9♣") and state.value is None


def test_example_4d_king_first(engine):
    state = table(4, {0: "K♠ 4♦ 6♦"}, engine=engine)
    state.apply(12)
    assert state.value is None and state.phase == K_ANSWER and state.turn_player == 1


# -- Example 5: 7 naming a dead value ------------------------------------------------------
def test_example_5_seven_naming_eleven(engine):
    state = table(
        3,
        {1: "7♦ 8♣ 9♠", 2: "2♥ 3♣ Q♠"},
        piles={1: ("4♥", 6), 2: ("6♦", 6)},
        value=5,
        turn=1,
        engine=engine,
    )
    assert state.legal_actions() == plays("7")
    state.apply(6)
    state.apply(36)
    assert state.value == 11
    assert state.hands[1] == cards("8♣ 9♠ 4♥") and len(state.piles[1]) == 5
    assert state.turn_player == 2 and state.legal_actions() == [SHOW_AND_DRAW]
    state.apply(SHOW_AND_DRAW)
    assert state.reveals[2] == cards("2♥ 3♣ Q♠")
    assert state.hands[2] == cards("2♥ 3♣ Q♠ 6♦") and len(state.piles[2]) == 5
    assert state.value == 11


# -- Example 6: J steps and wrap ------------------------------------------------------------
@pytest.mark.parametrize(
    "before, down, up", [(2, 12, 3), (3, 2, 4), (7, 6, 8), (11, 10, 12), (12, 11, 2)]
)
def test_example_6_jack_steps(before, down, up, engine):
    for action, after in ((J_DOWN, down), (J_UP, up)):
        state = table(2, {0: "J♠ 4♦ 6♦"}, value=before, engine=engine)
        state.apply(10)
        assert state.phase == J_DIRECTION and state.legal_actions() == [J_DOWN, J_UP]
        state.apply(action)
        assert state.value == after


# -- Example 7: an A turn from a 3-card hand -----------------------------------------------
def test_example_7_ace_from_three_cards(engine):
    state = table(2, {0: "A♠ 3♦ 9♣"}, piles={0: "6♥ 8♦ 10♣ 10♠"}, value=7, engine=engine)
    assert state.legal_actions() == plays("A") and state.total(0) == 7
    state.apply(0)
    assert state.hands[0] == cards("3♦ 9♣ 6♥") and state.piles[0] == parse_cards("8♦ 10♣ 10♠")
    assert state.phase == A_DISCARD and state.legal_actions() == discards("3 6 9")
    hidden = len(state.hidden_discard)
    state.apply(22)
    assert state.hands[0] == cards("3♦ 6♥ 8♦") and state.piles[0] == parse_cards("10♣ 10♠")
    assert state.value == 7 and len(state.hidden_discard) == hidden + 1
    assert state.total(0) == 5 and state.turn_player == 1


# -- Example 8: an A turn from a 4-card hand -----------------------------------------------
def test_example_8_ace_from_four_cards(engine):
    state = table(2, {0: "A♥ 3♠ 9♦ 5♣"}, piles={0: ("2♣", 4)}, value=7, engine=engine)
    assert state.legal_actions() == plays("A") and state.total(0) == 8
    state.apply(0)
    assert state.hands[0] == cards("3♠ 9♦ 5♣") and len(state.piles[0]) == 4
    assert state.legal_actions() == discards("3 5 9")
    state.apply(18)
    assert state.hands[0] == cards("3♠ 9♦ 2♣") and len(state.piles[0]) == 3
    assert state.total(0) == 6


# -- Example 9: growing beyond the hand limit ----------------------------------------------
def test_example_9_hand_grows_beyond_three(engine):
    state = table(2, {1: "4♠ 8♥ Q♦"}, piles={1: ("5♣ 2♥", 6)}, value=9, turn=1, engine=engine)
    assert state.legal_actions() == [SHOW_AND_DRAW]
    state.apply(SHOW_AND_DRAW)
    assert state.hands[1] == cards("4♠ 8♥ Q♦ 5♣") and len(state.piles[1]) == 5
    set_turn(state, 1, 11)
    state.apply(SHOW_AND_DRAW)
    assert len(state.hands[1]) == 5 and len(state.piles[1]) == 4
    set_turn(state, 1, 10)
    assert state.legal_actions() == plays("2 5")
    state.apply(4)
    assert state.value == 5 and state.hands[1] == cards("4♠ 8♥ Q♦ 2♥")
    assert len(state.piles[1]) == 4  # 4 cards in hand: no refill
    set_turn(state, 1, 4)
    assert state.legal_actions() == plays("2 4 8 Q")
    state.apply(11)
    assert state.hands[1] == cards("4♠ 8♥ 2♥") and len(state.piles[1]) == 4


# -- Example 10: K answered by an A --------------------------------------------------------
def test_example_10_king_answered_by_ace(engine):
    state = table(
        4,
        {0: "K♠ 4♦ 9♣", 1: "A♥ 3♣ 5♦"},
        piles={0: ("2♥ 6♣", 5), 1: ("10♠", 6)},
        value=8,
        engine=engine,
    )
    assert state.legal_actions() == plays("4 K") and state.total(0) == 8
    state.apply(12)
    assert state.value == 8 and state.hands[0] == cards("4♦ 9♣ 2♥") and len(state.piles[0]) == 4
    assert state.phase == K_ANSWER and state.current_player == 1
    assert state.legal_actions() == [0] and state.total(1) == 9
    hidden = len(state.hidden_discard)
    state.apply(0)
    assert state.hands[1] == cards("3♣ 5♦")  # the answerer does not discard
    assert state.phase == K_DISCARD and state.current_player == 0
    assert state.legal_actions() == discards("2 4 9")
    state.apply(22)
    assert state.hands[0] == cards("4♦ 2♥ 6♣") and len(state.piles[0]) == 3
    assert state.hands[1] == cards("3♣ 5♦ 10♠") and len(state.piles[1]) == 5
    assert state.value == 8 and len(state.hidden_discard) == hidden + 1
    assert state.phase == PLAY and state.current_player == 2 and state.k_player is None
    assert state.total(0) == 6 and state.total(1) == 8


# -- Example 11: K that cannot be answered -------------------------------------------------
def test_example_11_king_not_answered(engine):
    state = table(
        3, {0: "K♣ 2♦ 6♠", 1: "K♦ 8♥ 4♣", 2: "7♠ 9♦ 3♥"}, piles={1: ("", 6)}, value=8, engine=engine
    )
    state.apply(12)
    assert len(state.hands[0]) == 3
    assert state.phase == K_ANSWER and state.legal_actions() == [SHOW_AND_DRAW]
    state.apply(SHOW_AND_DRAW)
    assert len(state.hands[1]) == 4 and len(state.piles[1]) == 5
    assert state.k_player is None and state.phase == PLAY and state.turn_player == 2
    assert state.legal_actions() == plays("7")


# -- Example 12: K as the first card, 3 players --------------------------------------------
def test_example_12_king_first_three_players(engine):
    state = table(
        3,
        {0: "K♦ 3♥ 9♣", 1: "A♠ 5♦ 6♥", 2: "2♣ 2♦ 2♥"},
        piles={0: ("10♠ 10♦", 14), 1: ("4♣", 14)},
        engine=engine,
    )
    state.apply(12)
    assert state.value is None
    assert state.hands[0] == cards("3♥ 9♣ 10♠") and len(state.piles[0]) == 13
    assert state.legal_actions() == [0]
    state.apply(0)
    assert state.current_player == 0 and state.phase == K_DISCARD
    state.apply(22)
    assert state.hands[0] == cards("3♥ 10♠ 10♦") and len(state.piles[0]) == 12
    assert state.hands[1] == cards("5♦ 6♥ 4♣") and len(state.piles[1]) == 13
    assert state.value is None and state.current_player == 2
    assert state.legal_actions() == plays("2")
    state.apply(1)
    assert state.value == 2


# -- Example 13: K discard skipped; A that cannot answer -----------------------------------
def test_example_13_king_discard_skipped(engine):
    state = table(
        3, {0: "K♥ 4♠", 1: "A♣ 5♦", 2: "3♣"}, piles={0: "", 1: "", 2: ""}, value=6, engine=engine
    )
    assert state.legal_actions() == plays("K")
    state.apply(12)
    assert state.hands[0] == cards("4♠")
    assert state.legal_actions() == [0]
    state.apply(0)
    assert state.hands[1] == cards("5♦") and state.hands[0] == cards("4♠")
    assert state.value == 6 and state.current_player == 2 and state.phase == PLAY


def test_example_13_ace_cannot_answer_as_last_card(engine):
    state = table(
        3, {0: "K♥ 4♠", 1: "A♣", 2: "3♣"}, piles={0: "", 1: "", 2: ""}, value=6, engine=engine
    )
    state.apply(12)
    assert state.legal_actions() == [SHOW_AND_DRAW]
    state.apply(SHOW_AND_DRAW)
    assert state.reveals[1] == cards("A♣") and state.hands[1] == cards("A♣")


# -- Example 14: A discard skipped ---------------------------------------------------------
def test_example_14_ace_discard_skipped(engine):
    state = table(2, {0: "A♦ 5♣"}, piles={0: ""}, value=7, engine=engine)
    assert state.legal_actions() == plays("A")
    state.apply(0)
    assert state.hands[0] == cards("5♣") and state.value == 7 and state.turn_player == 1


def test_example_14_ace_discard_compulsory(engine):
    state = table(2, {0: "A♦ 5♣ 9♠"}, piles={0: ""}, value=7, engine=engine)
    state.apply(0)
    assert state.phase == A_DISCARD and state.legal_actions() == discards("5 9")
    state.apply(18)
    assert state.hands[0] == cards("9♠")


# -- Example 15: stranded special card ------------------------------------------------------
def test_example_15_stranded_jack_scores_one():
    state = table(2, {0: "8♣ J♦", 1: "4♣"}, piles={0: "", 1: ("", 3)}, value=4, rounds=1)
    assert state.legal_actions() == plays("8 J")
    state.apply(7)
    assert state.hands[0] == cards("J♦")
    for value in (None, 2, 3, 7, 11, 12):
        set_turn(state, 0, value)
        assert state.legal_actions() == [SHOW_AND_DRAW]  # the J can never be played
    set_turn(state, 1, 4)
    state.piles[1] = []
    state.apply(3)  # P1 goes out
    assert state.phase == GAME_OVER and state.round_scores == [[1, -4]]


def test_example_15_stranded_jack_scores_one_on_the_native_engine():
    """The same scenario on the compiled engine, P1's pile empty from the start (its pile
    cannot be emptied by hand there)."""
    if not HAS_NATIVE:
        pytest.skip("factors_multiples is not compiled")
    state = table(
        2, {0: "8♣ J♦", 1: "4♣"}, piles={0: "", 1: ""}, value=4, rounds=1, engine="native"
    )
    assert state.legal_actions() == plays("8 J")
    state.apply(7)
    assert state.hands[0] == cards("J♦")
    for value in (None, 2, 3, 7, 11, 12):
        set_turn(state, 0, value)
        assert state.legal_actions() == [SHOW_AND_DRAW]  # the J can never be played
    set_turn(state, 1, 4)
    state.apply(3)  # P1 goes out
    assert state.phase == GAME_OVER and state.round_scores == [[1, -4]]


def test_example_15_jack_keeps_the_eight(engine):
    state = table(2, {0: "8♣ J♦"}, piles={0: ""}, value=4, engine=engine)
    state.apply(10)
    state.apply(J_DOWN)
    assert state.value == 3 and state.hands[0] == cards("8♣")


# -- Example 16: going out and round scores, 4 players --------------------------------------
def test_example_16_going_out(engine):
    state = table(
        4,
        {1: "2♣ 3♣ 4♦ 5♦", 2: "4♣"},
        piles={0: ("", 2), 1: "", 2: "", 3: ("", 1)},
        value=8,
        turn=2,
        rounds=1,
        engine=engine,
    )
    state.apply(3)
    assert state.phase == GAME_OVER
    assert state.round_scores == [[5, 4, -2, 4]] and state.went_out == [2]
    shaping = [p / rules_for(engine).score_reward_scale for p in score_potentials(state)]
    assert shaping == pytest.approx([-3, -5 / 3, 19 / 3, -5 / 3])


@pytest.mark.parametrize("n, score", [(2, -4), (3, -3), (5, -1)])
def test_example_16_going_out_score_by_player_count(n, score, engine):
    state = table(n, {0: "4♣"}, piles={0: ""}, value=8, rounds=1, engine=engine)
    state.apply(3)
    assert state.round_scores[0][0] == score


# -- Example 17: blocked round, including a K -----------------------------------------------
def test_example_17_blocked_round(engine):
    state = table(
        3,
        {0: "K♠ 9♥", 1: "2♦ 5♣", 2: "3♠"},
        piles={0: "", 1: "", 2: ""},
        value=8,
        rounds=1,
        engine=engine,
    )
    state.apply(12)  # 1. P0 plays K; P1's plain set {2} keeps the round alive
    assert state.hands[0] == cards("9♥") and state.phase == K_ANSWER
    state.apply(SHOW_AND_DRAW)  # 2. P1 cannot answer
    assert state.phase == PLAY and state.turn_player == 2
    state.apply(SHOW_AND_DRAW)  # 3. P2 shows
    assert state.legal_actions() == [SHOW_AND_DRAW]
    state.apply(SHOW_AND_DRAW)  # P0 shows
    assert state.turn_player == 1 and state.legal_actions() == plays("2")
    state.apply(1)  # 4. P1 plays 2: nobody can follow 2 and all piles are empty
    assert state.phase == GAME_OVER and state.went_out == [None]
    assert state.round_scores == [[1, 1, 1]]  # 5. nobody scores negative


# -- Example 18: match result ---------------------------------------------------------------
def test_example_18_match_result():
    state = RULES.new_state(4, seed=0)
    state.round_scores = [[5, -2, 3, 4], [-2, 4, 3, 5], [3, 4, 2, -2]]
    state.phase = GAME_OVER
    assert state.scores() == [6, 6, 8, 7]
    assert state.winners() == [0, 1]
    assert state.returns() == pytest.approx([2 / 3, 2 / 3, -1, -1 / 3])


def test_example_18_match_result_on_the_native_engine():
    """The finished match of Example 18 loaded into the compiled engine."""
    if not HAS_NATIVE:
        pytest.skip("factors_multiples is not compiled")
    state = RULES.new_state(4, seed=0)
    state.round_scores = [[5, -2, 3, 4], [-2, 4, 3, 5], [3, 4, 2, -2]]
    state.went_out = [1, 0, 3]
    state.round, state.phase, state.turn_player = 2, GAME_OVER, -1
    native = rules_for("native").from_position(state)
    assert native.is_terminal() and native.current_player == -1
    assert native.scores() == [6, 6, 8, 7]
    assert native.winners() == [0, 1]
    assert native.returns() == pytest.approx([2 / 3, 2 / 3, -1, -1 / 3])


# -- Example 19: 2-player K sequence --------------------------------------------------------
def test_example_19_two_player_king_sequence(engine):
    state = table(2, {0: "K♠ 4♦ 9♣", 1: "A♥ 3♣ 5♦"}, value=8, engine=engine)
    state.apply(12)
    state.apply(0)
    assert state.phase == K_DISCARD and state.current_player == 0
    state.apply(state.legal_actions()[0])
    assert state.phase == PLAY and state.current_player == 0 and state.k_player is None
    assert len(state.hands[0]) == 3 and len(state.hands[1]) == 3


# -- Example 20: A with a partial refill ----------------------------------------------------
def test_example_20_ace_partial_refill(engine):
    state = table(2, {0: "A♣ 4♦ 8♠"}, piles={0: "Q♥"}, value=7, engine=engine)
    assert state.legal_actions() == plays("A") and state.total(0) == 4
    state.apply(0)
    assert state.hands[0] == cards("4♦ 8♠ Q♥") and state.piles[0] == []
    assert state.legal_actions() == discards("4 8 Q")
    state.apply(25)
    assert state.hands[0] == cards("4♦ 8♠") and state.total(0) == 2


def test_card_names_round_trip():
    assert parse_card("10♠") == parse_card("Ts") == parse_card("10s")
