"""PPO in one file, in the CleanRL manner, on the batched env (no stable-baselines3).

What it shows: all of PPO in plain PyTorch, read top to bottom: a masked categorical policy,
generalised advantage estimation, the clipped policy loss, the value loss and the entropy
bonus, on ``num_envs`` games stepped as one compiled batch (``boardgame_envs.vector``).
From-scratch PPO stays far below the heuristic in these games, so the run starts with a
copy of it: the batch's ``hint`` names the heuristic's move at each of the learner's
decisions, the heuristic plays a few thousand games, and the network learns its moves
(cross-entropy over the legal ones) and their outcomes (the value). Then PPO trains
against the recipe's opponents (the heuristic 7 games in 10, random play 3 in 10). At
the end the policy plays the heuristic on fresh deals, seats rotated, through the library's
tournament (the same games as ``boardgame-envs eval``), and it prints the win share with
its 95% interval and the CPU-minutes the training took.

    python examples/cleanrl_ppo.py                  # Factors and Multiples, 3.5M steps
    python examples/cleanrl_ppo.py --quick          # a tiny budget: a smoke run
    python examples/cleanrl_ppo.py --total-timesteps 1000000 --eval-games 2000

The policy is saved as ``policy.pt`` in the run directory; any command plays it as an agent
through this file (``CLEANRL_PPO_POLICY=<run>/policy.pt boardgame-envs eval
factors_multiples --agents examples/cleanrl_ppo.py:SavedPolicy,heuristic``).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical

from boardgame_envs.agents import AgentMix, make_agent
from boardgame_envs.vector import make_gymnasium_vec


@dataclass
class Args:
    game: str = "factors_multiples"
    """the game (``boardgame-envs list``); two players"""
    seed: int = 0
    """seeds the envs, the opponents and the network"""
    opponent: str = "heuristic=0.7,random=0.3"
    """who the learner plays: agent names with the share of games each"""
    reward: str = "score"
    """the env's reward: ``outcome`` (+1/-1 at the end) or ``score`` (with score shaping)"""
    imitation_games: int = 2000
    """games of the heuristic whose moves the network copies before PPO (0: none)"""
    imitation_epochs: int = 8
    """passes over those games' decisions"""
    total_timesteps: int = 3_500_000
    """learner decisions of PPO"""
    num_envs: int = 64
    """games stepped together"""
    num_steps: int = 128
    """steps per env in each rollout (a rollout is num_envs * num_steps decisions)"""
    num_minibatches: int = 16
    """minibatches per pass over a rollout"""
    update_epochs: int = 8
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam's step size, falling linearly to 0 over the run"""
    gamma: float = 1.0
    """discount"""
    gae_lambda: float = 0.95
    """GAE's lambda"""
    clip_coef: float = 0.2
    """the clip range of the policy ratio"""
    ent_coef: float = 0.001
    """entropy bonus (small: stay near the copy)"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradients are clipped to this norm"""
    hidden: int = 256
    """units in each of the two hidden layers of the actor and of the critic"""
    torch_threads: int = 1
    """torch CPU threads (1 is the cheapest in CPU time for a network this small)"""
    eval_games: int = 400
    """games against the heuristic at the end (0: none)"""
    eval_seed: int = 8_600_000_000
    """game g of the final evaluation is dealt from eval_seed + g"""
    eval_workers: int = 1
    """processes playing the evaluation games"""
    out_dir: str = "runs"
    """where the run directory ``<game>__cleanrl_ppo__<seed>__<time>`` is made"""


class Policy(nn.Module):
    """An actor (logits over every action) and a critic (the value), each a small MLP."""

    def __init__(self, obs_size: int, action_size: int, hidden: int) -> None:
        super().__init__()

        def mlp(out: int, gain: float) -> nn.Sequential:
            sizes = (obs_size, hidden, hidden, out)
            layers = [nn.Linear(a, b) for a, b in zip(sizes, sizes[1:])]
            for layer, g in zip(layers, (np.sqrt(2), np.sqrt(2), gain)):
                nn.init.orthogonal_(layer.weight, g), nn.init.zeros_(layer.bias)
            return nn.Sequential(layers[0], nn.Tanh(), layers[1], nn.Tanh(), layers[2])

        self.actor, self.critic = mlp(action_size, 0.01), mlp(1, 1.0)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)

    def distribution(self, obs: torch.Tensor, mask: torch.Tensor) -> Categorical:
        """The policy over the legal actions: illegal logits set to (almost) -inf."""
        return Categorical(logits=self.actor(obs).masked_fill(~mask, -1e8))


def opponents(spec: str, game: str) -> AgentMix:
    """``"heuristic=0.7,random=0.3"`` as a mix the batch draws from for each game."""
    names, weights = zip(*(part.split("=") for part in spec.split(",")))
    return AgentMix([make_agent(name, game) for name in names], [float(w) for w in weights])


