"""Feature extractors for the policies of games whose observation is spatial.

Carcassonne: The Castle, Tahiti and Wasabi! encode a seat's view as board planes followed by
a vector (``rules.planes_shape`` gives the planes' ``(channels, rows, columns)``). A dense
first layer over the flattened planes spends most of a policy's weights and time on
them; :class:`PlanesExtractor` reads them with a small convolutional network instead and the
vector (with the legal-action mask, when the policy observes it) with a dense layer, and
concatenates both.

It takes either observation layout: the flat ``Box`` (the planes are the first
``channels * rows * columns`` values, in C order) or the ``layout="planes"`` ``Dict`` of
``planes`` and ``vector``. ``boardgame-envs train`` uses it with the flat layout, which keeps
one buffer per step::

    MaskablePPO("MlpPolicy", env, policy_kwargs=dict(
        features_extractor_class=PlanesExtractor,
        features_extractor_kwargs=dict(planes=rules.planes_shape)))
"""

from __future__ import annotations

import gymnasium
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn


class PlanesExtractor(BaseFeaturesExtractor):
    """Planes → 1×1 convolution (``channels``), then ``depth`` 3×3 convolutions, each
    ReLU; flattened to ``plane_features`` by a dense layer. Vector → ``vector_features``
    by a dense layer with ReLU. The output is both, concatenated.

    ``broadcast`` > 0 also projects the vector to that many values and lays them on every
    cell as extra input planes, so that the convolutions can weigh each cell by what the
    seat holds (in Wasabi!, whether a cell's kind fits one of its recipes)."""

    def __init__(
        self,
        observation_space: gymnasium.Space,
        planes: tuple[int, int, int],
        channels: int = 32,
        depth: int = 1,
        plane_features: int = 128,
        vector_features: int = 128,
        broadcast: int = 0,
    ) -> None:
        super().__init__(observation_space, plane_features + vector_features)
        self.planes = tuple(int(n) for n in planes)
        self.plane_size = int(np.prod(self.planes))
        self.is_dict = isinstance(observation_space, gymnasium.spaces.Dict)
        if self.is_dict:
            vector_size = int(np.prod(observation_space["vector"].shape))
        else:
            vector_size = int(np.prod(observation_space.shape)) - self.plane_size
        if vector_size < 0:
            raise ValueError(
                f"planes {self.planes} hold {self.plane_size} values, more than the "
                f"observation's {int(np.prod(observation_space.shape))}"
            )
        in_channels, rows, columns = self.planes
        self.broadcast = (
            nn.Sequential(nn.Linear(vector_size, broadcast), nn.ReLU()) if broadcast else None
        )
        layers: list[nn.Module] = [nn.Conv2d(in_channels + broadcast, channels, 1), nn.ReLU()]
        for _ in range(depth):
            layers += [nn.Conv2d(channels, channels, 3, padding=1), nn.ReLU()]
        self.cnn = nn.Sequential(
            *layers,
            nn.Flatten(),
            nn.Linear(channels * rows * columns, plane_features),
            nn.ReLU(),
        )
        self.vector = nn.Sequential(nn.Linear(vector_size, vector_features), nn.ReLU())

    def forward(self, observations) -> torch.Tensor:
        if self.is_dict:
            planes, vector = observations["planes"], observations["vector"]
            planes = planes.reshape(-1, *self.planes)
        else:
            planes = observations[:, : self.plane_size].reshape(-1, *self.planes)
            vector = observations[:, self.plane_size :]
        if self.broadcast is not None:
            _, rows, columns = self.planes
            spread = self.broadcast(vector)[:, :, None, None].expand(-1, -1, rows, columns)
            planes = torch.cat([planes, spread], dim=1)
        return torch.cat([self.cnn(planes), self.vector(vector)], dim=1)
