"""The PettingZoo and Gymnasium envs, for every registered game."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import boardgame_envs
from boardgame_envs import GAMES, IllegalActionError, InvalidConfigError
from boardgame_envs.agents.base import AgentMix, RandomAgent
from boardgame_envs.core.native import native_games

GAME_COUNTS = [
    (game, n)
    for game, info in GAMES.items()
    for n in range(info.rules().min_players, info.rules().max_players + 1)
]


def with_engines(*cases: tuple) -> list:
    """Each case on both engines (its last value): the native one skipped where it is not
    built for the case's game (its first value)."""
    return [
        pytest.param(
            *case,
            engine,
            marks=pytest.mark.skipif(
                engine == "native" and case[0] not in native_games(), reason="no native engine"
            ),
            id="-".join(map(str, (*case, engine))),
        )
        for case in cases
        for engine in ("python", "native")
    ]


@pytest.fixture(autouse=True)
def _quiet_api_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # api_test's advice about Dict spaces
        yield


@pytest.mark.parametrize("game, n, engine", with_engines(*GAME_COUNTS))
def test_pettingzoo_api_and_seed(game, n, engine):
    env = pettingzoo.make("aec", GAMES[game].pettingzoo_id, num_players=n, engine=engine)
    assert env.unwrapped.rules.engine == engine
    api_test(env, num_cycles=200)
    seed_test(lambda: boardgame_envs.make(game, num_players=n, engine=engine), num_cycles=200)
    raw = boardgame_envs.raw_env(game, num_players=n, auto_resolve=True, engine=engine)
    api_test(raw, num_cycles=200)


@pytest.mark.parametrize("game, engine", with_engines(*((g,) for g in GAMES)))
def test_gymnasium_single_agent_env(game, engine):
    info = GAMES[game]
    for n in (info.rules().min_players, info.rules().max_players):
        env = gymnasium.make(info.gymnasium_id, num_players=n, engine=engine)
        assert env.unwrapped.rules.engine == engine
        check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_unwrapped_reaches_the_engine(game):
    env = boardgame_envs.make(game, num_players=2)
    env.reset(seed=0)
    assert env.unwrapped.rules is boardgame_envs.make_rules(game)
    assert env.unwrapped.state.current_player in (0, 1)
    single = gymnasium.make(GAMES[game].gymnasium_id)
    single.reset(seed=0)
    assert single.unwrapped.state.rules.name == game


def play_random(env, seed: int) -> dict[str, float]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return totals


@pytest.mark.parametrize("game, n", GAME_COUNTS)
def test_outcome_rewards_equal_the_games_returns(game, n):
    env = boardgame_envs.raw_env(game, num_players=n)
    totals = play_random(env, seed=n)
    returns = env.state.returns()
    assert list(totals.values()) == pytest.approx(returns)
    assert sum(returns) == pytest.approx(0)


def test_score_rewards_add_zero_sum_shaping():
    env = boardgame_envs.raw_env("factors_multiples", num_players=3, reward="score")
    totals = play_random(env, seed=5)
    state = env.state
    scale = state.rules.score_reward_scale
    scores = state.scores()
    shaping = [-(s - (sum(scores) - s) / 2) * scale for s in scores]
    expected = [o + sh for o, sh in zip(state.returns(), shaping)]
    assert list(totals.values()) == pytest.approx(expected)
    assert sum(totals.values()) == pytest.approx(0)


def test_auto_resolve_leaves_only_real_choices():
    env = boardgame_envs.raw_env("factors_multiples", num_players=2, auto_resolve=True)
    env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        assert obs["action_mask"].sum() >= 2
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_raw_env_raises_on_illegal_action_and_changes_nothing():
    env = boardgame_envs.raw_env("factors_multiples", num_players=2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    before = env.unwrapped.state.to_json()
    with pytest.raises(IllegalActionError):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert env.unwrapped.state.to_json() == before


def test_wrapped_env_ends_the_game_on_illegal_action():
    env = boardgame_envs.make("factors_multiples", num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def test_truncation_after_max_steps():
    env = boardgame_envs.raw_env("factors_multiples", num_players=2, max_steps=5)
    env.reset(seed=0)
    steps = 0
    while not any(env.truncations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
        steps += 1
    assert steps == 5 and not any(env.terminations.values())


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: boardgame_envs.make("chess"), "unknown game 'chess'; known: factors_multiples"),
        (lambda: boardgame_envs.make("factors_multiples", num_players=6), "allowed: 2 to 5"),
        (lambda: boardgame_envs.make("factors_multiples", colour="red"), "unknown option"),
        (
            lambda: boardgame_envs.make("factors_multiples", reward="money"),
            "reward='money' is not allowed; allowed: outcome, score",
        ),
        (
            lambda: boardgame_envs.make("factors_multiples", render_mode="3d"),
            "render_mode='3d' is not allowed",
        ),
        (
            lambda: boardgame_envs.make_single_agent("factors_multiples", learner_seat=2),
            "learner_seat=2 is not allowed; allowed: 0 to 1",
        ),
        (
            lambda: boardgame_envs.make_single_agent("factors_multiples", opponent="grandmaster"),
            "unknown agent 'grandmaster'",
        ),
    ],
)
def test_bad_arguments_name_what_is_allowed(call, message):
    with pytest.raises(InvalidConfigError, match=message):
        call()


