"""Factors and Multiples (因數與倍數): a shedding card game for 2-5 players."""

from boardgame_envs.core.game import GameInfo
from boardgame_envs.factors_multiples.rules import FactorsMultiplesRules, State, View

#: The game's registration (entry point ``factors_multiples`` of ``boardgame_envs.games``).
GAME = GameInfo(
    id="factors_multiples",
    title="Factors and Multiples",
    gym_name="FactorsMultiples",
    rules_class="boardgame_envs.factors_multiples.rules:FactorsMultiplesRules",
    native_rules_class="boardgame_envs.factors_multiples.native:Rules",
    settings_module="boardgame_envs.agents.games.factors_multiples",
)

__all__ = ["GAME", "FactorsMultiplesRules", "State", "View"]
