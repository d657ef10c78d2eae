"""Cornucopia (豐收季節): baskets, bids and bets for 2-5 players."""

from boardgame_envs.cornucopia.rules import CornucopiaRules, State, View

__all__ = ["CornucopiaRules", "State", "View"]
