"""Train a MaskablePPO agent on any game's single-agent env.

One seat learns; the others are played by opponents drawn anew for every episode from a
weighted mix of ``random``, ``heuristic``, saved ``ppo:<model>`` policies and ``self-play``
(a pool of the learner's own past snapshots, one saved every ``snapshot_every`` steps,
the last ``pool_size`` kept). The learner's seat is drawn at random each episode.

The ``n_envs`` envs are stepped here (``--workers 1``), or split into ``--workers K`` groups,
each stepped in a process of its own (``--backend local``) or a Ray actor (``--backend
ray``, a local instance of K CPUs or the cluster at ``--ray-address``); see
``training/vec_envs.py``. Self-play snapshots reach the workers as the model file's bytes.
Every env and opponent draws only from generators seeded by ``seed``, never from a
process-wide one, so a seed gives the same games, hence the same model, for any K and
either backend.

A run directory ``<out_dir>/<game>__ppo__<seed>__<time>`` receives:

    config.json         the exact arguments and resolved hyperparameters
    model.zip           the final policy (load it with ``ppo:<run dir>``)
    eval.csv            periodic evaluation against random and heuristic, seats rotated
    learning_curve.png  win share against timesteps, with 95% intervals
    checkpoints/        the two latest policies, saved every ``checkpoint_every`` steps
    pool/               self-play snapshots
    tb/                 tensorboard logs

``--resume RUN_DIR`` continues a run killed midway from its latest checkpoint (or, when
that one cannot be read, the one before it), towards the run's saved ``timesteps`` unless
``--timesteps`` is given. Every model file is written to a temporary file and renamed, so
a kill never leaves half a checkpoint; the run directory is only created once the arguments
have been checked and training starts.

    python -m training.train_ppo --game factors_multiples --timesteps 300000
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import io
import json
import os
import sys
import tempfile
import time
import weakref
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import Logger
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor
from tqdm.auto import tqdm

from agents.base import Agent, AgentMix, make_agent, resolve_agent_spec, split_agent_specs
from agents.ppo import (
    DEVICE,
    DEVICES_TEXT,
    PPOAgent,
    describe_device,
    load_model,
    model_input,
    resolve_device,
    resolve_model,
)
from boardgame_envs.core.env import REWARD_MODES
from boardgame_envs.core.rules import InvalidConfigError, PlayerView
from boardgame_envs.registry import make_rules, make_single_agent
from training.cli_args import (
    FINITE,
    FRACTION,
    NON_NEGATIVE,
    NONE,
    POSITIVE,
    Allowed,
    at_least,
    check_fields,
    parse_args,
    parse_int_list,
)
from training.coded_rows import CodedRows
from training.parallel import BACKENDS, connect_ray, run_tasks
from training.rollout_buffer import EnvMajorRolloutBuffer
from training.vec_envs import WorkerVecEnv

DEFAULT_HYPERPARAMS = dict(
    learning_rate=3e-4,
    n_steps=512,
    batch_size=256,
    n_epochs=4,
    gamma=0.99,
    gae_lambda=0.95,
    ent_coef=0.01,
    clip_range=0.2,
    net_arch="256,256",
    anneal_lr=False,
    final_lr_fraction=0.0,
)
# After the imitation warm start: little entropy (stay near it), and a rate falling to 0
# to settle the policy (in Factors and Multiples 0.54 -> 0.58 against the heuristic).
AFTER_IMITATION = dict(DEFAULT_HYPERPARAMS, ent_coef=0.001, anneal_lr=True)
# A hinted policy (agents/hinted.py) starts at the heuristic's strength: small steps, so
# that PPO's noisy early advantages do not move it off (at 3e-4 with a score reward and
# half random opponents a Wasabi! one fell from 0.50 to 0.36-0.39 within 200k steps).
HINTED_PPO = dict(AFTER_IMITATION, learning_rate=1e-4)
# Longer and with larger steps, a hinted policy does find departures that win: at 3e-4
# (two passes a rollout) a 4M-step run's checkpoints took Wasabi! from 0.543 at 1M to
# 0.733 at 4M against the heuristic and Tahiti from 0.442 to 0.630 (2,000 deals each,
# docs/design-notes.md), where 300k at 1e-4 kept the heuristic's every move. Cornucopia climbed
# more slowly (0.526 at 1M, 0.568 at 4M); Carcassonne fell below the heuristic and came
# back to it (0.358 at 1M, 0.453 at 2M, 0.499 at 4M), no better than 300k at 1e-4.
LONG_HINTED_PPO = dict(HINTED_PPO, learning_rate=3e-4, n_epochs=2)
#: Hyperparameters per game; "default" for games without an entry. Args override them.
#: Each game's entry, with its RECIPES and PLANES_NETS entries, is the recipe its shipped
#: policy was trained with (docs/design-notes.md gives the figures).
HYPERPARAMS: dict[str, dict] = {
    "default": DEFAULT_HYPERPARAMS,
    "factors_multiples": dict(AFTER_IMITATION, n_epochs=8, gamma=1.0),
    # 4M steps: 0.544, 0.555, 0.568 at 1.5M, 2M, 4M (2,000 deals each), where 300k at
    # 1e-4 (HINTED_PPO) read 0.510 and a 2M-step run annealed to 0 at 2M 0.510-0.532.
    "cornucopia": dict(LONG_HINTED_PPO, gamma=1.0),
    # Two passes over each rollout: its 14,601-value observations (with mask and hint) make
    # every pass costly, and the hinted policy did not gain from four (docs/design-notes.md).
    # A 4M-step run at 3e-4 (LONG_HINTED_PPO) read 0.499 (2,000 deals), no better than
    # this recipe's 0.498 at eleven times the CPU time; 2M-step ones with hint weight 8
    # (its sampled moves near the heuristic's) 0.511-0.512, still no better.
    "carcassonne_castle": dict(HINTED_PPO, gamma=1.0, n_epochs=2),
    "tahiti": dict(LONG_HINTED_PPO, gamma=0.995),
    # The rate falls as if over 4M steps and the run stops at 2.5M (3e-4 -> 1.125e-4): the
    # checkpoints of a 4M-step run annealed to 0 read 0.592, 0.638, 0.713 at 2M, 2.5M, 3M
    # steps (2,000 deals each), where a 2M-step run annealed to 0 read 0.560.
    "wasabi": dict(LONG_HINTED_PPO, gamma=0.995, final_lr_fraction=0.375),
}
#: The PlanesExtractor settings (agents/networks.py) of the games whose observation starts
#: with board planes; None: the observation goes flat into the dense layers.
PLANES_NETS: dict[str, dict] = {
    # Cheap enough for >= 1,000 learner steps/s on 2 cores (a dense layer over the
    # 13,860 plane values cost 3.3 ms of training per step; these 0.5-0.7 ms).
    "carcassonne_castle": dict(channels=8, depth=1),
    # No broadcast planes: they were the costliest part of Tahiti's learner, and the hinted
    # policy trained with them played no better than the heuristic (docs/design-notes.md).
    "tahiti": dict(channels=16, depth=0),
    "wasabi": dict(channels=16, depth=1, broadcast=16),
}
EVAL_OPPONENTS = ["random", "heuristic"]
EVAL_SEED = 1_000_000_000  # evaluation deals never overlap training seeds
# What every game's recipe shares: copy the heuristic, then train mostly against it.
WARM_START = dict(
    eval_every=50_000,
    opponent="heuristic=0.7,random=0.3",
    reward="outcome",
    imitate="heuristic",
    imitation_games=2000,
    hint="",
)
# A hinted policy, its value network warm-started on 300 of the heuristic's games (which
# also fits its logits to the hint), then trained against the heuristic alone.
HINTED = dict(WARM_START, opponent="heuristic", imitation_games=300, hint="heuristic")
#: What ``train --game G`` does when only the game is given, beside its HYPERPARAMS: the
#: training length, the opponents, the reward and the warm start. Args override them.
RECIPES: dict[str, dict] = {
    "default": dict(
        timesteps=200_000,
        eval_every=50_000,
        opponent="random=0.5,heuristic=0.5",
        reward="outcome",
        imitate="",
        imitation_games=2000,
        hint="",
    ),
    # Every recipe starts from a copy of the heuristic (from scratch PPO stays far below
    # it) and trains mostly against it. Imitation keeps every observation (CodedRows, one
    # byte a value): about 15 KB a decision in Carcassonne (64 a game), 10 KB in Tahiti
    # (111 a game).
    # 3.5M steps: 0.641 against the heuristic where 2M read 0.617 (the same 2,000 fresh
    # deals, docs/design-notes.md); evaluations every 100k keep the run under 30 CPU-minutes.
    "factors_multiples": dict(
        WARM_START, timesteps=3_500_000, eval_every=100_000, reward="score"
    ),  # demo: 800k
    # The other four: a policy hinted by the heuristic (agents/hinted.py). Their unhinted
    # recipes (docs/design-notes.md) left 0.000-0.435 against the heuristic.
    # Over the 30 CPU-minutes (53 for the 4M steps) and below 0.60 (docs/design-notes.md).
    "cornucopia": dict(HINTED, timesteps=4_000_000, eval_every=500_000),
    "carcassonne_castle": dict(HINTED, timesteps=300_000),
    # Over the 30 CPU-minutes: 0.445 at 2M, 0.572 at 3M, 0.630 at 4M (docs/design-notes.md).
    "tahiti": dict(HINTED, timesteps=4_000_000, eval_every=500_000),
    "wasabi": dict(HINTED, timesteps=2_500_000, eval_every=500_000),
}


@dataclass
class Args:
    game: str = "factors_multiples"
    """game id (see ``boardgame-envs list``)"""
    num_players: int = 2
    """players at the table (the learner takes one seat, drawn at random each episode)"""
    opponent: str | None = None
    """opponents: random, heuristic, self-play, ppo:<model> (a path or a shipped policy's
    name such as ppo:wasabi), ismcts[:options], your own agent (module.path:attr or
    path/to/file.py:attr), or a weighted mix such as "self-play=0.6,heuristic=0.2,random=0.2"
    or "my_agents.py:FirstLegal=0.5,heuristic=0.5" (None: the game's recipe, RECIPES)"""
    timesteps: int | None = None
    """total learner decisions to train for (None: the game's recipe; with --resume, the
    run's saved target)"""
    n_envs: int = 16
    """environments stepped together"""
    seed: int = 0
    """seeds the environments, the opponents and the network"""
    reward: str | None = None
    """reward mode of the env: outcome or score (None: the game's recipe)"""
    score_reward_scale: float | None = None
    """weight of the score shaping under --reward score (None: the game's own scale)"""
    observe_mask: bool = True
    """append the legal-action mask to the policy's input (it then sees what is legal)"""
    game_options: str = "{}"
    """game options as JSON, e.g. '{"rounds": 1}'"""
    learning_rate: float | None = None
    """Adam step size (None: the game's default from HYPERPARAMS)"""
    n_steps: int | None = None
    """steps per environment per update"""
    batch_size: int | None = None
    """minibatch size"""
    n_epochs: int | None = None
    """passes over each rollout"""
    gamma: float | None = None
    """discount"""
    gae_lambda: float | None = None
    """GAE lambda"""
    ent_coef: float | None = None
    """entropy bonus"""
    clip_range: float | None = None
    """PPO clip range"""
    net_arch: str | None = None
    """hidden layer sizes of policy and value networks, e.g. "256,256" """
    network: str = "auto"
    """input network: planes (a small CNN over the board planes, agents/networks.py, for
    carcassonne_castle, tahiti and wasabi), flat (the whole observation into the dense
    layers), or auto (planes where the game has them)"""
    anneal_lr: bool | None = None
    """decay the learning rate linearly over the run, to 0 or to --final-lr-fraction of
    itself (None: the game's default)"""
    final_lr_fraction: float | None = None
    """with --anneal-lr, the rate at the run's end as a fraction of its start (0: it falls
    to 0; None: the game's default)"""
    imitate: str | None = None
    """warm start: before PPO, fit the policy to this agent's choices and the value network
    to its returns (behaviour cloning), e.g. "heuristic" ("" = start from scratch; None: the
    game's recipe)"""
    imitation_games: int | None = None
    """episodes of the imitated agent to learn from (None: the game's recipe)"""
    imitation_epochs: int = 8
    """passes over those decisions"""
    imitation_data: str = ""
    """a file (.npz) of the imitated games' decisions: read when it exists (made with this
    run's game, opponents, reward, --imitate, --imitation-games and seed), else written
    after they are played; "" = play them and keep nothing"""
    hint: str | None = None
    """a hinted policy (agents/hinted.py): the network also reads this agent's choice and
    adds hint_weight to its logit, e.g. "heuristic" ("" = none; None: the game's recipe)"""
    hint_weight: float = 4.0
    """the hint's starting weight in the logits (learned from there)"""
    init: str = ""
    """start from this saved policy's weights (a model .zip, a run directory or a shipped
    policy's name such as factors_multiples; same game and network), e.g. to fine-tune a
    2-player policy at 3 players; in place of --imitate"""
    eval_every: int | None = None
    """timesteps between evaluations against random and heuristic (0: only at the end;
    None: the game's recipe). They do not change the model, only the run's CPU time"""
    eval_games: int = 100
    """games per opponent at each evaluation"""
    checkpoint_every: int = 50_000
    """timesteps between checkpoints"""
    snapshot_every: int = 25_000
    """timesteps between self-play snapshots"""
    pool_size: int = 10
    """self-play snapshots kept"""
    out_dir: str = "runs"
    """where run directories are created"""
    run_name: str = ""
    """run directory name ("" = <game>__ppo__<seed>__<time>)"""
    resume: str = ""
    """a run directory to continue from its latest checkpoint (its config is reused;
    only --timesteps may be raised, and --workers, --backend, --ray-address given now
    apply)"""
    vector: bool = True
    """step the envs as one compiled batch (boardgame_envs.vector) where the engine plays
    the opponents and the hint itself (heuristic, random); false: one env per game, in
    --workers processes"""
    workers: int = 1
    """processes stepping the envs, each a group of n_envs / workers (1: all in this process;
    with --resume, the value given now: it does not change results)"""
    backend: str = "local"
    """where the worker groups run: local (processes here) or ray (Ray actors)"""
    ray_address: str = ""
    """with --backend ray: a running cluster, host:port, ray://host:port or auto ("" = start
    a local Ray instance of --workers CPUs)"""
    torch_threads: int = 1
    """torch CPU threads (1 is fastest for these small networks on a few cores; each env
    worker uses as many)"""
    device: str = "auto"
    """torch device of the learner: auto (CUDA where torch sees a GPU, else the CPU), cpu,
    cuda or cuda:N; opponents, snapshots and env workers stay on the CPU (with --resume,
    the value given now)"""
    progress: bool = True
    """show a progress bar"""

    def __post_init__(self) -> None:
        recipe = RECIPES.get(self.game, RECIPES["default"])
        for name in ("opponent", "reward", "imitate", "imitation_games", "hint", "eval_every"):
            if getattr(self, name) is None:
                setattr(self, name, recipe[name])
        check_fields(self, ARGS_ALLOWED)
        if self.reward not in REWARD_MODES:
            raise InvalidConfigError(
                f"--reward {self.reward!r} is not allowed; allowed: {', '.join(REWARD_MODES)}"
            )
        if self.imitate and self.imitation_games < 1:
            raise InvalidConfigError(
                f"--imitation-games {self.imitation_games} is not allowed with --imitate "
                f"{self.imitate!r}; allowed: an integer >= 1"
            )
        if self.workers > self.n_envs:
            raise InvalidConfigError(
                f"--workers {self.workers} is not allowed with --n-envs {self.n_envs}; "
                f"allowed: 1 to {self.n_envs} (each worker steps at least one env)"
            )
        if self.ray_address and self.backend != "ray":
            raise InvalidConfigError(
                f"--ray-address {self.ray_address!r} is not allowed with --backend "
                f"{self.backend}; add --backend ray"
            )
        game_options(self)
        if self.net_arch is not None:
            parse_int_list("net_arch", self.net_arch, example="256,256")
        if self.network == "planes" and self.game not in PLANES_NETS:
            raise InvalidConfigError(
                f"--network planes is not allowed for {self.game} (its observation has no "
                f"board planes); allowed: flat or auto, or a game of {', '.join(PLANES_NETS)}"
            )


NETWORKS = ("auto", "planes", "flat")
HINT_AGENTS = ("", "heuristic")
ARGS_ALLOWED: dict[str, Allowed] = {
    "timesteps": at_least(1) | NONE,
    "hint": Allowed(lambda v: v in HINT_AGENTS, ", ".join(repr(a) for a in HINT_AGENTS)),
    "hint_weight": FINITE,
    "n_envs": at_least(1),
    "seed": at_least(0),
    "score_reward_scale": FINITE | NONE,
    "learning_rate": POSITIVE | NONE,
    "n_steps": at_least(1) | NONE,
    "batch_size": at_least(1) | NONE,
    "n_epochs": at_least(1) | NONE,
    "gamma": FRACTION | NONE,
    "gae_lambda": FRACTION | NONE,
    "ent_coef": NON_NEGATIVE | NONE,
    "clip_range": POSITIVE | NONE,
    "final_lr_fraction": FRACTION | NONE,
    "imitation_games": at_least(0),
    "imitation_epochs": at_least(1),
    "eval_every": at_least(0),
    "eval_games": at_least(1),
    "checkpoint_every": at_least(0),
    "snapshot_every": at_least(0),
    "pool_size": at_least(1),
    "torch_threads": at_least(0),
    "workers": at_least(1),
    "backend": Allowed(lambda v: v in BACKENDS, ", ".join(BACKENDS)),
    "network": Allowed(lambda v: v in NETWORKS, ", ".join(NETWORKS)),
    "device": Allowed(lambda v: isinstance(v, str) and bool(DEVICE.fullmatch(v)), DEVICES_TEXT),
}


def game_options(args: Args) -> dict:
    """``--game-options`` as a dict; ``InvalidConfigError`` unless it is a JSON object."""
    try:
        options = json.loads(args.game_options)
    except json.JSONDecodeError as error:
        raise InvalidConfigError(
            f"--game-options {args.game_options!r} is not JSON ({error}); write an object "
            """such as '{"rounds": 1}'"""
        ) from None
    if not isinstance(options, dict):
        raise InvalidConfigError(
            f"--game-options {args.game_options!r} is not allowed; allowed: a JSON object "
            """of option names and values, such as '{"rounds": 1}'"""
        )
    return options


def hyperparameters(args: Args) -> dict:
    table = dict(HYPERPARAMS.get(args.game, HYPERPARAMS["default"]))
    for name in table:
        if getattr(args, name) is not None:
            table[name] = getattr(args, name)
    return table


def policy_kwargs(args: Args) -> dict:
    """The policy's networks: the dense layers of ``net_arch``, behind a PlanesExtractor
    where ``--network`` (auto: the game's entry in PLANES_NETS) asks for one."""
    hp = hyperparameters(args)
    kwargs: dict = dict(net_arch=parse_int_list("net_arch", hp["net_arch"], example="256,256"))
    if args.network != "flat" and args.game in PLANES_NETS:
        from agents.networks import PlanesExtractor

        kwargs.update(
            features_extractor_class=PlanesExtractor,
            features_extractor_kwargs=dict(
                planes=make_rules(args.game).planes_shape, **PLANES_NETS[args.game]
            ),
        )
    if args.hint:
        from agents.hinted import hinted_policy_kwargs

        action_size = make_rules(args.game).action_size
        kwargs = hinted_policy_kwargs(kwargs, args.hint, args.game, action_size, args.hint_weight)
    return kwargs


#: Hyperparameters of HYPERPARAMS that this module reads itself (not MaskablePPO's own).
NOT_SB3_ARGS = ("net_arch", "learning_rate", "anneal_lr", "final_lr_fraction")


def new_model(
    args: Args, env, tensorboard_log: str | None = None, device: str = "cpu"
) -> MaskablePPO:
    """A fresh MaskablePPO of the game's hyperparameters (with ``args``' overrides) on
    ``device`` (a torch device, already checked: :func:`agents.ppo.resolve_device`). Without
    ``tensorboard_log`` it logs nowhere: SB3 would otherwise make an empty ``SB3-<time>``
    folder in the system's temporary folder at every ``learn``."""
    hp = hyperparameters(args)
    if args.hint:
        from agents.hinted import HintedPolicy

        policy = HintedPolicy
    else:
        policy = "MlpPolicy"
    model = MaskablePPO(
        policy,
        env,
        seed=args.seed,
        device=device,
        verbose=0,
        tensorboard_log=tensorboard_log,
        policy_kwargs=policy_kwargs(args),
        rollout_buffer_class=EnvMajorRolloutBuffer,
        learning_rate=learning_rate_schedule(
            hp["learning_rate"], hp["anneal_lr"], hp["final_lr_fraction"]
        ),
        **{k: v for k, v in hp.items() if k not in NOT_SB3_ARGS},
    )
    if tensorboard_log is None:
        model.set_logger(Logger(folder=None, output_formats=[]))
    return model


def start_from(model: MaskablePPO, path: str) -> None:
    """Copy a saved policy's weights into ``model`` (``--init``: a model .zip, a run
    directory or a shipped policy's name); an error naming the file when it is not a model of
    the same inputs, actions and network."""
    try:
        source, _ = resolve_model(path)
    except InvalidConfigError as error:
        raise InvalidConfigError(f"--init {path!r}: no such model ({error})") from None
    saved = load_model(source)
    try:
        if saved.observation_space != model.observation_space:
            raise ValueError(f"inputs {saved.observation_space} against {model.observation_space}")
        if saved.action_space != model.action_space:
            raise ValueError(f"actions {saved.action_space} against {model.action_space}")
        model.policy.load_state_dict(saved.policy.state_dict())
    except (ValueError, RuntimeError) as error:
        message = str(error).splitlines()[0]
        raise InvalidConfigError(
            f"--init {path!r} does not fit this run ({message}); allowed: a policy of the "
            "same game, observe_mask and network (--net-arch, --network)"
        ) from None


def learning_rate_schedule(rate: float, anneal: bool, final_fraction: float = 0.0):
    """A constant rate, or one falling linearly from ``rate`` to ``final_fraction * rate``
    as training progresses (SB3 calls the schedule with the fraction of the run still to
    go, 1 -> 0; counted over the whole run, so a resumed run carries on down the same
    line). SB3's fraction goes below 0 when a run is shorter than one rollout: the rate
    stays at its final value there, never below (a negative rate would climb the loss)."""
    if not anneal:
        return rate
    return lambda progress_remaining: rate * (
        final_fraction + (1.0 - final_fraction) * max(progress_remaining, 0.0)
    )


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
        paths = sorted(folder.glob("snapshot_*.zip"), key=_steps_of) if folder else []
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
        name, weight = _spec_and_weight(part)
        if name == "self-play":
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


def _steps_of(path: Path) -> int:
    return int(path.stem.rsplit("_", 1)[1])


def resolve_opponents(text: str) -> str:
    """``--opponent`` with each file agent's path made absolute (``my_agents.py:FirstLegal``
    -> ``/home/me/my_agents.py:FirstLegal``): env workers started in another folder (Ray)
    and a run resumed from elsewhere find the same file."""
    parts, changed = [], False
    for part in split_agent_specs(text):
        name, weight = _spec_and_weight(part)
        resolved = resolve_agent_spec(name)
        changed |= resolved != name
        parts.append(resolved + (f"={weight}" if weight else "") if resolved != name else part)
    return ",".join(parts) if changed else text


def _self_play(args: Args) -> bool:
    return any(
        _spec_and_weight(part)[0] == "self-play" for part in split_agent_specs(args.opponent)
    )


def make_env(args: Args, pool: SelfPlayPool | None) -> gymnasium.Env:
    """One training env with opponents of its own (the pool's snapshots are shared); with
    ``--hint``, its observations end with the hint agent's choice (agents/hinted.py)."""
    env = make_single_agent(
        args.game,
        args.num_players,
        opponent=parse_opponents(args.opponent, args.game, pool),
        reward=args.reward,
        observe_mask=args.observe_mask,
        score_reward_scale=args.score_reward_scale,
        **game_options(args),
    )
    if args.hint:
        from agents.hinted import HintedEnv

        env = HintedEnv(env, make_agent(args.hint, args.game))
    return env


def compiled_vec_env(args: Args) -> VecEnv | None:
    """The ``n_envs`` envs of :func:`make_env` as one compiled batch
    (``boardgame_envs.vector``: the same games, step for step), or None where it cannot
    play them (``--vector false``, the Python engine, opponents or a hint other than the
    heuristic and random)."""
    if not args.vector:
        return None
    from boardgame_envs.vector import make_vec

    venv = make_vec(
        args.game,
        args.n_envs,
        args.num_players,
        opponent=parse_opponents(args.opponent, args.game, None),
        reward=args.reward,
        observe_mask=args.observe_mask,
        score_reward_scale=args.score_reward_scale,
        hint=args.hint or None,
        **game_options(args),
    )
    return venv if venv.batch.compiled else None


def build_env_group(args: Args, indices: Sequence[int]) -> tuple[list, SelfPlayPool | None]:
    """A worker's envs and the self-play pool they share (empty: the learner sends it
    every snapshot)."""
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)  # as the learner: the same arithmetic
    pool = SelfPlayPool(None, args.pool_size, args.game) if _self_play(args) else None
    return [make_env(args, pool) for _ in indices], pool


