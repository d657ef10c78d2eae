"""The rollout buffer's old place, which saved PPO models name: a model (``model.zip``) keeps
its rollout buffer's class by import path, and the shipped policies and runs saved before
the move name ``training.rollout_buffer`` or ``boardgame_envs.training.rollout_buffer``.
The class is :class:`boardgame_envs.training.ppo.rollout_buffer.EnvMajorRolloutBuffer`."""

from boardgame_envs.training.ppo.rollout_buffer import EnvMajorRolloutBuffer

__all__ = ["EnvMajorRolloutBuffer"]
