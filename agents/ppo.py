"""A saved MaskablePPO model as an Agent, the shipped policies, and torch devices.

The model sees what the env gives a learner, the seat's encoded observation, and its
choice is masked to the legal actions at predict time, so it never plays an illegal move.
A decision with a single legal action is answered without the network, and a decision
runs torch on one thread: one observation through a small network gains nothing from more,
and threads fighting another process made a decision 3-5 times slower (Carcassonne and
Wasabi!: 4-5 ms against 0.9-1.5 ms beside a second busy process).

The agent spec ``ppo:<model>[,device=<device>]`` names the model by a path (a model .zip or
a training run directory holding ``model.zip``) or by the name of a policy shipped with the
package (package data in ``agents/models/``, found from any folder): ``ppo:<game>`` (e.g.
``ppo:factors_multiples``) and ``ppo:<game>@<n>p`` for one fine-tuned at ``n`` players
(``ppo:tahiti@3p``). An existing path wins over a shipped name. Models load on the CPU,
where one observation at a time runs fastest; ``device=cuda`` (or ``cuda:N``, ``auto``)
loads one on a GPU.
"""

from __future__ import annotations

import importlib
import importlib.resources
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from boardgame_envs.agents.base import Agent
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
        device: str = "cpu",
    ) -> PPOAgent:
        """Load a model saved by train_ppo: ``path`` is a model .zip, a run directory holding
        ``model.zip``, or a shipped policy's name (``factors_multiples``, ``tahiti@3p``; see
        :func:`shipped_models`). ``device``: cpu (the default), auto, cuda or cuda:N."""
        path, label = resolve_model(path)
        model = load_model(path, device=resolve_device(device, "device"))
        observe_mask, planes_shape = False, None
        if game is not None:
            observe_mask, planes_shape = model_input(model, game, path)
        return cls(
            model,
            seed=seed,
            deterministic=deterministic,
            label=label,
            observe_mask=observe_mask,
            planes_shape=planes_shape,
        )

    @classmethod
    def from_spec(cls, spec: str, game: str | None = None, seed: int | None = None) -> PPOAgent:
        """The agent of ``<model>[,device=<device>]``, what follows ``ppo:`` in an agent spec."""
        source, options = parse_spec(spec)
        return cls.load(source, game=game, seed=seed, **options)

    def policy_input(self, view: PlayerView) -> np.ndarray | dict[str, np.ndarray]:
        """What the model reads: the flat observation (then the hint, for a hinted policy)
        or the planes dict, as it was trained."""
        if self.hint_agent is not None:
            from boardgame_envs.core.hinted_env import hint_vector

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

    def move_distribution(self, view: PlayerView) -> np.ndarray:
        """The policy's probability of every action in ``view``: float32[A], zero on the
        illegal ones (what expert iteration's warm start learns from a PPO teacher)."""
        import torch

        mask = view.legal_action_mask()
        with one_torch_thread(), torch.no_grad():
            observation, _ = self.model.policy.obs_to_tensor(self.policy_input(view))
            distribution = self.model.policy.get_distribution(observation, action_masks=mask[None])
            probs = distribution.distribution.probs[0].cpu().numpy().astype(np.float32)
        probs[~mask] = 0.0
        return probs / probs.sum()

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


def load_model(path: Any, device: str = "cpu", **kwargs: Any) -> Any:
    """``MaskablePPO.load(path)`` on ``device`` (a torch device, checked by
    :func:`resolve_device`); ``InvalidConfigError`` naming the file when it is not a saved
    model."""
    from sb3_contrib import MaskablePPO

    try:
        with earlier_module_paths():
            return MaskablePPO.load(path, device=device, **kwargs)
    except UNREADABLE_MODEL_ERRORS as error:
        raise InvalidConfigError(
            f"{str(path)!r} is not a readable saved MaskablePPO model ({error}); give a "
            "model .zip written by boardgame-envs train or a run directory that holds model.zip"
        ) from error