def make_vec_env(args: Args, pool: SelfPlayPool | None):
    """``n_envs`` single-agent envs, each with its own opponents, seeded ``seed + i``:
    here in one DummyVecEnv (one local worker), else in ``workers`` worker groups, whose
    pools receive every snapshot of ``pool``, those it holds now and those added later."""
    venv = compiled_vec_env(args) if pool is None and args.backend == "local" else None
    if venv is not None:
        pass  # every env in one compiled batch: no worker processes needed
    elif args.backend == "local" and args.workers == 1:
        venv = DummyVecEnv([functools.partial(make_env, args, pool)] * args.n_envs)
    else:
        ray, own_ray = None, False
        if args.backend == "ray":
            imported = sys.modules.get("ray")  # (connect_ray sets Ray's log level first)
            own_ray = imported is None or not imported.is_initialized()  # shut down on close
            ray = connect_ray(args.ray_address, args.workers)
        venv = WorkerVecEnv(
            functools.partial(build_env_group, args),
            args.n_envs,
            args.workers,
            backend=args.backend,
            ray=ray,
            own_ray=own_ray,
        )
        if pool is not None:
            try:
                for data, name in pool.files:
                    venv.call_shared("load", data, name)
            except BaseException:
                venv.close()
                raise
            pool.listeners.append(functools.partial(venv.call_shared, "load"))
    env = VecMonitor(venv)
    env.seed(args.seed)
    return env


