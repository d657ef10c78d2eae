"""Every entry point of the core checks what it is given (issue 11: A1, A6, A9, A10, D).

Actions: integer scalars of every kind are accepted by the engine, the AEC env and the
single-agent env alike (one helper, ``core.rules.as_action``); anything else is refused
with an ``IllegalActionError`` that says what was given, and changes nothing. Seeds, seats
and env keywords are refused with an ``InvalidConfigError`` naming what is allowed.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest

import boardgame_envs
from boardgame_envs import GAMES, IllegalActionError, InvalidConfigError
from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.core.single_agent import SingleAgentEnv

GAME = "factors_multiples"
RULES = boardgame_envs.make_rules(GAME)
MODEL = Path(__file__).resolve().parents[1] / "agents" / "models" / "factors_multiples_ppo.zip"

INTEGER_SCALARS = [int, np.int64, np.int32, np.uint8, np.intp, lambda a: np.array(a)]
NOT_ACTIONS = [
    (True, "True of type bool"),
    (np.True_, "of type bool"),
    (2.0, "2.0 of type float"),
    (np.float64(2), "of type float64"),
    ("2", "'2' of type str"),
    (None, "None of type NoneType"),
    (np.array([2]), "an array of shape (1,)"),
    (np.array([[2]]), "an array of shape (1, 1)"),
    (np.array(2.0), "an array of shape () and dtype float64"),
    (np.array(True), "an array of shape () and dtype bool"),
]


# -- A1: integer scalars everywhere, nothing else ----------------------------------------
@pytest.mark.parametrize("kind", INTEGER_SCALARS)
def test_engine_accepts_every_integer_scalar(kind):
    reference, state = RULES.new_state(2, seed=1), RULES.new_state(2, seed=1)
    for _ in range(12):
        action = reference.legal_actions()[-1]
        reference.apply(action)
        state.apply(kind(action))
    assert state.to_json() == reference.to_json()


@pytest.mark.parametrize("given, words", NOT_ACTIONS)
def test_engine_refuses_non_integers_saying_what_was_given(given, words):
    state = RULES.new_state(2, seed=1)
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="is not an integer") as error:
        state.apply(given)
    assert words in str(error.value) and "0..39" in str(error.value)
    assert state.to_json() == before


@pytest.mark.parametrize("kind", INTEGER_SCALARS)
def test_aec_env_accepts_every_integer_scalar(kind):
    plain, other = boardgame_envs.make(GAME), boardgame_envs.make(GAME)  # with wrappers
    plain.reset(seed=2)
    other.reset(seed=2)
    for _ in range(12):
        action = int(np.flatnonzero(plain.last()[0]["action_mask"])[0])
        plain.step(action)
        other.step(kind(action))
    assert other.unwrapped.state.to_json() == plain.unwrapped.state.to_json()
    assert other.rewards == plain.rewards


@pytest.mark.parametrize("given, words", NOT_ACTIONS)
def test_raw_aec_env_refuses_non_integers(given, words):
    env = boardgame_envs.raw_env(GAME)
    env.reset(seed=2)
    before = env.state.to_json()
    with pytest.raises(IllegalActionError, match="is not an integer") as error:
        env.step(given)
    assert words in str(error.value)
    assert env.state.to_json() == before and env.num_steps == 0


@pytest.mark.parametrize("kind", INTEGER_SCALARS)
def test_single_agent_env_accepts_every_integer_scalar(kind):
    env = boardgame_envs.make_single_agent(GAME, illegal_action="raise")
    env.reset(seed=3)
    done, steps = False, 0
    while not done:
        action = kind(int(np.flatnonzero(env.action_masks())[0]))
        _, _, terminated, truncated, info = env.step(action)
        assert "illegal_action" not in info
        done, steps = terminated or truncated, steps + 1
    assert env.state.is_terminal() and steps > 3


@pytest.mark.parametrize("given, words", NOT_ACTIONS)
def test_single_agent_env_refuses_non_integers(given, words):
    strict = boardgame_envs.make_single_agent(GAME, illegal_action="raise")
    strict.reset(seed=3)
    before = strict.state.to_json()
    with pytest.raises(IllegalActionError, match="is not an integer") as error:
        strict.step(given)
    assert words in str(error.value) and strict.state.to_json() == before
    losing = boardgame_envs.make_single_agent(GAME)
    losing.reset(seed=3)
    _, reward, terminated, _, info = losing.step(given)
    assert reward == -1.0 and terminated and words in info["illegal_action"]


def test_maskable_ppo_predict_plays_in_the_gymnasium_env():
    """The standard load-and-play loop: ``predict`` returns a 0-d array, which must be
    played as the action it holds (it used to lose every game as an illegal action)."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(MODEL, device="cpu")
    env = gymnasium.make(GAMES[GAME].gymnasium_id, opponent="random", observe_mask=True)
    single = env.unwrapped
    rewards = []
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        done, decisions = False, 0
        while not done:
            action, _ = model.predict(obs, action_masks=single.action_masks(), deterministic=True)
            assert isinstance(action, np.ndarray) and action.shape == ()
            obs, reward, terminated, truncated, info = env.step(action)
            assert "illegal_action" not in info
            done, decisions = terminated or truncated, decisions + 1
        assert single.state.is_terminal() and decisions > 1
        rewards.append(reward)
    assert rewards.count(-1.0) < len(rewards)  # the model beats random: not all losses


