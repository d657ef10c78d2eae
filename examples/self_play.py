"""Self-play: MaskablePPO learning against frozen copies of itself.

What it shows: the single-agent env's opponents can be any object with
``sample(rng) -> agent``; the env calls it at every reset and seats the agent it returns.
Here that object is a pool of the learner's past selves: it starts with a random player,
and after each generation of training a frozen copy of the policy joins it
(``agents.PPOAgent`` around the copied model, sampling its moves so the games vary). After
each generation the learner is measured against random play and the heuristic with
``boardgame_envs.training.evaluation.evaluate``, and at the end against its first generation too.
``boardgame-envs train --opponent self-play=0.6,heuristic=0.2,random=0.2`` is the full
version (snapshots on disk, a weighted mix with fixed opponents, batched envs).

    python examples/self_play.py            # 8 generations: a few minutes on a laptop
    python examples/self_play.py --quick    # 2 tiny generations: seconds
"""

import argparse
import io

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO

import boardgame_envs
from boardgame_envs.agents import PPOAgent, RandomAgent
from boardgame_envs.training.evaluation import evaluate, markdown_table


class PastSelves:
    """The opponents: a random player, then one frozen copy of the learner per generation."""

    def __init__(self) -> None:
        self.agents = [RandomAgent()]

    def add(self, model: MaskablePPO, label: str) -> PPOAgent:
        buffer = io.BytesIO()
        model.save(buffer)  # a copy that later training does not change
        buffer.seek(0)
        frozen = MaskablePPO.load(buffer, device="cpu")
        agent = PPOAgent(frozen, deterministic=False, observe_mask=True, label=label)
        self.agents.append(agent)
        return agent

    def sample(self, rng: np.random.Generator):
        """The opponent of one game (the env calls this at every reset)."""
        return self.agents[int(rng.integers(len(self.agents)))]


def win_share(game: str, agent: PPOAgent, opponent, games: int) -> float:
    """``agent``'s win share against ``opponent`` (a spec or an agent), seats rotated."""
    tournament = evaluate(game, {"learner": agent, "opponent": opponent}, games=games, seed=10**6)
    return tournament.result("learner", "opponent").win_share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="factors_multiples", help="boardgame-envs list")
    parser.add_argument("--generations", type=int, default=8, help="snapshots to train")
    parser.add_argument("--steps", type=int, default=10_240, help="learner steps a generation")
    parser.add_argument("--games", type=int, default=60, help="evaluation games a pairing")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="2 generations of 256 steps")
    args = parser.parse_args()
    if args.quick:
        args.generations, args.steps, args.games = 2, 256, 2
    torch.set_num_threads(1)

    pool = PastSelves()
    env_id = boardgame_envs.game_info(args.game).gymnasium_id
    env = gymnasium.make(env_id, num_players=2, opponent=pool, observe_mask=True)
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=256, batch_size=128, n_epochs=4, seed=args.seed, verbose=0
    )
    learner = PPOAgent(model, observe_mask=True, label="learner")  # plays greedily
    first = None
    for generation in range(1, args.generations + 1):
        # reset_num_timesteps=False: one continuous run, generation after generation
        model.learn(total_timesteps=args.steps, reset_num_timesteps=False)
        snapshot = pool.add(model, label=f"generation {generation}")
        first = first or snapshot
        print(
            f"generation {generation}: {model.num_timesteps:7,} steps, "
            f"{len(pool.agents)} opponents in the pool; win share against random "
            f"{win_share(args.game, learner, 'random', args.games):.2f}, against the "
            f"heuristic {win_share(args.game, learner, 'heuristic', args.games):.2f}"
        )

    final = evaluate(
        args.game,
        {"learner": learner, "generation 1": first, "heuristic": "heuristic"},
        games=args.games,
        seed=2 * 10**6,
    )
    print(markdown_table(final))


if __name__ == "__main__":
    main()
