"""Hinted policies (agents/hinted.py): the hint in the env's observations, a fresh hinted
policy playing the heuristic's moves, saving and loading, and bad options."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from boardgame_envs import InvalidConfigError, make_rules, make_single_agent
from boardgame_envs.agents import make_agent
from boardgame_envs.agents.hinted import HintedEnv, HintedPolicy
from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs.training import opponents
from boardgame_envs.training.ppo import train as train_ppo
from tests.test_train_recipes import tiny


def test_hinted_env_appends_the_heuristics_choice_then_zeros_at_the_end():
    plain = make_single_agent("cornucopia", 2, opponent="heuristic", observe_mask=True)
    env = HintedEnv(
        make_single_agent("cornucopia", 2, opponent="heuristic", observe_mask=True),
        make_agent("heuristic", "cornucopia"),
    )
    size = make_rules("cornucopia").action_size
    assert env.observation_space.shape == (plain.observation_space.shape[0] + size,)
    heuristic = make_agent("heuristic", "cornucopia")
    obs, _ = env.reset(seed=5)
    done, steps = False, 0
    while not done:
        hint = obs[-size:]
        expected = heuristic.act(env.state.view(env.learner_seat))
        assert hint.sum() == 1 and hint[expected] == 1
        assert np.array_equal(obs[:-size][-size:], env.action_masks().astype(np.float32))
        legal = np.flatnonzero(env.action_masks())
        obs, _, terminated, truncated, _ = env.step(int(legal[steps % len(legal)]))
        done, steps = terminated or truncated, steps + 1
    assert steps > 1 and not obs[-size:].any()


def test_hinted_env_needs_the_flat_layout():
    env = make_single_agent("wasabi", 2, layout="planes")
    with pytest.raises(InvalidConfigError, match="flat layout"):
        HintedEnv(env, make_agent("heuristic", "wasabi"))


@pytest.mark.parametrize("game", ["cornucopia", "wasabi"])
def test_a_fresh_hinted_policy_plays_the_heuristics_moves_and_loads_as_ppo(tmp_path, game):
    args = tiny(tmp_path, game, hint="heuristic", imitate="", timesteps=64, n_steps=32)
    run_dir = train_ppo.main(args)
    agent = make_agent(f"ppo:{run_dir}", game)
    assert isinstance(agent.model.policy, HintedPolicy)
    assert agent.model.policy.hint_game == game
    heuristic = make_agent("heuristic", game)
    state = make_rules(game).new_state(num_players=2, seed=11)
    decisions = 0
    while not state.is_terminal():
        view = state.view(state.current_player)
        action = heuristic.act(view)
        if state.current_player == 0:
            assert agent.act(view) == action  # the learned residual has not moved it yet
            decisions += 1
        state.apply(action)
    assert decisions > 5


def test_the_hint_weight_is_learned_and_saved(tmp_path):
    args = tiny(
        tmp_path, "cornucopia", hint="heuristic", imitate="", hint_weight=2.5, anneal_lr=False
    )
    run_dir = train_ppo.main(args)
    loaded = PPOAgent.load(run_dir, game="cornucopia")
    weight = loaded.model.policy.hint_weight
    assert isinstance(weight, torch.nn.Parameter)
    assert weight.item() != 2.5  # the update moved it (annealed, the one update has rate 0)
    assert abs(weight.item() - 2.5) < 1.0


def test_a_hinted_policy_refuses_another_game(tmp_path):
    run_dir = train_ppo.main(tiny(tmp_path, "cornucopia", hint="heuristic", imitate=""))
    with pytest.raises(InvalidConfigError, match="hinted policy of cornucopia"):
        make_agent(f"ppo:{run_dir}", "wasabi")


def test_bad_hint_options(tmp_path):
    with pytest.raises(InvalidConfigError, match="--hint 'ismcts' is not allowed.*'heuristic'"):
        tiny(tmp_path, "cornucopia", hint="ismcts")
    with pytest.raises(InvalidConfigError, match="hint_weight|hint-weight"):
        tiny(tmp_path, "cornucopia", hint="heuristic", hint_weight=float("nan"))


def test_hinted_self_play_snapshots_read_their_hint(tmp_path):
    args = tiny(
        tmp_path,
        "cornucopia",
        hint="heuristic",
        imitate="",
        opponent="self-play=0.5,heuristic=0.5",
        timesteps=256,
        n_steps=64,
        snapshot_every=128,
    )
    run_dir = train_ppo.main(args)
    pool = opponents.SelfPlayPool(run_dir / "pool", 10, "cornucopia")
    snapshot = pool.sample(np.random.default_rng(0))
    assert snapshot.hint_agent is not None
    snapshot.reset(3)
    state = make_rules("cornucopia").new_state(num_players=2, seed=3)
    view = state.view(state.current_player)
    assert view.legal_action_mask()[snapshot.act(view)]
