"""Who sits at the other seats while a policy trains: the opponents' mix and self-play.

``--opponent`` is a comma-separated list of agent specs, each with an optional weight:
``"self-play=0.6,heuristic=0.2,random=0.2"``. Every episode, each env draws its opponents
anew from that weighted mix (:func:`parse_opponents`, an ``AgentMix`` of agents/base.py).

``self-play`` stands for a pool of the learner's own past snapshots (:class:`SelfPlayPool`):
one is saved every ``snapshot_every`` steps to the run's ``pool/`` folder and the last
``pool_size`` are kept. A snapshot plays its stochastic policy from a generator of its own
(:class:`SnapshotAgent`), and each env seats its own copy of it (:class:`PoolSeats`), so an
env's games depend on its seed alone, whichever process steps it.
"""

from __future__ import annotations

import io
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from agents.base import Agent, AgentMix, make_agent, resolve_agent_spec, split_agent_specs
from agents.ppo import PPOAgent, load_model, model_input
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from training.run_files import save_atomically, steps_of

SELF_PLAY = "self-play"


class SelfPlayPool:
    """The learner's past snapshots (the last ``size``); ``sample`` seats one of them (an
    AgentMix entry). Snapshots come from ``folder`` (none for a worker's pool), from
    ``add`` (which saves the model there) or as a model file's bytes through ``load``;
    each one added is passed on, as bytes, to every ``listeners`` function."""

    def __init__(self, folder: Path | None, size: int, game: str) -> None:
        self.folder = folder
        self.game = game
        self.size = size
        self.agents: list[SnapshotAgent] = []
        self.files: list[tuple[bytes, str]] = []  # (the model file, its name), per agent
        self.listeners: list[Callable[[bytes, str], object]] = []
        paths = sorted(folder.glob("snapshot_*.zip"), key=steps_of) if folder else []
        for path in paths[-size:]:
            try:
                self.load(path.read_bytes(), path.name)
            except InvalidConfigError as error:
                print(f"self-play pool: skipping unreadable snapshot {path.name} ({error})")

    def add(self, model, timesteps: int) -> None:
        path = self.folder / f"snapshot_{timesteps:010d}.zip"
        save_atomically(model, path)
        data = path.read_bytes()
        self.load(data, path.name)
        for listener in self.listeners:
            listener(data, path.name)

    def load(self, data: bytes, name: str) -> None:
        """Seat the model saved as ``data`` (a model file's bytes, named ``name``)."""
        try:
            model = load_model(io.BytesIO(data))
        except InvalidConfigError:
            raise InvalidConfigError(
                f"self-play snapshot {name!r} is not a readable saved MaskablePPO model"
            ) from None
        observe_mask, _ = model_input(model, self.game, Path(name))  # snapshots are flat
        self.agents.append(SnapshotAgent(model, f"snapshot:{name}", observe_mask))
        self.files.append((data, name))
        self.agents, self.files = self.agents[-self.size :], self.files[-self.size :]

    def sample(self, rng: np.random.Generator) -> Agent:
        return self.agents[int(rng.integers(len(self.agents)))]

    def seats(self) -> PoolSeats:
        """One env's way into the pool (see PoolSeats)."""
        return PoolSeats(self)

    def __len__(self) -> int:
        return len(self.agents)


