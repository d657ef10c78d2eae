"""Factors and Multiples (因數與倍數): a shedding card game for 2-5 players."""

from boardgame_envs.factors_multiples.rules import FactorsMultiplesRules, State, View

__all__ = ["FactorsMultiplesRules", "State", "View"]