class RunCallback(BaseCallback):
    """Evaluates, checkpoints and snapshots the policy on schedule."""

    def __init__(self, args: Args, run_dir: Path, pool: SelfPlayPool | None) -> None:
        super().__init__()
        self.args, self.run_dir, self.pool = args, run_dir, pool

    def _on_training_start(self) -> None:
        now = self.num_timesteps
        self.next_eval = _next(now, self.args.eval_every)
        self.next_checkpoint = _next(now, self.args.checkpoint_every)
        self.next_snapshot = _next(now, self.args.snapshot_every)

    def _on_step(self) -> bool:
        now = self.num_timesteps
        if self.pool is not None and now >= self.next_snapshot:
            self.pool.add(self.model, now)
            self.next_snapshot = _next(now, self.args.snapshot_every)
        if now >= self.next_eval:
            # At the target the run is about to end, and ends with an evaluation of its
            # final policy (_train): one is enough.
            if now < self.args.timesteps:
                evaluate_and_log(self.model, self.args, self.run_dir, now, self.logger)
            self.next_eval = _next(now, self.args.eval_every)
        if now >= self.next_checkpoint:
            save_checkpoint(self.model, self.run_dir, now)
            self.next_checkpoint = _next(now, self.args.checkpoint_every)
        return True


def _spec_and_weight(part: str) -> tuple[str, str]:
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


