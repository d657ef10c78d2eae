"""Expert iteration: a policy-value network trained on the search's decisions, repeatedly.

Each iteration:

1. **Play and label.** ``games_per_iteration`` games are dealt (seeded, the learner's seat
   rotated). The learner's seat is played by the current network (``net:``, sampling from
   its policy, for exploration; in the first iteration, before any training, by the
   heuristic); the other seats by opponents drawn from ``--opponent``: ``heuristic``,
   ``random``, ``self-play`` (the current network), ``past`` (one of the ``pool_size``
   networks of earlier iterations) or any agent spec. At a share ``label_share`` of the
   learner's decisions (those with two or more legal moves), the search (``--search``,
   by default the game's reproducible ``ismcts:seconds=0``) decides from the learner's view,
   and the sample (observation, legal mask, the search's improved move distribution from
   ``agents.search_net.search_policy_target``) is kept; the game then goes on with the
   searched move (``--play searched``) or the network's own (``--play net``). When the game
   ends, every sample of it gets the value target: ``state.returns()`` ordered from the
   labelled seat (index 0 = that seat, 1 = the next in turn order, ...).
2. **Learn.** The samples of the last ``window`` iterations are the replay window; Adam
   takes minibatches from all of it, as many as ``epochs`` passes over the iteration's new
   samples make, minimising the cross-entropy of the search's distribution against the
   masked policy plus ``value_weight`` times the squared error of the values.
3. **Evaluate** (every ``eval_every`` iterations and at the end): the network alone
   (``net:``, its most likely move) against the heuristic over ``eval_games`` deals from
   seed 1,000,000,000 (never dealt for training), seats rotated, with Wilson 95% intervals.

A search spec may name the current network as ``{net}``, e.g. ``--search
"ismcts-net:{net},prior=1"``: the search is then guided by the latest network (expert
iteration proper); until a network has been trained it is the game's plain search.

The games are played in ``--workers`` processes (``--backend local``) or Ray tasks
(``--backend ray``). Every game is a pure task: its seeds, the networks' bytes and the agent
specs in, arrays out; so a seed gives the same samples, hence the same network, for any
number of workers and either backend.

A run directory ``<out_dir>/<game>__exit__<seed>__<time>`` receives:

    config.json         the exact arguments
    net.pt              the latest network (``net:<run dir>``, ``ismcts-net:<run dir>``)
    eval.csv            win share against the heuristic, with CPU and wall seconds
    learning_curve.png  win share against CPU-hours, with 95% intervals
    checkpoints/        the two latest iterations: network, optimizer, replay window, pool
    tb/                 tensorboard scalars

``--resume RUN_DIR`` continues from the newest readable checkpoint and reaches the same
weights as a run never interrupted (every seed derives from ``--seed`` and the iteration).

CPU seconds in eval.csv are those of the play, labelling and learning: this process's and
its worker processes' (``getrusage``), and on Ray the CPU time each task reports;
evaluations are counted apart (``eval_cpu_seconds``).

Choices, and why (``RECIPES`` holds each game's; measured on Factors and Multiples):

- Labels come from the learner's own positions (DAgger), not from the search's games: the
  network is corrected where it goes. A quarter of its decisions are labelled: neighbouring
  positions of a game say much the same, and the search is what an iteration costs (0.06
  CPU s a label, 0.7 a game of which 11 decisions are labelled).
- The window aggregates the labels of many iterations, as DAgger does: the plain search's
  labels do not age. Offline, on 9,000 labels, the network's agreement with the search's
  choice rose from 0.56 (1,000 labels to learn from) to 0.60 (7,500). Learning per
  iteration follows the new labels (``epochs``), not the window's size; 12 passes' worth
  beat 4 (a window of 20 iterations of 150 games, seed 2: 0.545 against 0.441 after 8
  iterations, 0.568 against 0.469 after 12; 400 deals each, +-0.05).
- ``--play searched`` and ``--play net`` trained equally well (0.538 and 0.515 against the
  heuristic after 12 iterations of 100 games, 200 deals each, +-0.07); searched moves keep
  the games nearer to strong play, so they are the default.
- ``--target visits`` and ``move`` taught the network the search's choice equally well
  (agreement 0.599 and 0.603 offline). Where a game's search lets paired games overrule its
  tree (verify, guard, root=paired), the move is the target: the tree's visits are what
  the check rejected.
- The first iteration's learner is the heuristic: a network of random weights reaches
  positions no sensible player does.

    python -m training.expert_iteration --game factors_multiples
    boardgame-envs train --game factors_multiples --algo exit
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import math
import resource
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from tqdm.auto import tqdm

from agents.base import make_agent, resolve_agent_spec, split_agent_specs
from agents.ppo import DEVICE, DEVICES_TEXT, describe_device, one_torch_thread, resolve_device
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from training import learning_curve
from training.cli_args import (
    FRACTION,
    NON_NEGATIVE,
    NONE,
    POSITIVE,
    Allowed,
    at_least,
    check_fields,
    one_of,
    parse_args,
)
from training.coded_rows import CodedRows
from training.parallel import BACKENDS, run_tasks
from training.run_files import (
    new_run_dir,
    newest_checkpoint,
    read_config,
    save_checkpoint,
    write_atomically,
    write_config,
)

ALGO = "exit"
EVAL_SEED = 1_000_000_000  # evaluation deals; training deals are drawn below this
EVAL_OPPONENT = "heuristic"
#: Where a ``--search`` spec names the current network.
NET_PLACEHOLDER = "{net}"
#: The search of every recipe: each game's defaults, reproducible (an iteration budget).
DEFAULT_SEARCH = "ismcts:seconds=0"
PLAY_MODES = ("searched", "net")
#: What the policy learns at a labelled decision: the search's visit shares, or its move.
TARGETS = ("visits", "move")
#: Opponent names beside agent specs: the current network, and earlier ones.
SELF_PLAY, PAST = "self-play", "past"

# What every recipe shares; each game's entry overrides a few. The CPU seconds a game costs
# (play and labelling at label_share=0.25 with the default search, measured on this 2-core
# machine) set how many games fit in <= 2 CPU-hours; learning and evaluation add little.
BASE_RECIPE = dict(
    iterations=30,
    games_per_iteration=100,
    label_share=0.25,
    search=DEFAULT_SEARCH,
    opponent="heuristic=0.5,self-play=0.3,past=0.2",
    play="searched",
    target="visits",
    hint="none",
    hidden=256,
    layers=2,
    learning_rate=1e-3,
    epochs=12,
    imitation_games=1000,
    window=30,
    eval_every=5,
)
#: What ``--algo exit`` does per game when only the game is given; Args override it.
RECIPES: dict[str, dict] = {
    "default": BASE_RECIPE,
    # 0.7 CPU s a game (11 labels): 40 x 150 games, about 75 CPU-minutes.
    "factors_multiples": dict(BASE_RECIPE, iterations=40, games_per_iteration=150, window=40),
    # The others' default searches are checked by paired games (verify, guard, root=paired)
    # that overrule the tree: the move they play is the target, not the tree's visits.
    # Their networks read the heuristic's move (hint): without it, they stayed far below
    # the heuristic (Cornucopia 0.46 after 10 iterations, Wasabi! 0.04 after 5; 400 deals).
    # 0.15-0.25 CPU s a game.
    "cornucopia": dict(
        BASE_RECIPE, games_per_iteration=300, window=40, target="move", hint="heuristic"
    ),
    # 0.4 CPU s a game; 14 KB a sample (one byte a value): a shorter window. At 1e-3 and
    # 12 passes the network left the heuristic's moves for worse (0.31 after 5 iterations,
    # 0.27 after 20); smaller, fewer steps kept it at the heuristic's level (0.50).
    "carcassonne_castle": dict(
        BASE_RECIPE,
        iterations=10,
        games_per_iteration=150,
        window=8,
        target="move",
        hint="heuristic",
        learning_rate=1e-4,
        epochs=4,
    ),
    # 0.6 CPU s a game with the heuristic.
    "tahiti": dict(BASE_RECIPE, games_per_iteration=80, window=8, target="move", hint="heuristic"),
    # 0.7-0.8 CPU s a game.
    "wasabi": dict(
        BASE_RECIPE, games_per_iteration=150, window=10, target="move", hint="heuristic"
    ),
}
#: Args fields whose None means "the game's recipe".
RECIPE_FIELDS = tuple(BASE_RECIPE)


@dataclass
class Args:
    game: str = "factors_multiples"
    """game id (see ``boardgame-envs list``)"""
    num_players: int = 2
    """players at the table (the learner takes one seat, rotated from game to game)"""
    iterations: int | None = None
    """iterations of play, label and learn (None: the game's recipe; with --resume, the
    run's saved target)"""
    games_per_iteration: int | None = None
    """games played each iteration (None: the game's recipe)"""
    label_share: float | None = None
    """share of the learner's decisions (two or more legal moves) that the search labels
    (None: the game's recipe)"""
    search: str | None = None
    """the teacher: an ismcts agent spec (e.g. ismcts:seconds=0,iterations=400), or one
    guided by the current network written as {net} (ismcts-net:{net},prior=1) (None: the
    game's recipe)"""
    play: str | None = None
    """at a labelled decision, play the searched move (searched) or the network's own
    (net) (None: the game's recipe)"""
    target: str | None = None
    """the policy's target at a labelled decision: the search's root visit shares (visits;
    its move alone where it searched no tree) or the move it chose (move: where a check such
    as verify or guard overrules the tree) (None: the game's recipe)"""
    opponent: str | None = None
    """the other seats, drawn per seat and game from a weighted mix of heuristic, random,
    self-play (the current network), past (an earlier iteration's network) and agent specs,
    e.g. "heuristic=0.5,self-play=0.3,past=0.2" (None: the game's recipe)"""
    pool_size: int = 5
    """earlier networks kept for the past opponent"""
    imitation_games: int | None = None
    """warm start: before the first iteration the network learns the heuristic's moves (and
    the outcomes) in this many heuristic games, one seat's decisions each, unless --init
    gives it a network (0: none; None: the game's recipe)"""
    imitation_epochs: int = 4
    """passes over the warm start's decisions"""
    init: str = ""
    """start from this network (a .pt file, a run directory or a shipped name): it plays
    the learner's seat from the first iteration, and its shape replaces --hidden and
    --layers ("" = a fresh network)"""
    hint: str | None = None
    """what the network reads beside the view: none, or heuristic (the heuristic's
    move, which its logits start from: agents.policy_value.HINTS) (None: the game's recipe;
    with --init, the given network's)"""
    hidden: int | None = None
    """width of the network's hidden layers (None: the game's recipe)"""
    layers: int | None = None
    """hidden layers of the network (None: the game's recipe)"""
    learning_rate: float | None = None
    """Adam step size (None: the game's recipe)"""
    epochs: int | None = None
    """learning per iteration: as many minibatches, drawn from the whole window, as this
    many passes over the iteration's new samples take (None: the game's recipe)"""
    batch_size: int = 256
    """minibatch size"""
    window: int | None = None
    """iterations of samples in the replay window: the search's labels do not age, so a
    long window aggregates them all, as DAgger does (None: the game's recipe)"""
    value_weight: float = 1.0
    """weight of the value loss beside the policy's cross-entropy"""
    eval_every: int | None = None
    """iterations between evaluations against the heuristic (0: only at the end; None: the
    game's recipe)"""
    eval_games: int = 200
    """deals of each evaluation"""
    seed: int = 0
    """seeds the deals, the agents, the network and the minibatches"""
    workers: int = 1
    """processes playing the games (1: this one; the samples do not depend on it)"""
    backend: str = "local"
    """where the games are played: local (processes here) or ray (Ray tasks)"""
    ray_address: str = ""
    """with --backend ray: a running cluster, host:port, ray://host:port or auto ("" = start
    a local Ray instance of --workers CPUs)"""
    device: str = "auto"
    """torch device of the learning step: auto (CUDA where torch sees a GPU, else the CPU),
    cpu, cuda or cuda:N; the games are played on the CPU"""
    torch_threads: int = 1
    """torch CPU threads of the learning step (1 is fastest for small networks on a few
    cores)"""
    out_dir: str = "runs"
    """where run directories are created"""
    run_name: str = ""
    """run directory name ("" = <game>__exit__<seed>__<time>)"""
    resume: str = ""
    """a run directory to continue from its newest checkpoint (its config is reused; only
    --iterations may be raised, and --workers, --backend, --ray-address, --device and
    --progress given now apply)"""
    progress: bool = True
    """show a progress bar"""

    def __post_init__(self) -> None:
        check_fields(self, ARGS_ALLOWED)
        if self.ray_address and self.backend != "ray":
            raise InvalidConfigError(
                f"--ray-address {self.ray_address!r} is not allowed with --backend "
                f"{self.backend}; add --backend ray"
            )


def with_recipe(args: Args) -> Args:
    """``args`` with every field left None taken from the game's recipe (RECIPES)."""
    recipe = RECIPES.get(args.game, RECIPES["default"])
    unset = {name: recipe[name] for name in RECIPE_FIELDS if getattr(args, name) is None}
    return dataclasses.replace(args, **unset)


_TEXT = Allowed(lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty agent spec")
ARGS_ALLOWED: dict[str, Allowed] = {
    "num_players": at_least(2),
    "iterations": at_least(1) | NONE,
    "games_per_iteration": at_least(1) | NONE,
    "label_share": Allowed(lambda v: FRACTION.test(v) and v > 0, "a number > 0 and <= 1") | NONE,
    "search": _TEXT | NONE,
    "play": one_of(*PLAY_MODES) | NONE,
    "target": one_of(*TARGETS) | NONE,
    "opponent": _TEXT | NONE,
    "pool_size": at_least(1),
    "imitation_games": at_least(0) | NONE,
    "imitation_epochs": at_least(1),
    "hint": one_of("none", "heuristic") | NONE,
    "hidden": at_least(1) | NONE,
    "layers": at_least(1) | NONE,
    "learning_rate": POSITIVE | NONE,
    "epochs": at_least(1) | NONE,
    "batch_size": at_least(1),
    "window": at_least(1) | NONE,
    "value_weight": NON_NEGATIVE,
    "eval_every": at_least(0) | NONE,
    "eval_games": at_least(1),
    "seed": at_least(0),
    "workers": at_least(1),
    "backend": one_of(*BACKENDS),
    "device": Allowed(lambda v: isinstance(v, str) and bool(DEVICE.fullmatch(v)), DEVICES_TEXT),
    "torch_threads": at_least(0),
}


# -- the opponents: a weighted mix ------------------------------------------------------------
def parse_opponents(text: str) -> list[tuple[str, float]]:
    """``"heuristic=0.5,self-play=0.3,past=0.2"`` -> [(spec, weight)], weights summing to 1
    (a part without ``=weight`` weighs 1). Agent specs keep their own options:
    ``"ismcts:iterations=50=0.5"`` is ismcts:iterations=50 at weight 0.5."""
    parts = []
    for part in split_agent_specs(text):
        spec, weight = _spec_and_weight(part)
        parts.append((spec, weight))
    total = sum(weight for _, weight in parts)
    if not parts or not all(w >= 0 and math.isfinite(w) for _, w in parts) or total <= 0:
        raise InvalidConfigError(
            f"--opponent {text!r} is not allowed; allowed: agents with weights >= 0 (not all "
            'zero), e.g. "heuristic=0.5,self-play=0.3,past=0.2"'
        )
    return [(spec, weight / total) for spec, weight in parts]


def _spec_and_weight(part: str) -> tuple[str, float]:
    """A mix part's agent spec and weight: the last ``=number`` is a weight unless it is
    the agent's own option (``ismcts:iterations=50``: an option; ``=50=0.5``: weight 0.5)."""
    head, sep, tail = part.rpartition("=")
    if not sep:
        return part, 1.0
    last_item = part.split(",")[-1].split(":")[-1]
    if last_item.count("=") == 1 and ":" in part and _is_option(part, last_item.partition("=")[0]):
        return part, 1.0
    try:
        return head.strip(), float(tail)
    except ValueError:
        raise InvalidConfigError(
            f"--opponent part {part!r}: weight {tail!r} is not a number; write agent=weight, "
            "e.g. heuristic=0.5"
        ) from None


def _is_option(part: str, name: str) -> bool:
    """Whether ``name`` is an option of the agent kind ``part`` starts with (ismcts:, ...)."""
    from agents.base import NET_SEARCH_OPTIONS, NET_SPEC_OPTIONS
    from agents.ppo import SPEC_OPTIONS
    from agents.search import OPTIONS

    options = {
        "ismcts": OPTIONS,
        "ppo": SPEC_OPTIONS,
        "net": NET_SPEC_OPTIONS,
        "ismcts-net": (*OPTIONS, *NET_SEARCH_OPTIONS),
    }
    return name in options.get(part.partition(":")[0], ())


def draw_opponent(mix: list[tuple[str, float]], pool: list[int], rng: np.random.Generator) -> str:
    """One seat's opponent for one game: a spec, ``self-play``, or ``past:<iteration>``
    (``past`` falls back to self-play while the pool is empty)."""
    specs, weights = zip(*mix)
    spec = specs[int(rng.choice(len(specs), p=np.asarray(weights)))]
    if spec == PAST:
        return f"{PAST}:{pool[int(rng.integers(len(pool)))]}" if pool else SELF_PLAY
    return spec


# -- one game, played and labelled (a worker's task) --------------------------------------------
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
    """the network's hint (``agents.policy_value.HINTS``): the samples' observations end
    with its one-hot"""


def play_and_label(task: GameTask) -> dict:
    """Play one game and label a share of the learner's decisions with the search.

    Returns the samples (``obs`` float32[k, obs], ``mask`` bool[k, A], ``policy``
    float32[k, A], ``value`` float32[k, n]) and the game's figures (``decisions``,
    ``learner_return``, ``cpu_seconds``)."""
    started = time.process_time()
    with one_torch_thread():
        from agents.policy_value import encode_view

        rules = make_rules(task.game)
        hinted = task.hint != "none"
        hint = make_agent(task.hint, task.game, seed=task.seed) if hinted else None
        state = rules.new_state(task.num_players, seed=task.seed)
        seats = _seat_agents(task)
        for seat, agent in enumerate(seats):
            agent.reset(task.seed * 7919 + seat)  # as training.evaluate seeds them
        search = _worker_agent(_search_spec(task), task.game, task.nets)
        search.reset(task.seed * 7919 + task.num_players)
        labels = np.random.default_rng([task.seed, 1])
        rows: dict[str, list] = {"obs": [], "mask": [], "policy": []}
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
                    rows["policy"].append(_policy_target(task, search, view, searched))
                    if task.play == "searched":
                        state.apply(searched)
                        continue
            state.apply(chooser.act(view))
        returns = state.returns()
    n = task.num_players
    value = [returns[(task.learner_seat + k) % n] for k in range(n)]
    k, action_size = len(rows["obs"]), rules.action_size
    width = int(np.prod(rules.observation_shape)) + (action_size if hinted else 0)
    return dict(
        obs=np.asarray(rows["obs"], dtype=np.float32).reshape(k, width),
        mask=np.asarray(rows["mask"], dtype=bool).reshape(k, action_size),
        policy=np.asarray(rows["policy"], dtype=np.float32).reshape(k, action_size),
        value=np.tile(np.asarray(value, dtype=np.float32), (k, 1)),
        decisions=decisions,
        learner_return=float(returns[task.learner_seat]),
        cpu_seconds=time.process_time() - started,
    )


def _policy_target(task: GameTask, search, view, searched: int) -> np.ndarray:
    from agents.search_net import search_policy_target

    if task.target == "visits":
        return search_policy_target(search, view, searched)
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
        agents.append(_worker_agent(spec, task.game, task.nets, seat))
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
    iterations=200``: the plain search, its own options kept, the network's dropped."""
    from agents.search import OPTIONS

    options = [part for part in spec.split(",")[1:] if part.partition("=")[0].strip() in OPTIONS]
    return "ismcts:" + ",".join(options) if options else "ismcts"


#: A worker's agents, by spec (with the networks' digests in it) and seat: built once per
#: worker and network, reseeded for every game.
_WORKER_AGENTS: dict[tuple[str, str, int], object] = {}


def _worker_agent(spec: str, game: str, nets: dict, seat: int = -1):
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


# -- the replay window ---------------------------------------------------------------------------
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


def make_block(iteration: int, games: list[dict]) -> Block:
    obs = CodedRows()
    for game in games:
        for row in game["obs"]:
            obs.append(row)
    return Block(
        iteration,
        obs.freeze(),
        *(np.concatenate([game[key] for game in games]) for key in ("mask", "policy", "value")),
    )


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


# -- learning ------------------------------------------------------------------------------------
def learn(
    net, optimizer, window: ReplayWindow, new_samples: int, args: Args, iteration: int, device: str
) -> dict:
    """Adam on minibatches drawn from the whole window, as many as ``epochs`` passes over
    the iteration's ``new_samples`` take (so an iteration costs the same however large the
    window grows); the mean losses over them."""
    generator = torch.Generator().manual_seed(derived_seed(args.seed, iteration, "learn"))
    steps = math.ceil(args.epochs * new_samples / args.batch_size)
    size = len(window)
    if steps == 0 or size == 0:  # no new label (a tiny run): nothing to learn from
        return {"policy_loss": 0.0, "value_loss": 0.0}
    # Passes over the window in random orders, cut into the minibatches.
    passes = math.ceil(steps * args.batch_size / size)
    order = torch.cat([torch.randperm(size, generator=generator) for _ in range(passes)]).numpy()
    net.train()
    totals = np.zeros(2)
    for step in range(steps):
        index = order[step * args.batch_size : (step + 1) * args.batch_size]
        obs, mask, policy, value = (torch.as_tensor(c, device=device) for c in window.batch(index))
        logits, values = net(obs, mask)
        # Illegal actions hold no target mass: their (very negative) log-probabilities are
        # zeroed rather than multiplied, so they can never make a NaN.
        log_probs = torch.log_softmax(logits, dim=-1).masked_fill(~mask, 0.0)
        policy_loss = -(policy * log_probs).sum(dim=-1).mean()
        value_loss = torch.nn.functional.mse_loss(values, value)
        loss = policy_loss + args.value_weight * value_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        totals += np.array([policy_loss.item(), value_loss.item()])
    net.eval()
    policy_loss, value_loss = totals / steps
    return {"policy_loss": policy_loss, "value_loss": value_loss}


def derived_seed(seed: int, *parts: int | str) -> int:
    """A seed for one purpose of one iteration (``parts``), from the run's ``seed``."""
    words = [
        seed,
        *(p if isinstance(p, int) else int.from_bytes(p.encode(), "little") for p in parts),
    ]
    return int(np.random.SeedSequence(words).generate_state(1)[0])


# -- the run's bookkeeping: counters, checkpoints, evaluation -------------------------------
@dataclass
class RunState:
    """What a checkpoint holds beside the network, its optimizer and the replay window."""

    iteration: int = 0
    games: int = 0
    samples: int = 0
    cpu_seconds: float = 0.0
    """play, labelling and learning (this process, its workers; on Ray the tasks' own)"""
    eval_cpu_seconds: float = 0.0
    wall_seconds: float = 0.0
    pool: list = dataclasses.field(default_factory=list)
    """[(iteration, network bytes)] of the last ``pool_size`` iterations, oldest first"""


def cpu_seconds_used() -> float:
    """CPU seconds of this process and of its finished child processes (local workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def save_network(run_dir: Path, net, run: RunState) -> Path:
    """The iteration's network, ``checkpoints/net_<iteration>.pt`` (the two latest kept)."""
    from agents.policy_value import save_net

    extra = {"algo": ALGO, "iteration": run.iteration, "samples": run.samples}
    return save_checkpoint(
        None, run_dir, run.iteration, lambda temp: save_net(net, temp, extra), "net", ".pt"
    )


def save_iteration(
    run_dir: Path, net_path: Path, net, optimizer, window: ReplayWindow, run: RunState
) -> None:
    """The rest of the iteration's checkpoint: the replay window, then the state that
    marks the checkpoint whole (weights, optimizer, counters, pool); each file written
    atomically, the two latest kept. Then ``net.pt``, the run's latest network."""

    def write_replay(temp: str) -> None:
        with open(temp, "wb") as handle:  # a file object: np.savez would add ".npz" to a name
            np.savez(handle, **window.arrays())

    save_checkpoint(None, run_dir, run.iteration, write_replay, "replay", ".npz")
    state = {
        "run": asdict(run),
        "net": net.state_dict(),
        "optimizer": optimizer.state_dict(),
        "torch_rng": torch.get_rng_state(),
    }
    save_checkpoint(None, run_dir, run.iteration, lambda t: torch.save(state, t), "state", ".pt")
    write_atomically(run_dir / "net.pt", lambda temp: Path(temp).write_bytes(net_path.read_bytes()))


def load_iteration(run_dir: Path, net, optimizer, window_size: int):
    """(RunState, ReplayWindow) of ``run_dir``'s newest whole checkpoint, with ``net`` and
    ``optimizer`` restored; None when it has none."""

    def load(path: Path) -> tuple[RunState, ReplayWindow]:
        replay_path = path.with_name(path.name.replace("state_", "replay_")).with_suffix(".npz")
        try:
            state = torch.load(path, weights_only=True, map_location="cpu")
            with np.load(replay_path) as arrays:
                window = ReplayWindow.from_arrays(window_size, arrays)
        except (OSError, RuntimeError, KeyError, ValueError, EOFError) as error:
            raise InvalidConfigError(f"{type(error).__name__}: {error}") from None
        net.load_state_dict(state["net"])
        optimizer.load_state_dict(state["optimizer"])
        torch.set_rng_state(state["torch_rng"])
        run = RunState(**state["run"])
        run.pool = [(int(i), bytes(data)) for i, data in run.pool]
        return run, window

    found = newest_checkpoint(run_dir, load, "state", ".pt")
    if found is None:
        return None
    (run, window), path = found
    print(f"resuming {run_dir} from {path.name} (iteration {run.iteration})")
    return run, window


EVAL_COLUMNS = (
    "iteration",
    "games",
    "samples",
    "opponent",
    "eval_games",
    "win_share",
    "ci95_low",
    "ci95_high",
    "cpu_seconds",
    "eval_cpu_seconds",
    "wall_seconds",
)


def evaluate_net(net_path: Path, args: Args):
    """The network alone (its most likely move) against the heuristic in every other seat,
    seats rotated, over ``eval_games`` fresh deals: a ``PairingResult``."""
    from training.evaluate import run_tournament

    tournament = run_tournament(
        args.game,
        ["net", EVAL_OPPONENT],
        [args.num_players],
        args.eval_games,
        EVAL_SEED,
        progress=False,
        agents={"net": f"net:{net_path.resolve()}", EVAL_OPPONENT: EVAL_OPPONENT},
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        lone="net",
    )
    return tournament.result("net", EVAL_OPPONENT, args.num_players)


def eval_row(result, run: RunState) -> dict:
    """A row of eval.csv: the evaluation's result and the run's figures when it was made."""
    low, high = result.ci95
    return dict(
        iteration=run.iteration,
        games=run.games,
        samples=run.samples,
        opponent=EVAL_OPPONENT,
        eval_games=result.games,
        win_share=f"{result.win_share:.4f}",
        ci95_low=f"{low:.4f}",
        ci95_high=f"{high:.4f}",
        cpu_seconds=f"{run.cpu_seconds:.3f}",
        eval_cpu_seconds=f"{run.eval_cpu_seconds:.3f}",
        wall_seconds=f"{run.wall_seconds:.3f}",
    )


def write_eval_row(path: Path, row: dict) -> None:
    """eval.csv with ``row`` appended, rows of its iteration or later dropped first (a run
    resumed after an evaluation but before its checkpoint evaluates again)."""
    rows = list(csv.DictReader(path.open())) if path.exists() else []
    rows = [r for r in rows if int(r["iteration"]) < row["iteration"]] + [row]

    def write(temp: str) -> None:
        with open(temp, "w", newline="") as handle:
            writer = csv.DictWriter(handle, EVAL_COLUMNS)
            writer.writeheader()
            writer.writerows(rows)

    write_atomically(path, write)


def plot_learning_curve(run_dir: Path, num_players: int = 2) -> Path:
    """learning_curve.png: win share against the heuristic (95% interval) by CPU-hours."""
    return learning_curve.plot_learning_curve(
        run_dir,
        x="cpu_seconds",
        x_scale=1 / 3600,
        x_label="CPU-hours (play, search, learning)",
        fair_share=1 / num_players,
    )


# -- the loop --------------------------------------------------------------------------------------
def _resumed_args(args: Args) -> Args:
    """The run's saved arguments; ``iterations`` may be raised (never lowered), and the
    workers, backend, Ray address, device and progress bar are this machine's choice."""
    saved = read_config(args.resume, "expert_iteration")["args"]
    target = saved["iterations"]
    saved.setdefault("hint", "none")  # runs made before networks had hints
    saved.update(
        resume=args.resume,
        iterations=target if args.iterations is None else max(args.iterations, target),
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        device=args.device,
        progress=args.progress,
    )
    return Args(**saved)


def check_agents(args: Args, net_bytes: bytes) -> None:
    """Build every agent the games will seat, so a bad spec fails before the run starts."""
    from agents.search import ISMCTSAgent

    nets = {"current": net_bytes}
    for spec, _ in parse_opponents(args.opponent):
        if spec not in (SELF_PLAY, PAST):
            _check_reproducible(make_agent(spec, args.game), "--opponent", spec)
    search_specs = {args.search.replace(NET_PLACEHOLDER, "{current}")}
    if NET_PLACEHOLDER in args.search:
        search_specs.add(without_network(args.search))
    for spec in search_specs:
        search = _worker_agent(spec, args.game, nets)
        if not isinstance(search, ISMCTSAgent):
            raise InvalidConfigError(
                f"--search {args.search!r} is not a search agent; allowed: ismcts[:options] "
                "or ismcts-net:<network>[,options] ({net}: the network being trained)"
            )
        _check_reproducible(search, "--search", args.search)


def _check_reproducible(agent, flag: str, spec: str) -> None:
    """Refuse a search with a time budget: its moves would depend on the machine's speed
    and load, and a run on its seed could not be repeated (nor resumed to the same net)."""
    seconds = getattr(getattr(agent, "options", None), "seconds", 0)
    if seconds:
        raise InvalidConfigError(
            f"{flag} {spec!r} searches for seconds={seconds:g} a decision, so its moves depend "
            "on the machine's speed; allowed: a budget of iterations alone, e.g. add "
            "seconds=0 (and iterations=N)"
        )


def iteration_tasks(args: Args, run: RunState, iteration: int, current: bytes | None) -> list:
    """The games of one iteration: deals, seats and opponents drawn from its own seed."""
    rng = np.random.default_rng(derived_seed(args.seed, iteration, "opponents"))
    mix = parse_opponents(args.opponent)
    pool = [i for i, _ in run.pool]
    pool_bytes = dict(run.pool)
    tasks = []
    for g in range(args.games_per_iteration):
        opponents = tuple(draw_opponent(mix, pool, rng) for _ in range(args.num_players - 1))
        if current is None:  # before any training the heuristic stands in for the network
            opponents = tuple(
                "heuristic" if o == SELF_PLAY or o.startswith(PAST) else o for o in opponents
            )
        nets = {"current": current} if current is not None else {}
        for name in opponents:
            if name.startswith(f"{PAST}:"):
                nets[name] = pool_bytes[int(name.partition(":")[2])]
        tasks.append(
            GameTask(
                game=args.game,
                num_players=args.num_players,
                seed=derived_seed(args.seed, iteration, g) % EVAL_SEED,
                learner_seat=g % args.num_players,
                learner="net" if current is not None else "heuristic",
                opponents=opponents,
                search=args.search,
                label_share=args.label_share,
                play=args.play,
                target=args.target,
                nets=nets,
                hint=args.hint,
            )
        )
    return tasks


def net_bytes(net) -> bytes:
    """The network as the bytes of its .pt file (``agents.policy_value.save_net``)."""
    from agents.policy_value import save_net

    with tempfile.TemporaryDirectory() as folder:
        return save_net(net, Path(folder) / "net.pt").read_bytes()


def main(args: Args) -> Path:
    from torch.utils.tensorboard import SummaryWriter

    args = _resumed_args(args) if args.resume else with_recipe(args)
    args = dataclasses.replace(args, opponent=_resolved_mix(args.opponent))
    make_rules(args.game).check_num_players(args.num_players)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    device = resolve_device(args.device)
    print(f"expert iteration on {args.game}, learning on {describe_device(device)}")
    torch.manual_seed(args.seed)
    net = initial_network(args)
    args = dataclasses.replace(args, hint=net.hint)  # --init's network decides
    optimizer = torch.optim.Adam(net.parameters(), lr=args.learning_rate)
    # Everything that can refuse the arguments runs before the run directory is made.
    check_agents(args, net_bytes(net))
    run, window = RunState(), ReplayWindow(args.window)
    if args.resume:
        run_dir = Path(args.resume)
        loaded = load_iteration(run_dir, net, optimizer, args.window)
        if loaded is not None:
            run, window = loaded
    elif args.run_name:
        run_dir = Path(args.out_dir) / args.run_name
        run_dir.mkdir(parents=True, exist_ok=True)
    else:
        run_dir = new_run_dir(args.out_dir, args.game, ALGO, args.seed)
    if not args.resume:
        write_config(run_dir, {"args": asdict(args), "algo": ALGO})
    net.to(device)
    optimizer_to(optimizer, device)
    writer = SummaryWriter(log_dir=str(run_dir / "tb"))
    bar = tqdm(
        total=args.iterations * args.games_per_iteration,
        initial=run.iteration * args.games_per_iteration,
        unit="game",
        desc=f"exit {args.game}",
        disable=not args.progress,
    )
    warm_started = bool(args.init or args.imitation_games)
    if run.iteration == 0 and args.imitation_games and not args.init:
        cpu_start, wall_start = cpu_seconds_used(), time.perf_counter()
        losses = imitate_heuristic(net, optimizer, args, device)
        run.cpu_seconds += cpu_seconds_used() - cpu_start
        run.wall_seconds += time.perf_counter() - wall_start
        bar.write(
            f"warm start: the heuristic's moves in {args.imitation_games} games, policy loss "
            f"{losses['policy_loss']:.3f}, after {run.cpu_seconds / 60:.1f} CPU-minutes"
        )
    try:
        for iteration in range(run.iteration + 1, args.iterations + 1):
            cpu_start, wall_start = cpu_seconds_used(), time.perf_counter()
            current = net_bytes(net) if iteration > 1 or warm_started else None
            tasks = iteration_tasks(args, run, iteration, current)
            games, task_cpu = [], 0.0
            for game in run_tasks(
                play_and_label, tasks, args.workers, args.backend, args.ray_address
            ):
                games.append(game)
                task_cpu += game["cpu_seconds"]
                bar.update()
            block = make_block(iteration, games)
            window.add(block)
            losses = learn(net, optimizer, window, len(block), args, iteration, device)
            if current is not None:
                run.pool = [*run.pool, (iteration - 1, current)][-args.pool_size :]
            run.iteration = iteration
            run.games += len(games)
            run.samples += len(block)
            run.cpu_seconds += cpu_seconds_used() - cpu_start
            if args.backend == "ray":  # Ray's workers are no child processes of this one
                run.cpu_seconds += task_cpu
            run.wall_seconds += time.perf_counter() - wall_start
            net_path = save_network(run_dir, net, run)
            figures = dict(
                losses,
                samples=len(block),
                window=len(window),
                learner_return=float(np.mean([g["learner_return"] for g in games])),
                cpu_hours=run.cpu_seconds / 3600,
            )
            for name, value in figures.items():
                writer.add_scalar(f"train/{name}", value, iteration)
            if iteration == args.iterations or (
                args.eval_every and iteration % args.eval_every == 0
            ):
                eval_cpu, eval_wall = cpu_seconds_used(), time.perf_counter()
                result = evaluate_net(net_path, args)
                run.eval_cpu_seconds += cpu_seconds_used() - eval_cpu
                run.wall_seconds += time.perf_counter() - eval_wall
                row = eval_row(result, run)
                write_eval_row(run_dir / "eval.csv", row)
                plot_learning_curve(run_dir, args.num_players)
                writer.add_scalar(
                    f"eval/win_share_vs_{EVAL_OPPONENT}", float(row["win_share"]), iteration
                )
                bar.write(
                    f"iteration {iteration}: {row['win_share']} against {EVAL_OPPONENT} "
                    f"[{row['ci95_low']}, {row['ci95_high']}] after {run.cpu_seconds / 60:.1f} "
                    "CPU-minutes"
                )
            save_iteration(run_dir, net_path, net, optimizer, window, run)
            bar.set_postfix(
                policy_loss=f"{losses['policy_loss']:.3f}", value_loss=f"{losses['value_loss']:.3f}"
            )
    finally:
        bar.close()
        writer.close()
    print(f"saved {run_dir / 'net.pt'}")
    return run_dir


def imitate_heuristic(net, optimizer, args: Args, device: str) -> dict:
    """The warm start: ``imitation_games`` heuristic games (deals of their own), the moves
    of one seat each (rotated) as one-hot targets and the outcome as values; ``learn`` then
    makes ``imitation_epochs`` passes over them. The heuristic's moves are cheap labels, so
    the network starts near its play and the search's labels teach what it adds."""
    tasks = [
        GameTask(
            game=args.game,
            num_players=args.num_players,
            seed=derived_seed(args.seed, 0, "imitation", g) % EVAL_SEED,
            learner_seat=g % args.num_players,
            learner="heuristic",
            opponents=("heuristic",) * (args.num_players - 1),
            search="heuristic",
            label_share=1.0,
            play="searched",
            target="move",
            nets={},
            hint=args.hint,
        )
        for g in range(args.imitation_games)
    ]
    games = list(run_tasks(play_and_label, tasks, args.workers, args.backend, args.ray_address))
    window = ReplayWindow(1)
    block = make_block(0, games)
    window.add(block)
    passes = dataclasses.replace(args, epochs=args.imitation_epochs)
    return learn(net, optimizer, window, len(block), passes, 0, device)


def initial_network(args: Args):
    """A fresh network of the run's shape, or (``--init``) the one it starts from."""
    from agents.policy_value import PolicyValueNet, load_net

    if not args.init:
        return PolicyValueNet(
            args.game, args.num_players, hidden=args.hidden, layers=args.layers, hint=args.hint
        ).eval()
    net, _ = load_net(args.init, game=args.game)
    if net.num_players != args.num_players:
        raise InvalidConfigError(
            f"--init {args.init!r} is a network for {net.num_players} players, not "
            f"{args.num_players}; allowed: a network of {args.game} at {args.num_players} players"
        )
    return net


def optimizer_to(optimizer, device: str) -> None:
    """Move Adam's moment estimates (restored on the CPU) to ``device``."""
    for state in optimizer.state.values():
        for key, value in state.items():
            if isinstance(value, torch.Tensor) and key != "step":
                state[key] = value.to(device)


def _resolved_mix(text: str) -> str:
    """``--opponent`` with each file agent's path made absolute, for workers started
    elsewhere and runs resumed from another folder (unchanged when none is a file)."""
    mix = parse_opponents(text)
    resolved = [
        (spec if spec in (SELF_PLAY, PAST) else resolve_agent_spec(spec), weight)
        for spec, weight in mix
    ]
    if resolved == mix:
        return text
    return ",".join(f"{spec}={weight!r}" for spec, weight in resolved)


if __name__ == "__main__":
    # Through the importable module, not as __main__: workers find play_and_label by name.
    from training import expert_iteration

    expert_iteration.main(parse_args(expert_iteration.Args))