def copy_the_heuristic(args: Args, policy: Policy, optimizer, action_size: int) -> float:
    """Play ``imitation_games`` games with the heuristic in the learner's seat (the
    batch's hint is its move, the last ``action_size`` values of each row), then fit the
    actor to its moves and the critic to each decision's return. Returns the accuracy."""
    env = make_gymnasium_vec(
        args.game, args.num_envs, opponent=opponents(args.opponent, args.game),
        hint="heuristic", reward=args.reward,
    )  # fmt: skip
    obs, _ = env.reset(seed=args.seed + 1_000_000)
    rows, masks, moves, rewards, dones, finished = [], [], [], [], [], 0
    while finished < args.imitation_games:
        move = obs[:, -action_size:].argmax(1)
        rows.append(obs[:, :-action_size]), masks.append(env.action_masks()), moves.append(move)
        obs, reward, terminated, truncated, _ = env.step(move)
        rewards.append(reward), dones.append(terminated | truncated)
        finished += int(dones[-1].sum())
    returns, future = np.zeros((len(rewards), args.num_envs), np.float32), 0.0
    for t in reversed(range(len(rewards))):  # each decision's return (undiscounted)
        future = rewards[t] + (1.0 - dones[t]) * future
        returns[t] = future
    obs_b = torch.as_tensor(np.concatenate(rows))
    mask_b = torch.as_tensor(np.concatenate(masks))
    move_b = torch.as_tensor(np.concatenate(moves))
    return_b = torch.as_tensor(returns.reshape(-1))
    for _ in range(args.imitation_epochs):
        for batch in torch.randperm(len(obs_b)).split(256):
            logits = policy.actor(obs_b[batch]).masked_fill(~mask_b[batch], -1e8)
            loss = nn.functional.cross_entropy(logits, move_b[batch])
            loss = loss + 0.5 * ((policy.value(obs_b[batch]) - return_b[batch]) ** 2).mean()
            optimizer.zero_grad(), loss.backward(), optimizer.step()
    with torch.no_grad():
        logits = policy.actor(obs_b).masked_fill(~mask_b, -1e8)
        return float((logits.argmax(1) == move_b).float().mean())


def train(args: Args, policy: Policy, optimizer, run_dir: Path) -> None:
    """PPO against the opponents: collect a rollout from every env, estimate advantages
    with GAE, then ``update_epochs`` passes of clipped policy and value updates."""
    env = make_gymnasium_vec(
        args.game, args.num_envs, opponent=opponents(args.opponent, args.game), reward=args.reward
    )
    n, steps = args.num_envs, args.num_steps
    obs_size, action_size = env.single_observation_space.shape[0], env.single_action_space.n
    obs_buf = torch.zeros((steps, n, obs_size))
    mask_buf = torch.zeros((steps, n, action_size), dtype=torch.bool)
    act_buf, logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((steps, n)) for _ in range(5))
    next_obs = torch.as_tensor(env.reset(seed=args.seed)[0])
    next_mask = torch.as_tensor(env.action_masks())
    next_done = torch.zeros(n)
    updates = max(1, args.total_timesteps // (n * steps))
    minibatch = n * steps // args.num_minibatches
    games = wins = 0.0
    for update in range(1, updates + 1):
        optimizer.param_groups[0]["lr"] = args.learning_rate * (1.0 - (update - 1) / updates)
        for t in range(steps):  # the rollout
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                dist = policy.distribution(next_obs, next_mask)
                action = dist.sample()
                logp_buf[t], val_buf[t] = dist.log_prob(action), policy.value(next_obs)
            act_buf[t] = action
            obs, reward, terminated, truncated, _ = env.step(action.numpy())
            done = terminated | truncated
            # a won game ends on a reward above 0 (the outcome, give or take the score shaping)
            games, wins = games + done.sum(), wins + (reward[done] > 0).sum()
            rew_buf[t] = torch.as_tensor(reward)
            next_obs, next_done = torch.as_tensor(obs), torch.as_tensor(done, dtype=torch.float32)
            next_mask = torch.as_tensor(env.action_masks())
        with torch.no_grad():  # GAE; a finished game's next observation is the next game's
            advantages, last = torch.zeros((steps, n)), torch.zeros(n)
            next_value = policy.value(next_obs)
            for t in reversed(range(steps)):
                not_done = 1.0 - (next_done if t == steps - 1 else done_buf[t + 1])
                later = next_value if t == steps - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * later * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            returns = advantages + val_buf
        b_obs, b_mask = obs_buf.reshape(-1, obs_size), mask_buf.reshape(-1, action_size)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_ret = advantages.reshape(-1), returns.reshape(-1)
        for _ in range(args.update_epochs):
            for mb in torch.randperm(n * steps).split(minibatch):
                dist = policy.distribution(b_obs[mb], b_mask[mb])
                ratio = (dist.log_prob(b_act[mb]) - b_logp[mb]).exp()
                adv = (b_adv[mb] - b_adv[mb].mean()) / (b_adv[mb].std() + 1e-8)
                clipped = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = torch.max(-adv * ratio, -adv * clipped).mean()
                v_loss = 0.5 * ((policy.value(b_obs[mb]) - b_ret[mb]) ** 2).mean()
                loss = pg_loss + args.vf_coef * v_loss - args.ent_coef * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), args.max_grad_norm)
                optimizer.step()
        if update % 20 == 0 or update == updates:
            line = {"steps": update * n * steps, "cpu_min": round(time.process_time() / 60, 2),
                    "training_win_share": round(wins / max(games, 1), 3)}  # fmt: skip
            print(json.dumps(line), flush=True)
            games = wins = 0.0
            torch.save(policy_file(policy, args), run_dir / "policy.pt")