def test_render_modes():
    env = boardgame_envs.raw_env("factors_multiples", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Factors and Multiples" in text and "P0" in text and "P1" in text


# -- the single-agent env -------------------------------------------------------------------
def test_single_agent_seat_is_random_unless_fixed():
    env = boardgame_envs.make_single_agent("factors_multiples", num_players=3)
    seats = {env.reset(seed=s)[1]["learner_seat"] for s in range(30)}
    assert seats == {0, 1, 2}
    fixed = boardgame_envs.make_single_agent("factors_multiples", num_players=3, learner_seat=1)
    assert {fixed.reset(seed=s)[1]["learner_seat"] for s in range(10)} == {1}


def test_single_agent_episode_reward_is_the_outcome():
    env = boardgame_envs.make_single_agent("factors_multiples", num_players=2)
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            mask = env.action_masks()
            assert mask.sum() >= 1 and obs.shape == (159,)
            action = int(np.flatnonzero(mask)[0])
            obs, reward, terminated, truncated, info = env.step(action)
            total += reward
            done = terminated or truncated
        assert total == env.state.returns()[info["learner_seat"]]
        assert not env.action_masks().any()


def test_single_agent_is_reproducible_and_reseeds_opponents():
    def trajectory(seed):
        env = boardgame_envs.make_single_agent("factors_multiples", num_players=4)
        obs, _ = env.reset(seed=seed)
        out = [obs]
        for _ in range(20):
            obs, *_ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
            out.append(obs)
        return np.array(out)

    assert np.array_equal(trajectory(3), trajectory(3))
    assert not np.array_equal(trajectory(3), trajectory(4))


def test_single_agent_samples_opponents_from_a_mix():
    class Marked(RandomAgent):
        pass

    mix = AgentMix([RandomAgent(), Marked()], [0.5, 0.5])
    env = boardgame_envs.make_single_agent("factors_multiples", num_players=2, opponent=mix)
    kinds = set()
    for seed in range(20):
        env.reset(seed=seed)
        kinds |= {type(a).__name__ for a in env.opponents.values()}
    assert kinds == {"RandomAgent", "Marked"}


def test_single_agent_illegal_action_loses_or_raises():
    env = boardgame_envs.make_single_agent("factors_multiples")
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert reward == -1 and terminated and "not legal" in info["illegal_action"]
    strict = boardgame_envs.make_single_agent("factors_multiples", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError):
        strict.step(int(np.flatnonzero(~strict.action_masks())[0]))


def test_single_agent_can_append_the_mask_to_the_observation():
    env = boardgame_envs.make_single_agent("factors_multiples", observe_mask=True)
    obs, _ = env.reset(seed=0)
    assert env.observation_space.shape == (159 + 40,) and obs.shape == (199,)
    assert np.array_equal(obs[159:].astype(bool), env.action_masks())
    assert np.array_equal(obs[:159], env.state.view(env.learner_seat).observation())


def test_a_game_ended_at_a_safety_limit_is_a_truncation():
    """Rules that stop a game at a cap of their spec set state.truncated (Tahiti does)."""
    from tests.factors_multiples.helpers import table

    env = boardgame_envs.raw_env("factors_multiples", num_players=2, rounds=1)
    env.reset(seed=0)
    env.state = table(2, {0: "4♣"}, piles={0: ""}, value=8, rounds=1)
    env.state.truncated = True  # as if this last move hit a cap
    env.agent_selection = "player_0"
    env.step(3)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}  # the outcome is still paid


def test_score_shaping_scale_can_be_set():
    default = boardgame_envs.raw_env("factors_multiples", num_players=2, reward="score")
    scaled = boardgame_envs.raw_env(
        "factors_multiples", num_players=2, reward="score", score_reward_scale=0.5
    )
    a, b = play_random(default, seed=9), play_random(scaled, seed=9)
    outcome = default.state.returns()
    for agent, seat in (("player_0", 0), ("player_1", 1)):
        shaping_default = a[agent] - outcome[seat]
        shaping_scaled = b[agent] - outcome[seat]
        assert shaping_scaled == pytest.approx(shaping_default * 0.5 * 52)


@pytest.mark.parametrize("game", GAMES)
def test_observed_mask_is_a_fresh_int8_array_of_the_legal_actions(game):
    env = boardgame_envs.raw_env(game, num_players=2)
    env.reset(seed=3)
    first = env.observe(env.agent_selection)["action_mask"]
    assert first.dtype == np.int8 and first.flags.writeable
    legal = env.unwrapped.state.legal_actions()
    assert np.flatnonzero(first).tolist() == legal
    first[:] = 0  # the caller's copy: spoiling it changes nothing in the env
    again = env.observe(env.agent_selection)["action_mask"]
    assert np.flatnonzero(again).tolist() == legal
    waiting = next(a for a in env.agents if a != env.agent_selection)
    assert not env.observe(waiting)["action_mask"].any()


@pytest.mark.parametrize("game, n", GAME_COUNTS)
def test_every_decision_phase_is_one_the_rules_name(game, n):
    """``rules.phases`` lists the phases a running game's decisions take (the search's
    ``phases`` option is checked against it): random games visit only those, and each
    game visits most of them."""
    rules = GAMES[game].rules()
    seen = set()
    for seed in range(3):
        state = rules.new_state(n, seed=seed)
        rng = np.random.default_rng(seed)
        while not state.is_terminal():
            seen.add(state.view(state.current_player).phase)
            state.apply(int(rng.choice(state.legal_actions())))
    assert seen <= set(rules.phases)
    assert len(seen) >= len(rules.phases) // 2
