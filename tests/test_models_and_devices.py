"""The shipped policies as package data, named ``ppo:<game>`` from any folder, and torch
devices: ``train --device`` and ``ppo:<model>,device=...``."""

from __future__ import annotations

import importlib.resources
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from boardgame_envs import GAMES, InvalidConfigError, make_rules
from boardgame_envs.agents.ppo import (
    PPOAgent,
    models_folder,
    parse_spec,
    resolve_device,
    shipped_file_name,
    shipped_models,
)
from boardgame_envs.agents.specs import make_agent, split_agent_specs
from boardgame_envs.training import opponents
from boardgame_envs.training.cli import main
from boardgame_envs.training.ppo import model as ppo_model
from boardgame_envs.training.ppo import train as train_ppo

pytest.importorskip("sb3_contrib")

#: The game every command line here names (no command has a default game).
ON_A_GAME = ("factors_multiples",)

SHIPPED = {*GAMES, "factors_multiples@3p", "tahiti@3p", "tahiti@4p"}


def tiny_args(tmp_path: Path, **overrides) -> train_ppo.Args:
    values = dict(
        game="factors_multiples",
        timesteps=128,
        opponent="random",
        reward="outcome",
        imitate="",
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        net_arch="32",
        eval_every=0,
        eval_games=2,
        checkpoint_every=0,
        out_dir=str(tmp_path),
        run_name="run",
        progress=False,
    )
    values.update(overrides)
    return train_ppo.Args(**values)


@pytest.fixture
def no_cuda(monkeypatch):
    """torch sees no GPU, whatever this machine has."""
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)


def _plays_a_legal_move(agent: PPOAgent, game: str, players: int = 2) -> None:
    state = make_rules(game).new_state(num_players=players, seed=3)
    while len(state.legal_actions()) < 2:  # a decision the network makes
        state.apply(state.legal_actions()[0])
    view = state.view(state.current_player)
    assert view.legal_action_mask()[agent.act(view)]


# -- the shipped policies ------------------------------------------------------------------
def test_the_shipped_policies_are_package_data_named_by_game_and_table():
    shipped = shipped_models()
    assert set(shipped) == SHIPPED
    folder = Path(str(importlib.resources.files("boardgame_envs.agents") / "models"))
    assert models_folder() == folder
    for name, path in shipped.items():
        game, _, table = name.partition("@")
        players = int(table.removesuffix("p")) if table else 2
        assert path == folder / shipped_file_name(game, players), name
        assert path.stat().st_size <= 5 * 2**20


def test_a_shipped_policy_loads_by_name_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    agent = make_agent("ppo:factors_multiples", "factors_multiples", seed=0)
    assert isinstance(agent, PPOAgent) and agent.label == "ppo:factors_multiples"
    assert agent.observe_mask  # read from the model, as for a path
    _plays_a_legal_move(agent, "factors_multiples")
    bigger = make_agent("ppo:tahiti@3p", "tahiti", seed=0)
    assert bigger.label == "ppo:tahiti@3p" and bigger.hint_agent is not None  # hinted
    _plays_a_legal_move(bigger, "tahiti", players=3)
    assert list(tmp_path.iterdir()) == []


def test_play_against_a_shipped_policy_from_another_folder(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", "play", "factors_multiples", "--vs",
         "ppo:factors_multiples", "--seed", "3"],
        input="1\n1\n1\nq\n", capture_output=True, text=True, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "against ppo:factors_multiples" in done.stdout
    assert "\nP1: " in done.stdout and done.stdout.rstrip().endswith("quit")  # it moved
    assert list(tmp_path.iterdir()) == []


def test_an_existing_path_wins_over_a_shipped_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_dir = tmp_path / "factors_multiples"  # a run directory named like the game
    run_dir.mkdir()
    shutil.copy(shipped_models()["factors_multiples@3p"], run_dir / "model.zip")
    agent = make_agent("ppo:factors_multiples", "factors_multiples")
    assert agent.label == f"ppo:{Path('factors_multiples') / 'model.zip'}"
    shipped = PPOAgent.load("factors_multiples@3p").model.policy.state_dict()
    for key, weights in agent.model.policy.state_dict().items():
        assert weights.equal(shipped[key]), key


