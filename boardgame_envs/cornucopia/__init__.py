"""Cornucopia (豐收季節): baskets, bids and bets for 2-5 players."""

from boardgame_envs.core.game import GameInfo
from boardgame_envs.cornucopia.rules import CornucopiaRules, State, View

#: The game's registration (entry point ``cornucopia`` of ``boardgame_envs.games``).
GAME = GameInfo(
    id="cornucopia",
    title="Cornucopia",
    gym_name="Cornucopia",
    rules_class="boardgame_envs.cornucopia.rules:CornucopiaRules",
    native_rules_class="boardgame_envs.cornucopia.native:Rules",
    settings_module="boardgame_envs.agents.games.cornucopia",
)

__all__ = ["GAME", "CornucopiaRules", "State", "View"]
