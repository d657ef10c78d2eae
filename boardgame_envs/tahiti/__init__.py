"""Tahiti (大溪地): canoes, goods and the fertility goddess on hex islands, for 2-4 players."""

from boardgame_envs.core.game import GameInfo
from boardgame_envs.tahiti.rules import State, TahitiRules, View

#: The game's registration (entry point ``tahiti`` of ``boardgame_envs.games``).
GAME = GameInfo(
    id="tahiti",
    title="Tahiti",
    gym_name="Tahiti",
    rules_class="boardgame_envs.tahiti.rules:TahitiRules",
    native_rules_class="boardgame_envs.tahiti.native:Rules",
    settings_module="boardgame_envs.agents.games.tahiti",
)

__all__ = ["GAME", "State", "TahitiRules", "View"]
