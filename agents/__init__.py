"""Players for every game: random, a heuristic per game, saved PPO policies.

``PPOAgent`` is imported eagerly: ``boardgame_envs.agents.ppo`` loads torch and stable-baselines3
only when a model is loaded, so ``import agents`` stays light.
"""

from boardgame_envs.agents.base import Agent, AgentMix, RandomAgent, make_agent
from boardgame_envs.agents.ppo import PPOAgent

__all__ = ["Agent", "AgentMix", "PPOAgent", "RandomAgent", "make_agent"]
