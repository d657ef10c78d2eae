"""Ship a trained policy: copy a run's ``model.zip`` into the package's ``agents/models/`` as
``<game>_ppo.zip`` (a run at n > 2 players: ``<game>_<n>p_ppo.zip``), where the agent spec
``ppo:<game>`` (``ppo:<game>@<n>p``) finds it from any folder, without its optimizer state
(the Adam moments are twice the policy's size and only matter for training on) nor the envs'
last observations, and check it fits the 5 MB a shipped model may take.

    python -m boardgame_envs.training.ppo.ship --run-dir runs/cornucopia__ppo__0__20261201-141500
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from boardgame_envs.agents.ppo import PPOAgent, models_folder, shipped_file_name
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.cli_args import parse_args
from boardgame_envs.training.run_files import save_atomically

MAX_BYTES = 5 * 1024 * 1024
#: What SB3 saves of the run's last rollout (the envs' last observations: 0.7 MB in Tahiti),
#: needed only to continue that very rollout.
ROLLOUT_STATE = ("_last_obs", "_last_episode_starts", "_last_original_obs")


@dataclass
class Args:
    run_dir: str = ""
    """a training run directory (its config.json names the game)"""
    out_dir: str = ""
    """where <game>_ppo.zip (or <game>_<n>p_ppo.zip) is written ("" = the package's
    agents/models/, the shipped policies)"""


def main(args: Args) -> Path:
    run_dir = Path(args.run_dir)
    config = run_dir / "config.json"
    if not config.exists():
        raise InvalidConfigError(f"{str(run_dir)!r} has no config.json: give a training run")
    run_args = json.loads(config.read_text())["args"]
    game, players = run_args["game"], run_args.get("num_players", 2)
    model = PPOAgent.load(run_dir, game=game).model
    policy = model.policy
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1), **policy.optimizer_kwargs
    )
    out_dir = Path(args.out_dir) if args.out_dir else models_folder()
    name = shipped_file_name(game, players)
    path = save_atomically(model, out_dir / name, exclude=ROLLOUT_STATE)
    size = path.stat().st_size
    if size > MAX_BYTES:
        path.unlink()
        raise InvalidConfigError(
            f"{game}'s policy takes {size / 2**20:.1f} MB; a shipped model may take 5 MB"
        )
    print(f"wrote {path} ({size / 2**20:.1f} MB) from {run_dir}")
    return path


if __name__ == "__main__":
    main(parse_args(Args))
