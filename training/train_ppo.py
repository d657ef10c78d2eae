"""Train a MaskablePPO agent on any game's single-agent env.

One seat learns; the others are played by opponents drawn anew for every episode from a
weighted mix of ``random``, ``heuristic``, saved ``ppo:<path>`` policies and ``self-play``
(a pool of the learner's own past snapshots, one saved every ``snapshot_every`` steps,
the last ``pool_size`` kept). The learner's seat is drawn at random each episode.

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
import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env import DummyVecEnv, VecMonitor

from agents.base import Agent, AgentMix, make_agent, split_agent_specs
from agents.ppo import PPOAgent, load_model
from boardgame_envs.core.env import REWARD_MODES
from boardgame_envs.core.rules import InvalidConfigError
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

#: Hyperparameters per game; "default" for games without an entry. Args override them.
HYPERPARAMS: dict[str, dict] = {
    "default": dict(
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
    ),
    "factors_multiples": dict(
        learning_rate=3e-4,
        n_steps=512,
        batch_size=256,
        n_epochs=8,
        gamma=1.0,
        gae_lambda=0.95,
        ent_coef=0.001,  # after the imitation warm start: stay near it
        clip_range=0.2,
        net_arch="256,256",
        anneal_lr=True,  # a falling rate settles the policy (0.54 -> 0.58 against the heuristic)
    ),
}
EVAL_OPPONENTS = ["random", "heuristic"]
EVAL_SEED = 1_000_000_000  # evaluation deals never overlap training seeds
DEFAULT_TIMESTEPS = 200_000


@dataclass
class Args:
    game: str = "factors_multiples"
    """game id (see ``boardgame-envs list``)"""
    num_players: int = 2
    """players at the table (the learner takes one seat, drawn at random each episode)"""
    opponent: str = "random=0.5,heuristic=0.5"
    """opponents: random, heuristic, self-play, ppo:<path>, or a weighted mix such as
    "self-play=0.6,heuristic=0.2,random=0.2" """
    timesteps: int | None = None
    """total learner decisions to train for (None: 200,000; with --resume, the run's saved
    target)"""
    n_envs: int = 16
    """environments stepped together"""
    seed: int = 0
    """seeds the environments, the opponents and the network"""
    reward: str = "outcome"
    """reward mode of the env: outcome or score"""
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
    anneal_lr: bool | None = None
    """decay the learning rate linearly to 0 over the run (None: the game's default)"""
    imitate: str = ""
    """warm start: before PPO, fit the policy to this agent's choices and the value network
    to its returns (behaviour cloning), e.g. "heuristic" ("" = start from scratch)"""
    imitation_games: int = 2000
    """episodes of the imitated agent to learn from"""
    imitation_epochs: int = 8
    """passes over those decisions"""
    eval_every: int = 50_000
    """timesteps between evaluations against random and heuristic (0: only at the end)"""
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
    only --timesteps may be raised)"""
    torch_threads: int = 1
    """torch CPU threads (1 is fastest for these small networks on a few cores)"""
    progress: bool = True
    """show a progress bar"""

    def __post_init__(self) -> None:
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
        game_options(self)
        if self.net_arch is not None:
            parse_int_list("net_arch", self.net_arch, example="256,256")


ARGS_ALLOWED: dict[str, Allowed] = {
    "timesteps": at_least(1) | NONE,
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
    "imitation_games": at_least(0),
    "imitation_epochs": at_least(1),
    "eval_every": at_least(0),
    "eval_games": at_least(1),
    "checkpoint_every": at_least(0),
    "snapshot_every": at_least(0),
    "pool_size": at_least(1),
    "torch_threads": at_least(0),
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


def learning_rate_schedule(rate: float, anneal: bool):
    """A constant rate, or one falling linearly to 0 as training progresses (SB3 calls
    the schedule with the fraction of the run still to go, 1 -> 0; counted over the whole
    run, so a resumed run carries on down the same line)."""
    if not anneal:
        return rate
    return lambda progress_remaining: rate * progress_remaining


class SelfPlayPool:
    """The learner's past snapshots; ``sample`` seats one of them (an AgentMix entry)."""

    def __init__(self, folder: Path, size: int, game: str) -> None:
        self.folder = folder
        self.game = game
        self.size = size
        self.agents: list[PPOAgent] = []
        for path in sorted(folder.glob("snapshot_*.zip"), key=_steps_of)[-size:]:
            try:
                self.agents.append(PPOAgent.load(path, game, deterministic=False))
            except InvalidConfigError as error:
                print(f"self-play pool: skipping unreadable snapshot {path.name} ({error})")

    def add(self, model, timesteps: int) -> None:
        path = self.folder / f"snapshot_{timesteps:010d}.zip"
        save_atomically(model, path)
        self.agents.append(PPOAgent.load(path, self.game, deterministic=False))
        self.agents = self.agents[-self.size :]

    def sample(self, rng: np.random.Generator) -> Agent:
        return self.agents[int(rng.integers(len(self.agents)))]


