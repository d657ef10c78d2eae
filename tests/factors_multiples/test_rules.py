"""The rules of the spec one by one (the worked examples are in test_examples.py)."""

from __future__ import annotations

import pytest

from boardgame_envs import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.factors_multiples.data import NORMAL_RANKS, VALUES, follows, nominal
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    DECLINE,
    GAME_OVER,
    K_ANSWER,
    K_DISCARD,
    PLAY,
    SEVEN_NAME,
    SHOW_AND_DRAW,
)
from tests.factors_multiples.helpers import cards, rules_for, table

# §2.4: the post's follow lists, value by value (T = 10, Q = 12).
POST_LISTS = {
    2: {2, 4, 6, 8, 10, 12},
    3: {3, 6, 9, 12},
    4: {2, 4, 8, 12},
    5: {5, 10},
    6: {2, 3, 6, 12},
    8: {2, 4, 8},
    9: {3, 9},
    10: {2, 5, 10},
    12: {2, 3, 4, 6, 12},
}
# §2.4: the inverse table, value -> playable normal card numbers.
INVERSE = {
    2: {2, 4, 6, 8, 10, 12},
    3: {3, 6, 9, 12},
    4: {2, 4, 8, 12},
    5: {5, 10},
    6: {2, 3, 6, 12},
    7: set(),
    8: {2, 4, 8},
    9: {3, 9},
    10: {2, 5, 10},
    11: set(),
    12: {2, 3, 4, 6, 12},
}


def test_follow_rule_matches_the_posts_lists():
    for rank in NORMAL_RANKS:
        assert {v for v in VALUES if follows(rank, v)} == POST_LISTS[nominal(rank)]


def test_follow_rule_matches_the_inverse_table():
    for value in VALUES:
        assert {nominal(r) for r in NORMAL_RANKS if follows(r, value)} == INVERSE[value]
    assert all(follows(rank, None) for rank in NORMAL_RANKS)


def test_no_passing_while_a_card_is_playable(engine):
    state = table(2, {0: "2♣ 9♦ Q♥"}, value=6, engine=engine)
    assert SHOW_AND_DRAW not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="not legal in phase PLAY"):
        state.apply(SHOW_AND_DRAW)


def test_special_cards_are_playable_on_any_value(engine):
    for value in (None, *VALUES):
        state = table(2, {0: "A♣ 7♦ J♥ K♠"}, value=value, engine=engine)
        assert state.legal_actions() == [0, 6, 10, 12]


def test_under_k_restriction_only_an_ace_answers(engine):
    # R10: a card that would follow the value, a 7, a J or a K cannot answer a K.
    state = table(2, {0: "K♠ 4♦ 9♣", 1: "8♥ 7♣ J♣"}, value=8, engine=engine)
    state.apply(12)
    assert state.phase == K_ANSWER and state.legal_actions() == [SHOW_AND_DRAW]


def test_restriction_binds_only_the_next_player(engine):
    state = table(3, {0: "K♠ 4♦ 9♣", 1: "3♥ 5♥ 9♥", 2: "K♦ 7♣ 8♣"}, value=8, engine=engine)
    state.apply(12)
    state.apply(SHOW_AND_DRAW)
    assert state.phase == PLAY and state.current_player == 2
    assert state.legal_actions() == [6, 7, 12]  # P2 may even play a K


def test_king_discard_is_compulsory_by_default(engine):
    state = table(2, {0: "K♠ 4♦ 9♣", 1: "A♥ 3♣ 5♦"}, value=8, engine=engine)
    state.apply(12)
    state.apply(0)
    assert state.phase == K_DISCARD and DECLINE not in state.legal_actions()


def test_option_k_discard_optional_allows_declining(engine):
    state = table(
        2, {0: "K♠ 4♦ 9♣", 1: "A♥ 3♣ 5♦"}, value=8, k_discard_optional=True, engine=engine
    )
    state.apply(12)
    state.apply(0)
    assert DECLINE in state.legal_actions()
    assert state.describe_action(DECLINE) == "decline the discard"
    hand = list(state.hands[0])
    state.apply(DECLINE)
    assert state.hands[0] == hand and state.phase == PLAY


def test_option_a_needs_discard(engine):
    # With a total of 2 an A is legal by default (the discard is then skipped, R8)...
    assert 0 in table(2, {0: "A♦ 5♣"}, piles={0: ""}, value=7, engine=engine).legal_actions()
    # ... and not under the a_needs_discard reading.
    state = table(2, {0: "A♦ 5♣"}, piles={0: ""}, value=7, a_needs_discard=True, engine=engine)
    assert state.legal_actions() == [SHOW_AND_DRAW]
    state = table(2, {0: "A♦ 5♣ 9♠"}, piles={0: ""}, value=7, a_needs_discard=True, engine=engine)
    assert state.legal_actions() == [0]


def test_seven_is_named_before_the_refill_by_default(engine):
    state = table(2, {0: "7♦ 8♣ 9♠"}, piles={0: ("4♥", 6)}, value=5, engine=engine)
    state.apply(6)
    assert state.phase == SEVEN_NAME and state.hands[0] == cards("8♣ 9♠")


def test_option_choose_after_refill(engine):
    state = table(
        2, {0: "7♦ 8♣ 9♠"}, piles={0: ("4♥", 6)}, value=5, choose_after_refill=True, engine=engine
    )
    state.apply(6)
    assert state.phase == SEVEN_NAME and state.hands[0] == cards("8♣ 9♠ 4♥")
    state.apply(27)
    assert state.hands[0] == cards("8♣ 9♠ 4♥") and len(state.piles[0]) == 5


