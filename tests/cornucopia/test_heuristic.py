"""The heuristic agent: sensible single decisions, and it beats random players."""

from __future__ import annotations

import pytest

from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.agents.games.cornucopia.heuristic import HeuristicAgent, _odds_of
from boardgame_envs.cornucopia.rules import FORFEIT, REDRAW, bet_action, bid_action, place_action
from tests.cornucopia.helpers import RULES, bet, bid, table

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def test_completes_a_basket_when_it_can():
    state = table(("C T", "P P", "W G", "C T E W", "W* C"), deck="P")
    bid(state, 2)
    bet(state, "NO", 1)
    assert HeuristicAgent(0).act(state.view(0)) == place_action(3)  # P completes B3: +5


def test_plays_for_the_larger_reward_when_placements_remain():
    # With bid 6 a DIFFERENT completion pays 1; P P P in B1 aims at SAME (4) with 5 left.
    state = table(("C T", "P P", "W G", "C T E W", "W* C"), deck="P")
    bid(state, 6)
    bet(state, "NO", 1)
    assert HeuristicAgent(0).act(state.view(0)) == place_action(1)


def test_redraws_a_dead_card_when_the_turn_is_worth_it():
    # A dead C; B0 needs one T or W, and both red chips are the player's lead.
    state = table(("T T T W", "C P", "C E", "C G", "W* T"), chips={1: (0, 3, 0)}, deck="C T")
    bid(state, 1)
    bet(state, "NO", 1)
    assert state.legal_actions() == [REDRAW, FORFEIT]
    assert HeuristicAgent(0).act(state.view(0)) == REDRAW


def test_keeps_the_red_chip_when_the_redraw_is_hopeless():
    # The same dead C with bid 6 but no basket close to completion: REDRAW would cost the
    # red majority (2 v 2 → 1 v 2) for little.
    state = table(("C P", "C E", "C G", "C T", "W* T"), deck="C")
    bid(state, 1)
    bet(state, "NO", 1)
    assert HeuristicAgent(0).act(state.view(0)) == FORFEIT


def test_bids_low_on_a_basket_one_card_from_completion_with_many_fits():
    # B3 = C T E W accepts W, P or G (about half the deck): bid 1 pays most per point of odds.
    state = table(("C T", "P P", "W G", "C T E W", "W* C"))
    action = HeuristicAgent(0).act(state.view(0))
    assert action in (bid_action(1), bid_action(2))


def test_bets_no_on_a_hopeless_bid():
    state = table(("C P", "C E", "C G", "C T", "W* T"), n=3)
    bid(state, 1)  # nothing can be completed with one card
    assert HeuristicAgent(0).act(state.view(1)) == bet_action(1, 3)


def test_beats_random_players():
    wins = 0
    for game in range(12):
        n = 2 + game % 4
        seat = game % n
        agents = [
            HeuristicAgent(game) if s == seat else RandomAgent(game * 10 + s) for s in range(n)
        ]
        state = RULES.new_state(n, seed=game)
        while not state.is_terminal():
            player = state.current_player
            state.apply(agents[player].act(state.view(player)))
        wins += seat in state.winners()
    assert wins >= 11


def test_turn_outlook_is_the_best_bids_value_and_odds():
    """``turn_outlook`` (for search's evaluation) is what the best bid is worth and its
    chance: more with a basket one card from completion than with every basket at two."""
    near = table(("C T", "P P", "W G", "C T E W", "W* C"))
    far = table(("C T", "P P", "W G", "C E", "W* C"))
    player = HeuristicAgent(0)
    (near_value, near_p), (far_value, far_p) = (
        player.turn_outlook(near.view(0)),
        player.turn_outlook(far.view(0)),
    )
    assert near_value > far_value + 1 and 0 < far_p < near_p < 1
    # It is the value and chance of the bid the heuristic plays there.
    view = near.view(0)
    number = player.act(view) + 1
    played = _odds_of(view).best(view.baskets, number, 1, player._prices(view, number))
    assert (near_value, near_p) == played


def test_search_evaluation_adds_the_turn_about_to_start():
    """The turn player gets the turn's value, each bettor ``|2p - 1|`` (a 3-chip stake on
    the likelier side); mid-turn only the points in hand count."""
    from boardgame_envs.agents.games.cornucopia.search import BET_WORTH
    from boardgame_envs.agents.games.cornucopia.search import (
        provisional_score as _cornucopia_keys,
    )

    state = table(("C T", "P P", "W G", "C T E W", "W* C"), chips={0: (2, 4, 2), 1: (1, 3, 1)})
    keys = _cornucopia_keys(state.clone())
    # Seat 0: 2 yellow + 4/3 blue, red majority 6, about to bid; seat 1: 1 + 1 + red 3.
    value, p = HeuristicAgent(0).turn_outlook(state.view(0))
    assert keys == [2 + 4 / 3 + 6 + value, 1 + 1 + 3 + BET_WORTH * abs(2 * p - 1)]
    bid(state, 3)
    assert _cornucopia_keys(state.clone()) == [2 + 4 / 3 + 6, 1 + 1 + 3]
