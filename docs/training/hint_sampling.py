"""How far does a hinted policy's *sampled* move stray from its hint?

PPO trains on the moves the policy samples, not on its deterministic ones. This plays a
hinted policy (deterministically, as `eval` does) against the heuristic and, at every
decision of its own with two or more legal moves, reads the distribution it would sample
from: the probability it gives the hint's move, its entropy, and whether its most likely
move is the hint's. Seeds 7,000,000,000 + g, the policy in seat g % 2.

    python docs/training/hint_sampling.py carcassonne_castle carcassonne_castle 20

Arguments: game, a hinted policy (a model .zip, or a shipped policy's name as in
``ppo:<name>``), games. docs/results.md ("Runs behind the recipes", Carcassonne: the
sampled policy and the hint weight) gives what it printed.
"""

import sys

import numpy as np
import torch

from boardgame_envs.agents import make_agent
from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs import make_rules

SEED = 7_000_000_000


def sampling_figures(game: str, path: str, games: int) -> dict[str, float]:
    """Means over the policy's decisions: p(hint's move), entropy, argmax is the hint."""
    policy, opponent = PPOAgent.load(path, game), make_agent("heuristic", game)
    if policy.hint_agent is None:
        raise SystemExit(f"{path} is not a hinted policy")
    p_hint, entropy, argmax_is_hint = [], [], []
    for g in range(games):
        policy.reset(SEED + g)
        opponent.reset(SEED + g + 1)
        state = make_rules(game).new_state(num_players=2, seed=SEED + g)
        seat = g % 2
        while not state.is_terminal():
            view = state.view(state.current_player)
            if state.current_player != seat:
                state.apply(opponent.act(view))
                continue
            mask = view.legal_action_mask()
            if mask.sum() > 1:
                observation = policy.policy_input(view)
                hint = int(np.argmax(observation[-policy.model.action_space.n :]))
                tensor = policy.model.policy.obs_to_tensor(observation)[0]
                with torch.no_grad():
                    dist = policy.model.policy.get_distribution(tensor, action_masks=mask[None])
                probs = dist.distribution.probs[0].numpy()
                p_hint.append(probs[hint])
                entropy.append(float(dist.entropy()[0]))
                argmax_is_hint.append(int(np.argmax(probs)) == hint)
            state.apply(policy.act(view))
    return {
        "decisions": len(p_hint),
        "mean p(hint)": float(np.mean(p_hint)),
        "median p(hint)": float(np.median(p_hint)),
        "entropy": float(np.mean(entropy)),
        "argmax is the hint": float(np.mean(argmax_is_hint)),
    }


if __name__ == "__main__":
    torch.set_num_threads(1)
    game, path, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
    figures = sampling_figures(game, path, games)
    print(
        game,
        path,
        ", ".join(f"{k} {v:.3f}" if k != "decisions" else f"{k} {v}" for k, v in figures.items()),
    )
