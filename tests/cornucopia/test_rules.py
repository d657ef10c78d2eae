"""The rules of the spec one by one (the worked examples are in test_examples.py)."""

from __future__ import annotations

import json

import pytest

from boardgame_envs import IllegalActionError, InvalidConfigError, InvalidStateError
from boardgame_envs.cornucopia import data
from boardgame_envs.cornucopia.rules import (
    BET,
    BID,
    CARD,
    DECLARE,
    END_NO_CARDS,
    FORFEIT,
    NUM_ACTIONS,
    REDRAW,
    combination_points,
    fitting_types,
    is_valid_basket,
    pay_one_yellow,
    shuffle_seed,
)
from tests.cornucopia.helpers import (
    EXAMPLE_2,
    RULES,
    bet,
    bid,
    crops,
    declare,
    forfeit,
    legal_places,
    place,
    redraw,
    table,
)

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")

EXAMPLE_6 = ("C T", "C P", "C E", "C G", "W* T")  # a C is dead here
FILLER = ("P P", "P P", "P P", "P P", "W* P")


# -- components and setup (§2, §3) -----------------------------------------------------------
def test_component_totals():
    assert data.NUM_CROP_CARDS == 66 and data.NUM_CIRCULATING == 65
    assert sum(data.BID_COPIES) == data.NUM_BID_CARDS == 30
    assert data.BID_COPIES == (4, 4, 5, 5, 6, 6)
    assert data.DECK_AFTER_SETUP == 56 and data.MAX_TURNS == 121
    assert data.START_CHIPS == (0, 3, 2)


def test_stand_in_rewards_follow_the_spec_formula():
    for number in data.BID_NUMBERS:
        different, same = data.BID_REWARDS[number]
        assert different == (7 - number, 0, 0) and same == (10 - number, 0, 0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_setup_is_the_same_for_every_player_count(n):
    state = RULES.new_state(n, seed=n)
    assert state.chips == [[0, 3, 2]] * n and len(state.deck) == 56
    assert [len(b) for b in state.baskets] == [2] * 5 and state.baskets[4][0] == data.WILD
    assert state.chip_totals() == [0, 3 * n, 2 * n] and state.bank == [0, 0, 0]


def test_seed_reproduces_a_game_and_chooses_the_start_player():
    assert RULES.new_state(3, seed=5).to_json() == RULES.new_state(3, seed=5).to_json()
    assert RULES.new_state(3, seed=5).to_json() != RULES.new_state(3, seed=6).to_json()
    starts = {RULES.new_state(4, seed=s).start_player for s in range(40)}
    assert starts == {0, 1, 2, 3}


def test_seeding_deals_the_top_nine_cards_in_row_order():
    state = RULES.new_state(2, seed=3)
    rng = shuffle_seed(3, 0)
    assert state.start_player == int(rng.integers(2))
    cards = [0] * 10 + [t for t in range(1, 6) for _ in range(11)]
    deck = [cards[i] for i in rng.permutation(65)]  # top last
    top_nine = deck[::-1][:9]
    first_row = [state.baskets[j][0] for j in range(4)]
    second_row = [state.baskets[j][1] for j in range(4)] + [state.baskets[4][1]]
    assert first_row + second_row == top_nine and state.deck == deck[:56]


# -- basket geometry (§2.7) ------------------------------------------------------------------
@pytest.mark.parametrize(
    "cards, same_only, fits",
    [
        ("", False, "WCPTEG"),
        ("W W", False, "WCPTEG"),
        ("C", False, "WCPTEG"),
        ("C C", False, "WC"),
        ("C T", False, "WPEG"),
        ("C T E W", False, "WPG"),
        ("W* C", True, "WC"),
        ("W* W", True, "WCPTEG"),
        ("C T E G P", False, ""),
    ],
)
def test_fitting_types(cards, same_only, fits):
    mask = fitting_types(crops(cards), same_only)
    assert "".join(data.CROP_LETTERS[t] for t in range(6) if mask >> t & 1) == fits


def test_valid_baskets():
    assert is_valid_basket(crops("C C W C"), True)
    assert not is_valid_basket(crops("W C T"), True)
    assert is_valid_basket(crops("W C T"), False)
    assert not is_valid_basket(crops("C C T"), False)
    assert not is_valid_basket(crops("W W W W W W"), False)


# -- bids (DP-1) -----------------------------------------------------------------------------
def test_any_non_empty_stack_may_be_bid_even_without_hope():
    state = table(FILLER, stacks={2: 0})  # no basket can be completed with a bid of 1
    assert state.legal_actions() == [0, 2, 3, 4, 5]


def test_bid_card_is_out_while_pending():
    state = table(FILLER)
    bid(state, 1)
    assert state.stacks[0] == 3 and state.bid == 1


# -- bets (DP-2, REVEAL) ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "chips, legal",
    [((0, 1, 0), [6, 9]), ((0, 2, 0), [6, 7, 9, 10]), ((1, 0, 0), [6, 7, 8, 9, 10, 11])],
)
def test_stakes_are_limited_by_funds(chips, legal):
    state = table(FILLER, chips={1: chips})
    bid(state, 6)
    assert state.phase == BET and state.legal_actions() == legal


