"""The envs a PPO run trains in: one single-agent env per game, stepped here, in worker
processes or Ray actors (``training/ppo/vec_envs.py``), or as one compiled batch
(``boardgame_envs.vector``) where the engine can play the opponents and the hint itself.

``args`` is the run's :class:`boardgame_envs.training.ppo.train.Args`. The worker groups
build their envs with :func:`build_env_group`, found by name in spawned processes and on
Ray nodes alike.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Sequence

import gymnasium
import torch
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv, VecMonitor

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.registry import make_single_agent
from boardgame_envs.training.opponents import SelfPlayPool, parse_opponents, wants_self_play
from boardgame_envs.training.parallel import connect_ray
from boardgame_envs.training.ppo.options import game_options
from boardgame_envs.training.ppo.vec_envs import WorkerVecEnv


def make_env(args, pool: SelfPlayPool | None) -> gymnasium.Env:
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
        from boardgame_envs.core.hinted_env import HintedEnv

        env = HintedEnv(env, make_agent(args.hint, args.game))
    return env


def compiled_vec_env(args) -> VecEnv | None:
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


def build_env_group(args, indices: Sequence[int]) -> tuple[list, SelfPlayPool | None]:
    """A worker's envs and the self-play pool they share (empty: the learner sends it
    every snapshot)."""
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)  # as the learner: the same arithmetic
    pool = SelfPlayPool(None, args.pool_size, args.game) if wants_self_play(args.opponent) else None
    return [make_env(args, pool) for _ in indices], pool


def make_vec_env(args, pool: SelfPlayPool | None):
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
