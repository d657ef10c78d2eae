"""The ``layout="planes"`` env option: the flat observation split into spatial planes and a
vector, for the games whose encoding has planes (Carcassonne, Tahiti, Wasabi)."""

from __future__ import annotations

import math
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import boardgame_envs
from boardgame_envs import GAMES, InvalidConfigError
from boardgame_envs.agents.base import RandomAgent

PLANES = {
    "carcassonne_castle": (105, 11, 12),
    "tahiti": (28, 19, 19),
    "wasabi": (40, 6, 7),
}
FLAT_ONLY = ("factors_multiples", "cornucopia")
PLANE_GAME_COUNTS = [
    (game, n) for game in PLANES for n in sorted({2, boardgame_envs.make_rules(game).max_players})
]
STEPS = 100  # decisions per playout: past the opening, short enough to be quick


@pytest.fixture(autouse=True)
def _quiet_api_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # api_test's advice about Dict spaces
        yield


def joined(split: dict[str, np.ndarray]) -> np.ndarray:
    return np.concatenate([split["planes"].ravel(), split["vector"]])


def test_planes_shape_comes_from_the_encoding():
    for game, shape in PLANES.items():
        rules = boardgame_envs.make_rules(game)
        assert rules.planes_shape == shape == rules.encoding.PLANES
        assert math.prod(shape) < rules.observation_shape[0]
    for game in FLAT_ONLY:
        rules = boardgame_envs.make_rules(game)
        assert rules.planes_shape is None and rules.encoding.PLANES is None


@pytest.mark.parametrize("game, n", PLANE_GAME_COUNTS)
def test_aec_planes_equal_the_flat_observation(game, n):
    flat = boardgame_envs.raw_env(game, num_players=n)
    planes = boardgame_envs.raw_env(game, num_players=n, layout="planes")
    space = planes.observation_space("player_0")
    shape = PLANES[game]
    vector = flat.rules.observation_shape[0] - math.prod(shape)
    assert space["observation"]["planes"].shape == shape
    assert space["observation"]["vector"].shape == (vector,)
    assert space["observation"]["planes"].dtype == np.float32
    flat.reset(seed=n)
    planes.reset(seed=n)
    rng = np.random.default_rng(n)
    for _ in range(STEPS):
        for agent in planes.possible_agents:  # the mover and the waiting seats
            want = flat.observe(agent)
            got = planes.observe(agent)
            assert space.contains(got), agent
            assert got["observation"]["planes"].shape == shape
            assert np.array_equal(joined(got["observation"]), want["observation"])
            assert np.array_equal(got["action_mask"], want["action_mask"])
        if flat.state.is_terminal():
            break
        action = int(rng.choice(flat.state.legal_actions()))
        flat.step(action)
        planes.step(action)


@pytest.mark.parametrize("game, n", PLANE_GAME_COUNTS)
@pytest.mark.parametrize("observe_mask", [False, True])
def test_single_agent_planes_equal_the_flat_observation(game, n, observe_mask):
    def env(layout):
        return boardgame_envs.make_single_agent(
            game, num_players=n, opponent=RandomAgent(), observe_mask=observe_mask, layout=layout
        )

    flat, planes = env("flat"), env("planes")
    rules = flat.rules
    vector = rules.observation_shape[0] - math.prod(PLANES[game])
    vector += rules.action_size if observe_mask else 0
    assert planes.observation_space["planes"].shape == PLANES[game]
    assert planes.observation_space["vector"].shape == (vector,)
    want, _ = flat.reset(seed=n)
    got, _ = planes.reset(seed=n)
    rng = np.random.default_rng(n)
    for _ in range(STEPS):
        assert planes.observation_space.contains(got)
        assert np.array_equal(joined(got), want)
        mask = flat.action_masks()
        if not mask.any():
            break
        action = int(rng.choice(np.flatnonzero(mask)))
        want, *outcome = flat.step(action)
        got, *outcome_planes = planes.step(action)
        assert outcome_planes == outcome  # reward, terminated, truncated, info
        terminated, truncated = outcome[1:3]
        if terminated or truncated:
            assert np.array_equal(joined(got), want)
            break


