"""Expert iteration (training/exit/) on tiny budgets: every game runs end to
end and leaves a network that plays, a resumed run reaches the same weights, the samples do
not depend on the number of workers, and bad arguments are refused clearly."""

from __future__ import annotations

import csv
import dataclasses
import json

import numpy as np
import pytest
import torch

from boardgame_envs import GAMES, InvalidConfigError, make_rules
from boardgame_envs.agents import make_agent
from boardgame_envs.agents.policy_value import load_net
from boardgame_envs.training import cli, opponents
from boardgame_envs.training.evaluation.tournament import play_game
from boardgame_envs.training.exit import train as exit_
from boardgame_envs.training.exit.checkpoints import RunState
from boardgame_envs.training.exit.labelled_games import (
    GameTask,
    net_bytes,
    play_and_label,
    without_network,
)
from boardgame_envs.training.parallel import run_tasks

#: The cheapest search of every game: a few tree iterations, no paired checks.
#: The game every command line here names (no command has a default game).
ON_A_GAME = ("factors_multiples",)

TINY_SEARCH = "ismcts:seconds=0,iterations=4,verify=0,late=0,mid=0"


def tiny(tmp_path, game: str = "factors_multiples", **overrides) -> exit_.Args:
    values = dict(
        game=game,
        iterations=2,
        games_per_iteration=2,
        label_share=1.0,
        search=TINY_SEARCH,
        imitation_games=0,
        hidden=16,
        layers=1,
        epochs=1,
        window=2,
        eval_every=0,
        eval_games=2,
        out_dir=str(tmp_path),
        run_name="run",
        progress=False,
    )
    values.update(overrides)
    return exit_.Args(**values)


# Two games in make test (one flat, one with planes); all five in make test-all.
@pytest.mark.parametrize(
    "game",
    [
        g if g in ("factors_multiples", "wasabi") else pytest.param(g, marks=pytest.mark.slow)
        for g in GAMES
    ],
)
def test_every_game_trains_and_leaves_a_network_that_plays(tmp_path, game):
    # One iteration of one game: the loop past it is the same in every game (tested below).
    args = tiny(tmp_path, game, iterations=1, games_per_iteration=1, label_share=0.5)
    run_dir = exit_.main(dataclasses.replace(args, eval_games=1))
    assert (run_dir / "config.json").is_file() and (run_dir / "learning_curve.png").is_file()
    assert any((run_dir / "tb").iterdir())
    names = sorted(p.name for p in (run_dir / "checkpoints").iterdir())
    assert names == ["net_0000000001.pt", "replay_0000000001.npz", "state_0000000001.pt"]
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [1]
    assert int(rows[0]["samples"]) > 0 and float(rows[0]["cpu_seconds"]) > 0
    assert float(rows[0]["ci95_low"]) <= float(rows[0]["win_share"]) <= float(rows[0]["ci95_high"])
    # Every game but Factors and Multiples reads the heuristic's move (its recipe's hint).
    net, _ = load_net(run_dir, game=game)
    assert (
        net.hint
        == exit_.with_recipe(args).hint
        == ("none" if game == "factors_multiples" else "heuristic")
    )
    # The run's network plays a whole game through the agent spec, legal moves only.
    rules = make_rules(game)
    agents = [make_agent(f"net:{run_dir}", game), make_agent("heuristic", game)]
    state = play_game(rules, agents, seed=5)
    assert state.is_terminal()


def labelling_task(game: str, **fields) -> GameTask:
    """A game of heuristic play labelled by the tiny search (``fields`` override)."""
    values = dict(
        game=game,
        num_players=2,
        seed=3,
        learner_seat=0,
        learner="heuristic",
        opponents=("heuristic",),
        search=TINY_SEARCH,
        label_share=1.0,
        play="searched",
        target="move",
        nets={},
    )
    values.update(fields)
    return GameTask(**values)


def test_samples_hold_search_targets_and_relative_values():
    task = labelling_task(
        "cornucopia",
        num_players=3,
        seed=11,
        learner_seat=1,
        opponents=("heuristic", "random"),
        label_share=0.5,
        target="visits",
    )
    game = play_and_label(task)
    samples = len(game["obs"])
    assert 0 < samples < game["decisions"]  # about half the learner's decisions
    assert game["obs"].shape == (samples, int(np.prod(make_rules("cornucopia").observation_shape)))
    policy, mask = game["policy"], game["mask"]
    assert np.allclose(policy.sum(axis=1), 1.0) and not (policy[~mask] != 0).any()
    assert mask.sum(axis=1).min() >= 2  # only decisions with a choice are labelled
    # Every sample's value target is the game's returns from the learner's seat: its own first.
    assert (game["value"] == game["value"][0]).all()
    assert game["value"][0, 0] == pytest.approx(game["learner_return"])
    assert game["value"][0].sum() == pytest.approx(0.0, abs=1e-5)  # zero-sum returns