#: The library's packages under the names that models saved by earlier versions give them
#: (``agents.hinted.HintedPolicy``, ``training.rollout_buffer...``: they were top-level
#: packages then), old name -> new.
EARLIER_PACKAGES = {"agents": "boardgame_envs.agents", "training": "boardgame_envs.training"}


#: The modules whose classes saved models name (the learned agents' policies and networks,
#: PPO's rollout buffer).
SAVED_CLASS_MODULES = (
    "boardgame_envs.agents.hinted",
    "boardgame_envs.agents.networks",
    "boardgame_envs.training.rollout_buffer",
)


@contextmanager
def earlier_module_paths() -> Iterator[None]:
    """While unpickling a saved model, the class paths of earlier versions lead to the
    library's modules (``agents.hinted`` is ``boardgame_envs.agents.hinted``), never to a
    user's own ``agents`` or ``training`` package, which is set aside meanwhile and put
    back after. The aliases are plain entries of ``sys.modules``: the modules themselves
    are left as they are."""
    for name in SAVED_CLASS_MODULES:
        importlib.import_module(name)
    earlier = {v: k for k, v in EARLIER_PACKAGES.items()}
    aliases = {}
    for name, module in list(sys.modules.items()):
        for new, old in earlier.items():
            if name == new or name.startswith(new + "."):
                aliases[old + name[len(new) :]] = module
    users = {n: sys.modules.pop(n) for n in list(sys.modules) if _is_earlier(n)}
    sys.modules.update(aliases)
    try:
        yield
    finally:
        for name in [n for n in sys.modules if _is_earlier(n)]:
            del sys.modules[name]
        sys.modules.update(users)


def _is_earlier(name: str) -> bool:
    return name.partition(".")[0] in EARLIER_PACKAGES


# -- the shipped policies --------------------------------------------------------------------
#: A shipped model's file name: ``<game>_ppo.zip``, or ``<game>_<n>p_ppo.zip`` for a policy
#: fine-tuned at n players (what ``boardgame_envs.training.ppo.ship`` writes).
SHIPPED_FILE = re.compile(r"(?P<game>[a-z_]+?)(?:_(?P<players>\d+)p)?_ppo\.zip")


def models_folder() -> Path:
    """Where the shipped policies are: ``agents/models/``, package data found through
    ``importlib.resources`` (so from any folder, in an editable install as in a wheel)."""
    return Path(str(importlib.resources.files("boardgame_envs.agents").joinpath("models")))


def shipped_models() -> dict[str, Path]:
    """{name: model file} of the policies shipped with the package, by name: ``<game>``
    (a 2-player policy) and ``<game>@<n>p`` (one fine-tuned at n players)."""
    folder = models_folder()
    found = {}
    for path in sorted(folder.glob("*_ppo.zip")) if folder.is_dir() else []:
        match = SHIPPED_FILE.fullmatch(path.name)
        if match:
            players = match.group("players")
            found[match.group("game") + (f"@{players}p" if players else "")] = path
    return dict(sorted(found.items()))


def shipped_policy_for(game: str, num_players: int = 2) -> str | None:
    """The name of ``game``'s shipped policy for a table of ``num_players``: the one
    fine-tuned at that size (``<game>@<n>p``) where there is one, else the 2-player one
    (``<game>``, which plays any table), else None."""
    shipped = shipped_models()
    return next((name for name in (f"{game}@{num_players}p", game) if name in shipped), None)


def shipped_file_name(game: str, num_players: int = 2) -> str:
    """The file name of the policy shipped as ``<game>`` (2 players) or ``<game>@<n>p``."""
    return f"{game}_ppo.zip" if num_players == 2 else f"{game}_{num_players}p_ppo.zip"


