"""Carcassonne: The Castle (卡卡頌-城堡): tiles inside a walled castle, for 2 players."""

from boardgame_envs.carcassonne_castle.rules import CarcassonneCastleRules, State, View
from boardgame_envs.core.game import GameInfo

#: The game's registration (entry point ``carcassonne_castle`` of ``boardgame_envs.games``).
GAME = GameInfo(
    id="carcassonne_castle",
    title="Carcassonne: The Castle",
    gym_name="CarcassonneCastle",
    rules_class="boardgame_envs.carcassonne_castle.rules:CarcassonneCastleRules",
    native_rules_class="boardgame_envs.carcassonne_castle.native:Rules",
    settings_module="boardgame_envs.agents.games.carcassonne_castle",
)

__all__ = ["GAME", "CarcassonneCastleRules", "State", "View"]
