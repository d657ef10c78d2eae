"""What an expert-iteration run keeps: its counters and its checkpoints, and resuming.

Every iteration ends with a checkpoint in ``checkpoints/`` (``training/run_files.py``: each
file written atomically, the two latest kept):

    net_<iteration>.pt      the network (``boardgame_envs.agents.policy_value.save_net``)
    replay_<iteration>.npz  the replay window (``ReplayWindow.arrays``)
    state_<iteration>.pt    what marks the checkpoint whole: weights, optimizer, torch's
                            generator and the run's counters and pool (``RunState``)

and then ``net.pt``, the run's latest network. ``--resume`` reads the newest checkpoint
whose state and replay window can both be read (:func:`load_iteration`); since every seed
of an iteration derives from ``--seed`` and the iteration, the resumed run reaches the
weights of a run never interrupted.
"""

from __future__ import annotations

import dataclasses
import resource
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.exit.replay_window import ReplayWindow
from boardgame_envs.training.run_files import newest_checkpoint, save_checkpoint, write_atomically

#: The algorithm's name in run directories (``<game>__exit__<seed>__<time>``) and networks.
ALGO = "exit"


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
    from boardgame_envs.agents.policy_value import save_net

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


def optimizer_to(optimizer, device: str) -> None:
    """Move Adam's moment estimates (restored on the CPU) to ``device``."""
    for state in optimizer.state.values():
        for key, value in state.items():
            if isinstance(value, torch.Tensor) and key != "step":
                state[key] = value.to(device)
