"""HintedEnv: a single-agent env whose observations end with another agent's move.

A hinted policy (``boardgame_envs.agents.hinted``) reads, after the observation, a one-hot
*hint*: the action the hint agent (the game's heuristic) would take in the learner's view.
This wrapper appends it to a training env's observations; the batched env builds the same
rows in compiled code where it can.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np

from boardgame_envs.core.rules import InvalidConfigError, PlayerView


def hint_vector(agent: Any, view: PlayerView | None, size: int) -> np.ndarray:
    """One-hot of ``agent``'s action in ``view`` (all zeros for ``view=None``: game over)."""
    hint = np.zeros(size, dtype=np.float32)
    if view is not None:
        hint[agent.act(view)] = 1.0
    return hint


class HintedEnv(gymnasium.Wrapper):
    """A flat-layout SingleAgentEnv whose observations end with ``hint``'s one-hot choice
    in the learner's view. ``hint`` is reseeded from the env's generator at every reset,
    so a seed gives the same games."""

    def __init__(self, env: gymnasium.Env, hint: Any) -> None:
        super().__init__(env)
        space = env.observation_space
        if not isinstance(space, gymnasium.spaces.Box):
            raise InvalidConfigError("a hinted env needs the flat layout (layout='flat')")
        self.hint = hint
        self.hint_size = int(env.action_space.n)
        self.observation_space = gymnasium.spaces.Box(
            np.concatenate([space.low, np.zeros(self.hint_size, np.float32)]),
            np.concatenate([space.high, np.ones(self.hint_size, np.float32)]),
            dtype=np.float32,
        )

    @property
    def state(self):
        return self.env.state

    @property
    def learner_seat(self) -> int:
        return self.env.learner_seat

    def action_masks(self) -> np.ndarray:
        return self.env.action_masks()

    def reset(self, **kwargs: Any):
        obs, info = self.env.reset(**kwargs)
        self.hint.reset(int(self.env.np_random.integers(2**63)))
        return self._hinted(obs, done=False), info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._hinted(obs, terminated or truncated), reward, terminated, truncated, info

    def _hinted(self, obs: np.ndarray, done: bool) -> np.ndarray:
        view = None if done else self.env.state.view(self.env.learner_seat)
        return np.concatenate([obs, hint_vector(self.hint, view, self.hint_size)])
