"""Carcassonne: The Castle (卡卡頌-城堡): tiles inside a walled castle, for 2 players."""

from boardgame_envs.carcassonne_castle.rules import CarcassonneCastleRules, State, View

__all__ = ["CarcassonneCastleRules", "State", "View"]
