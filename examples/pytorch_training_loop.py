"""A plain-PyTorch policy-gradient loop on the PettingZoo AEC env (no stable-baselines3).

What it shows: learning through the AEC loop. One seat of a two-player game (Cornucopia
by default) is the learner, a small policy network whose illegal actions are masked out
(their logits set to -inf, so they are never sampled); the other seat plays random legal
moves. After each batch of games the policy takes one REINFORCE step (the discounted
reward-to-go, normalised over the batch, plus an entropy bonus). It prints the learning
progress and, at the end, the greedy policy's win share against random on fresh deals.

    python examples/pytorch_training_loop.py            # 1,600 games: a few minutes on a CPU
    python examples/pytorch_training_loop.py --quick    # a few seconds: a smoke run
"""

import argparse
import time

import numpy as np
import torch
from torch import nn

import boardgame_envs


def masked_log_probs(policy: nn.Module, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the actions, with illegal actions at (almost) -inf."""
    return torch.log_softmax(policy(obs).masked_fill(~mask, -1e9), dim=-1)


def play(env, policy, seed: int, seat: int, rng, greedy: bool = False) -> dict:
    """One game, the learner at ``seat``: its observations, masks, actions and rewards at
    each of its decisions, and whether it won."""
    env.reset(seed=seed)
    learner = f"player_{seat}"  # PettingZoo's name of seat i
    game = {"obs": [], "mask": [], "action": [], "reward": []}
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        if agent == learner and game["reward"]:
            game["reward"][-1] += reward  # what happened since the learner's last move
        if termination or truncation:
            action = None
        elif agent == learner:
            x = torch.as_tensor(obs["observation"]).flatten()
            mask = torch.as_tensor(obs["action_mask"], dtype=torch.bool)
            with torch.no_grad():
                log_probs = masked_log_probs(policy, x, mask)
            action = int(log_probs.argmax() if greedy else torch.multinomial(log_probs.exp(), 1))
            for key, value in zip(game, (x, mask, action, 0.0)):
                game[key].append(value)
        else:  # the opponent: a uniformly random legal move
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    winners = env.unwrapped.state.winners()  # the rules engine behind the env
    game["won"] = (seat in winners) / len(winners)  # a shared win counts 1/k
    return game


def reward_to_go(rewards: list[float], gamma: float) -> list[float]:
    returns, total = [], 0.0
    for r in reversed(rewards):
        total = r + gamma * total
        returns.append(total)
    return returns[::-1]


def win_share(env, policy, games: int, seed: int, rng) -> float:
    """The greedy policy's win share against random (a shared win counts 1/k), seats
    alternating."""
    games_won = (play(env, policy, seed + g, g % 2, rng, greedy=True)["won"] for g in range(games))
    return sum(games_won) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="cornucopia", help="game id (boardgame-envs list)")
    parser.add_argument("--updates", type=int, default=100, help="policy updates")
    parser.add_argument("--batch", type=int, default=16, help="games per update")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--eval-games", type=int, default=200, help="games of the final test")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="a tiny budget: seconds")
    args = parser.parse_args()
    if args.quick:
        args.updates, args.batch, args.eval_games = 2, 2, 4

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # one small observation at a time: more threads only wait
    rng = np.random.default_rng(args.seed)
    # auto_resolve: the env plays single-option moves itself, so every decision is a choice;
    # reward="score" adds the change in score margin to every step's reward (denser signal)
    env = boardgame_envs.make(args.game, num_players=2, auto_resolve=True, reward="score")
    obs_size = int(np.prod(env.observation_space("player_0")["observation"].shape))
    num_actions = env.action_space("player_0").n
    policy = nn.Sequential(
        nn.Linear(obs_size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh(),
        nn.Linear(128, num_actions),
    )  # fmt: skip
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.lr)
    test_seed = 10**6  # test deals the training never sees
    print(
        f"{args.game}: win share against random before training: "
        f"{win_share(env, policy, args.eval_games, test_seed, rng):.2f}"
    )

    started, games_played, wins = time.time(), 0, []
    for update in range(1, args.updates + 1):
        batch = {"obs": [], "mask": [], "action": [], "return": []}
        for _ in range(args.batch):  # the learner's seat alternates from game to game
            game = play(env, policy, args.seed + games_played, games_played % 2, rng)
            games_played += 1
            for key in ("obs", "mask", "action"):
                batch[key] += game[key]
            batch["return"] += reward_to_go(game["reward"], gamma=0.99)
            wins.append(game["won"])
        returns = torch.tensor(batch["return"])
        advantages = (returns - returns.mean()) / (returns.std() + 1e-8)
        log_probs = masked_log_probs(policy, torch.stack(batch["obs"]), torch.stack(batch["mask"]))
        chosen = log_probs.gather(1, torch.tensor(batch["action"])[:, None]).squeeze(1)
        entropy = -(log_probs.exp() * log_probs).sum(1)
        loss = -(chosen * advantages).mean() - 0.01 * entropy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if update % max(1, args.updates // 10) == 0:
            print(
                f"update {update:4d}  games {games_played:5d}  win share in training "
                f"{np.mean(wins):.2f}  entropy {entropy.mean():.2f}  "
                f"{time.time() - started:4.0f} s"
            )
            wins = []
    rate = win_share(env, policy, args.eval_games, test_seed, rng)
    print(f"final win share against random: {rate:.2f} over {args.eval_games} fresh deals")


if __name__ == "__main__":
    main()
