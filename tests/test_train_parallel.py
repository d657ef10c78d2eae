"""Training with the envs in worker processes and Ray actors (``train --workers K
--backend local|ray``): the same seed gives the same games and the same model for any K
and either backend; snapshots reach the workers; workers close; bad input is refused."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from boardgame_envs import InvalidConfigError
from boardgame_envs.agents.ppo import load_model
from boardgame_envs.core.native import native_games
from boardgame_envs.training import opponents
from boardgame_envs.training.cli import main as cli_main
from boardgame_envs.training.ppo import train as train_ppo
from boardgame_envs.training.ppo.vec_envs import WorkerVecEnv, split

#: The game every command line here names (``--game`` has no default).
ON_A_GAME = ("factors_multiples",)

SELF_PLAY = "self-play=0.5,heuristic=0.3,random=0.2"


def tiny_args(tmp_path, **overrides) -> train_ppo.Args:
    values = dict(
        game="factors_multiples",
        opponent=SELF_PLAY,
        reward="outcome",
        imitate="",
        timesteps=256,
        n_envs=4,
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        net_arch="32",
        eval_every=0,
        eval_games=1,
        checkpoint_every=128,
        snapshot_every=128,
        pool_size=2,
        seed=5,
        out_dir=str(tmp_path),
        run_name="run",
        progress=False,
    )
    values.update(overrides)
    return train_ppo.Args(**values)


def parameters(run_dir: Path) -> dict[str, torch.Tensor]:
    return load_model(run_dir / "model.zip").policy.state_dict()


def assert_same_parameters(run_dir: Path, other: Path) -> None:
    mine, theirs = parameters(run_dir), parameters(other)
    assert mine.keys() == theirs.keys()
    for name in mine:
        assert torch.equal(mine[name], theirs[name]), name


@pytest.fixture(scope="module")
def one_process_run(tmp_path_factory) -> Path:
    """The reference: a self-play run with all envs in this process."""
    return train_ppo.main(tiny_args(tmp_path_factory.mktemp("k1")))


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def play(args: train_ppo.Args, pool_dir: Path, steps: int = 120) -> tuple[list, list, list]:
    """Random legal actions for ``steps`` steps; a second snapshot joins the pool midway.
    Every step's observations, rewards, dones and masks, the workers' pool sizes, and
    the learner seats of envs 4, 0 and 2 at the end."""
    from sb3_contrib import MaskablePPO

    pool = opponents.SelfPlayPool(pool_dir, args.pool_size, args.game)
    env = train_ppo.make_vec_env(args, pool)
    try:
        model = MaskablePPO(
            "MlpPolicy", env, seed=0, device="cpu", policy_kwargs=dict(net_arch=[16]), n_steps=8
        )
        pool.add(model, 0)
        env.reset()
        rng = np.random.default_rng(1)
        rows, sizes = [], []
        for step in range(steps):
            if step == steps // 2:
                model.policy.action_net.bias.data += 1.0  # another policy
                pool.add(model, step)
                if isinstance(env.venv, WorkerVecEnv):
                    sizes = env.venv.call_shared("__len__")
            masks = np.stack(env.env_method("action_masks"))
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
            obs, rewards, dones, _ = env.step(actions)
            rows.append((obs, rewards, dones, masks))
        return rows, sizes, env.get_attr("learner_seat", indices=[4, 0, 2])
    finally:
        env.close()


def assert_same_games(rows: list, other: list) -> None:
    assert len(rows) == len(other)
    for step, (mine, theirs) in enumerate(zip(rows, other)):
        for name, a, b in zip(("obs", "rewards", "dones", "masks"), mine, theirs):
            assert np.array_equal(a, b), f"{name} differ at step {step}"


def test_groups_split_the_envs_evenly_in_order():
    assert split(4, 2) == [range(0, 2), range(2, 4)]
    assert split(5, 3) == [range(0, 2), range(2, 4), range(4, 5)]
    assert split(3, 3) == [range(0, 1), range(1, 2), range(2, 3)]


def test_worker_groups_play_the_same_games_and_get_every_snapshot(tmp_path):
    args = tiny_args(tmp_path, n_envs=5)
    here, _, seats = play(args, tmp_path / "k1")
    there, sizes, their_seats = play(
        train_ppo.Args(**{**vars(args), "workers": 2}), tmp_path / "k2"
    )
    assert sizes == [2, 2]  # both workers' pools hold the snapshot added midway
    assert_same_games(here, there)
    assert seats == their_seats  # env attributes are read from the right worker
    assert sum(dones.sum() for _, _, dones, _ in here) >= 5  # whole games, new opponents


def test_two_local_workers_train_the_same_model(one_process_run, tmp_path):
    run_dir = train_ppo.main(tiny_args(tmp_path, workers=2))
    assert_same_parameters(run_dir, one_process_run)
    assert json.loads((run_dir / "config.json").read_text())["args"]["workers"] == 2
    assert len(list((run_dir / "pool").glob("snapshot_*.zip"))) == 3  # at 0, 128 and 256


@pytest.mark.slow  # Ray's start-up and actors: minutes on 2 cores (make test-all)
def test_ray_actors_train_the_same_model(one_process_run, ray_instance, tmp_path):
    run_dir = train_ppo.main(tiny_args(tmp_path, workers=2, backend="ray"))
    assert_same_parameters(run_dir, one_process_run)
    assert ray_instance.is_initialized()  # a Ray it did not start is left running


@pytest.mark.slow
def test_workers_close_on_ctrl_c_and_the_run_resumes_with_other_workers(tmp_path, monkeypatch):
    made = []

    def recording_make_vec_env(args, pool):
        made.append(original_make(args, pool))
        return made[-1]

    def checkpoint_then_ctrl_c(model, run_dir, timesteps):
        original_save(model, run_dir, timesteps)
        raise KeyboardInterrupt("simulated Ctrl-C")

    original_make, original_save = train_ppo.make_vec_env, train_ppo.save_checkpoint
    monkeypatch.setattr(train_ppo, "make_vec_env", recording_make_vec_env)
    monkeypatch.setattr(train_ppo, "save_checkpoint", checkpoint_then_ctrl_c)
    with pytest.raises(KeyboardInterrupt):
        train_ppo.main(tiny_args(tmp_path, workers=2, imitate="heuristic", imitation_games=2))
    venv = made[0].venv
    assert venv.closed and not any(w.process.is_alive() for w in venv.workers)

    monkeypatch.setattr(train_ppo, "save_checkpoint", original_save)
    run_dir = tmp_path / "run"
    train_ppo.main(train_ppo.Args(resume=str(run_dir), workers=1, progress=False))
    assert load_model(run_dir / "model.zip").num_timesteps == 256
    assert json.loads((run_dir / "config.json").read_text())["args"]["workers"] == 2


def test_a_workers_error_is_raised_as_itself_before_the_run_directory(tmp_path):
    with pytest.raises(InvalidConfigError, match="unknown option 'colour'"):
        train_ppo.main(tiny_args(tmp_path, workers=2, game_options='{"colour": 1}'))
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "overrides, message",
    [
        (dict(workers=0), "--workers 0 is not allowed; allowed: an integer >= 1"),
        (dict(workers=True), "--workers True is not allowed"),
        (dict(workers=5), "--workers 5 is not allowed with --n-envs 4; allowed: 1 to 4"),
        (dict(backend="dask"), "--backend 'dask' is not allowed; allowed: local, ray"),
        (dict(ray_address="auto"), "--ray-address 'auto' is not allowed with --backend local"),
    ],
)
def test_bad_worker_arguments(tmp_path, overrides, message):
    with pytest.raises(InvalidConfigError, match=message):
        tiny_args(tmp_path, **overrides)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--workers", "0"], "--workers 0 is not allowed; allowed: an integer >= 1"),
        (["--backend", "dask"], "--backend 'dask' is not allowed; allowed: local, ray"),
        (
            ["--backend", "ray", "--ray-address", "127.0.0.1:1"],
            "--ray-address '127.0.0.1:1' cannot be reached",
        ),
    ],
)
def test_command_line_worker_mistakes_exit_2_with_one_line(
    argv, message, capsys, monkeypatch, tmp_path
):
    ray = pytest.importorskip("ray")
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # whatever ran before
    monkeypatch.setenv("RAY_BACKEND_LOG_LEVEL", "error")  # restored afterwards
    monkeypatch.chdir(tmp_path)
    assert cli_main(["train", *ON_A_GAME, "--n-envs", "2", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("boardgame-envs train: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no run directory


def test_ray_backend_without_ray_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(InvalidConfigError, match=r"needs Ray, which is not installed"):
        train_ppo.main(tiny_args(tmp_path, workers=2, backend="ray"))
    assert not (tmp_path / "run").exists()


def test_the_compiled_batch_trains_the_same_model_as_one_env_per_game(tmp_path):
    """train's default steps the envs as one compiled batch where the engine plays the
    opponents and the hint (here a heuristic/random mix, the hint and the score reward):
    the same run, weight for weight, as --vector false."""
    if "wasabi" not in native_games():
        pytest.skip("no native wasabi engine built")
    recipe = dict(
        game="wasabi",
        opponent="heuristic=0.7,random=0.3",
        reward="score",
        hint="heuristic",
        imitate="",
        timesteps=128,
        n_envs=4,
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        net_arch="32",
        network="flat",
        eval_every=0,
        eval_games=1,
        checkpoint_every=128,
        seed=3,
        out_dir=str(tmp_path),
        progress=False,
    )
    args = train_ppo.Args(run_name="batch", **recipe)
    venv = train_ppo.make_vec_env(args, None)
    assert type(venv.venv).__name__ == "VecGameEnv" and venv.venv.batch.compiled
    venv.close()
    batch = train_ppo.main(args)
    per_game = train_ppo.main(train_ppo.Args(run_name="per_game", vector=False, **recipe))
    assert_same_parameters(batch, per_game)