def imitation_data(args: Args) -> dict:
    """The imitated agent's decisions in the learner's seat of the training env: inputs
    (``CodedRows``: one byte a value), masks, actions and discounted returns-to-go. Its
    games are played in ``--workers`` processes (each game is the same in any of them);
    with ``--imitation-data``, read from that file when it exists, else written to it."""
    path = Path(args.imitation_data) if args.imitation_data else None
    if path is not None and path.exists():
        return load_imitation_data(path, args)
    tasks = [(asdict(args), episode) for episode in range(args.imitation_games)]
    rows: dict[str, list] = {"mask": [], "action": [], "return": []}
    observations = CodedRows()
    games = run_tasks(imitation_game, tasks, args.workers, args.backend, args.ray_address)
    for game in tqdm(games, total=len(tasks), desc="imitation games", disable=not args.progress):
        for row in game.pop("obs"):
            observations.append(row)
        for key, values in game.items():
            rows[key].extend(values)
    data = dict({key: np.asarray(value) for key, value in rows.items()}, obs=observations.freeze())
    if path is not None:
        save_imitation_data(path, data, args)
    return data


def imitation_game(task: tuple[dict, int]) -> dict:
    """One game of the imitated agent in the learner's seat (a task of ``run_tasks``: a
    fresh env and agent, so the game depends on its episode number alone)."""
    args_fields, episode = task
    args = Args(**args_fields)
    # No snapshot exists yet: the imitated agent stands in for self-play opponents.
    opponents = ",".join(
        args.imitate + part[len("self-play") :] if part.strip().startswith("self-play") else part
        for part in args.opponent.split(",")
    )
    env = make_env(dataclasses.replace(args, opponent=opponents), None)
    teacher = make_agent(args.imitate, args.game)
    obs, _ = env.reset(seed=args.seed * 1_000_003 + episode)
    teacher.reset(episode)
    game: dict[str, list] = {"obs": [], "mask": [], "action": []}
    rewards, done = [], False
    while not done:
        action = teacher.act(env.state.view(env.learner_seat))
        game["obs"].append(np.asarray(obs, dtype=np.float32))
        game["mask"].append(env.action_masks())
        game["action"].append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    gamma = hyperparameters(args)["gamma"]
    to_go, returns = 0.0, []
    for reward in reversed(rewards):
        to_go = reward + gamma * to_go
        returns.append(to_go)
    return dict(game, **{"return": returns[::-1]})


