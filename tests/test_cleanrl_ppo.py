"""The one-file PPO (examples/cleanrl_ppo.py) learns at its tiny budget.

A short copy of the heuristic and a few PPO updates must beat random play clearly more often
than the same network untrained does, on the same fresh deals, seats rotated.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cleanrl_ppo.py"


def load_example():
    spec = importlib.util.spec_from_file_location("cleanrl_ppo_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def win_share_against_random(example, policy_file: Path, games: int, seed: int) -> float:
    from boardgame_envs.training.evaluation import evaluate

    agent = example.SavedPolicy("factors_multiples", path=str(policy_file))
    agents = {"ppo": agent, "random": "random"}
    tournament = evaluate("factors_multiples", agents, games=games, seed=seed)
    return tournament.result("ppo", "random").win_share


def test_tiny_budget_beats_the_untrained_network(tmp_path):
    example = load_example()
    tiny = dict(total_timesteps=8192, num_envs=32, num_steps=64, eval_games=0)
    tiny.update(num_minibatches=4, update_epochs=4)
    untrained = example.main(
        example.Args(imitation_games=0, learning_rate=0.0, out_dir=str(tmp_path / "a"), **tiny)
    )
    trained = example.main(example.Args(imitation_games=400, out_dir=str(tmp_path / "b"), **tiny))
    before = win_share_against_random(example, untrained / "policy.pt", 200, 8_650_000_000)
    after = win_share_against_random(example, trained / "policy.pt", 200, 8_650_000_000)
    # Measured over seeds 0-4: untrained 0.48-0.59, trained 0.70-0.76 (the heuristic: 0.77).
    assert after >= 0.64 and after - before >= 0.08, (before, after)