def parse_opponents(spec: str, game: str, pool: SelfPlayPool | None) -> AgentMix:
    """ "random=0.5,heuristic=0.5" → a weighted mix (weights default to 1)."""
    agents, weights = [], []
    for part in split_agent_specs(spec):
        name, weight = _spec_and_weight(part)
        if name == "self-play":
            if pool is None:
                raise InvalidConfigError("self-play needs a snapshot pool")
            agents.append(pool)
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


def make_vec_env(args: Args, pool: SelfPlayPool | None):
    """``n_envs`` single-agent envs, each with its own opponents (the pool is shared)."""
    options = game_options(args)

    def factory():
        opponents = parse_opponents(args.opponent, args.game, pool)
        return make_single_agent(
            args.game,
            args.num_players,
            opponent=opponents,
            reward=args.reward,
            observe_mask=args.observe_mask,
            score_reward_scale=args.score_reward_scale,
            **options,
        )

    env = VecMonitor(DummyVecEnv([factory] * args.n_envs))
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
            evaluate_and_log(self.model, self.args, self.run_dir, now, self.logger)
            self.next_eval = _next(now, self.args.eval_every)
        if now >= self.next_checkpoint:
            save_checkpoint(self.model, self.run_dir, now)
            self.next_checkpoint = _next(now, self.args.checkpoint_every)
        return True


def _spec_and_weight(part: str) -> tuple[str, str]:
    """``"heuristic=0.5"`` -> ("heuristic", "0.5"); a search agent's options keep their own
    ``=``: ``"ismcts:iterations=50=0.5"`` -> ("ismcts:iterations=50", "0.5")."""
    if part.startswith("ismcts:"):
        head, _, last = part.rpartition(",")
        name, sep, rest = last.partition("=")
        if "=" in rest:
            value, _, weight = rest.rpartition("=")
            return (head + "," if head else "") + f"{name}={value}", weight
        return part, ""
    name, _, weight = part.partition("=")
    return name, weight


def imitation_data(args: Args) -> dict[str, np.ndarray]:
    """The imitated agent's decisions in the learner's seat of the training env: inputs,
    masks, actions and discounted returns-to-go."""
    # No snapshot exists yet: the imitated agent stands in for self-play opponents.
    opponents = ",".join(
        args.imitate + part[len("self-play") :] if part.strip().startswith("self-play") else part
        for part in args.opponent.split(",")
    )
    env = make_vec_env(dataclasses.replace(args, opponent=opponents, n_envs=1), None).envs[0]
    teacher = make_agent(args.imitate, args.game)
    rows: dict[str, list] = {"obs": [], "mask": [], "action": [], "return": []}
    gamma = hyperparameters(args)["gamma"]
    for episode in range(args.imitation_games):
        obs, _ = env.reset(seed=args.seed * 1_000_003 + episode)
        teacher.reset(episode)
        rewards, done = [], False
        while not done:
            action = teacher.act(env.state.view(env.learner_seat))
            rows["obs"].append(obs)
            rows["mask"].append(env.action_masks())
            rows["action"].append(action)
            obs, reward, terminated, truncated, _ = env.step(action)
            rewards.append(reward)
            done = terminated or truncated
        to_go, returns = 0.0, []
        for reward in reversed(rewards):
            to_go = reward + gamma * to_go
            returns.append(to_go)
        rows["return"] += returns[::-1]
    return {key: np.asarray(value) for key, value in rows.items()}


