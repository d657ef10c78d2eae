"""Can a hinted policy learn where the search departs from the heuristic?

Fits a fresh hinted policy (the game's recipe network) to the search agent's saved
decisions by behaviour cloning, on the first 90% of them, and counts on the last 10%
(held out: about the last 48 of 480 games), and on as many decisions it was fitted to
(seen: the 10% before them), how many of the search's departures from the
heuristic the policy's deterministic move reproduces, and how many departures it makes
where the search played the heuristic's move. Make the data first (about half an hour):

    boardgame-envs train tahiti --imitate ismcts:seconds=0 --imitation-games 480 \
      --imitation-data runs/tahiti_ismcts_480.npz --workers 2 --timesteps 1 --eval-every 0

then run, from the repository root (a few minutes):

    python docs/training/search_departures.py tahiti runs/tahiti_ismcts_480.npz 480 10 1 3e-4

Arguments: game, data file, its games, epochs, the loss weight of a departure, learning
rate. docs/results.md ("Runs behind the recipes", imitating the search) gives what it
printed.
"""

import sys

import numpy as np
import torch

from boardgame_envs.training.ppo.envs import make_vec_env
from boardgame_envs.training.ppo.imitation import imitation_data
from boardgame_envs.training.ppo.model import new_model
from boardgame_envs.training.ppo.train import Args

game, path, games, epochs = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
departure_weight, learning_rate = float(sys.argv[5]), float(sys.argv[6])
torch.set_num_threads(1)
args = Args(
    game=game,
    imitate="ismcts:seconds=0",
    imitation_games=games,
    imitation_data=path,
    timesteps=1,
    progress=False,
    learning_rate=learning_rate,
)
data = imitation_data(args)
obs, actions, masks = data["obs"], data["action"], data["mask"]
n, action_size = len(actions), masks.shape[1]
hint = np.array([np.argmax(obs[i : i + 1][0, -action_size:]) for i in range(n)])  # its last values
choice = masks.sum(1) > 1
departs = (actions != hint) & choice
cut = int(n * 0.9)
print(f"{n} decisions, {choice.sum()} with a choice, {departs.sum()} departures")

model = new_model(args, make_vec_env(args, None))
policy = model.policy
weights = torch.ones(n)
weights[torch.as_tensor(departs)] = departure_weight


def report(tag: str) -> None:
    for name, rows in (("held-out", slice(cut, n)), ("seen", slice(2 * cut - n, cut))):
        with torch.no_grad():
            moves = np.concatenate(
                [
                    policy.get_distribution(torch.as_tensor(obs[idx]), action_masks=masks[idx])
                    .distribution.probs.argmax(1)
                    .numpy()
                    for idx in (
                        np.arange(s, min(rows.stop, s + 1024))
                        for s in range(rows.start, rows.stop, 1024)
                    )
                ]
            )
        predicted = (moves != hint[rows]) & choice[rows]
        print(
            f"{tag}: {name} departures {departs[rows].sum()}, the policy departs at "
            f"{predicted.sum()}: {((moves == actions[rows]) & departs[rows]).sum()} with the "
            f"search's move, {(predicted & ~departs[rows]).sum()} where the search did not "
            f"depart; hint_weight {float(policy.hint_weight.detach()):.2f}",
            flush=True,
        )


report("start")
generator = torch.Generator().manual_seed(0)
for epoch in range(epochs):
    order = torch.randperm(cut, generator=generator).numpy()
    for start in range(0, cut, 256):
        idx = np.sort(order[start : start + 256])
        values, log_prob, _ = policy.evaluate_actions(
            torch.as_tensor(obs[idx]), torch.as_tensor(actions[idx]).long(), action_masks=masks[idx]
        )
        returns = torch.as_tensor(data["return"][idx], dtype=torch.float32)
        w = weights[idx]
        loss = -(log_prob * w).sum() / w.sum() + 0.5 * torch.nn.functional.mse_loss(
            values.flatten(), returns
        )
        policy.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
        policy.optimizer.step()
    report(f"epoch {epoch + 1}")
