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

    python -m boardgame_envs.training.ppo.train <game> --timesteps 300000

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
from dataclasses import asdict
from pathlib import Path

import torch
from stable_baselines3.common.callbacks import BaseCallback

from boardgame_envs.agents.ppo import describe_device, resolve_device
from boardgame_envs.agents.specs import resolve_agent_spec
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import (
    parse_args,
)
from boardgame_envs.training.evaluation.learning_curve import evaluate_and_log, read_eval_rows
from boardgame_envs.training.opponents import SelfPlayPool, resolve_opponents, wants_self_play
from boardgame_envs.training.ppo.envs import make_vec_env
from boardgame_envs.training.ppo.imitation import imitate
from boardgame_envs.training.ppo.model import load_checkpoint, new_model, start_from
from boardgame_envs.training.ppo.options import Args
from boardgame_envs.training.ppo.recipes import (
    hyperparameters,
    recipe,
)
from boardgame_envs.training.run_files import (
    read_config,
    run_dir_name,
    save_atomically,
    save_checkpoint,
    write_config,
)


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
