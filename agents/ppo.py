"""A saved MaskablePPO model as an Agent.

The model sees what the env gives a learner, the seat's encoded observation, and its
choice is masked to the legal actions at predict time, so it never plays an illegal move.
A decision with a single legal action is answered without the network, and a decision
runs torch on one thread: one observation through a small network gains nothing from more,
and threads fighting another process made a decision 3-5 times slower (Carcassonne and
Wasabi!: 4-5 ms against 0.9-1.5 ms beside a second busy process).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from agents.base import Agent
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.core.single_agent import observe


class PPOAgent(Agent):
    """Plays a trained sb3-contrib MaskablePPO policy."""

    name = "ppo"

    def __init__(
        self,
        model: Any,
        seed: int | None = None,
        deterministic: bool = True,
        label: str = "ppo",
        observe_mask: bool = False,
    ) -> None:
        super().__init__(seed)
        self.model = model
        self.deterministic = deterministic
        self.label = label
        self.observe_mask = observe_mask

    @classmethod
    def load(
        cls,
        path: str | Path,
        game: str | None = None,
        seed: int | None = None,
        deterministic: bool = True,
    ) -> PPOAgent:
        """Load ``model.zip`` (or a run directory holding one) saved by train_ppo."""
        path = Path(path)
        if path.is_dir():
            path = path / "model.zip"
        if not path.exists():
            raise InvalidConfigError(
                f"no PPO model at {str(path)!r}: give a model .zip file "
                "or a training run directory that holds model.zip"
            )
        model = load_model(path)
        observe_mask = False
        if game is not None:
            observe_mask = _observes_mask(model, game, path)
        return cls(
            model,
            seed=seed,
            deterministic=deterministic,
            label=f"ppo:{path}",
            observe_mask=observe_mask,
        )

    def act(self, view: PlayerView) -> int:
        mask = view.legal_action_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        with one_torch_thread():
            action, _ = self.model.predict(
                observe(view, self.observe_mask),
                action_masks=mask,
                deterministic=self.deterministic,
            )
        return int(action)

    def __repr__(self) -> str:
        return f"PPOAgent({self.label})"


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """Run torch on one CPU thread inside the block; the caller's setting comes back after."""
    import torch

    threads = torch.get_num_threads()
    if threads != 1:
        torch.set_num_threads(1)
    try:
        yield
    finally:
        if threads != 1:
            torch.set_num_threads(threads)


#: What stable-baselines3 raises for a file that is not a readable saved model (not a zip,
#: a zip without its parts, a truncated or corrupt archive).
UNREADABLE_MODEL_ERRORS = (ValueError, AssertionError, KeyError, EOFError, OSError, RuntimeError)


def load_model(path: str | Path, **kwargs: Any) -> Any:
    """``MaskablePPO.load(path)`` on the CPU; ``InvalidConfigError`` naming the file when
    it is not a saved model."""
    from sb3_contrib import MaskablePPO

    try:
        return MaskablePPO.load(path, device="cpu", **kwargs)
    except UNREADABLE_MODEL_ERRORS as error:
        raise InvalidConfigError(
            f"{str(path)!r} is not a readable saved MaskablePPO model ({error}); give a "
            "model .zip written by train_ppo or a run directory that holds model.zip"
        ) from error


def _observes_mask(model: Any, game: str, path: Path) -> bool:
    """Whether the model was trained with ``observe_mask`` (its input is longer by the
    action count); an error if it does not fit the game at all."""
    from boardgame_envs.registry import make_rules

    rules = make_rules(game)
    obs_shape = tuple(model.observation_space.shape)
    plain = tuple(rules.observation_shape)
    with_mask = (int(np.prod(plain)) + rules.action_size,)
    if model.action_space.n == rules.action_size and obs_shape in (plain, with_mask):
        return obs_shape == with_mask and obs_shape != plain
    raise InvalidConfigError(
        f"model {str(path)!r} expects observations {obs_shape} and "
        f"{model.action_space.n} actions; {game} has {rules.observation_shape} and "
        f"{rules.action_size}: it was trained on another game"
    )