def test_planes_are_laid_out_as_the_boards():
    """Rows and columns are the boards' own: a few planes whose picture is known."""

    def planes(game, n=2):
        env = boardgame_envs.raw_env(game, num_players=n, layout="planes")
        env.reset(seed=0)
        return env.observe("player_0")["observation"]["planes"]

    from boardgame_envs.carcassonne_castle import encoding as carcassonne
    from boardgame_envs.tahiti import encoding as tahiti
    from boardgame_envs.wasabi import encoding as wasabi

    active = planes("wasabi")[wasabi.ACTIVE]  # 2 players: the 5 left columns of 6 x 7
    assert active[:, :5].all() and not active[:, 5:].any()
    home = planes("tahiti")[tahiti.HOME_PLANE]  # row q + 9, column r + 9
    assert home[9, 9] == 1 and home.sum() == 1
    assert planes("tahiti")[tahiti.VALID].sum() == 1 + 3 * 9 * 10  # cells within distance 9
    wall = planes("carcassonne_castle")[carcassonne.NOT_PLAYABLE]  # the padding rows, columns
    assert wall[0].all() and wall[-1].all() and wall[:, 0].all() and wall[:, -1].all()


def test_observations_share_no_buffer():
    env = boardgame_envs.raw_env("wasabi", num_players=2, layout="planes")
    env.reset(seed=0)
    agent = env.agent_selection
    first = env.observe(agent)["observation"]
    expected = joined(first).copy()
    first["planes"][:] = 99.0
    first["vector"][:] = 99.0
    assert np.array_equal(joined(env.observe(agent)["observation"]), expected)


def test_pettingzoo_api_test_with_planes():
    env = boardgame_envs.make("wasabi", num_players=3, layout="planes")
    api_test(env, num_cycles=100)


def test_gymnasium_check_env_with_planes():
    for observe_mask in (False, True):
        env = gymnasium.make(
            GAMES["wasabi"].gymnasium_id, num_players=2, layout="planes", observe_mask=observe_mask
        )
        check_env(env.unwrapped, skip_render_check=True)


def test_flat_stays_the_default():
    env = boardgame_envs.raw_env("tahiti", num_players=2)
    env.reset(seed=0)
    assert env.layout == "flat" and env.planes_shape is None
    assert isinstance(env.observe(env.agent_selection)["observation"], np.ndarray)
    single = boardgame_envs.make_single_agent("tahiti", layout="flat")
    obs, _ = single.reset(seed=0)
    assert obs.shape == single.observation_space.shape == (10507,)


@pytest.mark.parametrize("game", FLAT_ONLY)
def test_planes_is_refused_for_games_without_planes(game):
    message = rf"layout='planes' is not allowed for {game} \(no spatial planes\); allowed: 'flat'"
    for factory in (boardgame_envs.raw_env, boardgame_envs.make, boardgame_envs.make_single_agent):
        with pytest.raises(InvalidConfigError, match=message):
            factory(game, layout="planes")
    with pytest.raises(InvalidConfigError, match=message):
        gymnasium.make(GAMES[game].gymnasium_id, layout="planes")
    boardgame_envs.raw_env(game, layout="flat")  # the default, spelled out, is fine


@pytest.mark.parametrize(
    "game, layout, message",
    [
        ("wasabi", "grid", "layout='grid' is not allowed; allowed: 'flat', 'planes'"),
        ("tahiti", None, "layout=None is not allowed; allowed: 'flat', 'planes'"),
        ("carcassonne_castle", "Planes", "layout='Planes' is not allowed; allowed: 'flat', "),
        ("cornucopia", "grid", "layout='grid' is not allowed; allowed: 'flat'$"),
        ("factors_multiples", 1, "layout=1 is not allowed; allowed: 'flat'$"),
    ],
)
def test_unknown_layouts_are_refused(game, layout, message):
    for factory in (boardgame_envs.raw_env, boardgame_envs.make_single_agent):
        with pytest.raises(InvalidConfigError, match=message):
            factory(game, layout=layout)
