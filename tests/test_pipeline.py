"""The training and evaluation pipeline: tiny runs of every command."""

from __future__ import annotations

import argparse
import csv
import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from sb3_contrib import MaskablePPO

from boardgame_envs import GAMES, InvalidConfigError, engine_info
from boardgame_envs.agents.ppo import PPOAgent
from boardgame_envs.training import opponents, run_files
from boardgame_envs.training.cli import demo
from boardgame_envs.training.cli.commands import list_games, main
from boardgame_envs.training.cli.play import _ask_action, play
from boardgame_envs.training.cli_args import add_dataclass_arguments, args_from_namespace
from boardgame_envs.training.evaluation import bench
from boardgame_envs.training.evaluation import tournament as evaluate
from boardgame_envs.training.ppo import imitation
from boardgame_envs.training.ppo import model as ppo_model
from boardgame_envs.training.ppo import train as train_ppo

#: The game every command line here names (no command has a default game).
ON_A_GAME = ("factors_multiples",)

REPO = Path(__file__).resolve().parents[1]


def tiny_args(tmp_path, **overrides) -> train_ppo.Args:
    values = dict(
        game="factors_multiples",
        timesteps=256,
        opponent="random=0.5,heuristic=0.5",
        reward="outcome",
        imitate="",
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


def test_a_run_evaluates_its_final_policy_once(tmp_path):
    """The target (192) falls inside the last rollout (128 steps each, the run ends at
    256): the scheduled evaluation at 192 would only precede the end-of-run one."""
    run_dir = train_ppo.main(tiny_args(tmp_path, timesteps=192, eval_every=96))
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert [int(r["timesteps"]) for r in rows] == [96, 96, 256, 256]


def test_ppo_agent_decides_on_one_torch_thread_and_restores_the_setting(tmp_path):
    import torch

    agent = PPOAgent.load(train_ppo.main(tiny_args(tmp_path)), game="factors_multiples")
    predict, threads_seen = agent.model.predict, []

    def recording_predict(*args, **kwargs):
        threads_seen.append(torch.get_num_threads())
        return predict(*args, **kwargs)

    agent.model.predict = recording_predict
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        state = GAMES["factors_multiples"].rules().new_state(2, seed=0)
        while not threads_seen:
            state.apply(agent.act(state.view(state.current_player)))
        assert threads_seen == [1] and torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)


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
    pool = opponents.SelfPlayPool(run_dir / "pool", size=2, game="factors_multiples")
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