def test_without_eligible_bettors_the_first_card_is_drawn_at_once():
    state = table(EXAMPLE_2, chips={1: (0, 0, 2)}, deck="P")
    bid(state, 6)
    assert state.phase == CARD and state.current_player == 0 and state.bet_order == []


def test_bettors_decide_clockwise_from_the_turn_players_left():
    state = table(FILLER, n=4, turn=2)
    bid(state, 6)
    order = []
    while state.phase == BET:
        order.append(state.current_player)
        bet(state, "YES", 1)
    assert order == [3, 0, 1]


@pytest.mark.parametrize(
    "chips, stake, after",
    [((1, 2, 2), 3, (0, 2, 2)), ((1, 3, 2), 3, (1, 0, 2)), ((2, 0, 2), 1, (1, 2, 2))],
)
def test_funding_converts_one_yellow_only_when_needed(chips, stake, after):
    state = table(EXAMPLE_2, chips={1: chips}, deck="E")
    bid(state, 6)
    bet(state, "NO", stake)
    assert tuple(state.chips[1]) == after


def test_bet_settlement_even_money():
    state = table(EXAMPLE_2, n=3, deck="P E G")
    bid(state, 2)
    bet(state, "YES", 3)
    bet(state, "YES", 1)
    place(state, 3)
    assert state.chips[1] == [0, 6, 2] and state.chips[2] == [0, 4, 2]
    assert state.bank[data.BLUE] == -4


# -- drawing a card (DP-3) -------------------------------------------------------------------
def test_a_placeable_card_may_be_redrawn_once_in_the_base_game():
    state = table(EXAMPLE_2, deck="T P")
    bid(state, 6)
    bet(state, "NO", 1)
    assert state.legal_actions() == [14, REDRAW]  # T fits only B2
    redraw(state)
    assert state.chips[0] == [0, 3, 1] and state.red_used and state.placed == 0
    assert REDRAW not in state.legal_actions()  # the replacement cannot be redrawn


def test_no_redraw_without_red_chips():
    state = table(EXAMPLE_6, chips={0: (0, 3, 0)}, deck="C")
    bid(state, 6)
    bet(state, "NO", 1)
    assert state.legal_actions() == [FORFEIT]


def test_forfeit_is_only_for_a_dead_card():
    state = table(EXAMPLE_2, deck="T")
    bid(state, 6)
    bet(state, "NO", 1)
    with pytest.raises(IllegalActionError) as error:
        forfeit(state)
    assert str(error.value) == (
        "action 18 (forfeit (pay one yellow, the turn fails)) is not legal in phase CARD "
        "for seat 0; legal: 14, 17"
    )


def test_placed_cards_count_towards_the_bid_and_stay_after_failure():
    state = table(EXAMPLE_2, deck="E T")
    bid(state, 2)
    bet(state, "YES", 1)
    place(state, 0)  # C T E
    assert state.placed == 1 and state.phase == CARD
    place(state, 2)  # W G T: k = N = 2, no completion
    assert state.baskets[0] == crops("C T E") and state.baskets[2] == crops("W G T")
    assert state.turn_player == 1 and state.stacks[1] == 4


def test_a_wild_gives_no_bonus():
    state = table(EXAMPLE_2, deck="W")
    bid(state, 6)
    bet(state, "NO", 1)
    place(state, 2)
    assert state.chips[0][0] == 0


def test_sowing_gives_no_bonus_and_never_counts():
    state = table(EXAMPLE_2, deck="P C C")
    bid(state, 6)
    bet(state, "NO", 1)
    place(state, 3)
    assert state.baskets[3] == crops("C C") and state.chips[0][0] == 1  # the reward only


def test_first_exhaustion_reshuffles_and_play_goes_on():
    state = table(EXAMPLE_2, deck="E T", deck_size=2)
    bid(state, 3)
    bet(state, "NO", 1)
    place(state, 0)
    # T was the deck's last card: 65 - 11 in baskets - E - T = 52 discards reshuffled.
    assert state.exhaustions == 1 and not state.end_pending and len(state.deck) == 52
    assert state.pending == crops("T")[0] and state.discard == []
    place(state, 2)
    assert not state.is_terminal()


def test_reshuffle_is_seeded_and_hidden_order_is_not_in_the_discard():
    first = table(EXAMPLE_2, deck="E T", deck_size=2, seed=1)
    second = table(EXAMPLE_2, deck="E T", deck_size=2, seed=2)
    for state in (first, second):
        bid(state, 3)
        bet(state, "NO", 1)
        place(state, 0)
    assert sorted(first.deck) == sorted(second.deck) and first.deck != second.deck