def policy_file(policy: Policy, args: Args) -> dict:
    return {"args": dataclasses.asdict(args), "state_dict": policy.state_dict()}


class SavedPolicy:
    """A saved ``policy.pt`` as an agent (``act(view) -> int``): its most likely legal
    move. The file is ``$CLEANRL_PPO_POLICY``, so the command line can name this class."""

    def __init__(self, game: str, seed: int | None = None, path: str | None = None) -> None:
        saved = torch.load(path or os.environ["CLEANRL_PPO_POLICY"], weights_only=False)
        weights = saved["state_dict"]
        obs_size, hidden = weights["actor.0.weight"].shape[1], weights["actor.0.weight"].shape[0]
        self.policy = Policy(obs_size, weights["actor.4.weight"].shape[0], hidden)
        self.policy.load_state_dict(weights)

    def act(self, view) -> int:
        mask = view.legal_action_mask()
        obs = np.concatenate([view.observation().ravel(), mask.astype(np.float32)])
        with torch.no_grad():
            logits = self.policy.actor(torch.as_tensor(obs, dtype=torch.float32))
        return int(logits.masked_fill(~torch.as_tensor(mask), -1e8).argmax())


def main(args: Args) -> Path:
    torch.set_num_threads(args.torch_threads)
    torch.manual_seed(args.seed)
    run_dir = Path(args.out_dir) / f"{args.game}__cleanrl_ppo__{args.seed}__{int(time.time())}"
    run_dir.mkdir(parents=True, exist_ok=True)
    probe = make_gymnasium_vec(args.game, 1, opponent="random")
    obs_size, action_size = probe.single_observation_space.shape[0], probe.single_action_space.n
    policy = Policy(obs_size, action_size, args.hidden)
    optimizer = torch.optim.Adam(policy.parameters(), lr=args.learning_rate, eps=1e-5)
    if args.imitation_games:
        accuracy = copy_the_heuristic(args, policy, optimizer, action_size)
        print(f"copy of the heuristic: {accuracy:.3f} of its moves, "
              f"{time.process_time() / 60:.2f} CPU-min", flush=True)  # fmt: skip
    train(args, policy, optimizer, run_dir)
    cpu_min = time.process_time() / 60
    torch.save(policy_file(policy, args), run_dir / "policy.pt")
    print(f"trained in {cpu_min:.2f} CPU-min; saved {run_dir / 'policy.pt'}")
    if args.eval_games:
        from boardgame_envs.training.evaluation import evaluate

        os.environ["CLEANRL_PPO_POLICY"] = str(run_dir / "policy.pt")  # for the workers too
        me = f"{Path(__file__).resolve()}:SavedPolicy"  # this file's agent, by its spec
        agents = {"cleanrl_ppo": me, "heuristic": "heuristic"}
        result = evaluate(
            args.game, agents, games=args.eval_games, seed=args.eval_seed, workers=args.eval_workers
        ).result("cleanrl_ppo", "heuristic")
        low, high = result.ci95
        print(f"against the heuristic: win share {result.win_share:.3f} [{low:.3f}, {high:.3f}] "
              f"over {result.games} games (seeds {args.eval_seed:,} +)")  # fmt: skip
    return run_dir


def parse_args() -> Args:
    """The command line: one ``--name`` per field of Args, and ``--quick``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for field in dataclasses.fields(Args):
        flag = "--" + field.name.replace("_", "-")
        parser.add_argument(flag, type=type(field.default), default=field.default)
    parser.add_argument("--quick", action="store_true", help="a tiny budget: seconds")
    namespace = vars(parser.parse_args())
    quick = dict(imitation_games=100, total_timesteps=8192, eval_games=40)
    small = quick if namespace.pop("quick") else {}
    return Args(**{**namespace, **small})


if __name__ == "__main__":
    main(parse_args())
