"""The demo: train MaskablePPO on 2-player Factors and Multiples, then rank it.

It warm-starts the policy by imitating the heuristic player (behaviour cloning on
``imitation_games`` of its games), then trains MaskablePPO against a mix of the heuristic
and random players for 800,000 steps (8 to 12 minutes on a 2-core machine: PPO's update
is serial, and a second env worker does not speed this game up), with the score-difference
reward shaping and a learning rate falling linearly to zero (the game's recipe in
``agents/games/factors_multiples/recipes.py``, shorter).
Then it plays the trained policy, the heuristic and the random player against each other,
``eval_games`` games per pairing with seats rotated, and prints the table with 95%
confidence intervals and ratings.

    python -m boardgame_envs.training.cli.demo
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs.training.cli_args import at_least, check_fields, parse_args
from boardgame_envs.training.evaluation import tournament as evaluate
from boardgame_envs.training.evaluation.learning_curve import EVAL_SEED
from boardgame_envs.training.ppo.options import Args as TrainArgs
from boardgame_envs.training.ppo.recipes import recipe

#: The demo's game: the one place outside a game's own files that names one.
GAME = "factors_multiples"
RECIPE = recipe(GAME)  # the demo trains the game's recipe


@dataclass
class Args:
    timesteps: int = 800_000
    """PPO training steps (the recipe's full run, which the shipped policy had, is longer)"""
    opponent: str = RECIPE["opponent"]
    """training opponents (see train)"""
    imitation_games: int = RECIPE["imitation_games"]
    """games of the heuristic to imitate before PPO (0: train from scratch)"""
    eval_games: int = 500
    """games per pairing in the final evaluation"""
    seed: int = 0
    """seed of training (evaluation uses its own seeds)"""
    out_dir: str = "runs"
    """where the run directory is created"""
    progress: bool = True
    """show progress bars"""

    def __post_init__(self) -> None:
        check_fields(
            self,
            {
                "timesteps": at_least(1),
                "imitation_games": at_least(0),
                "eval_games": at_least(1),
                "seed": at_least(0),
            },
        )


def main(args: Args) -> evaluate.Tournament:
    started = time.perf_counter()
    from boardgame_envs.training.ppo.train import main as train  # torch: only when it runs

    run_dir: Path = train(
        TrainArgs(
            game=GAME,
            num_players=2,
            opponent=args.opponent,
            timesteps=args.timesteps,
            seed=args.seed,
            out_dir=args.out_dir,
            reward=RECIPE["reward"],
            imitate=RECIPE["imitate"] if args.imitation_games else "",
            imitation_games=args.imitation_games,
            eval_every=max(args.timesteps // 4, 4096),  # at least one rollout apart
            eval_games=min(100, args.eval_games),
            checkpoint_every=0,
            progress=args.progress,
        )
    )
    trained = time.perf_counter() - started
    trained_agent = PPOAgent.load(run_dir, game=GAME)
    tournament = evaluate.run_tournament(
        GAME,
        ["ppo", "heuristic", "random"],
        [2],
        args.eval_games,
        seed=EVAL_SEED + 10_000_000,
        progress=args.progress,
        agents={"ppo": trained_agent},
    )
    print()
    print(evaluate.markdown_table(tournament))
    paths = evaluate.write_outputs(tournament, run_dir / "final_eval")
    total = time.perf_counter() - started
    print(
        f"\ntrained {args.timesteps:,} steps in {trained / 60:.1f} min; "
        f"whole demo {total / 60:.1f} min"
    )
    print(
        f"run directory: {run_dir} (learning_curve.png, eval.csv, model.zip); "
        f"tables: {paths[0].parent}"
    )
    return tournament


if __name__ == "__main__":
    main(parse_args(Args))
