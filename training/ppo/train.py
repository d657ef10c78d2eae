"""Train a MaskablePPO agent on any game's single-agent env.

One seat learns; the others are played by opponents drawn anew for every episode from a
weighted mix of ``random``, ``heuristic``, saved ``ppo:<model>`` policies and ``self-play``
(a pool of the learner's own past snapshots, one saved every ``snapshot_every`` steps,
the last ``pool_size`` kept). The learner's seat is drawn at random each episode.

The ``n_envs`` envs are stepped here (``--workers 1``), or split into ``--workers K`` groups,
each stepped in a process of its own (``--backend local``) or a Ray actor (``--backend
ray``, a local instance of K CPUs or the cluster at ``--ray-address``); see
``training/ppo/envs.py`` and ``training/ppo/vec_envs.py``. Self-play snapshots reach the
workers as the model file's bytes. Every env and opponent draws only from generators seeded
by ``seed``, never from a process-wide one, so a seed gives the same games, hence the same
model, for any K and either backend.

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

    python -m boardgame_envs.training.ppo.train --game <game> --timesteps 300000

This file reads top to bottom: the arguments (``Args``), then the loop (``main``,
``_train``). The rest, one concern a module:

    training/ppo/recipes.py     the recipes: a game's PPO_RECIPE, PPO_HYPERPARAMS, PPO_PLANES
    training/ppo/envs.py        the training envs: here, in worker processes, or compiled
    training/ppo/model.py       the MaskablePPO learner built to a recipe; --init; checkpoints
    training/ppo/imitation.py   the imitation warm start (--imitate) and its data
    training/opponents.py       the opponents' mix and the self-play pool
    training/evaluation/learning_curve.py   evaluations during training: eval.csv, the curve
    training/run_files.py       run directories, config.json, atomic writes, checkpoints
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass
from pathlib import Path

import torch
from stable_baselines3.common.callbacks import BaseCallback

from boardgame_envs.agents.ppo import DEVICE, DEVICES_TEXT, describe_device, resolve_device
from boardgame_envs.agents.specs import resolve_agent_spec
from boardgame_envs.core.env import REWARD_MODES
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    FINITE,
    FRACTION,
    NON_NEGATIVE,
    NONE,
    POSITIVE,
    Allowed,
    at_least,
    check_fields,
    check_game,
    check_output_folder,
    parse_args,
    parse_int_list,
)
from boardgame_envs.training.evaluation.learning_curve import evaluate_and_log, read_eval_rows
from boardgame_envs.training.opponents import SelfPlayPool, resolve_opponents, wants_self_play
from boardgame_envs.training.parallel import BACKENDS
from boardgame_envs.training.ppo.envs import game_options, make_vec_env
from boardgame_envs.training.ppo.imitation import imitate
from boardgame_envs.training.ppo.model import load_checkpoint, new_model, start_from
from boardgame_envs.training.ppo.recipes import (
    games_with_planes,
    hyperparameters,
    planes_net,
    recipe,
)
from boardgame_envs.training.run_files import (
    read_config,
    run_dir_name,
    save_atomically,
    save_checkpoint,
    write_config,
)


@dataclass
class Args:
    game: str | None = None
    """game id (see ``boardgame-envs list``): required, unless --resume names a run (which
    has its own)"""
    num_players: int = 2
    """players at the table (the learner takes one seat, drawn at random each episode)"""
    opponent: str | None = None
    """opponents: random, heuristic, self-play, ppo:<model> (a path or a shipped policy's
    name such as ppo:<game>), ismcts[:options], your own agent (module.path:attr or
    path/to/file.py:attr), or a weighted mix such as "self-play=0.6,heuristic=0.2,random=0.2"
    or "my_agents.py:FirstLegal=0.5,heuristic=0.5" (None: the game's recipe)"""
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
    """Adam step size (None: the game's default from its recipe)"""
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
    """input network: planes (a small CNN over the board planes, agents/networks.py, for a
    game whose recipe gives its PPO_PLANES), flat (the whole observation into the dense
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
    policy's name such as <game>; same game and network), e.g. to fine-tune a
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
        check_game(self)
        if self.game is None:  # --resume: main reads the run's arguments, checked then
            return
        check_output_folder("--out-dir", self.out_dir)
        defaults = recipe(self.game)
        for name in ("opponent", "reward", "imitate", "imitation_games", "hint", "eval_every"):
            if getattr(self, name) is None:
                setattr(self, name, defaults[name])
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
        if self.network == "planes" and planes_net(self.game) is None:
            raise InvalidConfigError(
                f"--network planes is not allowed for {self.game} (its observation has no "
                "board planes); allowed: flat or auto, or a game of "
                f"{', '.join(games_with_planes())}"
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


def _next(now: int, every: int) -> float:
    return (now // every + 1) * every if every > 0 else float("inf")


def _run_dir(args: Args) -> Path:
    if args.resume:
        return Path(args.resume)
    return Path(args.out_dir) / (args.run_name or run_dir_name(args.game, "ppo", args.seed))


def _resumed_args(args: Args) -> Args:
    """The run's saved arguments; only ``timesteps`` (and progress, vector, workers, backend,
    ray_address and device) may differ: an explicitly given ``timesteps`` may raise the saved
    target, never lower it."""
    saved = read_config(args.resume, writer="boardgame-envs train")["args"]
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
        args = dataclasses.replace(args, timesteps=recipe(args.game)["timesteps"])
    args = dataclasses.replace(
        args,
        opponent=resolve_opponents(args.opponent),
        imitate=resolve_agent_spec(args.imitate) if args.imitate else args.imitate,
    )
    make_rules(args.game).check_num_players(args.num_players)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    device = resolve_device(args.device)
    # Everything that can refuse the arguments (game options, opponents, models to load,
    # Ray and its address) runs before the run directory is made: a failed start leaves
    # nothing behind.
    run_dir = _run_dir(args)
    pool = (
        SelfPlayPool(run_dir / "pool", args.pool_size, args.game)
        if wants_self_play(args.opponent)
        else None
    )
    env = make_vec_env(args, pool)
    print(f"training {args.game} on {describe_device(device)} (--device {args.device})")
    try:
        _train(args, run_dir, pool, env, device)
    finally:  # also on Ctrl-C and errors: the workers' envs are closed, the workers end
        env.close()
    print(f"saved {run_dir / 'model.zip'}")
    return run_dir


def _train(args: Args, run_dir: Path, pool: SelfPlayPool | None, env, device: str = "cpu") -> None:
    model = load_checkpoint(run_dir, env, device) if args.resume else None
    if model is None:
        model = new_model(args, env, tensorboard_log=str(run_dir / "tb"), device=device)
        if args.init:
            start_from(model, args.init)
        config = {"args": asdict(args), "hyperparameters": hyperparameters(args), "device": device}
        write_config(run_dir, config)
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
    rows = read_eval_rows(run_dir)
    if not rows or int(rows[-1]["timesteps"]) != model.num_timesteps:
        evaluate_and_log(model, args, run_dir, model.num_timesteps)


if __name__ == "__main__":
    # Run through the importable module, not as __main__: the env workers then find Args
    # by name, in spawned processes and on Ray nodes alike.
    from boardgame_envs.training.ppo import train

    train.main(parse_args(train.Args))
