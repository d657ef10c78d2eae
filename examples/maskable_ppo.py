"""MaskablePPO (sb3-contrib) on the Gymnasium single-agent env, then a tournament.

What it shows: the registered Gymnasium id, an env whose other seats are played by the
heuristic inside ``step()``, MaskablePPO reading the legal-action mask through
``env.action_masks()``, saving the model, and evaluating the trained policy as an agent
(``agents.PPOAgent``) against the heuristic and random play with
``boardgame_envs.training.evaluation.evaluate``, the function behind ``boardgame-envs eval``. The
saved model plays in every command, e.g.

    boardgame-envs eval factors_multiples --agents ppo:runs/maskable_ppo.zip,heuristic

Run it with

    python examples/maskable_ppo.py            # 100,000 steps: a few minutes on a laptop
    python examples/maskable_ppo.py --quick    # 512 steps and 4 games: seconds

``boardgame-envs train`` is the full recipe (imitation warm start, falling learning rate,
batched envs, checkpoints); this is the bare loop.
"""

import argparse
from pathlib import Path

import gymnasium
import torch
from sb3_contrib import MaskablePPO

import boardgame_envs
from boardgame_envs.agents import PPOAgent
from boardgame_envs.training.evaluation import evaluate, markdown_table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="factors_multiples", help="boardgame-envs list")
    parser.add_argument("--steps", type=int, default=100_000, help="learner steps")
    parser.add_argument("--games", type=int, default=200, help="evaluation games a pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/maskable_ppo.zip", help="the saved model")
    parser.add_argument("--quick", action="store_true", help="512 steps, 4 games")
    args = parser.parse_args()
    steps, games = (512, 4) if args.quick else (args.steps, args.games)
    torch.set_num_threads(1)  # a small network: one thread is fastest on a CPU

    # One learning seat (drawn at random every episode); the heuristic plays the other.
    # observe_mask=True appends the legal-action mask to the observation, so the network
    # sees what is legal; MaskablePPO applies the mask to its choices as well.
    env_id = boardgame_envs.game_info(args.game).gymnasium_id  # "boardgame_envs/<Game>-v1"
    env = gymnasium.make(env_id, num_players=2, opponent="heuristic", observe_mask=True)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=512, batch_size=128, n_epochs=4, learning_rate=3e-4,
        seed=args.seed, verbose=0,
    )  # fmt: skip
    print(f"{env_id}: observation {env.observation_space.shape}, {env.action_space}")
    model.learn(total_timesteps=steps, progress_bar=not args.quick)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    print(f"trained {steps:,} steps against the heuristic; saved {args.out}")

    # The trained policy as an Agent: it sees only its seat's view, like every agent.
    # (PPOAgent.load(args.out, game=args.game) reads it back from the file.)
    ppo = PPOAgent(model, observe_mask=True, label="ppo")
    tournament = evaluate(
        args.game,
        {"ppo": ppo, "heuristic": "heuristic", "random": "random"},
        games=games,
        seed=10**6,  # deals the training never saw
    )
    print(markdown_table(tournament))
    for opponent in ("heuristic", "random"):
        result = tournament.result("ppo", opponent)
        low, high = result.ci95
        print(f"ppo against {opponent}: win share {result.win_share:.3f} [{low:.3f}, {high:.3f}]")


if __name__ == "__main__":
    main()
