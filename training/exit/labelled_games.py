"""Expert iteration's games: one game played and labelled by the search, a worker's task.

A :class:`GameTask` is everything one game needs, as plain data: its seed, the seats (the
learner's, rotated by the loop, and the opponents'), the search that labels and the
networks' bytes. :func:`play_and_label` plays it and returns arrays: at a share
``label_share`` of the learner's decisions with two or more legal moves, the search decides
from the learner's view and the sample (observation, legal mask, the policy target: the
search's visit shares or its move) is kept; the
game goes on with the searched move (``play="searched"``) or the learner's own. At the end
every sample gets the value target, ``state.returns()`` ordered from the labelled seat
(index 0 = that seat, 1 = the next in turn order, ...).

The tasks are pure: the same task gives the same arrays in any process (``--workers``, a Ray
task), as every agent is reseeded from the task's seed. A worker builds each agent once per
network (:func:`worker_agent`) and writes each network once to a file named by its digest.

The agent specs of a task name networks as ``{current}`` (the network being trained) and
``{past:<iteration>}`` (an earlier one); a search spec names the current network as
``{net}`` (:data:`NET_PLACEHOLDER`), and before any network is trained the plain search
stands in for it (:func:`without_network`).
"""

from __future__ import annotations

import hashlib
import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boardgame_envs.agents.ppo import one_torch_thread
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.registry import make_rules
from boardgame_envs.training.opponents import PAST, SELF_PLAY
from boardgame_envs.training.run_files import write_atomically