#: What imitation data was made from: a file is only reused by a run that asks for the same.
IMITATION_SOURCE = (
    "game",
    "num_players",
    "game_options",
    "opponent",
    "reward",
    "imitate",
    "imitation_games",
    "seed",
    "hint",
    "observe_mask",
)


def save_imitation_data(path: Path, data: dict, args: Args) -> None:
    source = {name: getattr(args, name) for name in IMITATION_SOURCE}
    arrays = {key: value for key, value in data.items() if key != "obs"}
    arrays.update(data["obs"].arrays(), source=json.dumps(source))

    def write(temp: str) -> None:
        with open(temp, "wb") as file:  # a file object: np.savez would add ".npz" to a name
            np.savez(file, **arrays)

    write_atomically(path, write)
    print(f"saved {len(data['action']):,} imitation decisions to {path}")


def load_imitation_data(path: Path, args: Args) -> dict:
    """``--imitation-data``'s saved decisions; refused unless made with this run's
    settings (``IMITATION_SOURCE``)."""
    try:
        saved = np.load(path)
        source = json.loads(str(saved["source"]))
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile) as error:
        raise InvalidConfigError(
            f"--imitation-data {str(path)!r} is not imitation data written by train "
            f"({type(error).__name__}: {error}); give such a file, or a new path to write one"
        ) from None
    with saved:
        wanted = {name: getattr(args, name) for name in IMITATION_SOURCE}
        differ = [
            f"{k}={source.get(k)!r} (this run: {v!r})"
            for k, v in wanted.items()
            if source.get(k) != v
        ]
        if differ:
            raise InvalidConfigError(
                f"--imitation-data {str(path)!r} was made with other settings: "
                f"{', '.join(differ)}; give the same settings or another file"
            )
        data = {key: saved[key] for key in ("mask", "action", "return")}
        data["obs"] = CodedRows.from_arrays(saved["rows"], saved["table"])
    print(f"read {len(data['action']):,} imitation decisions from {path}")
    return data