def resolve_model(source: str | Path) -> tuple[Path, str]:
    """(the model file, the agent's label) of ``source``: an existing path (a model file, or
    a run directory holding ``model.zip``), else a shipped policy's name; an
    ``InvalidConfigError`` saying what exists otherwise."""
    path = Path(source)
    if path.is_dir():
        path = path / "model.zip"
        if not path.exists():
            raise InvalidConfigError(
                f"no PPO model at {str(path)!r}: give a model .zip file "
                "or a training run directory that holds model.zip"
            )
        return path, f"ppo:{path}"
    if path.exists():
        return path, f"ppo:{path}"
    shipped = shipped_models()
    if str(source) in shipped:
        return shipped[str(source)], f"ppo:{source}"
    raise InvalidConfigError(
        f"no PPO model {str(source)!r}: no such file or run directory, and no shipped policy "
        f"of that name; shipped: {', '.join(shipped) or 'none'} (ppo:<game>, ppo:<game>@<n>p), "
        "or give a model .zip or a training run directory"
    )


# -- the spec's options and torch devices ----------------------------------------------------
#: The options a ``ppo:`` spec takes after its model, ``ppo:<model>,name=value``.
SPEC_OPTIONS = ("device",)
DEVICE = re.compile(r"auto|cpu|cuda(:\d+)?")
DEVICES_TEXT = "auto, cpu, cuda or cuda:N"


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"tahiti@3p,device=cuda"`` -> ("tahiti@3p", {"device": "cuda"}): the model, then
    ``name=value`` options (:data:`SPEC_OPTIONS`)."""
    source, *parts = spec.split(",")
    if not source.strip():
        raise InvalidConfigError(
            f"agent 'ppo:{spec}' names no model; allowed: ppo:<model .zip or run directory>, "
            f"or a shipped policy: {', '.join(shipped_models())}"
        )
    options = {}
    for part in parts:
        name, sep, value = part.partition("=")
        if not sep or name.strip() not in SPEC_OPTIONS:
            raise InvalidConfigError(
                f"option {part!r} of agent 'ppo:{spec}' is not allowed; allowed: "
                f"{', '.join(f'{o}=...' for o in SPEC_OPTIONS)} (device: {DEVICES_TEXT})"
            )
        options[name.strip()] = value.strip()
    return source.strip(), options


def resolve_device(device: str, flag: str = "--device") -> str:
    """The torch device that ``device`` names, checked against what torch sees: ``auto`` is
    ``cuda`` where torch sees a CUDA device, else ``cpu``; ``cuda`` and ``cuda:N`` must
    exist. An ``InvalidConfigError`` naming ``flag`` otherwise (never SB3's silent fallback
    to the CPU)."""
    if not isinstance(device, str) or not DEVICE.fullmatch(device):
        raise InvalidConfigError(f"{flag} {device!r} is not allowed; allowed: {DEVICES_TEXT}")
    if device == "cpu":
        return device
    import torch

    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if not torch.cuda.is_available():
        why = (
            "this torch is a CPU build (install a CUDA build of torch)"
            if torch.version.cuda is None
            else "no CUDA device is visible (driver, CUDA_VISIBLE_DEVICES)"
        )
        raise InvalidConfigError(
            f"{flag} {device!r} is not available: torch {torch.__version__} sees no GPU, "
            f"{why}; allowed here: auto or cpu"
        )
    count = torch.cuda.device_count()
    index = int(device.partition(":")[2] or 0)
    if index >= count:
        raise InvalidConfigError(
            f"{flag} {device!r} is not available: torch sees {count} CUDA device"
            f"{'' if count == 1 else 's'}; allowed: auto, cpu, cuda, cuda:0 to cuda:{count - 1}"
        )
    return device


def describe_device(device: str) -> str:
    """``device`` for people: ``cpu (torch 2.13.0+cpu, 1 thread)``, ``cuda:0 (NVIDIA H200)``."""
    import torch

    if device == "cpu":
        threads = torch.get_num_threads()
        return f"cpu (torch {torch.__version__}, {threads} thread{'' if threads == 1 else 's'})"
    name = torch.cuda.get_device_name(torch.device(device))
    return f"{device} ({name}, torch {torch.__version__})"


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
