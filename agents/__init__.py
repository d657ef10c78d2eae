"""Players for every game: random, a heuristic per game, saved PPO policies."""

from agents.base import Agent, AgentMix, RandomAgent, make_agent

__all__ = ["Agent", "AgentMix", "RandomAgent", "make_agent"]
