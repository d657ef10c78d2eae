"""The learner of ``training/ppo/train.py``: a MaskablePPO built to the game's recipe.

- :func:`new_model`: SB3-contrib's MaskablePPO with the game's hyperparameters
  (training/ppo/recipes.py; ``Args`` override them), the learning-rate schedule
  (:func:`learning_rate_schedule`) and the policy's networks (:func:`policy_kwargs`): dense
  layers, behind a small CNN over the board planes where the game has them
  (agents/networks.py), and the heuristic's hint added to the logits with ``--hint``
  (agents/hinted.py).
- :func:`start_from`: ``--init``, another saved policy's weights copied in.
- :func:`load_checkpoint`: ``--resume``, the run's newest readable checkpoint.

The algorithm itself stays in SB3; only the rollout buffer is this project's
(training/ppo/rollout_buffer.py). ``args`` is the run's
:class:`boardgame_envs.training.ppo.train.Args`.
"""

from __future__ import annotations

from pathlib import Path

from sb3_contrib import MaskablePPO
from stable_baselines3.common.logger import Logger

from boardgame_envs.agents.ppo import load_model, resolve_model
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli_args import parse_int_list
from boardgame_envs.training.ppo.recipes import hyperparameters, planes_net
from boardgame_envs.training.ppo.rollout_buffer import EnvMajorRolloutBuffer
from boardgame_envs.training.run_files import newest_checkpoint

#: Hyperparameters of a recipe that this module reads itself (not MaskablePPO's own).
NOT_SB3_ARGS = ("net_arch", "learning_rate", "anneal_lr", "final_lr_fraction")


def new_model(args, env, tensorboard_log: str | None = None, device: str = "cpu") -> MaskablePPO:
    """A fresh MaskablePPO of the game's hyperparameters (with ``args``' overrides) on
    ``device`` (a torch device, already checked: :func:`boardgame_envs.agents.ppo.resolve_device`).
    Without ``tensorboard_log`` it logs nowhere: SB3 would otherwise make an empty ``SB3-<time>``
    folder in the system's temporary folder at every ``learn``."""
    hp = hyperparameters(args)
    if args.hint:
        from boardgame_envs.agents.hinted import HintedPolicy

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


def policy_kwargs(args) -> dict:
    """The policy's networks: the dense layers of ``net_arch``, behind a PlanesExtractor
    where ``--network`` (auto: the game's ``PPO_PLANES``) asks for one."""
    hp = hyperparameters(args)
    kwargs: dict = dict(net_arch=parse_int_list("net_arch", hp["net_arch"], example="256,256"))
    planes = planes_net(args.game)
    if args.network != "flat" and planes is not None:
        from boardgame_envs.agents.networks import PlanesExtractor

        kwargs.update(
            features_extractor_class=PlanesExtractor,
            features_extractor_kwargs=dict(planes=make_rules(args.game).planes_shape, **planes),
        )
    if args.hint:
        from boardgame_envs.agents.hinted import hinted_policy_kwargs

        action_size = make_rules(args.game).action_size
        kwargs = hinted_policy_kwargs(kwargs, args.hint, args.game, action_size, args.hint_weight)
    return kwargs


def learning_rate_schedule(rate: float, anneal: bool, final_fraction: float = 0.0):
    """A constant rate, or one falling linearly from ``rate`` to ``final_fraction * rate``
    as training progresses (SB3 calls the schedule with the fraction of the run still to
    go, 1 -> 0; counted over the whole run, so a resumed run carries on down the same
    line). SB3's fraction goes below 0 when a run is shorter than one rollout: the rate
    stays at its final value there, never below (a negative rate would climb the loss)."""
    if not anneal:
        return rate
    return lambda progress_remaining: (
        rate * (final_fraction + (1.0 - final_fraction) * max(progress_remaining, 0.0))
    )


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


def load_checkpoint(run_dir: Path, env, device: str = "cpu") -> MaskablePPO | None:
    """The newest readable checkpoint of ``run_dir`` (None if it has none), loaded on
    ``device``. An unreadable one (a file cut short, say) is reported and the one before it
    is tried."""

    def load(path: Path) -> MaskablePPO:
        return load_model(path, device=device, env=env, tensorboard_log=str(run_dir / "tb"))

    found = newest_checkpoint(run_dir, load)
    if found is None:
        return None
    model, path = found
    print(f"resuming {run_dir} from {path.name} ({model.num_timesteps} steps)")
    return model
