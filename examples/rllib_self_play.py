"""Self-play with Ray RLlib's new API stack (RLModule, Learner, EnvRunner) on the AEC env.

What it shows: a boardgame-envs PettingZoo env as an RLlib multi-agent env (RLlib's own
``PettingZooEnv`` wrapper takes its dict observations as they are), a masking RLModule
(illegal actions' logits at -1e9: never sampled, nothing in the loss), and PPO self-play:
every seat maps to the one policy being trained, several envs step in each env runner. The
greedy policy then plays fresh deals against random legal moves, seats rotated: its win
share, with a 95% Wilson interval. Needs the ``rllib`` extra, in an env of its own.

    python examples/rllib_self_play.py            # 160,000 env steps: 1-3 minutes on 2 cores
    python examples/rllib_self_play.py --quick    # 1 tiny iteration: a smoke run

Its test (tests/rllib/) runs the default budget and asks for more than 0.65 against random
(untrained networks, played greedily, read 0.38-0.61). ``make test-rllib`` sets it up.
"""

import argparse
import time

import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module import MultiRLModuleSpec, RLModuleSpec
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.tune.registry import register_env
from torch import nn

import boardgame_envs
from boardgame_envs.training.evaluation.duplicate import wilson_interval


class MaskedPolicy(TorchRLModule, ValueFunctionAPI):
    """An MLP with a policy head and a value head; illegal actions' logits set to -1e9.

    The env's observation is a dict: ``observation`` (the seat's view, a flat vector) and
    ``action_mask`` (1 = legal). The mask is applied in ``_forward``, which RLlib uses for
    sampling, for greedy inference and, through ``_forward_train``, for PPO's loss."""

    def setup(self):
        size = self.observation_space["observation"].shape[0]
        hidden = self.model_config.get("hidden", 128)
        layers = [nn.Linear(size, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh()]
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(hidden, self.action_space.n)
        self.vf = nn.Linear(hidden, 1)

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        embeddings = self.trunk(obs["observation"])
        logits = self.pi(embeddings).masked_fill(obs["action_mask"] == 0, -1e9)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: embeddings}

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            embeddings = self.trunk(batch[Columns.OBS]["observation"])
        return self.vf(embeddings).squeeze(-1)


def play_against_random(module, game: str, games: int, seed: int) -> float:
    """Greedy ``module`` against uniformly random legal moves: its win share (a shared win
    counts 1/k), the learner at seat g % 2 in game g, every deal fresh (seeds ``seed + g``)."""
    env = boardgame_envs.make(game, num_players=2, auto_resolve=True)
    rng = np.random.default_rng(seed)
    wins = 0.0
    for g in range(games):
        env.reset(seed=seed + g)
        learner = f"player_{g % 2}"
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                action = None
            elif agent == learner:
                batch = {k: torch.as_tensor(v)[None] for k, v in obs.items()}
                with torch.no_grad():
                    out = module.forward_inference({Columns.OBS: batch})
                action = int(out[Columns.ACTION_DIST_INPUTS].argmax())
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
        winners = env.unwrapped.state.winners()
        wins += (g % 2 in winners) / len(winners)
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="factors_multiples", help="boardgame-envs list")
    parser.add_argument("--iterations", type=int, default=40, help="PPO iterations")
    parser.add_argument("--batch", type=int, default=4000, help="env steps an iteration")
    parser.add_argument("--envs", type=int, default=4, help="envs per env runner")
    parser.add_argument("--games", type=int, default=400, help="evaluation games")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="1 iteration of 500 steps")
    args = parser.parse_args()
    if args.quick:
        args.iterations, args.batch, args.games = 1, 500, 4
    torch.set_num_threads(1)

    game = args.game  # auto_resolve: the env plays forced moves itself, agents see only choices
    register_env("game", lambda _: PettingZooEnv(boardgame_envs.make(game, auto_resolve=True)))
    config = (
        PPOConfig()
        .environment("game", disable_env_checking=True)  # the check plays moves the mask forbids
        # 0 remote env runners: the envs step in the driver's own (enough on a few cores)
        .env_runners(num_env_runners=0, num_envs_per_env_runner=args.envs)
        .multi_agent(policies={"self"}, policy_mapping_fn=lambda agent, episode, **kw: "self")
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={"self": RLModuleSpec(module_class=MaskedPolicy)}
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=min(512, args.batch),
            num_epochs=10,
            lambda_=0.95,
            lr=3e-4,
            gamma=1.0,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    start = time.time()
    for iteration in range(1, args.iterations + 1):
        result = algo.train()
        steps = int(result["env_runners"]["num_env_steps_sampled_lifetime"])
        print(f"iteration {iteration}: {steps} env steps, {time.time() - start:.0f} s")
    module = algo.get_module("self")
    share = play_against_random(module, game, args.games, seed=10**6 + args.seed)
    low, high = wilson_interval(share * args.games, args.games)
    print(f"win share against random: {share:.3f} [{low:.3f}, {high:.3f}] over {args.games} games")
    algo.stop()


if __name__ == "__main__":
    main()
