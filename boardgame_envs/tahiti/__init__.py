"""Tahiti (大溪地): canoes, goods and the fertility goddess on hex islands, for 2-4 players."""

from boardgame_envs.tahiti.rules import State, TahitiRules, View

__all__ = ["State", "TahitiRules", "View"]