#: The Python engine only: the test empties the piles by hand (a snapshot cannot hold that).
@pytest.mark.parametrize("engine", ["python"], indirect=True)
def test_empty_deck_and_discard_ends_the_game_without_penalty():
    # Defensive rule of §4.4.2 (unreachable in legal play): build it by hand.
    state = table(EXAMPLE_2, deck="E")
    bid(state, 3)
    bet(state, "YES", 2)
    state.discard, state.deck = [], []  # as if the deck had run dry
    place(state, 0)
    assert state.is_terminal() and state.end_reason == END_NO_CARDS
    assert state.stacks[2] == 5 and state.chips[0] == [0, 3, 2] and state.chips[1] == [0, 3, 2]


def test_pay_one_yellow():
    bank = [0, 0, 0]
    for before, after, paid in [([2, 0, 1], [1, 0, 1], 1), ([0, 4, 0], [0, 1, 0], 1)]:
        assert pay_one_yellow(before, bank) == paid and before == after
    chips = [0, 2, 0]
    assert pay_one_yellow(chips, bank) == 0 and chips == [0, 2, 0]
    assert bank == [1, 3, 0]


# -- the variant (§8.1) ----------------------------------------------------------------------
def test_variant_declaration_is_limited_by_red_held():
    state = table(FILLER, chips={0: (0, 3, 5)}, variant_red3=True)
    assert state.phase == DECLARE and state.legal_actions() == [19, 20, 21, 22]
    state = table(FILLER, chips={0: (0, 3, 0)}, variant_red3=True)
    assert state.legal_actions() == [19]


def test_variant_declared_chips_are_gone_at_the_end_of_the_turn():
    state = table(EXAMPLE_2, deck="E", variant_red3=True)
    declare(state, 2)
    assert state.phase == BID
    bid(state, 1)
    bet(state, "NO", 1)
    place(state, 0)  # failure
    assert state.chips[0] == [0, 0, 0] and state.declared == 0 and state.phase == DECLARE


def test_base_game_has_no_declaration():
    assert table(FILLER).phase == BID
    with pytest.raises(IllegalActionError, match="not legal in phase BID"):
        declare(table(FILLER), 0)


#: The Python engine only: the compiled engine's reward table is fixed at build time.
@pytest.mark.parametrize("engine", ["python"], indirect=True)
def test_reward_table_is_data_paid_per_colour(monkeypatch):
    monkeypatch.setitem(data.BID_REWARDS, 6, ((0, 2, 1), (0, 0, 3)))
    state = table(EXAMPLE_2, deck="P")
    bid(state, 6)
    bet(state, "NO", 1)
    place(state, 3)  # DIFFERENT
    assert state.chips[0] == [0, 5, 3] and state.chip_totals() == [0, 6, 4]
    assert state.bank == [0, -1, -1]  # the bank paid 2 blue + 1 red, won a 1 blue stake


# -- scoring (§6) ----------------------------------------------------------------------------
def test_combinations_of_many_equal_cards():
    assert combination_points((0, 0, 0, 0, 6, 6)) == 5 + 5  # at most one set per number
    assert combination_points((1, 1, 1, 1, 1, 1)) == 6
    assert combination_points((0, 0, 0, 1, 6, 6)) == 5 + 5 + 3  # 4-5-6 run from spares


def test_provisional_scores_during_the_game():
    state = table(FILLER, chips={0: (3, 5, 2), 1: (0, 3, 1)}, won={0: "2 2"})
    assert state.scores() == [3 + 1 + 6 + 3, 1 + 3 + 0]


def test_max_decisions():
    config = RULES.make_config({})
    assert RULES.max_decisions(2, config) == 121 * (1 + 1 + 6 + 1)
    assert RULES.max_decisions(5, RULES.make_config({"variant_red3": True})) == 1815


def test_describe_actions():
    state = table(EXAMPLE_2, deck="T")
    assert [state.describe_action(a) for a in (0, 5, 6, 11, 19, 22, 99)] == [
        "bid 1",
        "bid 6",
        "bet YES 1",
        "bet NO 3",
        "declare 0 red",
        "declare 3 red",
        "action 99 (out of range 0..22)",
    ]
    bid(state, 6)
    bet(state, "NO", 1)
    assert state.describe_action(14) == "place T in B2"
    assert state.describe_action(REDRAW) == "redraw (spend a red chip)"