def imitate(model: MaskablePPO, args: Args) -> None:
    """Behaviour cloning warm start: maximise the likelihood of the imitated agent's
    actions under the masked policy, and regress the value network on its returns."""
    started = time.perf_counter()
    data = imitation_data(args)
    policy = model.policy
    size = len(data["action"])
    batch = hyperparameters(args)["batch_size"]

    def evaluate(index):
        return policy.evaluate_actions(
            torch.as_tensor(data["obs"][index], device=policy.device),
            torch.as_tensor(data["action"][index], device=policy.device).long(),
            action_masks=data["mask"][index],
        )

    generator = torch.Generator().manual_seed(args.seed)
    for _epoch in range(args.imitation_epochs):
        order = torch.randperm(size, generator=generator).numpy()
        for start in range(0, size, batch):
            index = order[start : start + batch]
            values, log_prob, _ = evaluate(index)
            returns = torch.as_tensor(
                data["return"][index], dtype=torch.float32, device=policy.device
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns)
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
    with torch.no_grad():
        log_likelihood = sum(
            evaluate(slice(start, start + batch))[1].sum().item() for start in range(0, size, batch)
        )
    print(
        f"imitated {args.imitate}: {size:,} decisions from {args.imitation_games} games "
        f"({data['obs'].nbytes / 2**20:,.0f} MB of observations), mean log-likelihood "
        f"{log_likelihood / size:.3f}, {time.perf_counter() - started:.0f}s"
    )


