"""Wasabi! (哇沙米!): recipes on a grid, for 2-4 players."""

from boardgame_envs.wasabi.rules import State, View, WasabiRules

__all__ = ["State", "View", "WasabiRules"]
