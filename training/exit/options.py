"""Expert iteration: a policy-value network trained on the search's decisions, repeatedly.

The options of ``boardgame-envs train --algo exit`` and their checks: the training itself
(:mod:`boardgame_envs.training.exit.train`, with torch) is imported only when it starts, so
``--help`` answers at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from boardgame_envs.agents.ppo import DEVICE, DEVICES_TEXT
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.cli_args import (
    FRACTION,
    NON_NEGATIVE,
    NONE,
    POSITIVE,
    Allowed,
    at_least,
    check_fields,
    check_game,
    check_output_folder,
    one_of,
)
from boardgame_envs.training.parallel import BACKENDS

PLAY_MODES = ("searched", "net")
#: What the policy learns at a labelled decision: the search's visit shares, or its move.
TARGETS = ("visits", "move")


@dataclass
class Args:
    game: str | None = None
    """the game (see boardgame-envs list): required, unless --resume names a run (which has
    its own)"""
    num_players: int = 2
    """players at the table (the learner takes one seat, rotated from game to game)"""
    iterations: int | None = None
    """iterations of play, label and learn (0: the warm start alone; None: the game's
    recipe; with --resume, the run's saved target)"""
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
    """the policy's target at a labelled decision: the search's own distribution (visits:
    its root visit shares, the improved policy of gumbel, or, where it compared moves by
    paired rollouts, how often its rule picks each move over resamples of those rollouts;
    its move alone where it did neither) or the move it chose (move: where a check such
    as verify or guard overrules the tree) (None: the game's recipe)"""
    opponent: str | None = None
    """the other seats, drawn per seat and game from a weighted mix of heuristic, random,
    self-play (the current network), past (an earlier iteration's network) and agent specs,
    e.g. "heuristic=0.5,self-play=0.3,past=0.2" (None: the game's recipe)"""
    pool_size: int = 5
    """earlier networks kept for the past opponent"""
    imitation_games: int | None = None
    """warm start: before the first iteration the network learns the moves of --imitate
    (and the outcomes) in this many of its games against heuristics, one seat's decisions
    each, unless --init gives it a network (0: none; None: the game's recipe)"""
    imitate: str | None = None
    """the warm start's teacher, any agent spec that plays reproducibly: heuristic, or a
    stronger player such as ppo:<game> (the shipped PPO policy), whose move distribution
    is learned where it gives one (None: the game's recipe)"""
    imitation_epochs: int = 4
    """passes over the warm start's decisions"""
    init: str = ""
    """start from this network (a .pt file, a run directory or a shipped name): it plays
    the learner's seat from the first iteration, and its shape replaces --hidden and
    --layers ("" = a fresh network)"""
    hint: str | None = None
    """what the network reads beside the view: none, or heuristic (the heuristic's move,
    which its logits start from) (None: the game's recipe, or with --init the given
    network's)"""
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
    value_mix: float | None = None
    """the share of a labelled decision's value target taken from the search's root value,
    where the search gives one (gumbel), the rest from the game's outcome (None: the game's
    recipe)"""
    eval_every: int | None = None
    """iterations between evaluations against the heuristic (0: only at the end; None: the
    game's recipe)"""
    eval_games: int = 200
    """deals of each evaluation"""
    eval_against: str = ""
    """more agents the network alone plays at each evaluation besides the heuristic,
    comma-separated agent specs such as ismcts:seconds=0 (each adds its row to eval.csv
    and its line to the learning curve; "" = the heuristic alone)"""
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
    --progress given now apply; "" = a new run)"""
    progress: bool = True
    """show a progress bar"""

    def __post_init__(self) -> None:
        check_game(self)
        check_fields(self, ARGS_ALLOWED)
        if not self.resume:
            check_output_folder("--out-dir", self.out_dir)
        if self.ray_address and self.backend != "ray":
            raise InvalidConfigError(
                f"--ray-address {self.ray_address!r} is not allowed with --backend "
                f"{self.backend}; add --backend ray"
            )


_TEXT = Allowed(lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty agent spec")
ARGS_ALLOWED: dict[str, Allowed] = {
    "num_players": at_least(2),
    "iterations": at_least(0) | NONE,
    "games_per_iteration": at_least(1) | NONE,
    "label_share": Allowed(lambda v: FRACTION.test(v) and v > 0, "a number > 0 and <= 1") | NONE,
    "search": _TEXT | NONE,
    "play": one_of(*PLAY_MODES) | NONE,
    "target": one_of(*TARGETS) | NONE,
    "opponent": _TEXT | NONE,
    "pool_size": at_least(1),
    "imitation_games": at_least(0) | NONE,
    "imitation_epochs": at_least(1),
    "imitate": _TEXT | NONE,
    "hint": one_of("none", "heuristic") | NONE,
    "hidden": at_least(1) | NONE,
    "layers": at_least(1) | NONE,
    "learning_rate": POSITIVE | NONE,
    "epochs": at_least(1) | NONE,
    "batch_size": at_least(1),
    "window": at_least(1) | NONE,
    "value_weight": NON_NEGATIVE,
    "value_mix": FRACTION | NONE,
    "eval_every": at_least(0) | NONE,
    "eval_games": at_least(1),
    "seed": at_least(0),
    "workers": at_least(1),
    "backend": one_of(*BACKENDS),
    "device": Allowed(lambda v: isinstance(v, str) and bool(DEVICE.fullmatch(v)), DEVICES_TEXT),
    "torch_threads": at_least(0),
}
