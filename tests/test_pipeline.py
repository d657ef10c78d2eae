"""The training and evaluation pipeline: tiny runs of every command."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

from agents.ppo import PPOAgent
from boardgame_envs import GAMES, InvalidConfigError
from training import bench, demo, evaluate, train_ppo
from training.cli import list_games, main, play


def tiny_args(tmp_path, **overrides) -> train_ppo.Args:
    values = dict(
        timesteps=256,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        net_arch="32",
        eval_every=128,
        eval_games=4,
        checkpoint_every=128,
        out_dir=str(tmp_path),
        run_name="run",
        progress=False,
    )
    values.update(overrides)
    return train_ppo.Args(**values)


def test_train_saves_everything_and_the_model_reloads(tmp_path):
    run_dir = train_ppo.main(tiny_args(tmp_path))
    for name in ("model.zip", "config.json", "eval.csv", "learning_curve.png"):
        assert (run_dir / name).exists(), name
    assert list((run_dir / "checkpoints").glob("model_*.zip"))
    assert list((run_dir / "tb").rglob("events.out.tfevents*"))
    config = json.loads((run_dir / "config.json").read_text())
    assert config["args"]["timesteps"] == 256 and config["hyperparameters"]["net_arch"] == "32"
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert {r["opponent"] for r in rows} == {"random", "heuristic"}
    assert [int(r["timesteps"]) for r in rows][-1] == 256

    agent = PPOAgent.load(run_dir, game="factors_multiples")
    state = GAMES["factors_multiples"].rules().new_state(2, seed=0)
    for _ in range(30):
        action = agent.act(state.view(state.current_player))
        assert action in state.legal_actions()
        state.apply(action)


def test_self_play_keeps_a_pool_of_snapshots(tmp_path):
    run_dir = train_ppo.main(
        tiny_args(
            tmp_path,
            opponent="self-play=0.5,random=0.5",
            snapshot_every=64,
            pool_size=2,
            eval_every=0,
            timesteps=384,
        )
    )
    snapshots = sorted((run_dir / "pool").glob("snapshot_*.zip"))
    assert len(snapshots) >= 3  # the untrained policy plus one every 64 steps (files stay)
    pool = train_ppo.SelfPlayPool(run_dir / "pool", size=2, game="factors_multiples")
    assert len(pool.agents) == 2  # only the latest pool_size are played
    assert isinstance(pool.sample(np.random.default_rng(0)), PPOAgent)


def test_imitation_warm_start_with_self_play_opponents(tmp_path):
    run_dir = train_ppo.main(
        tiny_args(
            tmp_path,
            opponent="self-play=0.5,heuristic=0.5",
            imitate="heuristic",
            imitation_games=2,
            imitation_epochs=1,
            eval_every=0,
            timesteps=128,
        )
    )
    assert (run_dir / "model.zip").exists() and list((run_dir / "pool").glob("*.zip"))


def test_resume_continues_a_killed_run_from_its_checkpoint(tmp_path, monkeypatch):
    original = train_ppo.save_checkpoint

    def save_then_die(model, run_dir, timesteps):
        path = original(model, run_dir, timesteps)
        if timesteps >= 256:
            raise KeyboardInterrupt("simulated kill")
        return path

    monkeypatch.setattr(train_ppo, "save_checkpoint", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        train_ppo.main(tiny_args(tmp_path, timesteps=512))
    monkeypatch.setattr(train_ppo, "save_checkpoint", original)
    run_dir = tmp_path / "run"
    assert not (run_dir / "model.zip").exists()

    train_ppo.main(train_ppo.Args(resume=str(run_dir), timesteps=512, progress=False))
    agent = PPOAgent.load(run_dir)
    assert agent.model.num_timesteps == 512
    steps = [int(r["timesteps"]) for r in csv.DictReader((run_dir / "eval.csv").open())]
    assert steps == sorted(steps) and steps[0] == 128 and steps[-1] == 512


def test_bad_training_arguments(tmp_path):
    with pytest.raises(InvalidConfigError, match="num_players=7"):
        train_ppo.main(tiny_args(tmp_path, num_players=7))
    with pytest.raises(InvalidConfigError, match="unknown agent 'wizard'"):
        train_ppo.main(tiny_args(tmp_path, opponent="wizard"))
    with pytest.raises(InvalidConfigError, match="no config.json"):
        train_ppo.main(train_ppo.Args(resume=str(tmp_path / "nowhere")))
    with pytest.raises(InvalidConfigError, match="no PPO model"):
        PPOAgent.load(tmp_path / "missing.zip")


def test_tiny_tournament(tmp_path):
    tournament = evaluate.run_tournament(
        "factors_multiples", ["heuristic", "random"], [2, 3], games=12, seed=5, progress=False
    )
    # 2 players: one pairing and its mirror; 3 players: both directions.
    assert len(tournament.results) == 4
    for r in tournament.results:
        assert r.wins + r.draws + r.losses == r.games == 12
        low, high = r.ci95
        assert 0 <= low <= r.win_share <= high <= 1
    h2h = tournament.result("heuristic", "random", 2)
    mirror = tournament.result("random", "heuristic", 2)
    assert h2h.wins == mirror.losses and h2h.win_share + mirror.win_share == pytest.approx(1)
    assert set(tournament.ratings) == {"heuristic", "random"}
    paths = evaluate.write_outputs(tournament, tmp_path / "out")
    assert {p.name for p in paths} == {
        "results.md",
        "results.csv",
        "results.json",
        "heatmap_2p.png",
        "heatmap_3p.png",
    }
    assert "| 2 | heuristic | random | 12 |" in (tmp_path / "out/results.md").read_text()


def test_tournament_is_reproducible():
    def shares():
        t = evaluate.run_tournament(
            "factors_multiples", ["heuristic", "random"], [2], 20, seed=3, progress=False
        )
        return [r.win_points for r in t.results]

    assert shares() == shares()


def test_wilson_interval():
    assert evaluate.wilson_interval(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert evaluate.wilson_interval(0, 10)[0] == 0


def test_play_with_scripted_input_including_bad_input():
    out = io.StringIO()
    answers = iter(["hello", "999", ""])

    def read(prompt: str) -> str:
        try:
            return next(answers)
        except StopIteration:  # then always the first move listed on screen
            listed = [
                line
                for line in out.getvalue().splitlines()
                if line.startswith("  ") and line.strip().split(":")[0].isdigit()
            ]
            return listed[-1].strip().split(":")[0]

    returns = play("factors_multiples", "random", num_players=2, seat=1, seed=4, read=read, out=out)
    text = out.getvalue()
    assert "'hello' is not a legal move" in text and "'999' is not a legal move" in text
    assert returns is not None and sum(returns) == pytest.approx(0)
    assert "You " in text and "scores" in text


def test_play_command_quits_on_q():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "training.cli",
            "play",
            "factors_multiples",
            "--vs",
            "heuristic",
            "--seed",
            "2",
        ],
        input="nonsense\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "'nonsense' is not a legal move" in result.stdout and "quit" in result.stdout


def test_cli_list_and_errors(capsys):
    list_games()
    assert "factors_multiples" in capsys.readouterr().out
    assert main(["eval", "--agents", "heuristic,random", "--game", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_bench_on_a_tiny_budget(tmp_path):
    report = bench.main(bench.Args(seconds=0.05, out=str(tmp_path / "bench.json")))
    expected = {
        (g, n)
        for g, info in GAMES.items()
        for n in range(info.rules().min_players, info.rules().max_players + 1)
    }
    assert {(r["game"], r["num_players"]) for r in report["results"]} == expected
    assert all(r["aec_steps_per_s"] > 0 and r["engine_steps_per_s"] > 0 for r in report["results"])
    assert json.loads((tmp_path / "bench.json").read_text())["connect_four_steps_per_s"] > 0


def test_demo_end_to_end_on_a_tiny_budget(tmp_path, capsys):
    tournament = demo.main(
        demo.Args(
            timesteps=128, eval_games=4, imitation_games=2, out_dir=str(tmp_path), progress=False
        )
    )
    assert len(tournament.results) == 6
    assert "heuristic" in capsys.readouterr().out


def test_imitation_warm_start_fits_the_teacher(tmp_path):
    """Behaviour cloning before PPO: the policy's likelihood of the heuristic's choices
    rises above that of the untrained network."""
    import torch

    args = tiny_args(
        tmp_path,
        imitate="heuristic",
        imitation_games=3,
        imitation_epochs=60,
        timesteps=0,
        eval_every=0,
    )
    model = train_ppo.MaskablePPO(
        "MlpPolicy",
        train_ppo.make_vec_env(args, None),
        n_steps=64,
        batch_size=64,
        policy_kwargs=dict(net_arch=[32]),
    )
    data = train_ppo.imitation_data(args)
    assert len(data["obs"]) == len(data["action"]) == len(data["return"]) > 30

    def likelihood() -> float:
        with torch.no_grad():
            _, log_prob, _ = model.policy.evaluate_actions(
                torch.as_tensor(data["obs"], dtype=torch.float32),
                torch.as_tensor(data["action"]),
                action_masks=data["mask"],
            )
        return log_prob.mean().item()

    before = likelihood()
    train_ppo.imitate(model, args)
    assert likelihood() > before + 0.1


def test_annealed_learning_rate_falls_linearly_to_zero(tmp_path):
    schedule = train_ppo.learning_rate_schedule(3e-4, anneal=True)
    assert [schedule(p) for p in (1.0, 0.5, 0.0)] == pytest.approx([3e-4, 1.5e-4, 0.0])
    assert train_ppo.learning_rate_schedule(3e-4, anneal=False) == 3e-4
    run_dir = train_ppo.main(tiny_args(tmp_path, anneal_lr=True, eval_every=0))
    config = json.loads((run_dir / "config.json").read_text())
    assert config["hyperparameters"]["anneal_lr"] is True
    model = PPOAgent.load(run_dir).model
    assert model.lr_schedule(0.25) == pytest.approx(0.25 * 3e-4)