# -- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 6, 0, "3", 2.5, True])
def test_bad_player_count(n):
    with pytest.raises(InvalidConfigError, match="num_players=.* allowed: 2 to 5"):
        RULES.new_state(n)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"variant": True}, "unknown option 'variant'; known: variant_red3"),
        ({"variant_red3": 1}, "variant_red3=1 is not allowed; allowed: False, True"),
        ({"variant_red3": "yes"}, "allowed: False, True"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(InvalidConfigError, match=message):
        RULES.new_state(2, seed=0, **options)


def test_bad_seed():
    with pytest.raises(InvalidConfigError, match="seed=-1 is not allowed; allowed: None or"):
        RULES.new_state(2, seed=-1)


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 1000, 2.0, "3", None, True])
def test_bad_actions_raise_and_change_nothing(action):
    state = table(FILLER, stacks={1: 0})
    before = state.to_json()
    with pytest.raises(IllegalActionError) as error:
        state.apply(action)
    assert state.to_json() == before
    message = str(error.value)
    assert "legal: 1, 2, 3, 4, 5" in message or "not an integer" in message


def test_illegal_action_message_names_action_phase_and_legal_actions():
    state = table(FILLER, stacks={1: 0})
    with pytest.raises(IllegalActionError) as error:
        bid(state, 1)
    assert str(error.value) == (
        "action 0 (bid 1) is not legal in phase BID for seat 0; legal: 1, 2, 3, 4, 5"
    )


@pytest.mark.parametrize("engine", ["python"], indirect=True)  # piles emptied by hand
def test_actions_after_the_end_are_refused():
    state = table(EXAMPLE_2, deck="E")
    bid(state, 3)
    bet(state, "YES", 2)
    state.discard, state.deck = [], []
    place(state, 0)
    with pytest.raises(IllegalActionError, match="the game is over"):
        bid(state, 3)


def test_bad_snapshots_are_refused():
    with pytest.raises(InvalidStateError, match="not a JSON snapshot"):
        RULES.from_json("{not json")
    good = RULES.new_state(2, seed=1).to_dict()
    assert good["baskets"][4] == [0, 0]  # W* and a W: [C, W] below keeps the card counts
    good["deck"][good["deck"].index(1)] = 0
    good["baskets"][4] = [0, 1]
    assert RULES.from_dict(good).baskets[4] == [0, 1]

    def broken(**changes):
        data_ = json.loads(json.dumps(good))
        data_.update(changes)
        return data_

    cases = [
        (broken(game="chess"), "snapshot is of game 'chess', not 'cornucopia'"),
        (broken(deck=good["deck"] + [1]), "not 11 of each"),
        (broken(deck=good["deck"][:-1] + [9]), "outside 0..5"),
        (broken(phase="DANCE"), "unknown phase 'DANCE'"),
        (broken(chips=[[0, -1, 2], [0, 3, 2]]), "non-negative"),
        (broken(stacks=[4, 4, 5, 5, 6, 5]), "bid cards 6: 5 in stacks"),
        (broken(baskets=good["baskets"][:4] + [[1, 0]]), "B4 must start with its W"),
        (broken(num_players=7), "allowed: 2 to 5"),
        (broken(config={"variant_red3": 2}), "variant_red3=2 is not allowed"),
        (broken(turn="3"), "turn: is '3', not an integer"),
        (broken(bets=[[0, 4], None]), "bets must be null or"),
    ]
    for snapshot, message in cases:
        with pytest.raises(InvalidStateError, match=message):
            RULES.from_dict(snapshot)
    missing = dict(good)
    del missing["deck"]
    with pytest.raises(InvalidStateError, match="not a cornucopia snapshot: missing field"):
        RULES.from_dict(missing)


def test_bad_basket_in_a_snapshot():
    snapshot = table(("C C", "T P", "P P", "P P", "W* P")).to_dict()
    snapshot["baskets"][0], snapshot["baskets"][1] = [1, 1, 3], [2]  # C C T: not legal
    with pytest.raises(InvalidStateError, match=r"basket B0 \[1, 1, 3\] is not a legal"):
        RULES.from_dict(snapshot)


def test_bad_positions_are_refused():
    with pytest.raises(InvalidStateError, match="more than 11 cards of one type"):
        table(("C C C C", "C C C C", "C C C C", "P P", "W* P"))
    with pytest.raises(ValueError, match="not a crop: 'X'"):
        crops("C X")


def test_redraw_message_when_the_red_chip_is_spent():
    state = table(EXAMPLE_6, deck="C C")
    bid(state, 6)
    bet(state, "NO", 1)
    redraw(state)
    with pytest.raises(IllegalActionError, match=r"action 17 \(redraw .*legal: 18"):
        redraw(state)
    assert state.phase == CARD and state.placed == 0 and legal_places(state) == []


def test_phase_bet_needs_a_bettor():
    state = table(FILLER)
    bid(state, 6)
    snapshot = state.to_dict()
    snapshot["bet_index"] = 1
    with pytest.raises(InvalidStateError, match="phase BET with no bettor left"):
        RULES.from_dict(snapshot)
