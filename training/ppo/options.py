"""Train a MaskablePPO agent on any game's single-agent env.

The options of ``boardgame-envs train`` (``--algo ppo``, the default) and their checks: the
training itself (:mod:`boardgame_envs.training.ppo.train`, with torch and
Stable-Baselines3) is imported only when it starts, so ``--help`` answers at once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from boardgame_envs.agents.ppo import DEVICE, DEVICES_TEXT
from boardgame_envs.core.env import REWARD_MODES
from boardgame_envs.core.rules import InvalidConfigError
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
    parse_int_list,
)
from boardgame_envs.training.parallel import BACKENDS
from boardgame_envs.training.ppo.recipes import games_with_planes, planes_net, recipe


@dataclass
class Args:
    game: str | None = None
    """the game (see boardgame-envs list): required, unless --resume names a run (which has
    its own)"""
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
    """Adam step size (None: the game's recipe)"""
    n_steps: int | None = None
    """steps per environment per update (None: the game's recipe)"""
    batch_size: int | None = None
    """minibatch size (None: the game's recipe)"""
    n_epochs: int | None = None
    """passes over each rollout (None: the game's recipe)"""
    gamma: float | None = None
    """discount (None: the game's recipe)"""
    gae_lambda: float | None = None
    """GAE lambda (None: the game's recipe)"""
    ent_coef: float | None = None
    """entropy bonus (None: the game's recipe)"""
    clip_range: float | None = None
    """PPO clip range (None: the game's recipe)"""
    net_arch: str | None = None
    """hidden layer sizes of policy and value networks, e.g. "256,256" (None: the game's
    recipe)"""
    network: str = "auto"
    """input network: planes (a small CNN over the board's planes, for a game whose recipe
    has one), flat (the whole observation into the dense layers), or auto (planes where the
    game's recipe has them)"""
    anneal_lr: bool | None = None
    """decay the learning rate linearly over the run, to 0 or to --final-lr-fraction of
    itself (None: the game's recipe)"""
    final_lr_fraction: float | None = None
    """with --anneal-lr, the rate at the run's end as a fraction of its start (0: it falls
    to 0; None: the game's recipe)"""
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
    after they are played ("" = play them and keep nothing)"""
    hint: str | None = None
    """a hinted policy: the network also reads this agent's choice and adds --hint-weight to
    its logit, e.g. "heuristic" ("" = none; None: the game's recipe)"""
    hint_weight: float = 4.0
    """the hint's starting weight in the logits (learned from there)"""
    init: str = ""
    """start from this saved policy's weights (a model .zip, a run directory or a shipped
    policy's name such as <game>; same game and network), e.g. to fine-tune a
    2-player policy at 3 players; in place of --imitate ("" = a new network)"""
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
    apply; "" = a new run)"""
    vector: bool = True
    """step the envs as one compiled batch (the batched env) where the engine plays the
    opponents and the hint itself (heuristic, random); --no-vector: one env per game, in
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


def game_options(args) -> dict:
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