def imitate(model: MaskablePPO, args: Args) -> None:
    """Behaviour cloning warm start: maximise the likelihood of the imitated agent's
    actions under the masked policy, and regress the value network on its returns."""
    started = time.perf_counter()
    data = imitation_data(args)
    policy = model.policy
    tensors = {k: torch.as_tensor(v, dtype=torch.float32) for k, v in data.items()}
    size = len(data["action"])
    batch = hyperparameters(args)["batch_size"]
    generator = torch.Generator().manual_seed(args.seed)
    for _epoch in range(args.imitation_epochs):
        order = torch.randperm(size, generator=generator)
        for start in range(0, size, batch):
            index = order[start : start + batch]
            values, log_prob, _ = policy.evaluate_actions(
                tensors["obs"][index],
                tensors["action"][index].long(),
                action_masks=tensors["mask"][index].numpy(),
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(
                values.flatten(), tensors["return"][index]
            )
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
    with torch.no_grad():
        _, log_prob, _ = policy.evaluate_actions(
            tensors["obs"], tensors["action"].long(), action_masks=tensors["mask"].numpy()
        )
    print(
        f"imitated {args.imitate}: {size:,} decisions from {args.imitation_games} games, "
        f"mean log-likelihood {log_prob.mean().item():.3f}, "
        f"{time.perf_counter() - started:.0f}s"
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


def save_atomically(model, path: Path) -> Path:
    """``model.save(path)`` through a temporary file in the same folder and a rename, so
    that ``path`` is either the old file or the whole new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".tmp")
    os.close(handle)
    try:
        model.save(temp)
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


def load_checkpoint(run_dir: Path, env) -> MaskablePPO | None:
    """The newest readable checkpoint of ``run_dir`` (None if it has none). An unreadable
    one (a file cut short, say) is reported and the one before it is tried."""
    checkpoints = sorted((run_dir / "checkpoints").glob("model_*.zip"), key=_steps_of)
    for path in reversed(checkpoints):
        try:
            model = load_model(path, env=env, tensorboard_log=str(run_dir / "tb"))
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
    """The run's saved arguments; only ``timesteps`` (and progress) may differ: an
    explicitly given ``timesteps`` may raise the saved target, never lower it."""
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
    )
    return Args(**saved)


def main(args: Args) -> Path:
    if args.resume:
        args = _resumed_args(args)
    elif args.timesteps is None:
        args = dataclasses.replace(args, timesteps=DEFAULT_TIMESTEPS)
    make_rules(args.game).check_num_players(args.num_players)
    if args.torch_threads > 0:
        torch.set_num_threads(args.torch_threads)
    # Everything that can refuse the arguments (game options, opponents, models to load)
    # runs before the run directory is made: a failed start leaves nothing behind.
    run_dir = _run_dir(args)
    hp = hyperparameters(args)
    self_play = "self-play" in args.opponent
    pool = SelfPlayPool(run_dir / "pool", args.pool_size, args.game) if self_play else None
    env = make_vec_env(args, pool)

    model = load_checkpoint(run_dir, env) if args.resume else None
    if model is None:
        arch = parse_int_list("net_arch", hp["net_arch"], example="256,256")
        model = MaskablePPO(
            "MlpPolicy",
            env,
            seed=args.seed,
            device="cpu",
            verbose=0,
            tensorboard_log=str(run_dir / "tb"),
            policy_kwargs=dict(net_arch=arch),
            learning_rate=learning_rate_schedule(hp["learning_rate"], hp["anneal_lr"]),
            **{k: v for k, v in hp.items() if k not in ("net_arch", "learning_rate", "anneal_lr")},
        )
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.json").write_text(
            json.dumps({"args": asdict(args), "hyperparameters": hp}, indent=2)
        )
    if args.imitate and model.num_timesteps == 0:
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
    env.close()
    print(f"saved {run_dir / 'model.zip'}")
    return run_dir


if __name__ == "__main__":
    main(parse_args(Args))