# -- A6: seeds -----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [-1, 1.5, "1", True, np.float64(2)])
def test_new_state_refuses_a_bad_seed(game, seed):
    rules = boardgame_envs.make_rules(game)
    with pytest.raises(InvalidConfigError, match="allowed: None or an int >= 0") as error:
        rules.new_state(rules.min_players, seed=seed)
    assert f"seed={seed!r}" in str(error.value)


def test_new_state_takes_numpy_integer_seeds():
    assert RULES.new_state(2, seed=np.int64(5)).to_json() == RULES.new_state(2, seed=5).to_json()
    assert RULES.new_state(np.int8(3), seed=0).num_players == 3


# -- A9: the seat check games call from view ----------------------------------------------
@pytest.mark.parametrize("seat", [-1, 2, 5, True, 1.0, "0", None])
def test_check_seat_refuses_what_is_not_a_seat(seat):
    state = RULES.new_state(2, seed=0)
    with pytest.raises(InvalidConfigError, match=r"allowed: an int 0 to 1 \(2 players\)") as error:
        state._check_seat(seat)
    assert f"seat={seat!r}" in str(error.value)


def test_check_seat_accepts_seats():
    state = RULES.new_state(3, seed=0)
    assert [state._check_seat(s) for s in (0, 1, np.int64(2))] == [0, 1, 2]
    assert type(state._check_seat(np.int64(2))) is int


# -- A10: env keywords ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "make, kwargs, message",
    [
        ("aec", dict(auto_resolve="yes"), "auto_resolve='yes' is not allowed; allowed: True or"),
        ("aec", dict(auto_resolve=1), "auto_resolve=1 is not allowed"),
        ("aec", dict(max_steps=-5), "max_steps=-5 is not allowed; allowed: an int >= 1, or None"),
        ("aec", dict(max_steps=0), "max_steps=0 is not allowed"),
        ("aec", dict(max_steps=2.5), "max_steps=2.5 is not allowed"),
        ("aec", dict(max_steps=True), "max_steps=True is not allowed"),
        ("aec", dict(score_reward_scale="x"), "score_reward_scale='x' is not allowed; allowed: a"),
        ("aec", dict(score_reward_scale=float("nan")), "score_reward_scale=nan is not allowed"),
        ("aec", dict(score_reward_scale=True), "score_reward_scale=True is not allowed"),
        ("single", dict(auto_resolve="yes"), "auto_resolve='yes' is not allowed"),
        ("single", dict(max_steps=-5), "max_steps=-5 is not allowed"),
        ("single", dict(score_reward_scale="x"), "score_reward_scale='x' is not allowed"),
        ("single", dict(observe_mask="yes"), "observe_mask='yes' is not allowed; allowed: True"),
        ("single", dict(learner_seat=True), "learner_seat=True is not allowed; allowed: 0 to 1"),
        ("single", dict(learner_seat=1.0), "learner_seat=1.0 is not allowed"),
        ("single", dict(illegal_action="ignore"), "illegal_action='ignore' is not allowed"),
    ],
)
def test_env_keywords_are_checked(make, kwargs, message):
    factory = boardgame_envs.raw_env if make == "aec" else boardgame_envs.make_single_agent
    with pytest.raises(InvalidConfigError, match=message.replace("(", r"\(")):
        factory(GAME, **kwargs)


def test_env_keywords_that_are_allowed_work():
    env = boardgame_envs.raw_env(GAME, max_steps=np.int64(3), auto_resolve=np.True_)
    env.reset(seed=0)
    for _ in range(3):
        env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert all(env.truncations.values()) and env.num_steps == 3
    scaled = boardgame_envs.raw_env(GAME, reward="score", score_reward_scale=np.float32(0.5))
    assert scaled.score_reward_scale == 0.5
    single = boardgame_envs.make_single_agent(GAME, learner_seat=np.int64(1))
    assert single.reset(seed=0)[1]["learner_seat"] == 1


# -- D: the core env takes agents; names are resolved outside the core -----------------------
def test_core_single_agent_env_takes_agents_and_functions():
    rules = boardgame_envs.make_rules(GAME)
    with pytest.raises(InvalidConfigError, match="takes agents, not names.*make_single_agent"):
        SingleAgentEnv(rules, opponent="heuristic")
    with pytest.raises(InvalidConfigError, match="SingleAgentEnv needs one"):
        SingleAgentEnv(rules)
    with pytest.raises(InvalidConfigError, match="opponent=42 is not allowed"):
        SingleAgentEnv(rules, opponent=42)

    seen = []

    def first_legal(view):
        seen.append(view.seat)
        return view.legal_actions()[0]

    for opponent in (first_legal, RandomAgent(0)):
        env = SingleAgentEnv(rules, 3, opponent=opponent, learner_seat=0)
        env.reset(seed=0)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            done = terminated or truncated
        assert env.state.is_terminal()
    assert set(seen) == {1, 2}


def test_agent_names_still_work_through_the_factories():
    env = gymnasium.make(GAMES[GAME].gymnasium_id, opponent="heuristic", num_players=3)
    env.reset(seed=0)
    assert {a.name for a in env.unwrapped.opponents.values()} == {"heuristic"}
    single = boardgame_envs.make_single_agent(GAME)  # "random" by default
    single.reset(seed=0)
    assert all(isinstance(a, RandomAgent) for a in single.opponents.values())