def test_ace_refills_before_its_discard(engine):
    # R6: the discard is chosen from the refilled hand.
    state = table(2, {0: "A♠ 3♦ 9♣"}, piles={0: ("K♥", 5)}, value=7, engine=engine)
    state.apply(0)
    assert state.phase == A_DISCARD and 14 + 12 in state.legal_actions()


def test_discard_and_play_move_the_lowest_suit(engine):
    state = table(2, {0: "5♠ 5♣ 5♥"}, value=5, engine=engine)
    state.apply(4)
    assert state.play_pile[-1][0] == cards("5♣")[0]


def test_going_out_ends_the_round_at_once_and_redeals(engine):
    state = table(3, {1: "4♣"}, piles={1: ""}, value=8, turn=1, rounds=2, engine=engine)
    state.apply(3)
    assert state.round_scores == [[8, -3, 8]] and state.round == 1
    # Round 2: reshuffled and redealt, start player chosen anew (R17).
    assert state.phase == PLAY and [len(p) for p in state.piles] == [14, 14, 14]
    assert state.value is None and state.play_pile == [] and state.scores() == [8, -3, 8]


def test_blocked_check_ignores_a_pending_restriction(engine):
    # R14: P1 cannot answer the K but could play its 2 later, so the round goes on.
    state = table(2, {0: "K♠ 9♥", 1: "2♦ 5♣"}, piles={0: "", 1: ""}, value=8, engine=engine)
    state.apply(12)
    assert state.phase == K_ANSWER and not state.is_terminal()


def test_match_of_three_rounds_by_default_and_any_number(engine):
    for rounds in (1, 3, 4):
        state = rules_for(engine).new_state(
            2, seed=7, **({} if rounds == 3 else {"rounds": rounds})
        )
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        assert len(state.round_scores) == rounds and state.phase == GAME_OVER
        assert state.scores() == [sum(r[s] for r in state.round_scores) for s in range(2)]


def test_start_draw_random_is_reproducible(engine):
    first = rules_for(engine).new_state(4, seed=11, start_draw="random")
    again = rules_for(engine).new_state(4, seed=11, start_draw="random")
    assert first.to_json() == again.to_json()
    assert first.to_json() != rules_for(engine).new_state(4, seed=11).to_json()


def test_seed_reproduces_a_game(engine):
    assert (
        rules_for(engine).new_state(3, seed=5).to_json()
        == rules_for(engine).new_state(3, seed=5).to_json()
    )
    assert (
        rules_for(engine).new_state(3, seed=5).to_json()
        != rules_for(engine).new_state(3, seed=6).to_json()
    )


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 6, 0, -2, "3", 2.5, True])
def test_bad_player_count(n, engine):
    with pytest.raises(InvalidConfigError, match="num_players=.* allowed: 2 to 5"):
        rules_for(engine).new_state(n)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"round": 2}, "unknown option 'round'; known: a_needs_discard, .*rounds"),
        ({"rounds": 0}, "rounds=0 is not allowed; allowed: an integer from 1 to 100"),
        ({"rounds": 101}, "rounds=101 is not allowed; allowed: an integer from 1 to 100"),
        ({"rounds": 10**9}, "allowed: an integer from 1 to 100"),
        ({"rounds": 2.0}, "allowed: an integer from 1 to 100"),
        ({"rounds": True}, "allowed: an integer from 1 to 100"),
        ({"rounds": "3"}, "allowed: an integer from 1 to 100"),
        ({"start_draw": "bottom"}, "start_draw='bottom' is not allowed; allowed: 'top', 'random'"),
        ({"a_needs_discard": 1}, "allowed: False, True"),
    ],
)
def test_bad_options(options, message, engine):
    with pytest.raises(InvalidConfigError, match=message):
        rules_for(engine).new_state(2, **options)


@pytest.mark.parametrize("action", [-1, 40, 1000, 2.0, "3", None, True])
def test_bad_actions_raise_and_change_nothing(action, engine):
    state = table(2, {0: "2♣ 5♦ 9♥"}, value=6, engine=engine)
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply(action)
    assert state.to_json() == before
    assert "legal: 1" in str(error.value) or "not an integer" in str(error.value)


def test_illegal_action_message_names_action_phase_and_legal_actions(engine):
    state = table(2, {0: "2♣ 5♦ 9♥"}, value=6, engine=engine)
    with pytest.raises(IllegalActionError) as error:
        state.apply(8)
    assert str(error.value) == ("action 8 (play 9) is not legal in phase PLAY for seat 0; legal: 1")
    assert isinstance(error.value, ValueError)


def test_actions_after_the_end_are_refused(engine):
    state = table(2, {0: "4♣"}, piles={0: ""}, value=8, rounds=1, engine=engine)
    state.apply(3)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(3)


def test_bad_snapshots_are_refused(engine):
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        rules_for(engine).from_json("{not json")
    data = rules_for(engine).new_state(2, seed=1).to_dict()
    data["hands"][0].append(data["piles"][1][0])  # a card in two places
    with pytest.raises(InvalidStateError, match="52 cards"):
        rules_for(engine).from_dict(data)
    del data["piles"]
    with pytest.raises(InvalidStateError, match="not a factors_multiples snapshot"):
        rules_for(engine).from_dict(data)
