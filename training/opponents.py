"""Who sits at the other seats while a policy trains: the opponents' mix and self-play.

``--opponent`` is a comma-separated list of agent specs, each with an optional weight:
``"self-play=0.6,heuristic=0.2,random=0.2"``; both training algorithms read it with
:func:`opponent_weights` (an agent's own options keep their ``=``: :func:`spec_and_weight`).
Under PPO every episode, each env draws its opponents anew from that weighted mix
(:func:`parse_opponents`, an ``AgentMix`` of agents/base.py). Expert iteration draws each
seat of each game from it (:func:`opponent_shares`, :func:`draw_opponent`), where
``self-play`` is the network being trained and ``past`` one of its earlier iterations.

``self-play`` stands for a pool of the learner's own past snapshots (:class:`SelfPlayPool`):
one is saved every ``snapshot_every`` steps to the run's ``pool/`` folder and the last
``pool_size`` are kept. A snapshot plays its stochastic policy from a generator of its own
(:class:`SnapshotAgent`), and each env seats its own copy of it (:class:`PoolSeats`), so an
env's games depend on its seed alone, whichever process steps it.
"""

from __future__ import annotations

import io
import math
import weakref
from collections.abc import Callable
from pathlib import Path

import numpy as np
import torch

from boardgame_envs.agents.base import Agent, AgentMix
from boardgame_envs.agents.ppo import PPOAgent, load_model, model_input
from boardgame_envs.agents.specs import make_agent, resolve_agent_spec, split_agent_specs
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.training.run_files import save_atomically, steps_of

#: The learner's own policy: PPO's pool of past snapshots, expert iteration's current network.
SELF_PLAY = "self-play"
#: Expert iteration's earlier networks (the last ``--pool-size`` iterations').
PAST = "past"


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


# -- the mix, as both algorithms read it -----------------------------------------------------
def opponent_weights(text: str) -> list[tuple[str, float]]:
    """``"heuristic=0.5,ismcts:iterations=50=0.3,random"`` -> [(agent spec, weight)], in
    order; a part without ``=weight`` weighs 1 (see :func:`spec_and_weight`)."""
    weights = []
    for part in split_agent_specs(text):
        spec, weight = spec_and_weight(part)
        try:
            weights.append((spec, float(weight) if weight else 1.0))
        except ValueError:
            raise InvalidConfigError(
                f"--opponent part {part!r}: weight {weight!r} is not a number; write "
                "agent=weight, e.g. heuristic=0.5"
            ) from None
    return weights


def spec_and_weight(part: str) -> tuple[str, str]:
    """A mix part's agent spec and its weight as written ("" when it has none). The last
    ``=number`` is the weight unless it is the agent's own option: ``"heuristic=0.5"`` ->
    ("heuristic", "0.5"), ``"ismcts:iterations=50"`` -> ("ismcts:iterations=50", ""),
    ``"ismcts:iterations=50=0.5"`` -> ("ismcts:iterations=50", "0.5"),
    ``"ppo:wasabi,device=cuda:1=0.5"`` -> ("ppo:wasabi,device=cuda:1", "0.5"),
    ``"ppo:runs/x=0.5"`` -> ("ppo:runs/x", "0.5")."""
    if "=" not in part:
        return part, ""
    kind, colon, rest = part.partition(":")
    last = rest.rpartition(",")[2] if colon else ""  # the agent's last option, if it is one
    name, _, value = last.partition("=")
    if name.strip() in _spec_options(kind) and "=" not in value:
        return part, ""
    spec, _, weight = part.rpartition("=")
    return spec.strip(), weight


def _spec_options(kind: str) -> tuple[str, ...]:
    """The ``name=value`` options of the agent kind ``kind`` (ismcts, ppo, net, ismcts-net)."""
    from boardgame_envs.agents.base import NET_SEARCH_OPTIONS, NET_SPEC_OPTIONS
    from boardgame_envs.agents.ppo import SPEC_OPTIONS
    from boardgame_envs.agents.search import OPTIONS

    options = {
        "ismcts": tuple(OPTIONS),
        "ppo": SPEC_OPTIONS,
        "net": NET_SPEC_OPTIONS,
        "ismcts-net": (*OPTIONS, *NET_SEARCH_OPTIONS),
    }
    return options.get(kind, ())


# -- PPO: one AgentMix per env -----------------------------------------------------------------
def parse_opponents(spec: str, game: str, pool: SelfPlayPool | None) -> AgentMix:
    """ "random=0.5,heuristic=0.5" → a weighted mix (weights default to 1). Call it once
    per env: the agents are that env's own."""
    agents, weights = [], []
    for name, weight in opponent_weights(spec):
        if name == SELF_PLAY:
            if pool is None:
                raise InvalidConfigError("self-play needs a snapshot pool")
            agents.append(pool.seats())
        else:
            agents.append(make_agent(name, game))
        weights.append(weight)
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


# -- expert iteration: one draw per seat and game -----------------------------------------------
def opponent_shares(text: str) -> list[tuple[str, float]]:
    """``"heuristic=0.5,self-play=0.3,past=0.2"`` -> [(spec, share)], the shares summing to
    1 (:func:`opponent_weights`): ``"ismcts:iterations=50=0.5"`` is ismcts:iterations=50 at
    weight 0.5."""
    parts = opponent_weights(text)
    total = sum(weight for _, weight in parts)
    if not parts or not all(w >= 0 and math.isfinite(w) for _, w in parts) or total <= 0:
        raise InvalidConfigError(
            f"--opponent {text!r} is not allowed; allowed: agents with weights >= 0 (not all "
            'zero), e.g. "heuristic=0.5,self-play=0.3,past=0.2"'
        )
    return [(spec, weight / total) for spec, weight in parts]


def draw_opponent(mix: list[tuple[str, float]], pool: list[int], rng: np.random.Generator) -> str:
    """One seat's opponent for one game from ``mix`` (:func:`opponent_shares`): a spec,
    ``self-play``, or ``past:<iteration>`` of one of the ``pool``'s iterations (``past``
    falls back to self-play while the pool is empty)."""
    specs, weights = zip(*mix)
    spec = specs[int(rng.choice(len(specs), p=np.asarray(weights)))]
    if spec == PAST:
        return f"{PAST}:{pool[int(rng.integers(len(pool)))]}" if pool else SELF_PLAY
    return spec