#: Where a ``--search`` spec names the current network.
NET_PLACEHOLDER = "{net}"


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs, as plain data: what a worker process or Ray task gets."""

    game: str
    num_players: int
    seed: int
    """the deal's seed; the agents' seeds derive from it"""
    learner_seat: int
    learner: str
    """``net`` (the current network, sampling) or an agent spec (the first iteration's)"""
    opponents: tuple[str, ...]
    """one per other seat, in seat order: a spec, ``self-play`` or ``past:<iteration>``"""
    search: str
    label_share: float
    play: str
    target: str
    nets: dict
    """network bytes by name: ``current`` and ``past:<iteration>`` as the game needs them"""
    hint: str = "none"
    """the network's hint (``boardgame_envs.agents.policy_value.HINTS``): the samples' observations
    end with its one-hot"""
    value_mix: float = 0.0
    """the share of a labelled sample's own value target taken from the search's root value
    (where the search gives one, as ``gumbel`` does), the rest from the game's outcome"""


def play_and_label(task: GameTask) -> dict:
    """Play one game and label a share of the learner's decisions with the search.

    Returns the samples (``obs`` float32[k, obs], ``mask`` bool[k, A], ``policy``
    float32[k, A], ``value`` float32[k, n]) and the game's figures (``decisions``,
    ``learner_return``, ``cpu_seconds``)."""
    started = time.process_time()
    with one_torch_thread():
        from boardgame_envs.agents.policy_value import encode_view

        rules = make_rules(task.game)
        hinted = task.hint != "none"
        hint = make_agent(task.hint, task.game, seed=task.seed) if hinted else None
        state = rules.new_state(task.num_players, seed=task.seed)
        seats = _seat_agents(task)
        for seat, agent in enumerate(seats):
            agent.reset(task.seed * 7919 + seat)  # as training.evaluate seeds them
        search = _search(task)
        labels = np.random.default_rng([task.seed, 1])
        resamples = np.random.default_rng([task.seed, 2])  # a paired comparison's soft target
        rows: dict[str, list] = {"obs": [], "mask": [], "policy": [], "root": []}
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player
            view = state.view(seat)
            chooser = seats[seat]
            if seat == task.learner_seat and len(view.legal_actions()) > 1:
                decisions += 1
                if labels.random() < task.label_share:
                    searched = search.act(view)
                    observation, mask = encode_view(view, hint)
                    rows["obs"].append(observation)
                    rows["mask"].append(mask)
                    rows["policy"].append(_policy_target(task, search, view, searched, resamples))
                    rows["root"].append(getattr(search, "last_value", math.nan))
                    if task.play == "searched":
                        state.apply(searched)
                        continue
            state.apply(chooser.act(view))
        returns = state.returns()
    n = task.num_players
    outcome = [returns[(task.learner_seat + k) % n] for k in range(n)]
    k, action_size = len(rows["obs"]), rules.action_size
    value = np.tile(np.asarray(outcome, dtype=np.float32), (k, 1))
    root = np.asarray(rows["root"], dtype=np.float32).reshape(k)
    searched_value = ~np.isnan(root)
    mix = np.float32(task.value_mix)
    value[searched_value, 0] = (1 - mix) * value[searched_value, 0] + mix * root[searched_value]
    width = int(np.prod(rules.observation_shape)) + (action_size if hinted else 0)
    return dict(
        obs=np.asarray(rows["obs"], dtype=np.float32).reshape(k, width),
        mask=np.asarray(rows["mask"], dtype=bool).reshape(k, action_size),
        policy=np.asarray(rows["policy"], dtype=np.float32).reshape(k, action_size),
        value=value,
        decisions=decisions,
        learner_return=float(returns[task.learner_seat]),
        cpu_seconds=time.process_time() - started,
    )


def _search(task: GameTask):
    """The labelling search, reseeded for every game."""
    search = worker_agent(_search_spec(task), task.game, task.nets, seat=-1)
    search.reset(task.seed * 7919 + task.num_players)
    return search


def _policy_target(
    task: GameTask, search, view, searched: int, rng: np.random.Generator
) -> np.ndarray:
    """The search's own distribution (``visits``: the root's visit shares, or the shares of
    its moves over resamples of a paired comparison, the improved
    policy of a search that gives one as ``gumbel`` does, or a policy's move distribution
    where the labeller is a policy that gives one, as a PPO teacher does), or its move
    alone."""
    from boardgame_envs.agents.search import ISMCTSAgent
    from boardgame_envs.agents.search_net import search_policy_target

    improved = getattr(search, "last_target", None)
    if task.target == "visits" and improved is not None:
        return improved
    if task.target == "visits" and isinstance(search, ISMCTSAgent):
        return search_policy_target(search, view, searched, rng)
    if task.target == "visits" and hasattr(search, "move_distribution"):
        return search.move_distribution(view)
    target = np.zeros(len(view.legal_action_mask()), dtype=np.float32)
    target[searched] = 1.0
    return target


def _seat_agents(task: GameTask) -> list:
    """The agent of every seat: the learner, then the opponents in seat order."""
    others = iter(task.opponents)
    agents = []
    for seat in range(task.num_players):
        if seat == task.learner_seat:
            spec = "net:{current},sample=1" if task.learner == "net" else task.learner
        else:
            name = next(others)
            if name == SELF_PLAY:
                spec = "net:{current}"
            elif name.startswith(f"{PAST}:"):
                spec = "net:{" + name + "}"
            else:
                spec = name
        agents.append(worker_agent(spec, task.game, task.nets, seat))
    return agents


def _search_spec(task: GameTask) -> str:
    """The search's spec with ``{net}`` naming the current network; while there is none,
    the same search without it (see :func:`without_network`)."""
    if NET_PLACEHOLDER not in task.search:
        return task.search
    if "current" not in task.nets:
        return without_network(task.search)
    return task.search.replace(NET_PLACEHOLDER, "{current}")


def without_network(spec: str) -> str:
    """``ismcts-net:{net},seconds=0,iterations=200,prior=1`` -> ``ismcts:seconds=0,
    iterations=200``: the plain search, its own options kept, the network's dropped; the
    Gumbel search's stand-in is the plain search by iterations alone."""
    from boardgame_envs.agents.search import OPTIONS

    if spec.startswith("gumbel:"):
        return "ismcts:seconds=0"

    options = [part for part in spec.split(",")[1:] if part.partition("=")[0].strip() in OPTIONS]
    return "ismcts:" + ",".join(options) if options else "ismcts"


#: A worker's agents, by spec (with the networks' digests in it) and seat: built once per
#: worker and network, reseeded for every game.
_WORKER_AGENTS: dict[tuple[str, str, int], object] = {}


def worker_agent(spec: str, game: str, nets: dict, seat: int = -1):
    """The agent of ``spec``, where ``{name}`` stands for the file of ``nets[name]`` (each
    network written once per worker to a file named by its digest)."""
    for name, data in nets.items():
        placeholder = "{" + name + "}"
        if placeholder in spec:
            spec = spec.replace(placeholder, str(_net_file(data)))
    key = (game, spec, seat)
    if key not in _WORKER_AGENTS:
        if len(_WORKER_AGENTS) > 64:  # networks of iterations long gone
            _WORKER_AGENTS.clear()
        _WORKER_AGENTS[key] = make_agent(spec, game)
    return _WORKER_AGENTS[key]


def _net_file(data: bytes) -> Path:
    """A network's bytes as a file in the temporary folder, named by their digest."""
    path = (
        Path(tempfile.gettempdir())
        / "boardgame-envs-nets"
        / (hashlib.sha256(data).hexdigest()[:24] + ".pt")
    )
    if not path.exists():
        write_atomically(path, lambda temp: Path(temp).write_bytes(data))
    return path


def net_bytes(net) -> bytes:
    """The network as the bytes of its .pt file (``boardgame_envs.agents.policy_value.save_net``):
    what a task carries in ``nets``."""
    from boardgame_envs.agents.policy_value import save_net

    with tempfile.TemporaryDirectory() as folder:
        return save_net(net, Path(folder) / "net.pt").read_bytes()
