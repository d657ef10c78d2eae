"""Wasabi! (哇沙米!): recipes on a grid, for 2-4 players."""

from boardgame_envs.core.game import GameInfo
from boardgame_envs.wasabi.rules import State, View, WasabiRules

#: The game's registration (entry point ``wasabi`` of ``boardgame_envs.games``).
GAME = GameInfo(
    id="wasabi",
    title="Wasabi!",
    gym_name="Wasabi",
    rules_class="boardgame_envs.wasabi.rules:WasabiRules",
    native_rules_class="boardgame_envs.wasabi.native:Rules",
    settings_module="boardgame_envs.agents.games.wasabi",
)

__all__ = ["GAME", "State", "View", "WasabiRules"]