def test_a_run_made_with_the_removed_consensus_option_resumes_only_without_it(tmp_path):
    # --consensus (labels kept where two searches agreed) was removed: a run saved with its
    # old default resumes; one that used it is refused, naming the option.
    run = exit_.main(tiny(tmp_path, iterations=1))
    config = json.loads((run / "config.json").read_text())
    for consensus, works in ((1, True), (2, False)):
        config["args"]["consensus"] = consensus
        (run / "config.json").write_text(json.dumps(config))
        resumed = exit_.Args(resume=str(run), iterations=1, progress=False)
        if works:
            exit_.main(resumed)
        else:
            with pytest.raises(InvalidConfigError, match="--consensus 2, an option no longer"):
                exit_.main(resumed)


def test_resume_reaches_the_same_weights(tmp_path):
    # Three iterations: the third's games seat the network of the first (past) and the
    # second's (the learner, self-play), both restored from the checkpoint.
    mix = "self-play=0.5,past=0.5"
    whole = exit_.main(tiny(tmp_path, run_name="whole", iterations=3, opponent=mix))
    cut = exit_.main(tiny(tmp_path, run_name="cut", iterations=2, opponent=mix))
    exit_.main(exit_.Args(resume=str(cut), iterations=3, progress=False))
    a = torch.load(whole / "net.pt", weights_only=True)["state_dict"]
    b = torch.load(cut / "net.pt", weights_only=True)["state_dict"]
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    rows = list(csv.DictReader((cut / "eval.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [2, 3]
    states = sorted(p.name for p in (cut / "checkpoints").glob("state_*.pt"))
    assert states == ["state_0000000002.pt", "state_0000000003.pt"]  # the two latest


def test_the_warm_start_alone_is_a_run_that_resumes_past_it(tmp_path, capsys):
    # --iterations 0: the warm start, evaluated and checkpointed as iteration 0.
    warm = exit_.main(tiny(tmp_path, run_name="warm", iterations=0, imitation_games=2))
    rows = list(csv.DictReader((warm / "eval.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [0] and int(rows[0]["games"]) == 0
    assert load_net(warm / "net.pt")[0].game == "factors_multiples"
    # Resumed to one iteration, it does not redo the warm start, and reaches the weights of
    # a run that went on without stopping.
    capsys.readouterr()
    exit_.main(exit_.Args(resume=str(warm), iterations=1, progress=False))
    out = capsys.readouterr().out
    assert "iteration 0" in out and "warm start" not in out
    whole = exit_.main(tiny(tmp_path, run_name="whole", iterations=1, imitation_games=2))
    a = torch.load(whole / "net.pt", weights_only=True)["state_dict"]
    b = torch.load(warm / "net.pt", weights_only=True)["state_dict"]
    assert all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.slow  # two spawned processes import torch: about 11 s of CPU on 2 cores
def test_workers_play_the_same_games(tmp_path):
    args = exit_.with_recipe(tiny(tmp_path, games_per_iteration=3, opponent="self-play"))
    torch.manual_seed(0)
    from boardgame_envs.agents.policy_value import PolicyValueNet

    net = PolicyValueNet(args.game, 2, hidden=8, layers=1)
    tasks = exit_.iteration_tasks(args, RunState(), 2, net_bytes(net))
    here = list(run_tasks(play_and_label, tasks, workers=1))
    there = list(run_tasks(play_and_label, tasks, workers=2))
    for a, b in zip(here, there):
        for key in ("obs", "mask", "policy", "value"):
            assert np.array_equal(a[key], b[key])


def test_the_search_can_be_guided_by_the_network_being_trained(tmp_path):
    search = "ismcts-net:{net},seconds=0,iterations=4,prior=1"
    assert without_network(search) == "ismcts:seconds=0,iterations=4"
    run_dir = exit_.main(tiny(tmp_path, search=search, label_share=0.5))
    rows = list(csv.DictReader((run_dir / "eval.csv").open()))
    assert int(rows[-1]["iteration"]) == 2 and int(rows[-1]["samples"]) > 0
    # Its network guides the search outside training too.
    agent = make_agent(f"ismcts-net:{run_dir},seconds=0,iterations=8", "factors_multiples")
    assert play_game(make_rules("factors_multiples"), [agent, agent], seed=3).is_terminal()


def test_a_run_starts_from_the_heuristics_moves_or_from_a_network(tmp_path):
    warm = exit_.main(tiny(tmp_path, run_name="warm", iterations=1, imitation_games=2))
    assert list(csv.DictReader((warm / "eval.csv").open()))[-1]["iteration"] == "1"
    init = exit_.main(tiny(tmp_path, run_name="init", iterations=1, init=str(warm), hidden=32))
    saved = torch.load(init / "net.pt", weights_only=True)["config"]
    assert saved["hidden"] == 16  # the shape of the network it started from


def test_a_run_from_a_given_network_evaluates_it_first(tmp_path):
    warm = exit_.main(tiny(tmp_path, run_name="warm", iterations=1, imitation_games=2))
    args = tiny(tmp_path, run_name="init", iterations=2, init=str(warm), eval_every=2)
    init = exit_.main(args)
    rows = list(csv.DictReader((init / "eval.csv").open()))
    assert [int(r["iteration"]) for r in rows] == [0, 2]  # the curve starts where it began
    assert int(rows[0]["samples"]) == 0
    # It is the given network, on the same deals as that run's own last evaluation.
    last = list(csv.DictReader((warm / "eval.csv").open()))[-1]
    assert rows[0]["win_share"] == last["win_share"] and rows[0]["games"] == "0"


def test_a_run_can_start_from_a_ppo_policys_moves(tmp_path, capsys):
    args = tiny(tmp_path, "wasabi", iterations=1, games_per_iteration=1, imitation_games=1)
    run_dir = exit_.main(dataclasses.replace(args, imitate="ppo:wasabi", hint="heuristic"))
    assert "warm start: the moves of ppo:wasabi in 1 games" in capsys.readouterr().out
    assert load_net(run_dir / "net.pt")[0].hint == "heuristic"


def test_a_ppo_teacher_is_imitated_through_its_move_distribution():
    # The warm start's games: the teacher plays the learner's seat and labels every decision.
    teacher = "ppo:wasabi"
    task = labelling_task("wasabi", learner=teacher, search=teacher, label_share=1.0)
    game = play_and_label(dataclasses.replace(task, target="visits"))
    policy, mask = game["policy"], game["mask"]
    assert len(policy) == game["decisions"] > 0
    assert np.allclose(policy.sum(axis=1), 1.0) and not (policy[~mask] != 0).any()
    assert ((policy > 0).sum(axis=1) > 1).any()  # a distribution, not only the move
    # Its most likely move is the one the teacher plays.
    agent, rules = make_agent(teacher, "wasabi"), make_rules("wasabi")
    state = rules.new_state(2, seed=4)
    while not state.is_terminal():
        view = state.view(state.current_player)
        move = agent.act(view)
        assert agent.move_distribution(view).argmax() == move
        state.apply(move)


def test_opponent_mix_keeps_agent_options():
    mix = opponents.opponent_shares("ismcts:iterations=50=0.5,heuristic=1.5,past")
    assert mix == [("ismcts:iterations=50", 0.5 / 3), ("heuristic", 1.5 / 3), ("past", 1 / 3)]
    assert opponents.opponent_shares("ismcts:iterations=50") == [("ismcts:iterations=50", 1.0)]
    with pytest.raises(InvalidConfigError, match="weights >= 0"):
        opponents.opponent_shares("heuristic=0,random=0")


@pytest.mark.parametrize(
    "part, spec, weight",
    [
        ("heuristic", "heuristic", ""),
        ("heuristic=0.5", "heuristic", "0.5"),
        ("ismcts:iterations=50", "ismcts:iterations=50", ""),
        ("ismcts:iterations=50,seconds=0=0.2", "ismcts:iterations=50,seconds=0", "0.2"),
        ("ppo:wasabi,device=cuda:1", "ppo:wasabi,device=cuda:1", ""),
        ("ppo:wasabi,device=cuda:1=0.5", "ppo:wasabi,device=cuda:1", "0.5"),
        ("ppo:runs/x=0.5", "ppo:runs/x", "0.5"),
        ("net:runs/a,sample=1", "net:runs/a,sample=1", ""),
        ("net:runs/a,sample=1=0.3", "net:runs/a,sample=1", "0.3"),
        ("ismcts-net:{net},prior=1", "ismcts-net:{net},prior=1", ""),
        ("ismcts-net:{net},iterations=8=2", "ismcts-net:{net},iterations=8", "2"),
        ("my_agents.py:FirstLegal=0.5", "my_agents.py:FirstLegal", "0.5"),
    ],
)
def test_both_algorithms_read_a_mix_part_alike(part, spec, weight):
    # PPO's mix (an AgentMix per env) and expert iteration's (shares drawn per seat) split
    # every part the same way: an agent's own option is never taken for a weight.
    assert opponents.spec_and_weight(part) == (spec, weight)


def test_a_weight_that_is_no_number_is_refused_alike_by_both_algorithms():
    for read in (
        opponents.opponent_shares,
        lambda text: opponents.parse_opponents(text, "wasabi", None),
    ):
        with pytest.raises(InvalidConfigError, match="weight 'x' is not a number"):
            read("heuristic=x")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--label-share", "0"], "--label-share 0.0 is not allowed"),
        (["--play", "tree"], "--play 'tree' is not allowed; allowed: searched, net"),
        (["--backend", "mpi"], "--backend 'mpi' is not allowed; allowed: local, ray"),
        (["--hint", "random"], "--hint 'random' is not allowed; allowed: none, heuristic"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as stopped:
        cli.main(["train", *ON_A_GAME, "--algo", "exit", *argv])
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--search", "heuristic"], "is not a search agent"),
        (["--search", "ismcts:iterations=50"], "searches for seconds=0.25 a decision"),
        (["--opponent", "heuristic=x"], "weight 'x' is not a number"),
        (["--opponent", "nobody"], "unknown agent 'nobody'"),
        (["--imitate", "nobody"], "unknown agent 'nobody'"),
        (["--imitate", "ismcts:iterations=50"], "--imitate 'ismcts:iterations=50' searches"),
    ],
)
def test_bad_agents_are_refused_before_a_run_directory_is_made(tmp_path, capsys, argv, message):
    code = cli.main(
        ["train", *ON_A_GAME, "--algo=exit", "--out-dir", str(tmp_path), "--hidden", "8", *argv]
    )
    assert code == 2
    assert message in capsys.readouterr().err
    assert not any(tmp_path.iterdir())


def test_args_check_values_and_resume_needs_a_run(tmp_path):
    with pytest.raises(InvalidConfigError, match="--window 0 is not allowed"):
        exit_.Args(game="factors_multiples", window=0)
    with pytest.raises(InvalidConfigError, match="no config.json"):
        exit_.main(exit_.Args(resume=str(tmp_path), progress=False))
    assert dataclasses.asdict(exit_.with_recipe(exit_.Args(game="factors_multiples")))[
        "search"
    ] == ("ismcts:seconds=0")


def test_a_recipe_imitates_the_policy_fine_tuned_for_the_table_where_one_is_shipped(
    monkeypatch,
):
    import boardgame_envs.agents.ppo as ppo

    shipped = {"tahiti": "two.zip", "tahiti@4p": "four.zip", "wasabi": "w.zip"}
    monkeypatch.setattr(ppo, "shipped_models", lambda: shipped)
    assert exit_.policy_for_table("ppo:tahiti", "tahiti", 4) == "ppo:tahiti@4p"
    assert exit_.policy_for_table("ppo:tahiti", "tahiti", 2) == "ppo:tahiti"
    assert exit_.policy_for_table("ppo:wasabi", "wasabi", 4) == "ppo:wasabi"  # none at 4
    assert exit_.policy_for_table("heuristic", "tahiti", 4) == "heuristic"
    recipe_teacher = exit_.with_recipe(exit_.Args(game="tahiti", num_players=4)).imitate
    assert recipe_teacher == "ppo:tahiti@4p"
    given = exit_.with_recipe(exit_.Args(game="tahiti", num_players=4, imitate="ppo:tahiti"))
    assert given.imitate == "ppo:tahiti"  # a teacher given is used as given


def test_train_keeps_ppo_as_its_default_algorithm(capsys):
    # --algo ppo (or none) reaches MaskablePPO's own options and checks.
    assert cli.main(["train", *ON_A_GAME, "--algo", "ppo", "--timesteps", "0"]) == 2
    assert "--timesteps 0 is not allowed" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        cli.main(["train", "--algo", "dqn"])
    assert stopped.value.code == 2
    assert "invalid choice: 'dqn' (choose from 'ppo', 'exit')" in capsys.readouterr().err


def test_eval_against_adds_a_row_per_agent_to_every_evaluation(tmp_path):
    run = exit_.main(tiny(tmp_path, eval_every=1, eval_against="random"))
    rows = list(csv.DictReader((run / "eval.csv").open()))
    assert [(int(r["iteration"]), r["opponent"]) for r in rows] == [
        (1, "heuristic"),
        (1, "random"),
        (2, "heuristic"),
        (2, "random"),
    ]
    # The rows of one evaluation share the run's figures; each its own deals' result.
    assert all(int(r["eval_games"]) == 2 for r in rows)
    assert rows[0]["cpu_seconds"] == rows[1]["cpu_seconds"]
    assert (run / "learning_curve.png").stat().st_size > 0


def test_eval_against_refuses_a_clocked_search_before_the_run(tmp_path):
    with pytest.raises(InvalidConfigError, match="--eval-against 'ismcts' searches for seconds"):
        exit_.main(tiny(tmp_path, eval_against="ismcts"))
    assert not any(tmp_path.iterdir())
