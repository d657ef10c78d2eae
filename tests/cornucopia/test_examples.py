"""Every worked example of the spec's §10, from a constructed position, exact outcomes."""

from __future__ import annotations

import pytest

from boardgame_envs.cornucopia.data import DIFFERENT, SAME, WILD
from boardgame_envs.cornucopia.rules import (
    AMBIGUOUS,
    BET,
    BID,
    CARD,
    DECLARE,
    END_DECK,
    END_STACKS,
    FORFEIT,
    GAME_OVER,
    REDRAW,
    basket_status,
    combination_points,
    completion_type,
    declare_action,
    red_majority_points,
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


# -- Example 1: the initial state ------------------------------------------------------------
def test_example_1_initial_state():
    state = RULES.new_state(3, seed=0)
    assert state.chips == [[0, 3, 2]] * 3
    assert state.won == [[0] * 6] * 3
    assert state.stacks == [4, 4, 5, 5, 6, 6]
    assert [len(b) for b in state.baskets] == [2, 2, 2, 2, 2]
    assert state.baskets[4][0] == WILD  # W*
    assert len(state.deck) == 56 and state.discard == [] and state.exhaustions == 0
    assert len(state.deck) + sum(len(b) for b in state.baskets[:4]) + 2 == 66
    assert state.phase == BID and state.current_player == state.start_player


# -- Example 2: legal placements -------------------------------------------------------------
def drawn(baskets, deck: str, n: int = 2, **kwargs):
    """The first card of ``deck`` drawn by seat 0 after bid 6 (and NO 1 bets by the others)."""
    state = table(baskets, n=n, deck=deck, **kwargs)
    if state.phase == DECLARE:
        declare(state, 0)
    bid(state, 6)
    while state.phase == BET:
        bet(state, "NO", 1)
    assert state.phase == CARD and state.pending == crops(deck)[0]
    return state


def test_example_2_statuses():
    statuses = [basket_status(crops(b), j == 4) for j, b in enumerate(EXAMPLE_2)]
    assert statuses == [DIFFERENT, SAME, AMBIGUOUS, DIFFERENT, SAME]


@pytest.mark.parametrize(
    "card, legal",
    [
        ("C", [2, 4]),
        ("T", [2]),
        ("P", [0, 1, 2, 3]),
        ("E", [0, 2]),
        ("G", [0, 2, 3]),
        ("W", [0, 1, 2, 3, 4]),
    ],
)
def test_example_2_legal_placements(card, legal):
    state = drawn(EXAMPLE_2, card)
    assert legal_places(state) == legal
    assert state.legal_actions() == [12 + j for j in legal] + [REDRAW]  # FORFEIT: not dead


def test_example_2_remarks():
    state = drawn(EXAMPLE_2, "P")
    place(state, 3)  # [C T E W P]: complete, DIFFERENT → bid 6 pays 1
    assert state.won[0][5] == 1 and state.chips[0][0] == 1
    state = drawn(EXAMPLE_2, "G")
    place(state, 2)  # the same-commit bonus
    assert state.chips[0][0] == 1 and state.baskets[2] == crops("W G G")
    state = drawn(EXAMPLE_2, "G")
    place(state, 3)  # completes as DIFFERENT
    assert state.won[0][5] == 1 and state.chips[0][0] == 1


# -- Example 3: the same-commit bonus --------------------------------------------------------
OTHER = ("P P", "P P", "P P", "P P", "W* P")  # baskets that do not matter


def with_basket(j: int, cards: str) -> list[str]:
    baskets = list(OTHER)
    baskets[j] = cards
    return baskets


def test_example_3_bonus_in_an_ambiguous_basket():
    state = drawn(with_basket(2, "W G"), "G")
    place(state, 2)
    assert state.chips[0][0] == 1 and basket_status(state.baskets[2], False) == SAME


def test_example_3_no_bonus_in_the_same_basket():
    state = drawn(with_basket(4, "W* C"), "C")
    place(state, 4)
    assert state.chips[0][0] == 0


def test_example_3_one_crop_among_wilds_stays_ambiguous():
    state = drawn(with_basket(1, "W W"), "T T")
    place(state, 1)
    assert state.chips[0][0] == 0 and basket_status(state.baskets[1], False) == AMBIGUOUS
    assert state.pending == crops("T")[0]
    place(state, 1)
    assert state.chips[0][0] == 1 and basket_status(state.baskets[1], False) == SAME


def test_example_3_no_bonus_when_already_same():
    state = drawn(with_basket(1, "C C"), "C")
    place(state, 1)
    assert state.chips[0][0] == 0


def test_example_3_bonus_and_same_reward_together():
    state = table(with_basket(0, "G W W W"), deck="G")
    bid(state, 2)
    bet(state, "NO", 1)
    place(state, 0)
    assert state.chips[0][0] == 9  # +1 bonus, +8 SAME reward for bid 2


def test_example_3_bonus_is_kept_when_the_turn_fails():
    state = table(with_basket(2, "W G"), deck="G")
    bid(state, 1)
    bet(state, "NO", 1)
    place(state, 2)  # +1 bonus, then k = N: FAILURE, -1
    assert state.chips[0] == [0, 3, 2] and state.turn_player == 1


# -- Example 4: a successful turn with bets --------------------------------------------------
def test_example_4_successful_turn_with_bets():
    ann, ben, cal = 0, 1, 2
    state = table(EXAMPLE_2, n=3, deck="P E G")
    bid(state, 2)
    assert state.stacks[1] == 3 and state.current_player == ben
    bet(state, "YES", 2)
    assert state.chips[ben] == [0, 3, 2]  # secret: nothing moves yet
    assert state.view(cal).bets[ben] is None and state.view(cal).committed[ben]
    bet(state, "NO", 3)
    # REVEAL: stakes on the bet cards; Ann draws P.
    assert state.chips[ben] == [0, 1, 2] and state.chips[cal] == [0, 0, 2]
    assert state.phase == CARD and state.pending == crops("P")[0]
    place(state, 3)
    assert state.chips[ann] == [5, 3, 2] and state.won[ann] == [0, 1, 0, 0, 0, 0]
    assert state.stacks[1] == 3
    assert state.baskets[3] == crops("E G")  # sown from the deck
    assert sorted(state.discard) == sorted(crops("C T E W P"))
    assert state.chips[ben] == [0, 5, 2] and state.chips[cal] == [0, 0, 2]
    assert state.phase == BID and state.turn_player == ben
    assert state.chip_totals() == [0, 9, 6]  # with the bank balance


# -- Example 5: failure and the payment rule -------------------------------------------------
@pytest.mark.parametrize(
    "before, after",
    [
        ((2, 0, 1), (1, 0, 1)),
        ((0, 4, 1), (0, 1, 1)),
        ((0, 3, 1), (0, 0, 1)),
        ((0, 2, 1), (0, 2, 1)),
    ],
)
def test_example_5_failure_and_payment(before, after):
    baskets = ("C T", "P P", "W G", "C T E", "W* C")
    state = table(baskets, n=3, chips={0: before}, deck="E")
    bid(state, 1)
    assert state.stacks[0] == 3
    bet(state, "NO", 2)  # Ben
    bet(state, "YES", 1)  # Cal
    assert legal_places(state) == [0, 2]
    place(state, 0)
    assert state.baskets[0] == crops("C T E")  # stays
    assert state.stacks[0] == 4  # the bid card returns
    assert tuple(state.chips[0]) == after
    assert state.chips[1] == [0, 5, 2] and state.chips[2] == [0, 2, 2]  # NO wins, YES loses
    assert state.turn_player == 1 and state.phase == BID


# -- Example 6: red-chip redraw, then a dead card --------------------------------------------
EXAMPLE_6 = ("C T", "C P", "C E", "C G", "W* T")


def test_example_6_redraw_then_forced_forfeit():
    ann, dee = 0, 1
    state = table(EXAMPLE_6, chips={ann: (1, 3, 2)}, deck="C C")
    bid(state, 3)
    bet(state, "NO", 1)
    assert state.chips[dee] == [0, 2, 2]
    assert state.legal_actions() == [REDRAW, FORFEIT]  # a dead card
    redraw(state)
    assert state.chips[ann] == [1, 3, 1] and state.discard == crops("C") and state.placed == 0
    assert state.pending == crops("C")[0]
    assert state.legal_actions() == [FORFEIT]  # the red chip is used for this turn
    forfeit(state)
    assert state.chips[ann] == [0, 3, 1]  # one payment only
    assert state.discard == crops("C C")
    assert state.stacks[2] == 5 and state.chips[dee] == [0, 4, 2]
    assert state.phase == BID and state.turn_player == dee


def test_example_6_forfeit_at_once_keeps_the_red_chip():
    state = table(EXAMPLE_6, chips={0: (1, 3, 2)}, deck="C C")
    bid(state, 3)
    bet(state, "NO", 1)
    forfeit(state)
    assert state.chips[0] == [0, 3, 2]


# -- Example 7: completing the Same basket ---------------------------------------------------
def test_example_7_same_basket():
    state = table(("P P", "P P", "P P", "P P", "W* C C W"), deck="C E")
    bid(state, 4)
    bet(state, "NO", 1)
    place(state, 4)
    assert state.chips[0] == [6, 3, 2]  # SAME for bid 4, no bonus
    assert state.discard == crops("C C W C")
    assert state.baskets[4] == crops("W E")  # W* stays, one card sown


# -- Example 8: a basket that qualifies as both types ----------------------------------------
@pytest.mark.parametrize("card, gain", [("W", 8), ("C", 9), ("T", 5)])
def test_example_8_both_types(card, gain):
    state = table(("P P", "W W W C", "P P", "P P", "W* P"), deck=card)
    bid(state, 2)
    bet(state, "NO", 1)
    place(state, 1)
    assert state.chips[0][0] == gain and state.won[0][1] == 1


def test_example_8_completion_types():
    assert completion_type(crops("W W W C W"), False) == SAME
    assert completion_type(crops("W W W C C"), False) == SAME
    assert completion_type(crops("W W W C T"), False) == DIFFERENT


# -- Example 9: bet eligibility and funding --------------------------------------------------
def test_example_9_eligibility_and_funding():
    ann, ben, cal, dee = 0, 1, 2, 3
    chips = {ben: (1, 0, 2), cal: (0, 1, 2), dee: (0, 0, 0)}
    state = table(EXAMPLE_2, n=4, chips=chips, deck="P")
    bid(state, 5)
    assert state.current_player == ben and state.legal_actions() == [6, 7, 8, 9, 10, 11]
    bet(state, "NO", 3)
    assert state.current_player == cal and state.legal_actions() == [6, 9]
    bet(state, "YES", 1)
    # Dee is skipped: the bets are revealed and Ann draws.
    assert state.phase == CARD and state.current_player == ann
    assert state.chips[ben] == [0, 0, 2] and state.chips[cal] == [0, 0, 2]
    place(state, 3)
    assert state.chips[ben] == [0, 0, 2] and state.chips[cal] == [0, 2, 2]
    assert state.chips[dee] == [0, 0, 0]


# -- Example 10: bid-card combinations -------------------------------------------------------
@pytest.mark.parametrize(
    "cards, points",
    [
        ("6 6 6 6", 5),
        ("6 6 6 6 6", 5),
        ("3 3 3 4 5", 6),
        ("1 1 2 2 3 3", 9),
        ("4 4 4 4 5 6", 7),
        ("1 2 3 4 5 6", 6),
        ("2 3 4 5 6 6", 7),
        ("1 1 2 3 4 5 6", 8),
        ("2 2 3 3 4 4 5 5", 12),
        ("1 2 3 3", 3),
        ("1 3 5", 0),
    ],
)
def test_example_10_combinations(cards, points):
    counts = [0] * 6
    for number in cards.split():
        counts[int(number) - 1] += 1
    assert combination_points(tuple(counts)) == points


# -- Example 11: red-chip majority -----------------------------------------------------------
@pytest.mark.parametrize(
    "reds, points",
    [
        ((2, 2, 1, 0), [4, 4, 0, 0]),
        ((2, 1, 1), [6, 2, 2]),
        ((2, 1, 0), [6, 3, 0]),
        ((2, 1), [6, 3]),
        ((2, 2), [4, 4]),
        ((1, 0), [6, 0]),
        ((1, 1, 1), [4, 4, 4]),
        ((0, 0, 0), [0, 0, 0]),
        ((5, 3, 3, 0), [6, 2, 2, 0]),
        ((6, 4, 1), [6, 3, 0]),
        ((4, 4, 2, 1), [4, 4, 0, 0]),
        ((5, 2, 2, 2), [6, 2, 2, 2]),
        ((3, 0, 0), [6, 0, 0]),
    ],
)
def test_example_11_red_majority(reds, points):
    assert red_majority_points(reds) == points


# -- Example 12: complete final scoring ------------------------------------------------------
def test_example_12_final_scoring():
    state = table(
        OTHER,
        n=3,
        chips={0: (12, 7, 2), 1: (10, 2, 2), 2: (14, 0, 1)},
        won={0: "1 2 3 3 6", 1: "5 5 5 5", 2: "2 4 6"},
        exhaustions=2,
    )
    data = state.to_dict()  # ... and the game has just ended: the deck ran out twice
    data.update(phase=GAME_OVER, end_reason=END_DECK)
    state = RULES.from_dict(data)
    assert state.score_breakdown() == [(14, 4, 3), (10, 4, 5), (14, 0, 0)]
    assert state.scores() == [21, 19, 14]
    assert state.winners() == [0] and state.returns() == [1.0, 0.0, -1.0]


# -- Example 13: end by bid stacks -----------------------------------------------------------
STACKS_13 = {1: 0, 2: 0, 3: 1, 4: 2, 5: 3, 6: 6}


def test_example_13_success_empties_a_third_stack_and_ends_the_game():
    state = table(EXAMPLE_2, n=3, stacks=STACKS_13, deck="P E G")
    assert state.legal_actions() == [2, 3, 4, 5]
    bid(state, 3)
    assert state.stacks[2] == 0 and state.phase == BET  # empty only temporarily
    bet(state, "YES", 1)
    bet(state, "NO", 1)
    place(state, 3)
    assert state.is_terminal() and state.end_reason == END_STACKS
    assert state.won[0][2] == 1 and state.chips[0][0] == 4  # reward paid
    assert state.baskets[3] == crops("E G")  # sown
    assert state.chips[1] == [0, 4, 2] and state.chips[2] == [0, 2, 2]  # bets settled
    assert state.current_player == -1 and not state.legal_action_mask().any()


def test_example_13_failure_returns_the_card_and_play_goes_on():
    state = table(EXAMPLE_6, n=3, stacks=STACKS_13, deck="C")
    bid(state, 3)
    bet(state, "YES", 1)
    bet(state, "NO", 1)
    forfeit(state)  # a dead card: the turn fails
    assert state.stacks[2] == 1 and not state.is_terminal()
    assert state.phase == BID and state.turn_player == 1


# -- Example 14: end by the second deck exhaustion -------------------------------------------
BASKETS_14 = ("C C C W", "P P W P", "E E E E", "G G G W", "W* T")


def test_example_14_second_exhaustion_ends_the_game_after_the_turn():
    state = table(BASKETS_14, n=3, deck="T", deck_size=1, exhaustions=1)
    assert len(state.deck) == 1 and len(state.discard) == 47
    assert sum(len(b) for b in state.baskets) == 18
    bid(state, 4)
    bet(state, "YES", 2)
    bet(state, "NO", 1)
    assert state.pending == crops("T")[0]
    assert state.exhaustions == 2 and state.end_pending
    assert len(state.deck) == 47 and state.discard == []  # T is not in the new deck
    assert legal_places(state) == [4]
    place(state, 4)
    turns = state.turn
    while not state.is_terminal():  # the turn goes on as usual, from the new deck
        assert state.turn == turns and state.phase == CARD
        state.apply(state.legal_actions()[0])
    assert state.end_reason == END_DECK and state.turn == turns
    assert state.bets == [None] * 3 and state.chip_totals() == [0, 9, 6]  # settled
    assert state.bid is None and sum(state.stacks) + sum(map(sum, state.won)) == 30


def test_example_14_variant_exhaustion_while_sowing():
    # The completing card and the first sowing card are the deck's last two cards.
    state = table(EXAMPLE_2, n=2, deck="P E", deck_size=2, exhaustions=1)
    discarded = len(state.discard)
    bid(state, 2)
    bet(state, "NO", 1)
    assert state.exhaustions == 1 and len(state.deck) == 1
    place(state, 3)  # complete: B3 is cleared, then sown with E and a card of the new deck
    assert state.exhaustions == 2
    assert state.baskets[3][0] == crops("E")[0] and len(state.baskets[3]) == 2
    assert len(state.deck) == discarded + 5 - 1  # old discards + B3's five, one sown
    assert state.is_terminal() and state.end_reason == END_DECK


# -- Example 15: variant 8.1 -----------------------------------------------------------------
BASKETS_15 = ("T T T W", "C P", "C E", "C G", "W* T")


def variant_turn(declared: int, deck: str):
    state = table(BASKETS_15, chips={0: (0, 3, 2)}, deck=deck, variant_red3=True)
    assert state.phase == DECLARE
    assert state.legal_actions() == [declare_action(d) for d in (0, 1, 2)]
    declare(state, declared)
    bid(state, 4)
    bet(state, "NO", 1)
    return state


def test_example_15_two_declared_redraws():
    state = variant_turn(2, "C C T")
    assert state.chips[0] == [0, 3, 0] and state.declared == 2  # paid at once
    assert state.legal_actions() == [REDRAW, FORFEIT]
    redraw(state)
    assert state.declared == 1 and state.legal_actions() == [REDRAW, FORFEIT]
    redraw(state)
    assert state.declared == 0 and state.pending == crops("T")[0]
    place(state, 0)
    assert state.chips[0] == [6, 3, 0] and state.won[0][3] == 1


def test_example_15_unused_declared_chip_is_lost():
    state = variant_turn(2, "C T")
    redraw(state)
    place(state, 0)
    assert state.chips[0] == [6, 3, 0] and state.declared == 0


def test_example_15_declaring_zero_allows_only_forfeit():
    state = variant_turn(0, "C T")
    assert state.legal_actions() == [FORFEIT]
