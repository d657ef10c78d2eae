"""Players for every game: random, a heuristic per game, search, saved policies.

``make_agent(spec, game)`` builds any of them by name (:mod:`boardgame_envs.agents.specs`);
``PPOAgent`` loads torch and stable-baselines3 only when a model is loaded, so importing
this package stays light.
"""

from boardgame_envs.agents.base import Agent, AgentMix, RandomAgent
from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs.agents.specs import make_agent

__all__ = ["Agent", "AgentMix", "PPOAgent", "RandomAgent", "make_agent"]
