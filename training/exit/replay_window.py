"""Expert iteration's learner: the replay window of labelled samples, and Adam on it.

Each iteration's games (``training/exit/labelled_games.py``) become one :class:`Block` of samples:
observations (one byte a value, ``CodedRows``), legal masks, policy targets and value
targets. The :class:`ReplayWindow` keeps the blocks of the last ``--window`` iterations and
draws minibatches from all of them as from one table; it is saved whole with every
checkpoint (:meth:`ReplayWindow.arrays`, ``training/exit/checkpoints.py``).

:func:`learn` takes as many minibatches from the whole window as ``--epochs`` passes over the
iteration's new samples make, minimising the cross-entropy of the search's distribution
against the masked policy plus ``--value-weight`` times the squared error of the values.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import torch

from boardgame_envs.training.coded_rows import CodedRows


@dataclass
class Block:
    """One iteration's samples (observations one byte a value: ``CodedRows``)."""

    iteration: int
    obs: CodedRows
    mask: np.ndarray
    policy: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.mask)


def make_block(iteration: int, games: Iterable[dict]) -> Block:
    """The samples of ``games`` (a list, or games as they arrive: each one's float32
    observations are coded to bytes before the next is read, which keeps a large warm
    start in memory at a quarter of the size)."""
    obs = CodedRows()
    columns: dict[str, list[np.ndarray]] = {"mask": [], "policy": [], "value": []}
    for game in games:
        for row in game["obs"]:
            obs.append(row)
        for key, parts in columns.items():
            parts.append(game[key])
    return Block(iteration, obs.freeze(), *(np.concatenate(parts) for parts in columns.values()))


class ReplayWindow:
    """The samples of the last ``size`` iterations, drawn from as one table."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.blocks: list[Block] = []

    def add(self, block: Block) -> None:
        self.blocks = [*self.blocks, block][-self.size :]

    def __len__(self) -> int:
        return sum(len(block) for block in self.blocks)

    def batch(self, index: np.ndarray) -> tuple[np.ndarray, ...]:
        """(obs, mask, policy, value) of the samples at ``index`` (positions in the window,
        oldest first), in ascending order (a minibatch's loss does not depend on it)."""
        index = np.sort(index)
        starts = np.cumsum([0] + [len(block) for block in self.blocks])
        parts = []
        for block, start, end in zip(self.blocks, starts, starts[1:]):
            local = index[(index >= start) & (index < end)] - start
            if len(local):
                parts.append(
                    (block.obs[local], block.mask[local], block.policy[local], block.value[local])
                )
        return tuple(np.concatenate(column) for column in zip(*parts))

    def arrays(self) -> dict[str, np.ndarray]:
        """Everything, as named arrays for ``np.savez``; :meth:`from_arrays` reads them."""
        arrays: dict[str, np.ndarray] = {"iterations": np.array([b.iteration for b in self.blocks])}
        for b in self.blocks:
            coded = b.obs.arrays()
            arrays.update(
                {
                    f"{b.iteration}_rows": coded["rows"],
                    f"{b.iteration}_table": coded["table"],
                    f"{b.iteration}_mask": b.mask,
                    f"{b.iteration}_policy": b.policy,
                    f"{b.iteration}_value": b.value,
                }
            )
        return arrays

    @classmethod
    def from_arrays(cls, size: int, arrays) -> ReplayWindow:
        window = cls(size)
        for i in arrays["iterations"].tolist():
            obs = CodedRows.from_arrays(arrays[f"{i}_rows"], arrays[f"{i}_table"])
            window.add(
                Block(i, obs, *(arrays[f"{i}_{key}"] for key in ("mask", "policy", "value")))
            )
        return window


# -- learning from it ---------------------------------------------------------------------
def learn(
    net,
    optimizer,
    window: ReplayWindow,
    new_samples: int,
    *,
    epochs: int,
    batch_size: int,
    value_weight: float,
    seed: int,
    device: str,
) -> dict:
    """Adam on minibatches of ``batch_size`` drawn from the whole window, as many as
    ``epochs`` passes over the iteration's ``new_samples`` take (so an iteration costs the
    same however large the window grows), minimising the policy's cross-entropy plus
    ``value_weight`` times the values' squared error; ``seed`` orders the samples. The mean
    losses over the minibatches."""
    generator = torch.Generator().manual_seed(seed)
    steps = math.ceil(epochs * new_samples / batch_size)
    size = len(window)
    if steps == 0 or size == 0:  # no new label (a tiny run): nothing to learn from
        return {"policy_loss": 0.0, "value_loss": 0.0}
    # Passes over the window in random orders, cut into the minibatches.
    passes = math.ceil(steps * batch_size / size)
    order = torch.cat([torch.randperm(size, generator=generator) for _ in range(passes)]).numpy()
    net.train()
    totals = np.zeros(2)
    for step in range(steps):
        index = order[step * batch_size : (step + 1) * batch_size]
        obs, mask, policy, value = (torch.as_tensor(c, device=device) for c in window.batch(index))
        logits, values = net(obs, mask)
        # Illegal actions hold no target mass: their (very negative) log-probabilities are
        # zeroed rather than multiplied, so they can never make a NaN.
        log_probs = torch.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)
        policy_loss = -(policy * log_probs).sum(dim=-1).mean()
        value_loss = torch.nn.functional.mse_loss(values, value)
        loss = policy_loss + value_weight * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        totals += np.array([policy_loss.item(), value_loss.item()])
    net.eval()
    policy_loss, value_loss = totals / steps
    return {"policy_loss": policy_loss, "value_loss": value_loss}
