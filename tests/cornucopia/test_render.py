"""The text rendering: what a person at the table would see."""

from __future__ import annotations

import pytest

import boardgame_envs
from tests.cornucopia.helpers import EXAMPLE_2, bet, bid, table

#: Every test here runs on the Python engine and, where it is built, on the native one.
pytestmark = pytest.mark.usefixtures("engine")


def test_text_shows_the_table_and_hides_secret_bets():
    state = table(EXAMPLE_2, n=3, chips={0: (2, 3, 1)}, deck="E", won={0: "2 2"})
    bid(state, 3)
    bet(state, "NO", 3)  # P1, secret
    text = state.render_text(2)
    assert "P1's turn" not in text and "P0's turn · secret bets on the bid · P2 to decide" in text
    assert "bid 3: placed 0, 3 left · red used no" in text
    assert "B0 [C T]" in text and "DIFFERENT" in text and "fits: W P E G" in text
    assert "B4 [W* C]" in text and "(Same basket)" in text
    assert "P0: yellow 2 blue 3 red 1 · bid cards 2 2 · score 6 (3+0+3)" in text
    assert "P1: yellow 0 blue 3 red 2 · bid cards - · score 5 (1+4+0) · bet committed" in text
    assert "NO 3" not in text
    assert "bet NO 3 (to stake)" in state.render_text(1)  # its own bet
    assert "bet NO 3 (to stake)" in state.render_text(None)  # the referee's view
    bet(state, "YES", 1)  # P2: REVEAL
    text = state.render_text(2)
    assert "drawn card: E" in text and "bet NO 3 (staked)" in text
    assert "this turn: P0 bids 3; bets: P1 NO 3, P2 YES 1; draws E" in text


def test_env_renders_ansi():
    env = boardgame_envs.raw_env("cornucopia", num_players=4, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("Cornucopia · turn 1") and "P3" in text and "bid stacks" in text