class SnapshotAgent(PPOAgent):
    """A self-play snapshot playing its stochastic policy. It draws from its own generator
    (reseeded by ``reset(seed)`` at every seating), not from torch's process-wide one as
    ``model.predict`` does, so its moves depend on the env's seed alone: not on the
    learner's sampling, nor on what else runs in the process."""

    def __init__(self, model, label: str = "snapshot", observe_mask: bool = False) -> None:
        super().__init__(model, deterministic=False, label=label, observe_mask=observe_mask)

    def act(self, view: PlayerView) -> int:
        mask = view.legal_action_mask()
        legal = np.flatnonzero(mask)
        if len(legal) == 1:
            return int(legal[0])
        policy = self.model.policy
        obs, _ = policy.obs_to_tensor(self.policy_input(view))
        with torch.no_grad():
            probs = policy.get_distribution(obs, action_masks=mask).distribution.probs[0]
        cumulative = np.cumsum(probs.cpu().numpy().astype(np.float64)[legal])
        pick = np.searchsorted(cumulative, self.rng.random() * cumulative[-1], side="right")
        return int(legal[min(pick, len(legal) - 1)])

    def copy(self) -> SnapshotAgent:
        """The same policy with a generator of its own."""
        return SnapshotAgent(self.model, label=self.label, observe_mask=self.observe_mask)


class PoolSeats:
    """One env's way into a SelfPlayPool: the same draw as ``pool.sample``, but each
    snapshot is seated as this env's own copy. Envs thus never share an agent's generator,
    and an env's games do not depend on which other envs share its process."""

    def __init__(self, pool: SelfPlayPool) -> None:
        self.pool = pool
        self.copies: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def sample(self, rng: np.random.Generator) -> Agent:
        shared = self.pool.sample(rng)
        if shared not in self.copies:
            self.copies[shared] = shared.copy()
        return self.copies[shared]


def parse_opponents(spec: str, game: str, pool: SelfPlayPool | None) -> AgentMix:
    """ "random=0.5,heuristic=0.5" → a weighted mix (weights default to 1). Call it once
    per env: the agents are that env's own."""
    agents, weights = [], []
    for part in split_agent_specs(spec):
        name, weight = spec_and_weight(part)
        if name == SELF_PLAY:
            if pool is None:
                raise InvalidConfigError("self-play needs a snapshot pool")
            agents.append(pool.seats())
        else:
            agents.append(make_agent(name, game))
        try:
            weights.append(float(weight) if weight else 1.0)
        except ValueError as error:
            raise InvalidConfigError(
                f"opponent weight {weight!r} in {part!r} is not a number; write e.g. heuristic=0.5"
            ) from error
    return AgentMix(agents, weights)


def resolve_opponents(text: str) -> str:
    """``--opponent`` with each file agent's path made absolute (``my_agents.py:FirstLegal``
    -> ``/home/me/my_agents.py:FirstLegal``): env workers started in another folder (Ray)
    and a run resumed from elsewhere find the same file."""
    parts, changed = [], False
    for part in split_agent_specs(text):
        name, weight = spec_and_weight(part)
        resolved = resolve_agent_spec(name)
        changed |= resolved != name
        parts.append(resolved + (f"={weight}" if weight else "") if resolved != name else part)
    return ",".join(parts) if changed else text


def wants_self_play(opponent: str) -> bool:
    """Whether the ``--opponent`` mix seats self-play snapshots (so a pool is needed)."""
    return any(spec_and_weight(part)[0] == SELF_PLAY for part in split_agent_specs(opponent))


def spec_and_weight(part: str) -> tuple[str, str]:
    """``"heuristic=0.5"`` -> ("heuristic", "0.5"); a search agent's or a PPO policy's
    options keep their own ``=``: ``"ismcts:iterations=50=0.5"`` -> ("ismcts:iterations=50",
    "0.5"), ``"ppo:wasabi,device=cpu=0.5"`` -> ("ppo:wasabi,device=cpu", "0.5")."""
    if part.startswith("ppo:") and "," in part:
        head, _, last = part.rpartition(",")
        name, _, rest = last.partition("=")
        value, _, weight = rest.partition("=")
        return f"{head},{name}={value}", weight
    if part.startswith("ismcts:"):
        head, _, last = part.rpartition(",")
        name, sep, rest = last.partition("=")
        if "=" in rest:
            value, _, weight = rest.rpartition("=")
            return (head + "," if head else "") + f"{name}={value}", weight
        return part, ""
    name, _, weight = part.partition("=")
    return name, weight
