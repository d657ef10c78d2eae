"""The imitation warm start: copy an agent's play before PPO starts (``--imitate``).

From-scratch PPO stays far below the heuristic in these games, so every recipe first fits
the policy to the heuristic's choices (behaviour cloning) and the value network to the
returns of its games, then trains from there. Two steps:

1. :func:`imitation_data` plays ``--imitation-games`` games of the imitated agent in the
   learner's seat of the training env (in ``--workers`` processes; each game depends on its
   episode number alone) and keeps every decision: the input the policy would see
   (``CodedRows``: one byte a value), the legal mask, the action and the discounted
   return-to-go. With ``--imitation-data FILE`` the decisions are written to that ``.npz``
   file, or read back from it when it exists and was made with the same settings
   (``IMITATION_SOURCE``).
2. :func:`imitate` maximises the likelihood of those actions under the masked policy and
   regresses the value network on the returns, for ``--imitation-epochs`` passes.

``args`` is the run's :class:`boardgame_envs.training.ppo.train.Args`.
"""

from __future__ import annotations

import dataclasses
import json
import time
import zipfile
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO
from tqdm.auto import tqdm

from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.coded_rows import CodedRows
from boardgame_envs.training.opponents import SELF_PLAY
from boardgame_envs.training.parallel import run_tasks
from boardgame_envs.training.ppo.envs import make_env
from boardgame_envs.training.ppo.recipes import hyperparameters
from boardgame_envs.training.run_files import write_atomically

#: What imitation data was made from: a file is only reused by a run that asks for the same.
IMITATION_SOURCE = (
    "game",
    "num_players",
    "game_options",
    "opponent",
    "reward",
    "imitate",
    "imitation_games",
    "seed",
    "hint",
    "observe_mask",
)


def imitation_data(args) -> dict:
    """The imitated agent's decisions in the learner's seat of the training env: inputs
    (``CodedRows``: one byte a value), masks, actions and discounted returns-to-go. Its
    games are played in ``--workers`` processes (each game is the same in any of them);
    with ``--imitation-data``, read from that file when it exists, else written to it."""
    path = Path(args.imitation_data) if args.imitation_data else None
    if path is not None and path.exists():
        return load_imitation_data(path, args)
    tasks = [(args, episode) for episode in range(args.imitation_games)]
    rows: dict[str, list] = {"mask": [], "action": [], "return": []}
    observations = CodedRows()
    games = run_tasks(imitation_game, tasks, args.workers, args.backend, args.ray_address)
    for game in tqdm(games, total=len(tasks), desc="imitation games", disable=not args.progress):
        for row in game.pop("obs"):
            observations.append(row)
        for key, values in game.items():
            rows[key].extend(values)
    data = dict({key: np.asarray(value) for key, value in rows.items()}, obs=observations.freeze())
    if path is not None:
        save_imitation_data(path, data, args)
    return data


def imitation_game(task: tuple) -> dict:
    """One game of the imitated agent in the learner's seat (a task of ``run_tasks``: the
    run's arguments and the episode; a fresh env and agent, so the game depends on its
    episode number alone)."""
    args, episode = task
    # No snapshot exists yet: the imitated agent stands in for self-play opponents.
    opponents = ",".join(
        args.imitate + part[len(SELF_PLAY) :] if part.strip().startswith(SELF_PLAY) else part
        for part in args.opponent.split(",")
    )
    env = make_env(dataclasses.replace(args, opponent=opponents), None)
    teacher = make_agent(args.imitate, args.game)
    obs, _ = env.reset(seed=args.seed * 1_000_003 + episode)
    teacher.reset(episode)
    game: dict[str, list] = {"obs": [], "mask": [], "action": []}
    rewards, done = [], False
    while not done:
        action = teacher.act(env.state.view(env.learner_seat))
        game["obs"].append(np.asarray(obs, dtype=np.float32))
        game["mask"].append(env.action_masks())
        game["action"].append(action)
        obs, reward, terminated, truncated, _ = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    gamma = hyperparameters(args)["gamma"]
    to_go, returns = 0.0, []
    for reward in reversed(rewards):
        to_go = reward + gamma * to_go
        returns.append(to_go)
    return dict(game, **{"return": returns[::-1]})


def save_imitation_data(path: Path, data: dict, args) -> None:
    source = {name: getattr(args, name) for name in IMITATION_SOURCE}
    arrays = {key: value for key, value in data.items() if key != "obs"}
    arrays.update(data["obs"].arrays(), source=json.dumps(source))

    def write(temp: str) -> None:
        with open(temp, "wb") as file:  # a file object: np.savez would add ".npz" to a name
            np.savez(file, **arrays)

    write_atomically(path, write)
    print(f"saved {len(data['action']):,} imitation decisions to {path}")


def load_imitation_data(path: Path, args) -> dict:
    """``--imitation-data``'s saved decisions; refused unless made with this run's
    settings (``IMITATION_SOURCE``)."""
    try:
        saved = np.load(path)
        source = json.loads(str(saved["source"]))
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile) as error:
        raise InvalidConfigError(
            f"--imitation-data {str(path)!r} is not imitation data written by train "
            f"({type(error).__name__}: {error}); give such a file, or a new path to write one"
        ) from None
    with saved:
        wanted = {name: getattr(args, name) for name in IMITATION_SOURCE}
        differ = [
            f"{k}={source.get(k)!r} (this run: {v!r})"
            for k, v in wanted.items()
            if source.get(k) != v
        ]
        if differ:
            raise InvalidConfigError(
                f"--imitation-data {str(path)!r} was made with other settings: "
                f"{', '.join(differ)}; give the same settings or another file"
            )
        data = {key: saved[key] for key in ("mask", "action", "return")}
        data["obs"] = CodedRows.from_arrays(saved["rows"], saved["table"])
    print(f"read {len(data['action']):,} imitation decisions from {path}")
    return data


def imitate(model: MaskablePPO, args) -> None:
    """Behaviour cloning warm start: maximise the likelihood of the imitated agent's
    actions under the masked policy, and regress the value network on its returns."""
    started = time.perf_counter()
    data = imitation_data(args)
    policy = model.policy
    size = len(data["action"])
    batch = hyperparameters(args)["batch_size"]

    def evaluate(index):
        return policy.evaluate_actions(
            torch.as_tensor(data["obs"][index], device=policy.device),
            torch.as_tensor(data["action"][index], device=policy.device).long(),
            action_masks=data["mask"][index],
        )

    generator = torch.Generator().manual_seed(args.seed)
    for _epoch in range(args.imitation_epochs):
        order = torch.randperm(size, generator=generator).numpy()
        for start in range(0, size, batch):
            index = order[start : start + batch]
            values, log_prob, _ = evaluate(index)
            returns = torch.as_tensor(
                data["return"][index], dtype=torch.float32, device=policy.device
            )
            loss = -log_prob.mean() + 0.5 * torch.nn.functional.mse_loss(values.flatten(), returns)
            policy.optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
    with torch.no_grad():
        log_likelihood = sum(
            evaluate(slice(start, start + batch))[1].sum().item() for start in range(0, size, batch)
        )
    print(
        f"imitated {args.imitate}: {size:,} decisions from {args.imitation_games} games "
        f"({data['obs'].nbytes / 2**20:,.0f} MB of observations), mean log-likelihood "
        f"{log_likelihood / size:.3f}, {time.perf_counter() - started:.0f}s"
    )
