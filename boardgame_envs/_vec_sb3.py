"""The Stable-Baselines3 face of a batch (:func:`boardgame_envs.vector.make_vec`); imported
only when one is made, so that ``boardgame_envs`` does not need SB3."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

MASK_METHOD = "action_masks"  # what sb3-contrib's MaskablePPO calls before every step


class VecGameEnv(VecEnv):
    """A batch of single-agent games as an SB3 ``VecEnv``: what a ``DummyVecEnv`` of the
    same ``SingleAgentEnv``s gives, step for step (auto-reset included)."""

    def __init__(self, batch: Any) -> None:
        self.batch = batch
        super().__init__(batch.num_envs, batch.observation_space, batch.action_space)
        self._actions: np.ndarray | None = None

    # -- the VecEnv contract ---------------------------------------------------------------
    def reset(self) -> np.ndarray:
        rows = []
        for i in range(self.num_envs):
            obs, self.reset_infos[i] = self.batch.reset_env(i, self._seeds[i])
            rows.append(obs)
        self._reset_seeds()
        self._reset_options()
        return np.stack(rows)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self) -> tuple:
        obs, rewards, terminated, truncated, infos = self.batch.step_all(self._actions)
        dones = terminated | truncated
        for info, cut, ended in zip(infos, truncated, terminated):
            info["TimeLimit.truncated"] = bool(cut and not ended)
        for i in np.flatnonzero(dones).tolist():
            infos[i]["terminal_observation"] = obs[i].copy()
            obs[i], self.reset_infos[i] = self.batch.reset_env(i, None)
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        """The legal actions of every env's learner, one row per env."""
        return self.batch.action_masks()

    def close(self) -> None:
        pass

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == MASK_METHOD:
            return [self.action_masks] * len(self._indices(indices))
        if attr_name == "render_mode":
            return [None] * len(self._indices(indices))
        if attr_name == "learner_seat":
            seats = self.batch.learner_seats()
            return [seats[i] for i in self._indices(indices)]
        if attr_name in ("observation_space", "action_space"):
            return [getattr(self.batch, attr_name)] * len(self._indices(indices))
        raise AttributeError(f"the envs of a VecGameEnv have no attribute {attr_name!r}")

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"a VecGameEnv's envs take no attribute ({attr_name!r})")

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list:
        if method_name == MASK_METHOD:
            masks = self.batch.action_masks()
            return [masks[i] for i in self._indices(indices)]
        raise AttributeError(f"the envs of a VecGameEnv have no method {method_name!r}")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._indices(indices))

    def _indices(self, indices: Any) -> Sequence[int]:
        if indices is None:
            return range(self.num_envs)
        if isinstance(indices, int):
            return [indices]
        return list(indices)