def test_lone_plays_only_that_agents_pairings():
    full = evaluate.run_tournament(
        "factors_multiples", ["heuristic", "random"], [2, 3], games=6, seed=5, progress=False
    )
    lone = evaluate.run_tournament(
        "factors_multiples",
        ["heuristic", "random"],
        [2, 3],
        games=6,
        seed=5,
        progress=False,
        lone="random",
    )
    played = {(r.agent, r.opponent, r.num_players) for r in lone.results}
    # 2 players: the one pairing and its mirror; 3 players: only random alone.
    assert played == {
        ("heuristic", "random", 2),
        ("random", "heuristic", 2),
        ("random", "heuristic", 3),
    }
    for key in played:
        assert lone.result(*key).win_points == full.result(*key).win_points
    with pytest.raises(InvalidConfigError, match="lone agent 'wizard'.*allowed: heuristic, random"):
        evaluate.run_tournament(
            "factors_multiples", ["heuristic", "random"], [2], games=1, lone="wizard"
        )


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
            "boardgame_envs.training.cli",
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
    out = capsys.readouterr().out
    for game, engine in engine_info()["engines"].items():
        assert (
            next(line for line in out.splitlines() if line.startswith(game + " ")).split()[4]
            == engine
        )
    assert main(["eval", "--agents", "heuristic,random", "chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


@pytest.mark.slow  # make bench itself runs it
def test_bench_on_a_tiny_budget(tmp_path, monkeypatch):
    timed = []
    monkeypatch.setattr(
        bench, "learner_rate", lambda game, steps, **args: timed.append((game, args)) or 1.5
    )
    games = ["factors_multiples", "tahiti"]
    report = bench.main(
        bench.Args(games=",".join(games), seconds=0.02, repeats=1, out=str(tmp_path / "b.json"))
    )
    both = {"compiled_batch": 2, "env_per_game": 2}
    assert report["learner_steps_per_s"] == dict.fromkeys(games, both)
    assert timed == [(g, a) for g in games for a in ({}, {"vector": False})]
    expected = {
        (g, n)
        for g in games
        for n in range(GAMES[g].rules().min_players, GAMES[g].rules().max_players + 1)
    }
    assert {(r["game"], r["num_players"]) for r in report["results"]} == expected
    assert all(r["aec_steps_per_s"] > 0 and r["engine_steps_per_s"] > 0 for r in report["results"])
    searched = [r for r in report["results"] if r["num_players"] == 2]
    assert all(r["heuristic_decisions_per_s"] > 0 for r in searched)
    assert all(r["heuristic_in_play_per_s"] > 0 for r in searched)
    assert all(r["single_agent_steps_per_s"] > 0 for r in searched)
    assert all(r["search_iterations_per_s"] > 0 for r in searched)
    if any(r["engine"] == "native" for r in searched):
        assert all(r["vector_steps_per_s"] > 0 for r in searched if r["engine"] == "native")
    assert json.loads((tmp_path / "b.json").read_text())["connect_four_steps_per_s"] > 0
    assert set(report["network_forward_per_s"]) == set(games)
    assert all(min(r.values()) > 0 for r in report["network_forward_per_s"].values())
    guided = report["net_search_iterations_per_s"]
    assert set(guided) == set(games)  # both have a shipped network
    assert all(r["one"] > 0 and r["batched"] > 0 for r in guided.values())


def test_bench_times_the_heuristic_in_play_on_every_engine():
    for engine in bench.engines_of("factors_multiples", "all"):
        assert bench.heuristic_in_play_rate("factors_multiples", engine, 1, seed=0) > 0
    assert 0 < bench.clock_cost(1000) < 1e6  # nanoseconds


def test_bench_learner_rate_trains_with_the_games_defaults():
    rate = bench.learner_rate(
        "wasabi", 64, n_envs=2, n_steps=32, batch_size=32, n_epochs=1, net_arch="16"
    )
    assert rate > 0


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
        timesteps=64,  # not trained: only the warm start is measured
        eval_every=0,
    )
    model = MaskablePPO(
        "MlpPolicy",
        train_ppo.make_vec_env(args, None),
        n_steps=64,
        batch_size=64,
        policy_kwargs=dict(net_arch=[32]),
    )
    data = imitation.imitation_data(args)
    assert len(data["obs"]) == len(data["action"]) == len(data["return"]) > 30

    def likelihood() -> float:
        with torch.no_grad():
            _, log_prob, _ = model.policy.evaluate_actions(
                torch.as_tensor(data["obs"][:]),
                torch.as_tensor(data["action"]),
                action_masks=data["mask"],
            )
        return log_prob.mean().item()

    before = likelihood()
    imitation.imitate(model, args)
    assert likelihood() > before + 0.1


def test_imitation_data_is_the_same_in_two_workers_and_read_back_from_its_file(tmp_path):
    args = tiny_args(tmp_path, imitate="heuristic", imitation_games=3)
    here = imitation.imitation_data(args)
    path = tmp_path / "teacher.npz"
    saved = imitation.imitation_data(dataclasses.replace(args, workers=2, imitation_data=str(path)))
    read = imitation.imitation_data(dataclasses.replace(args, imitation_data=str(path)))
    for data in (saved, read):
        for key in ("mask", "action", "return"):
            assert np.array_equal(data[key], here[key])
        assert np.array_equal(data["obs"][:], here["obs"][:])


def test_imitation_data_made_with_other_settings_is_refused(tmp_path):
    path = tmp_path / "teacher.npz"
    args = tiny_args(tmp_path, imitate="heuristic", imitation_games=2, imitation_data=str(path))
    imitation.imitation_data(args)
    with pytest.raises(InvalidConfigError, match="imitation_games=2 \\(this run: 3\\)"):
        imitation.imitation_data(dataclasses.replace(args, imitation_games=3))


def test_imitation_data_that_is_not_such_a_file_is_refused(tmp_path):
    path = tmp_path / "teacher.npz"
    path.write_text("not an npz")
    args = tiny_args(tmp_path, imitate="heuristic", imitation_games=2, imitation_data=str(path))
    with pytest.raises(InvalidConfigError, match="is not imitation data written by train"):
        imitation.imitation_data(args)


def test_annealed_learning_rate_falls_linearly_to_zero(tmp_path):
    schedule = ppo_model.learning_rate_schedule(3e-4, anneal=True)
    assert [schedule(p) for p in (1.0, 0.5, 0.0)] == pytest.approx([3e-4, 1.5e-4, 0.0])
    assert schedule(-7.0) == 0.0  # a run shorter than one rollout: SB3's fraction is < 0
    assert ppo_model.learning_rate_schedule(3e-4, anneal=False) == 3e-4
    run_dir = train_ppo.main(tiny_args(tmp_path, anneal_lr=True, eval_every=0))
    config = json.loads((run_dir / "config.json").read_text())
    assert config["hyperparameters"]["anneal_lr"] is True
    model = PPOAgent.load(run_dir).model
    assert model.lr_schedule(0.25) == pytest.approx(0.25 * 3e-4)


def test_annealed_learning_rate_can_stop_at_a_fraction_of_itself(tmp_path):
    schedule = ppo_model.learning_rate_schedule(3e-4, anneal=True, final_fraction=0.5)
    assert [schedule(p) for p in (1.0, 0.5, 0.0)] == pytest.approx([3e-4, 2.25e-4, 1.5e-4])
    assert schedule(-7.0) == pytest.approx(1.5e-4)  # never below its final value
    # falling to 0 is the same line as before the option existed, to the last bit
    to_zero = ppo_model.learning_rate_schedule(3e-4, anneal=True, final_fraction=0.0)
    assert all(to_zero(p) == 3e-4 * p for p in (1.0, 0.7, 0.123, 0.0))
    run_dir = train_ppo.main(
        tiny_args(tmp_path, anneal_lr=True, final_lr_fraction=0.25, eval_every=0)
    )
    config = json.loads((run_dir / "config.json").read_text())
    assert config["hyperparameters"]["final_lr_fraction"] == 0.25
    model = PPOAgent.load(run_dir).model
    assert model.lr_schedule(0.0) == pytest.approx(0.25 * 3e-4)


def test_final_learning_rate_fraction_outside_0_to_1_is_refused():
    with pytest.raises(InvalidConfigError, match="--final-lr-fraction 1.5 .*from 0 to 1"):
        train_ppo.Args(game="factors_multiples", final_lr_fraction=1.5)


# -- issue 11: command-line mistakes, resume, checkpoints, run directories ---------------------
@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["eval", *ON_A_GAME, "--games", "0"],
            "--games 0 is not allowed; allowed: an integer >= 1",
        ),
        (["eval", *ON_A_GAME, "--games", "-3"], "--games -3 is not allowed"),
        (
            ["eval", *ON_A_GAME, "--workers", "0"],
            "--workers 0 is not allowed; allowed: an integer >= 1",
        ),
        (
            ["eval", *ON_A_GAME, "--seed", "-1"],
            "--seed -1 is not allowed; allowed: an integer >= 0",
        ),
        (
            ["eval", *ON_A_GAME, "--num-players", "2,x"],
            "--num-players '2,x' is not allowed; allowed: comma",
        ),
        (
            ["train", *ON_A_GAME, "--timesteps", "0"],
            "--timesteps 0 is not allowed; allowed: an integer >= 1",
        ),
        (["train", *ON_A_GAME, "--timesteps", "-5"], "--timesteps -5 is not allowed"),
        (["demo", "--timesteps", "-1"], "--timesteps -1 is not allowed"),
        (["train", *ON_A_GAME, "--n-envs", "0"], "--n-envs 0 is not allowed"),
        (["train", *ON_A_GAME, "--batch-size", "0"], "--batch-size 0 is not allowed"),
        (
            ["train", *ON_A_GAME, "--learning-rate", "-1"],
            "--learning-rate -1.0 is not allowed; allowed: a",
        ),
        (["train", *ON_A_GAME, "--learning-rate", "nan"], "--learning-rate nan is not allowed"),
        (
            ["train", *ON_A_GAME, "--gamma", "1.5"],
            "--gamma 1.5 is not allowed; allowed: a number from 0",
        ),
        (
            ["train", *ON_A_GAME, "--reward", "money"],
            "--reward 'money' is not allowed; allowed: outcome",
        ),
        (["train", *ON_A_GAME, "--game-options", "{bad"], "--game-options '{bad' is not JSON"),
        (
            ["train", *ON_A_GAME, "--game-options", "[1]"],
            "--game-options '[1]' is not allowed; allowed: a",
        ),
        (["train", *ON_A_GAME, "--game-options", '{"colour": 1}'], "unknown option 'colour'"),
        (
            ["train", *ON_A_GAME, "--net-arch", "abc"],
            "--net-arch 'abc' is not allowed; allowed: comma",
        ),
        (
            ["train", *ON_A_GAME, "--opponent", "ppo:README.md"],
            "'README.md' is not a readable saved",
        ),
        (["bench", "--seconds", "0"], "--seconds 0.0 is not allowed; allowed: a number > 0"),
        (["bench", "--repeats", "0"], "--repeats 0 is not allowed; allowed: an integer >= 1"),
        (["play", "factors_multiples", "--seed", "-1"], "--seed -1 is not allowed"),
        (["play", "factors_multiples", "--vs", "ppo:README.md"], "is not a readable saved"),
        (
            ["eval", *ON_A_GAME, "--agents", "heuristic,ppo:README.md", "--games", "2"],
            "not a readable",
        ),
    ],
)
def test_command_line_mistakes_exit_2_with_one_line(argv, message, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "README.md").write_text("# not a model\n")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith(f"boardgame-envs {argv[0]}: ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert list(tmp_path.iterdir()) == [tmp_path / "README.md"]  # no run directory left


def test_module_command_lines_exit_2_with_one_line():
    module = "boardgame_envs.training.evaluation.tournament"
    result = subprocess.run(
        [sys.executable, "-m", module, *ON_A_GAME, "--games", "0"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 2
    assert result.stderr.strip().endswith("--games 0 is not allowed; allowed: an integer >= 1")
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize(
    ("old", "new", "module"),
    [
        ("evaluate", "evaluation", "evaluation.tournament"),
        ("expert_iteration", "exit", "exit.train"),
    ],
)
def test_moved_modules_warn_and_lead_to_the_new_place(old, new, module):
    """The old names of moved modules still run (``python -m``) and import, with one
    DeprecationWarning that names the new place."""
    result = subprocess.run(
        [sys.executable, "-m", f"boardgame_envs.training.{old}", *ON_A_GAME, "--seed", "-1"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert result.returncode == 2
    assert f"DeprecationWarning: boardgame_envs.training.{old} moved to " in result.stderr
    assert f"boardgame_envs.training.{new}" in result.stderr
    assert result.stderr.strip().endswith("--seed -1 is not allowed; allowed: an integer >= 0")
    code = (
        f"import boardgame_envs.training.{old} as old, boardgame_envs.training.{module} as new; "
        "assert old.Args is new.Args and old.main is new.main"
    )
    imported = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    assert imported.returncode == 0, imported.stderr
    assert imported.stderr.count("DeprecationWarning") == 1


def test_failed_training_start_leaves_no_run_directory(tmp_path):
    (tmp_path / "fake.zip").write_text("not a model")
    for overrides in (
        dict(num_players=7),
        dict(opponent="wizard"),
        dict(opponent=f"ppo:{tmp_path / 'fake.zip'}"),
        dict(game_options='{"rounds": "many"}'),
        dict(game="chess"),
    ):
        with pytest.raises(InvalidConfigError):
            train_ppo.main(tiny_args(tmp_path, **overrides))
        assert not (tmp_path / "run").exists(), overrides


def test_resume_without_timesteps_keeps_the_saved_target(tmp_path):
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    saved = dataclasses.asdict(tiny_args(tmp_path, timesteps=384))
    (run_dir / "config.json").write_text(json.dumps({"args": saved}))

    def resumed(**given):
        return train_ppo._resumed_args(train_ppo.Args(resume=str(run_dir), **given)).timesteps

    assert resumed() == 384  # not the 200,000 default
    assert resumed(timesteps=1000) == 1000  # an explicit --timesteps may raise it
    assert resumed(timesteps=100) == 384  # ... never lower it
    parsed = argparse.ArgumentParser()
    add_dataclass_arguments(parsed, train_ppo.Args)
    namespace = parsed.parse_args(["--resume", str(run_dir)])
    assert train_ppo._resumed_args(args_from_namespace(train_ppo.Args, namespace)).timesteps == 384


def test_checkpoints_are_written_whole_or_not_at_all(tmp_path):
    class DiesWhileSaving:
        def save(self, path):
            Path(path).write_bytes(b"half a zip")
            raise KeyboardInterrupt("killed while saving")

    class Saves:
        def save(self, path):
            Path(path).write_bytes(b"a whole model")

    first = run_files.save_checkpoint(Saves(), tmp_path, 128)
    with pytest.raises(KeyboardInterrupt):
        run_files.save_checkpoint(DiesWhileSaving(), tmp_path, 128)
    with pytest.raises(KeyboardInterrupt):
        run_files.save_checkpoint(DiesWhileSaving(), tmp_path, 256)
    assert first.read_bytes() == b"a whole model"
    assert [p.name for p in (tmp_path / "checkpoints").iterdir()] == [first.name]


def test_resume_falls_back_to_the_checkpoint_before_an_unreadable_one(
    tmp_path, monkeypatch, capsys
):
    original = train_ppo.save_checkpoint

    def save_then_die(model, run_dir, timesteps):
        path = original(model, run_dir, timesteps)
        if timesteps >= 256:
            raise KeyboardInterrupt("simulated kill")
        return path

    monkeypatch.setattr(train_ppo, "save_checkpoint", save_then_die)
    with pytest.raises(KeyboardInterrupt):
        train_ppo.main(tiny_args(tmp_path, timesteps=384))
    monkeypatch.setattr(train_ppo, "save_checkpoint", original)
    run_dir = tmp_path / "run"
    newest = run_dir / "checkpoints" / "model_0000000256.zip"
    newest.write_bytes(newest.read_bytes()[:1000])  # cut short, as by a full disk

    train_ppo.main(train_ppo.Args(resume=str(run_dir), progress=False))  # no --timesteps
    out = capsys.readouterr().out
    assert "checkpoint model_0000000256.zip is unreadable" in out
    assert "from model_0000000128.zip (128 steps)" in out
    assert PPOAgent.load(run_dir).model.num_timesteps == 384  # the run's own target

    for path in (run_dir / "checkpoints").glob("*.zip"):
        path.write_bytes(b"junk")
    with pytest.raises(InvalidConfigError, match="none of its checkpoints can be read"):
        train_ppo.main(train_ppo.Args(resume=str(run_dir), progress=False))


@pytest.mark.parametrize("bad", ["--5", "²", "٣", "+5", "5.0", " 5 5", "0x5"])
def test_play_prompt_asks_again_after_odd_numbers(bad):
    out = io.StringIO()
    answers = iter([bad, "2"])  # choices are numbered 1..k: "2" is the second, action 5
    assert _ask_action([3, 5], lambda prompt: next(answers), out) == 5
    assert f"{bad.strip()!r} is not a legal move; type a number from 1 to 2" in out.getvalue()


@pytest.mark.parametrize("stop", [KeyboardInterrupt, EOFError])
def test_play_prompt_quits_cleanly_on_ctrl_c_and_ctrl_d(stop):
    def read(prompt):
        raise stop

    out = io.StringIO()
    assert _ask_action([3, 5], read, out) is None
    returns = play("factors_multiples", "random", seed=1, read=read, out=out)
    assert returns is None and out.getvalue().rstrip().endswith("quit")


def test_list_shows_the_pettingzoo_and_gymnasium_ids(capsys):
    list_games()
    out = capsys.readouterr().out
    for info in GAMES.values():
        line = next(line for line in out.splitlines() if info.gymnasium_id in line)
        assert line.split() == [info.id, info.pettingzoo_id, info.gymnasium_id]


def test_init_starts_from_a_saved_policy_and_refuses_one_that_does_not_fit(tmp_path):
    import torch

    source = train_ppo.main(tiny_args(tmp_path / "a", imitate=""))
    args = tiny_args(tmp_path / "b", init=str(source), num_players=3)
    model = ppo_model.new_model(args, train_ppo.make_vec_env(args, None))
    ppo_model.start_from(model, args.init)
    saved = PPOAgent.load(source).model.policy.state_dict()
    for name, weights in model.policy.state_dict().items():
        assert torch.equal(weights, saved[name]), name
    run_dir = train_ppo.main(args)  # fine-tuned at 3 players, no imitation
    assert json.loads((run_dir / "config.json").read_text())["args"]["init"] == str(source)

    wider = tiny_args(tmp_path / "c", init=str(source), net_arch="64")
    with pytest.raises(InvalidConfigError, match="does not fit this run"):
        train_ppo.main(wider)
    with pytest.raises(InvalidConfigError, match="no such model"):
        train_ppo.main(tiny_args(tmp_path / "c", init=str(tmp_path / "missing.zip")))
    assert not (tmp_path / "c").exists() or not any((tmp_path / "c").iterdir())


def test_ship_writes_the_policy_without_optimizer_state_named_by_table_size(tmp_path):
    from boardgame_envs.training.ppo import ship

    for players, name in ((2, "factors_multiples_ppo.zip"), (3, "factors_multiples_3p_ppo.zip")):
        run_dir = train_ppo.main(
            tiny_args(tmp_path / str(players), num_players=players, eval_every=0)
        )
        shipped = ship.main(ship.Args(run_dir=str(run_dir), out_dir=str(tmp_path / "models")))
        assert shipped == tmp_path / "models" / name
        assert shipped.stat().st_size < (run_dir / "model.zip").stat().st_size
        source, copy = PPOAgent.load(run_dir).model, PPOAgent.load(shipped).model
        assert source._last_obs is not None and copy._last_obs is None
        for key, weights in source.policy.state_dict().items():
            assert np.array_equal(weights.numpy(), copy.policy.state_dict()[key].numpy()), key
    with pytest.raises(InvalidConfigError, match="no config.json"):
        ship.main(ship.Args(run_dir=str(tmp_path), out_dir=str(tmp_path / "models")))