def _next(now: int, every: int) -> float:
    return (now // every + 1) * every if every > 0 else float("inf")


def evaluate_and_log(model, args: Args, run_dir: Path, timesteps: int, logger=None) -> list:
    from training.evaluate import evaluate_against

    agent = PPOAgent(model, deterministic=True, observe_mask=args.observe_mask)
    results = evaluate_against(
        agent, args.game, args.num_players, EVAL_OPPONENTS, args.eval_games, EVAL_SEED, name="ppo"
    )
    path = run_dir / "eval.csv"
    new_file = not path.exists()
    with path.open("a", newline="") as handle:
        writer = csv.writer(handle)
        if new_file:
            writer.writerow(
                [
                    "timesteps",
                    "opponent",
                    "games",
                    "win_share",
                    "ci95_low",
                    "ci95_high",
                    "mean_score",
                ]
            )
        for r in results:
            low, high = r.ci95
            writer.writerow(
                [
                    timesteps,
                    r.opponent,
                    r.games,
                    f"{r.win_share:.4f}",
                    f"{low:.4f}",
                    f"{high:.4f}",
                    f"{r.mean_score:.3f}",
                ]
            )
            if logger is not None:
                logger.record(f"eval/win_share_vs_{r.opponent}", r.win_share)
    plot_learning_curve(run_dir)
    return results


def plot_learning_curve(run_dir: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    fig, ax = plt.subplots(figsize=(6, 4))
    for opponent in dict.fromkeys(r["opponent"] for r in rows):
        mine = [r for r in rows if r["opponent"] == opponent]
        x = [int(r["timesteps"]) for r in mine]
        ax.plot(x, [float(r["win_share"]) for r in mine], marker="o", label=f"vs {opponent}")
        ax.fill_between(
            x,
            [float(r["ci95_low"]) for r in mine],
            [float(r["ci95_high"]) for r in mine],
            alpha=0.2,
        )
    ax.set_xlabel("timesteps")
    ax.set_ylabel("win share (95% CI)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(run_dir.name)
    fig.tight_layout()
    path = run_dir / "learning_curve.png"
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def save_atomically(model, path: Path, exclude: Sequence[str] = ()) -> Path:
    """``model.save(path)`` (without the attributes named in ``exclude``), written
    atomically (:func:`write_atomically`)."""
    if exclude:
        return write_atomically(path, lambda temp: model.save(temp, exclude=list(exclude)))
    return write_atomically(path, model.save)


def write_atomically(path: Path, write: Callable[[str], object]) -> Path:
    """``write(temp)`` to a temporary file in ``path``'s folder, then a rename, so that
    ``path`` is either the old file or the whole new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    os.close(handle)
    try:
        write(temp)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


def save_checkpoint(model, run_dir: Path, timesteps: int) -> Path:
    folder = run_dir / "checkpoints"
    path = save_atomically(model, folder / f"model_{timesteps:010d}.zip")
    for old in sorted(folder.glob("model_*.zip"), key=_steps_of)[:-2]:
        old.unlink()  # keep the two latest
    return path


def _run_dir(args: Args) -> Path:
    if args.resume:
        return Path(args.resume)
    name = args.run_name or f"{args.game}__ppo__{args.seed}__{time.strftime('%Y%m%d-%H%M%S')}"
    return Path(args.out_dir) / name


def load_checkpoint(run_dir: Path, env, device: str = "cpu") -> MaskablePPO | None:
    """The newest readable checkpoint of ``run_dir`` (None if it has none), loaded on
    ``device``. An unreadable one (a file cut short, say) is reported and the one before it
    is tried."""
    checkpoints = sorted((run_dir / "checkpoints").glob("model_*.zip"), key=_steps_of)
    for path in reversed(checkpoints):
        try:
            model = load_model(
                path, device=device, env=env, tensorboard_log=str(run_dir / "tb")
            )
        except InvalidConfigError as error:
            print(f"checkpoint {path.name} is unreadable ({error}); trying the one before it")
            continue
        print(f"resuming {run_dir} from {path.name} ({model.num_timesteps} steps)")
        return model
    if checkpoints:
        raise InvalidConfigError(
            f"--resume {str(run_dir)!r}: none of its checkpoints can be read "
            f"({', '.join(p.name for p in checkpoints)})"
        )
    return None


def _resumed_args(args: Args) -> Args:
    """The run's saved arguments; only ``timesteps`` (and progress, vector, workers, backend,
    ray_address and device) may differ: an explicitly given ``timesteps`` may raise the saved
    target, never lower it."""
    config_path = Path(args.resume) / "config.json"
    if not config_path.exists():
        raise InvalidConfigError(
            f"--resume {args.resume!r}: no config.json there; give a run "
            "directory written by train_ppo"
        )
    saved = json.loads(config_path.read_text())["args"]
    target = saved["timesteps"]
    saved.update(
        resume=args.resume,
        timesteps=target if args.timesteps is None else max(args.timesteps, target),
        progress=args.progress,
        # Where the envs are stepped does not change the run: this machine's choice.
        vector=args.vector,
        workers=args.workers,
        backend=args.backend,
        ray_address=args.ray_address,
        device=args.device,
    )
    return Args(**saved)


def main(args: Args) -> Path:
    if args.resume:
        args = _resumed_args(args)
    elif args.timesteps is None:
        recipe = RECIPES.get(args.game, RECIPES["default"])
        args = dataclasses.replace(args, timesteps=recipe["timesteps"])
    args = dataclasses.replace(
        args,
        opponent=resolve_opponents(args.opponent),
        imitate=resolve_agent_spec(args.imitate) if args.imitate else args.imitate,
    )
    make_rules(args.game).check_num_players(args.num_players)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    device = resolve_device(args.device)
    print(f"training {args.game} on {describe_device(device)} (--device {args.device})")
    # Everything that can refuse the arguments (game options, opponents, models to load,
    # Ray and its address) runs before the run directory is made: a failed start leaves
    # nothing behind.
    run_dir = _run_dir(args)
    pool = SelfPlayPool(run_dir / "pool", args.pool_size, args.game) if _self_play(args) else None
    env = make_vec_env(args, pool)
    try:
        _train(args, run_dir, pool, env, device)
    finally:  # also on Ctrl-C and errors: the workers' envs are closed, the workers end
        env.close()
    print(f"saved {run_dir / 'model.zip'}")
    return run_dir


def _train(
    args: Args, run_dir: Path, pool: SelfPlayPool | None, env, device: str = "cpu"
) -> None:
    hp = hyperparameters(args)
    model = load_checkpoint(run_dir, env, device) if args.resume else None
    if model is None:
        model = new_model(args, env, tensorboard_log=str(run_dir / "tb"), device=device)
        if args.init:
            start_from(model, args.init)
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(
            json.dumps({"args": asdict(args), "hyperparameters": hp, "device": device}, indent=2)
        )
    if args.imitate and not args.init and model.num_timesteps == 0:
        imitate(model, args)
    if pool is not None and not pool.agents:
        pool.add(model, model.num_timesteps)  # the first opponent: the untrained policy

    remaining = args.timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(
            remaining,
            callback=RunCallback(args, run_dir, pool),
            reset_num_timesteps=not args.resume,
            progress_bar=args.progress,
            tb_log_name="ppo",
        )
    save_atomically(model, run_dir / "model.zip")
    save_checkpoint(model, run_dir, model.num_timesteps)
    rows = (
        list(csv.DictReader((run_dir / "eval.csv").open()))
        if (run_dir / "eval.csv").exists()
        else []
    )
    if not rows or int(rows[-1]["timesteps"]) != model.num_timesteps:
        evaluate_and_log(model, args, run_dir, model.num_timesteps)


if __name__ == "__main__":
    # Run through the importable module, not as __main__: the env workers then find its
    # functions (build_env_group) by name, in spawned processes and on Ray nodes alike.
    from training import train_ppo

    train_ppo.main(parse_args(train_ppo.Args))
