"""The batched env (``boardgame_envs.vector``) is N single-agent envs, step for step: the
same observations, masks, rewards, ends and resets as a DummyVecEnv of SingleAgentEnvs with
the same seeds, on both engines and with either native opponent."""

from __future__ import annotations

import numpy as np
import pytest
from stable_baselines3.common.vec_env import DummyVecEnv

from boardgame_envs import GAMES
from boardgame_envs.agents.base import AgentMix
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.hinted_env import HintedEnv
from boardgame_envs.core.native import native_games
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_single_agent
from boardgame_envs.vector import make_gymnasium_vec, make_vec

PLAYERS = {
    "factors_multiples": [2, 4],
    "cornucopia": [2, 5],
    "carcassonne_castle": [2],
    "tahiti": [2, 3],
    "wasabi": [2, 4],
}


def _reference(game, num_envs, num_players, opponent, engine, seed, hint, options):
    def make_env():
        env = make_single_agent(
            game, num_players, opponent=opponent(), engine=engine, observe_mask=True, **options
        )
        return env if hint is None else HintedEnv(env, make_agent(hint, game))

    envs = DummyVecEnv([make_env] * num_envs)
    envs.seed(seed)
    return envs


def _masks(venv):
    return np.stack(venv.env_method("action_masks"))


def _assert_same_trajectories(
    game, num_players, opponent, engine, steps, num_envs=3, seed=7, hint=None, **options
):
    """``opponent``: an agent name, or a function making a fresh opponent (each reference env
    gets its own, as train's envs do)."""
    make_opponent = opponent if callable(opponent) else lambda: opponent
    batched = make_vec(
        game,
        num_envs,
        num_players,
        opponent=make_opponent(),
        engine=engine,
        seed=seed,
        hint=hint,
        **options,
    )
    reference = _reference(game, num_envs, num_players, make_opponent, engine, seed, hint, options)
    obs, expected = batched.reset(), reference.reset()
    np.testing.assert_array_equal(obs, expected)
    assert batched.reset_infos == reference.reset_infos
    rng = np.random.default_rng(seed)
    episodes = 0
    for _ in range(steps):
        masks = _masks(batched)
        np.testing.assert_array_equal(masks, _masks(reference))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        got = batched.step(actions)
        want = reference.step(actions)
        for a, b in zip(got[:3], want[:3]):
            np.testing.assert_array_equal(a, b)
        for info, other in zip(got[3], want[3]):
            assert info.keys() == other.keys()
            for key in info:
                np.testing.assert_array_equal(info[key], other[key])
        episodes += int(got[2].sum())
    return episodes


@pytest.mark.parametrize("engine", ["python", "native"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_vector_env_plays_what_single_agent_envs_play(game, engine):
    if engine == "native" and game not in native_games():
        pytest.skip(f"no native {game} engine built")
    steps = 60 if game in ("carcassonne_castle", "tahiti") else 120
    for num_players in PLAYERS[game]:
        episodes = _assert_same_trajectories(game, num_players, "heuristic", engine, steps)
        assert episodes >= 1 or game in ("carcassonne_castle", "tahiti")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_opponents_in_the_batch_are_the_single_envs_random_agents(game):
    if game not in native_games():
        pytest.skip(f"no native {game} engine built")
    _assert_same_trajectories(game, PLAYERS[game][-1], "random", "native", steps=40)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_mixed_opponents_hints_and_score_rewards_as_training_uses_them(game):
    """A heuristic/random mix (drawn per game and seat), the heuristic's hint appended and
    the score-shaped reward: what train's recipes ask of their envs."""
    if game not in native_games():
        pytest.skip(f"no native {game} engine built")

    def mix():
        return AgentMix([make_agent("heuristic", game), make_agent("random", game)], [0.7, 0.3])

    for num_players in PLAYERS[game]:
        batched = make_vec(game, 2, num_players, opponent=mix(), hint="heuristic")
        assert batched.batch.compiled
        _assert_same_trajectories(
            game, num_players, mix, "native", 50, hint="heuristic", reward="score"
        )


def test_native_batch_is_compiled_and_other_opponents_fall_back_to_python():
    game = "factors_multiples"
    if game not in native_games():
        pytest.skip("no native engine built")
    assert make_vec(game, 2, engine="native").batch.compiled
    assert not make_vec(game, 2, engine="python").batch.compiled
    assert not make_vec(game, 2, opponent="ismcts:iterations=2,seconds=0").batch.compiled


def test_gymnasium_vector_env_resets_in_the_same_step():
    env = make_gymnasium_vec("factors_multiples", 2, opponent="heuristic")
    obs, info = env.reset(seed=3)
    assert obs.shape == (2, env.single_observation_space.shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        actions = [rng.choice(np.flatnonzero(m)) for m in env.action_masks()]
        obs, rewards, terminated, truncated, infos = env.step(actions)
        if "final_obs" in infos:
            done = infos["_final_obs"]
            finished += int(done.sum())
            assert set(rewards[done]) <= {-1.0, 0.0, 1.0}
            assert env.action_masks()[done].any(axis=1).all()  # the new games are under way
    assert finished >= 2


def test_bad_arguments_are_refused_with_what_is_allowed():
    with pytest.raises(InvalidConfigError, match="num_envs"):
        make_vec("wasabi", 0)
    with pytest.raises(InvalidConfigError, match="num_players"):
        make_vec("wasabi", 2, num_players=9)
    env = make_vec("wasabi", 2, seed=0)
    env.reset()
    with pytest.raises((ValueError, TypeError)):
        env.step(np.zeros(3, dtype=np.int64))  # one action per env


def test_an_illegal_action_loses_the_episode():
    env = make_vec("factors_multiples", 1, seed=0)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks()[0])[0])
    _, rewards, dones, infos = env.step(np.array([illegal]))
    assert rewards[0] == -1.0 and dones[0]
    assert "illegal_action" in infos[0]
    assert env.action_masks()[0].any()  # a new game has begun
