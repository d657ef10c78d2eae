"""A MaskablePPO rollout buffer that stores observations env-major, in one array kept
across rollouts.

SB3 stores a rollout step-major, ``(n_steps, n_envs, *obs)``, in arrays allocated afresh
at every rollout, and before training copies them env-major (``swap_and_flatten``). For
observations of thousands of values (Carcassonne's 14,601 with the mask: 478 MB a rollout at
16 x 512 steps) the first writes into fresh memory and that copy cost about 0.45 ms a step,
as much as the network's training. Here the observations live in an ``(n_envs, n_steps,
*obs)`` array allocated once; the buffer's step-major ``observations`` is a transposed view
of it, so ``add`` writes straight into it and ``swap_and_flatten`` becomes a free reshape.
The order of the samples, hence every minibatch and the trained model, is the same as with
SB3's buffer.
"""

from __future__ import annotations

import numpy as np
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer


class EnvMajorRolloutBuffer(MaskableRolloutBuffer):
    def reset(self) -> None:
        super().reset()  # (its fresh observations array is never written: it costs nothing)
        if getattr(self, "env_major_observations", None) is None:
            shape = (self.n_envs, self.buffer_size, *self.obs_shape)
            self.env_major_observations = np.zeros(shape, dtype=self.observations.dtype)
        self.observations = self.env_major_observations.swapaxes(0, 1)
