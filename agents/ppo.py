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

import gymnasium
import numpy as np

from agents.base import Agent
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.core.single_agent import observe, observe_planes


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
        planes_shape: tuple[int, ...] | None = None,
    ) -> None:
        super().__init__(seed)
        self.model = model
        self.deterministic = deterministic
        self.label = label
        self.observe_mask = observe_mask
        self.planes_shape = planes_shape  # None: the flat layout; else a planes-layout model
        # A hinted policy (agents/hinted.py) also reads its hint agent's choice.
        self.hint_agent = model.policy.make_hint_agent(seed) if is_hinted(model) else None

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        if self.hint_agent is not None:
            self.hint_agent.reset(seed)

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
        observe_mask, planes_shape = False, None
        if game is not None:
            observe_mask, planes_shape = model_input(model, game, path)
        return cls(
            model,
            seed=seed,
            deterministic=deterministic,
            label=f"ppo:{path}",
            observe_mask=observe_mask,
            planes_shape=planes_shape,
        )

    def policy_input(self, view: PlayerView) -> np.ndarray | dict[str, np.ndarray]:
        """What the model reads: the flat observation (then the hint, for a hinted policy)
        or the planes dict, as it was trained."""
        if self.hint_agent is not None:
            from agents.hinted import hint_vector

            hint = hint_vector(self.hint_agent, view, self.model.action_space.n)
            return np.concatenate([observe(view, self.observe_mask), hint])
        if self.planes_shape is None:
            return observe(view, self.observe_mask)
        return observe_planes(view, self.observe_mask, self.planes_shape)

    def act(self, view: PlayerView) -> int:
        mask = view.legal_action_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        with one_torch_thread():
            action, _ = self.model.predict(
                self.policy_input(view),
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


def is_hinted(model: Any) -> bool:
    """Whether ``model``'s policy is a HintedPolicy (agents/hinted.py)."""
    return getattr(type(getattr(model, "policy", None)), "is_hinted", False) is True


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


def model_input(model: Any, game: str, path: Path) -> tuple[bool, tuple[int, ...] | None]:
    """How the model reads a view: whether its input ends with the legal-action mask
    (``observe_mask``: longer by the action count), and the planes shape when it was
    trained on the ``layout="planes"`` env (None: the flat layout). A hinted policy's input
    also ends with its hint (``action_size`` values). An error if it does not fit the game
    at all."""
    from boardgame_envs.registry import make_rules

    rules = make_rules(game)
    space = model.observation_space
    hinted = is_hinted(model)
    if hinted and model.policy.hint_game != game:
        raise InvalidConfigError(
            f"model {str(path)!r} is a hinted policy of {model.policy.hint_game}, not {game}"
        )
    plain = int(np.prod(rules.observation_shape)) + (rules.action_size if hinted else 0)
    if model.action_space.n == rules.action_size:
        if isinstance(space, gymnasium.spaces.Dict) and set(space.spaces) == {"planes", "vector"}:
            planes = tuple(space["planes"].shape)
            vector = plain - int(np.prod(planes))
            if planes == rules.planes_shape and space["vector"].shape[0] in (
                vector,
                vector + rules.action_size,
            ):
                return space["vector"].shape[0] != vector, planes
        elif space.shape in ((plain,), (plain + rules.action_size,)):
            return space.shape == (plain + rules.action_size,), None
    expects = space.shape if space.shape is not None else space
    raise InvalidConfigError(
        f"model {str(path)!r} expects observations {expects} and "
        f"{model.action_space.n} actions; {game} has {rules.observation_shape} "
        f"(planes {rules.planes_shape}) and {rules.action_size}: it was trained on another game"
    )