def test_an_unknown_model_lists_the_shipped_ones(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InvalidConfigError, match="no shipped policy of that name") as error:
        make_agent("ppo:chess", "factors_multiples")
    assert all(name in str(error.value) for name in SHIPPED)
    assert main(["play", "wasabi", "--vs", "ppo:wasabi@9p"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("boardgame-envs play: no PPO model 'wasabi@9p'") and "tahiti@3p" in err
    assert err.count("\n") == 1


def test_a_shipped_policy_of_another_game_is_refused():
    with pytest.raises(InvalidConfigError, match="trained on another game"):
        make_agent("ppo:factors_multiples", "wasabi")


def test_ship_writes_where_the_names_find_it(tmp_path, monkeypatch):
    """``boardgame_envs.training.ppo.ship`` writes into the package's models folder by default,
    under the name that ``ppo:<game>@<n>p`` reads."""
    from boardgame_envs.agents import ppo
    from boardgame_envs.training.ppo import ship

    folder = tmp_path / "package_models"
    monkeypatch.setattr(ship, "models_folder", lambda: folder)
    monkeypatch.setattr(ppo, "models_folder", lambda: folder)
    run_dir = train_ppo.main(tiny_args(tmp_path, num_players=3))
    assert ship.Args().out_dir == ""
    shipped = ship.main(ship.Args(run_dir=str(run_dir)))
    assert shipped == folder / "factors_multiples_3p_ppo.zip"
    assert set(shipped_models()) == {"factors_multiples@3p"}
    agent = make_agent("ppo:factors_multiples@3p", "factors_multiples")
    trained = PPOAgent.load(run_dir).model.policy.state_dict()
    for key, weights in agent.model.policy.state_dict().items():
        assert weights.equal(trained[key]), key


def test_init_takes_a_shipped_policys_name(tmp_path):
    args = tiny_args(tmp_path, net_arch="32")
    model = ppo_model.new_model(args, train_ppo.make_vec_env(args, None))
    # Found by name (not "no such model"), then refused: the tiny network is not its shape.
    with pytest.raises(InvalidConfigError, match="'factors_multiples' does not fit this run"):
        ppo_model.start_from(model, "factors_multiples")
    with pytest.raises(InvalidConfigError, match="no such model"):
        ppo_model.start_from(model, "chess")


# -- agent specs with options ----------------------------------------------------------------
def test_a_ppo_specs_options_stay_with_it():
    text = "ppo:wasabi,device=cpu,heuristic,ismcts:iterations=5,seconds=0,ppo:runs/x"
    assert split_agent_specs(text) == [
        "ppo:wasabi,device=cpu",
        "heuristic",
        "ismcts:iterations=5,seconds=0",
        "ppo:runs/x",
    ]
    assert parse_spec("tahiti@3p,device=cuda:1") == ("tahiti@3p", {"device": "cuda:1"})
    assert opponents.spec_and_weight("ppo:wasabi,device=cpu=0.5") == (
        "ppo:wasabi,device=cpu",
        "0.5",
    )
    assert opponents.spec_and_weight("ppo:runs/x=0.5") == ("ppo:runs/x", "0.5")
    mix = opponents.parse_opponents("ppo:wasabi,device=cpu=3,heuristic=1", "wasabi", None)
    assert [type(a).__name__ for a in mix.agents][0] == "PPOAgent"
    assert list(mix.weights) == [0.75, 0.25]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ppo:wasabi,devise=cpu", "option 'devise=cpu' of agent 'ppo:wasabi,devise=cpu' is not"),
        ("ppo:wasabi,device=tpu", "device 'tpu' is not allowed; allowed: auto, cpu, cuda or"),
        ("ppo:", "agent 'ppo:' names no model"),
    ],
)
def test_bad_ppo_specs_say_what_is_allowed(spec, message):
    with pytest.raises(InvalidConfigError, match=message.replace("(", r"\(")):
        make_agent(spec, "wasabi")


