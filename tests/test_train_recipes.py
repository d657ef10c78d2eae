"""Per-game training: every game's recipe runs end to end (tiny budgets), the planes
network, the env-major rollout buffer, and every shipped policy in agents/models/."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import gymnasium
import numpy as np
import pytest
import torch
from sb3_contrib.common.maskable.buffers import MaskableRolloutBuffer

from boardgame_envs import GAMES, InvalidConfigError, make_rules
from boardgame_envs.agents import make_agent
from boardgame_envs.agents.hinted import HintExtractor
from boardgame_envs.agents.networks import PlanesExtractor
from boardgame_envs.core.env import split_planes
from boardgame_envs.training.ppo import model as ppo_model
from boardgame_envs.training.ppo import recipes
from boardgame_envs.training.ppo import train as train_ppo
from boardgame_envs.training.ppo.rollout_buffer import EnvMajorRolloutBuffer


def tiny(tmp_path, game: str, **overrides) -> train_ppo.Args:
    values = dict(
        game=game,
        timesteps=128,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        imitation_games=2,
        eval_every=0,
        eval_games=1,
        checkpoint_every=0,
        out_dir=str(tmp_path),
        run_name="run",
        progress=False,
    )
    values.update(overrides)
    return train_ppo.Args(**values)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_trains_with_its_recipe_and_the_policy_plays_a_game(tmp_path, game):
    args = tiny(tmp_path, game)
    recipe = recipes.recipe(game)
    assert (args.opponent, args.reward, args.imitate, args.hint) == (
        recipe["opponent"],
        recipe["reward"],
        recipe["imitate"],
        recipe["hint"],
    )
    run_dir = train_ppo.main(args)

    agent = make_agent(f"ppo:{run_dir}", game)
    extractor = agent.model.policy.features_extractor
    assert isinstance(extractor, HintExtractor) == bool(recipe["hint"])
    if isinstance(extractor, HintExtractor):
        extractor = extractor.inner
    uses_planes = isinstance(extractor, PlanesExtractor)
    assert uses_planes == (recipes.planes_net(game) is not None)
    heuristic = make_agent("heuristic", game)
    state = make_rules(game).new_state(num_players=2, seed=3)
    seats = [agent, heuristic]
    while not state.is_terminal():
        seat = state.current_player
        action = seats[seat].act(state.view(seat))
        assert state.view(seat).legal_action_mask()[action]
        state.apply(action)
    assert state.winners()


def test_recipe_fields_given_explicitly_win_over_the_recipe(tmp_path):
    args = tiny(tmp_path, "cornucopia", opponent="random", imitate="", reward="score")
    assert (args.opponent, args.imitate, args.reward) == ("random", "", "score")


def test_evaluation_cadence_comes_from_the_recipe_unless_given():
    assert train_ppo.Args(game="tahiti").eval_every == 500_000
    assert train_ppo.Args(game="wasabi").eval_every == 500_000
    assert train_ppo.Args(game="cornucopia").eval_every == 500_000
    assert train_ppo.Args(game="factors_multiples").eval_every == 100_000
    assert train_ppo.Args(game="carcassonne_castle").eval_every == 50_000
    assert train_ppo.Args(game="tahiti", eval_every=0).eval_every == 0


def test_network_option(tmp_path):
    planes = ppo_model.policy_kwargs(tiny(tmp_path, "wasabi", hint=""))
    assert planes["features_extractor_class"] is PlanesExtractor
    assert planes["features_extractor_kwargs"]["planes"] == make_rules("wasabi").planes_shape
    flat = ppo_model.policy_kwargs(tiny(tmp_path, "wasabi", network="flat", hint=""))
    assert "features_extractor_class" not in flat
    no_planes = ppo_model.policy_kwargs(tiny(tmp_path, "factors_multiples"))
    assert "features_extractor_class" not in no_planes
    hinted = ppo_model.policy_kwargs(tiny(tmp_path, "wasabi", hint="heuristic"))
    assert hinted["features_extractor_class"] is HintExtractor
    assert hinted["features_extractor_kwargs"]["inner"] is PlanesExtractor
    with pytest.raises(InvalidConfigError, match="no board planes"):
        tiny(tmp_path, "cornucopia", network="planes")
    with pytest.raises(InvalidConfigError, match="auto, planes, flat"):
        tiny(tmp_path, "wasabi", network="cnn")


@pytest.mark.parametrize("game", recipes.games_with_planes())
def test_planes_extractor_reads_the_flat_and_the_dict_layout_alike(game):
    rules = make_rules(game)
    (size,) = rules.observation_shape
    planes_shape = rules.planes_shape
    flat_space = gymnasium.spaces.Box(0, 10, (size,), np.float32)
    dict_space = gymnasium.spaces.Dict(
        planes=gymnasium.spaces.Box(0, 10, planes_shape, np.float32),
        vector=gymnasium.spaces.Box(0, 10, (size - int(np.prod(planes_shape)),), np.float32),
    )
    state = rules.new_state(num_players=2, seed=1)
    observation = state.view(0).observation()
    parts = split_planes(observation, planes_shape)
    for broadcast in (0, 3):
        torch.manual_seed(0)
        flat = PlanesExtractor(flat_space, planes_shape, channels=4, broadcast=broadcast)
        split = PlanesExtractor(dict_space, planes_shape, channels=4, broadcast=broadcast)
        split.load_state_dict(flat.state_dict())
        with torch.no_grad():
            from_flat = flat(torch.as_tensor(observation)[None])
            from_dict = split({k: torch.as_tensor(v)[None] for k, v in parts.items()})
        assert from_flat.shape == (1, flat.features_dim)
        assert torch.allclose(from_flat, from_dict)


def test_env_major_buffer_trains_the_very_model_sb3s_buffer_trains(tmp_path, monkeypatch):
    args = tiny(tmp_path, "wasabi", n_steps=32, batch_size=16, n_epochs=2, net_arch="16")

    def trained(buffer_class):
        monkeypatch.setattr(ppo_model, "EnvMajorRolloutBuffer", buffer_class)
        env = train_ppo.make_vec_env(args, None)
        try:
            model = ppo_model.new_model(args, env)
            assert type(model.rollout_buffer) is buffer_class
            model.learn(128)  # two rollouts: the kept array is reused
        finally:
            env.close()
        return model.policy.state_dict()

    theirs = trained(MaskableRolloutBuffer)
    ours = trained(EnvMajorRolloutBuffer)
    assert theirs.keys() == ours.keys()
    for name in theirs:
        assert torch.equal(theirs[name], ours[name]), name


@pytest.mark.parametrize("observe_mask", [False, True])
def test_a_policy_trained_on_the_planes_dict_env_loads_and_plays_as_ppo(tmp_path, observe_mask):
    """A user's own MaskablePPO on ``layout="planes"`` (a Dict observation) loads as
    ``ppo:`` and reads each view as the env gave it, planes and vector."""
    from sb3_contrib import MaskablePPO

    from boardgame_envs import make_single_agent

    env = make_single_agent("wasabi", layout="planes", observe_mask=observe_mask)
    model = MaskablePPO("MultiInputPolicy", env, n_steps=32, batch_size=32, seed=0)
    model.learn(32)
    model.save(tmp_path / "dict_model.zip")
    agent = make_agent(f"ppo:{tmp_path / 'dict_model.zip'}", "wasabi")
    assert agent.planes_shape == make_rules("wasabi").planes_shape
    assert agent.observe_mask is observe_mask
    state = make_rules("wasabi").new_state(2, seed=1)
    heuristic = make_agent("heuristic", "wasabi", seed=1)
    while not state.is_terminal():
        view = state.view(state.current_player)
        action = (agent if state.current_player == 0 else heuristic).act(view)
        assert view.legal_action_mask()[action]
        state.apply(action)
    with pytest.raises(InvalidConfigError, match="trained on another game"):
        make_agent(f"ppo:{tmp_path / 'dict_model.zip'}", "tahiti")


ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "agents" / "models"


def shipped_table(path: Path) -> tuple[str, int]:
    """The game and table size a shipped policy's name gives (training/ship.py names them
    ``<game>_ppo.zip`` at 2 players, ``<game>_<n>p_ppo.zip`` at n)."""
    stem = path.name.removesuffix("_ppo.zip")
    game, _, size = stem.rpartition("_")
    if size.endswith("p") and size[:-1].isdigit():
        return game, int(size[:-1])
    return stem, 2


@pytest.mark.parametrize("path", sorted(MODELS.glob("*_ppo.zip")), ids=lambda p: p.name)
def test_every_shipped_policy_plays_a_legal_game_at_its_table_size(path):
    game, players = shipped_table(path)
    assert game in GAMES, f"{path.name} names no game"
    assert path.stat().st_size <= 5 * 2**20
    seats = [make_agent(f"ppo:{path}", game)]
    seats += [make_agent("heuristic", game) for _ in range(players - 1)]
    state = make_rules(game).new_state(num_players=players, seed=11)
    while not state.is_terminal():
        view = state.view(state.current_player)
        action = seats[state.current_player].act(view)
        assert view.legal_action_mask()[action]
        state.apply(action)
    assert state.winners()


def load_docs_script(name: str):
    """A script of docs/training as a module (they are not a package)."""
    path = ROOT / "docs" / "training" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("hint_weight", [0.0, 50.0])
def test_hint_sampling_reads_the_distribution_the_hint_shifts(tmp_path, hint_weight):
    hint_sampling = load_docs_script("hint_sampling")
    run_dir = train_ppo.main(tiny(tmp_path, "cornucopia", hint_weight=hint_weight))
    figures = hint_sampling.sampling_figures("cornucopia", str(run_dir / "model.zip"), 1)
    assert figures["decisions"] > 0
    if hint_weight:  # a logit 50 above the rest: the hint's move, surely
        assert figures["mean p(hint)"] > 0.99
        assert figures["argmax is the hint"] == 1.0
        assert figures["entropy"] < 0.05
    else:  # a barely trained network alone: far from it
        assert figures["mean p(hint)"] < 0.9
