"""Hinted policies: a network that starts from the heuristic's choice and learns where to
depart from it.

A hinted policy reads, after the observation, a one-hot *hint*: the action another agent
(the game's heuristic) would take in the same view. Its logits are the network's own plus
``hint_weight`` times that one-hot, with ``hint_weight`` a learned scalar, so a fresh policy
already plays the heuristic's move most of the time (and always when deterministic: its own
logits start near zero) and PPO learns where another move does better. This is a residual
policy on a rule-based prior; the network also sees the hint as an input.

==================  ===================================================================
Input               the flat observation (with the mask under ``observe_mask``), then
                    ``action_size`` values: 1 at the hint agent's action, 0 elsewhere
                    (all 0 once the game is over)
Logits              ``action_net(latent) + hint_weight * hint``, masked as usual
Hint agent          ``make_agent(policy.hint, policy.hint_game)``; the shipped policies
                    use ``heuristic``, which keeps playing as it does (it is only asked)
==================  ===================================================================

:class:`~boardgame_envs.core.hinted_env.HintedEnv` appends the hint to a training env's
observations; a saved hinted
policy loads as ``ppo:<model.zip>`` and the agent computes the hint itself
(``agents/ppo.py``).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, FlattenExtractor
from torch import nn

from boardgame_envs.agents.base import Agent
from boardgame_envs.core.game import load_object
from boardgame_envs.core.hinted_env import HintedEnv, hint_vector
from boardgame_envs.core.rules import InvalidConfigError


class HintExtractor(BaseFeaturesExtractor):
    """Runs ``inner`` (a features extractor class, flat by default) over the observation
    without its last ``hint_size`` values and appends those: the hint reaches the dense
    layers as an input. The latest hint read stays in ``self.hint`` for the policy's
    logits (every distribution the policy computes reads the observation through this
    extractor first, in the same call)."""

    def __init__(
        self,
        observation_space: gymnasium.spaces.Box,
        hint_size: int,
        inner: type[BaseFeaturesExtractor] = FlattenExtractor,
        inner_kwargs: dict | None = None,
    ) -> None:
        self.hint_size = int(hint_size)
        inner_space = gymnasium.spaces.Box(
            observation_space.low[: -self.hint_size],
            observation_space.high[: -self.hint_size],
            dtype=np.float32,
        )
        inner_extractor = inner(inner_space, **(inner_kwargs or {}))
        super().__init__(observation_space, inner_extractor.features_dim + self.hint_size)
        self.inner = inner_extractor
        self.hint: torch.Tensor | None = None

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        self.hint = observations[:, -self.hint_size :]
        return torch.cat([self.inner(observations[:, : -self.hint_size]), self.hint], dim=1)


class HintedPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with the hint added to its logits (see the module doc).
    ``features_extractor_class`` must be a :class:`HintExtractor`."""

    is_hinted = True

    def __init__(
        self,
        *args: Any,
        hint: str = "heuristic",
        hint_game: str = "",
        hint_weight: float = 4.0,
        **kwargs: Any,
    ) -> None:
        self.hint, self.hint_game, self.initial_hint_weight = hint, hint_game, hint_weight
        kwargs["share_features_extractor"] = True  # the logits read the one extractor's hint
        super().__init__(*args, **kwargs)
        if not isinstance(self.features_extractor, HintExtractor):
            raise InvalidConfigError("a HintedPolicy needs features_extractor_class=HintExtractor")

    def _build(self, lr_schedule) -> None:
        # Before the base class builds the optimizer, so that it trains the weight too.
        self.hint_weight = nn.Parameter(torch.tensor(float(self.initial_hint_weight)))
        super()._build(lr_schedule)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        data = super()._get_constructor_parameters()
        data.update(hint=self.hint, hint_game=self.hint_game, hint_weight=self.initial_hint_weight)
        return data

    def _get_action_dist_from_latent(self, latent_pi: torch.Tensor):
        logits = self.action_net(latent_pi) + self.hint_weight * self.features_extractor.hint
        return self.action_dist.proba_distribution(action_logits=logits)

    def make_hint_agent(self, seed: int | None = None) -> Agent:
        # the spec parser sits above every agent: loaded by name, never imported
        make_agent = load_object("boardgame_envs.agents.specs:make_agent")
        return make_agent(self.hint, self.hint_game, seed=seed)


def hinted_policy_kwargs(
    kwargs: dict, hint: str, game: str, action_size: int, hint_weight: float
) -> dict:
    """``kwargs`` (a policy's net_arch and features extractor) for a HintedPolicy: the
    extractor moves inside a HintExtractor."""
    hinted = dict(kwargs, hint=hint, hint_game=game, hint_weight=hint_weight)
    hinted["features_extractor_class"] = HintExtractor
    hinted["features_extractor_kwargs"] = dict(
        hint_size=action_size,
        inner=kwargs.get("features_extractor_class", FlattenExtractor),
        inner_kwargs=kwargs.get("features_extractor_kwargs", {}),
    )
    return hinted


__all__ = ["HintExtractor", "HintedEnv", "HintedPolicy", "hint_vector", "hinted_policy_kwargs"]