# -- devices -----------------------------------------------------------------------------------
def test_devices_resolve_to_what_torch_sees(no_cuda):
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") == "cpu"
    for device in ("cuda", "cuda:1"):
        with pytest.raises(InvalidConfigError, match=f"--device '{device}' is not available"):
            resolve_device(device)
    for device in ("gpu", "CUDA", "cuda:", "cuda:x", "", 0):
        with pytest.raises(InvalidConfigError, match="allowed: auto, cpu, cuda or cuda:N"):
            resolve_device(device)


def test_a_model_loads_on_the_cpu_unless_told(no_cuda):
    agent = make_agent("ppo:factors_multiples,device=auto", "factors_multiples")
    assert agent.model.device.type == "cpu"
    assert PPOAgent.load("cornucopia").model.device.type == "cpu"
    with pytest.raises(InvalidConfigError, match="device 'cuda' is not available"):
        make_agent("ppo:factors_multiples,device=cuda", "factors_multiples")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["train", *ON_A_GAME, "--device", "cuda"], "--device 'cuda' is not available: torch "),
        (["train", *ON_A_GAME, "--device", "cuda:0"], "--device 'cuda:0' is not available"),
        (
            ["train", *ON_A_GAME, "--device", "gpu"],
            "--device 'gpu' is not allowed; allowed: auto, cpu, cuda",
        ),
        (["play", "wasabi", "--vs", "ppo:wasabi,device=cuda"], "device 'cuda' is not available"),
        (
            ["eval", "wasabi", "--agents", "ppo:wasabi,device=cuda,heuristic"],
            "device 'cuda' is not avail",
        ),
    ],
)
def test_a_device_torch_does_not_see_is_refused_with_exit_2(
    argv, message, no_cuda, tmp_path, monkeypatch, capsys
):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"boardgame-envs {argv[0]}: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no run directory


def test_train_says_its_device_and_leaves_nothing_in_the_temp_folder(
    tmp_path, monkeypatch, capsys, no_cuda
):
    """A run prints the device it trains on; SB3's logger makes no ``SB3-<time>`` folder in
    the system's temporary folder, neither for ``train`` nor for a model made without a
    tensorboard folder (``new_model``, as ``bench`` uses it)."""
    system_temp = tmp_path / "system_temp"
    system_temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(system_temp))
    assert tempfile.gettempdir() == str(system_temp)

    run_dir = train_ppo.main(tiny_args(tmp_path / "runs"))
    assert "training factors_multiples on cpu (torch " in capsys.readouterr().out
    assert (run_dir / "model.zip").exists()
    args = tiny_args(tmp_path / "runs")
    ppo_model.new_model(args, train_ppo.make_vec_env(args, None)).learn(128)
    assert [p.name for p in system_temp.iterdir() if p.name.startswith("SB3-")] == []


def test_cli_train_prints_the_device_first(tmp_path, capsys, no_cuda):
    assert main(["train", *ON_A_GAME, "--timesteps", "64", "--n-envs", "1", "--n-steps", "64",
                 "--batch-size", "64", "--net-arch", "16", "--imitate", "", "--opponent",
                 "random", "--eval-every", "0", "--eval-games", "1", "--checkpoint-every",
                 "0", "--out-dir", str(tmp_path), "--no-progress"]) == 0  # fmt: skip
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("training factors_multiples on cpu (torch ")
    assert first.endswith("(--device auto)")


def test_a_shipped_policy_plays_through_the_cli_eval(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = [
        "eval",
        *ON_A_GAME,
        "--agents",
        "ppo:factors_multiples,device=cpu,random",
        "--games",
        "2",
    ]
    assert main([*argv, "--no-progress"]) == 0
    assert "ppo:factors_multiples,device=cpu" in capsys.readouterr().out
