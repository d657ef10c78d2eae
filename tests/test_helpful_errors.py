"""Errors that help: a near name is offered, the allowed names are listed, a command line's
flags are named as typed, and a command that fails prints one line and nothing before it."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import boardgame_envs
from boardgame_envs import InvalidConfigError
from boardgame_envs.agents.specs import make_agent
from boardgame_envs.core.rules import InvalidStateError
from boardgame_envs.registry import make_rules
from boardgame_envs.training.cli.commands import main
from boardgame_envs.vector import make_gymnasium_vec, make_vec


# -- did you mean ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "game, near", [("factor_multiples", "factors_multiples"), ("Wasabi", "wasabi")]
)
def test_misspelled_game_gets_the_near_id(game, near):
    with pytest.raises(InvalidConfigError, match=f"unknown game '{game}'; did you mean '{near}'"):
        boardgame_envs.make(game)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("heurisitc", "unknown agent 'heurisitc'; did you mean 'heuristic'\\? allowed: random"),
        ("ismtcs:iterations=5", "did you mean 'ismcts:iterations=5'\\?$"),
        ("ppo", "agent 'ppo' needs what to load after a colon: ppo:<model.zip"),
        ("net", "agent 'net' needs what to load after a colon: net:<network .pt"),
        ("ismcts:iteration=5", "option 'iteration=5' is unknown; did you mean 'iterations=5'"),
    ],
)
def test_misspelled_agent_gets_the_near_spec(spec, message):
    with pytest.raises(InvalidConfigError, match=message):
        make_agent(spec, "wasabi")


def test_a_correct_spec_is_unchanged():
    assert make_agent("heuristic", "wasabi") is not None
    assert make_agent("ismcts:iterations=5", "wasabi").options.iterations == 5


# -- keywords of the envs and batches ------------------------------------------------------
def test_make_names_num_players_and_the_env_keywords():
    with pytest.raises(InvalidConfigError) as caught:
        boardgame_envs.make("wasabi", num_player=3)
    text = str(caught.value)
    assert text.startswith("wasabi: unknown option 'num_player'; did you mean 'num_players'?")
    assert "allowed: num_players, engine, render_mode, reward" in text
    assert "wasabi's options: gift_excludes_maki" in text


def test_make_single_agent_names_its_own_keywords():
    with pytest.raises(
        InvalidConfigError, match="'oponent'; did you mean 'opponent'.*learner_seat"
    ):
        boardgame_envs.make_single_agent("wasabi", oponent="random")


def test_make_seed_keyword_says_reset():
    with pytest.raises(InvalidConfigError, match=r"'seed' \(seed an env with reset\(seed=...\)\)"):
        boardgame_envs.make("wasabi", seed=3)


def test_make_vec_names_its_own_arguments():
    with pytest.raises(InvalidConfigError) as caught:
        make_vec("wasabi", 2, num_env=3)
    text = str(caught.value)
    assert text.startswith("make_vec: unknown option 'num_env'; did you mean 'num_envs'?")
    assert "allowed: num_envs, num_players, opponent, observe_mask, seed" in text
    assert "wasabi's options:" in text


def test_make_gymnasium_vec_seed_says_reset():
    with pytest.raises(InvalidConfigError) as caught:
        make_gymnasium_vec("wasabi", 2, seed=3)
    text = str(caught.value)
    assert text.startswith(
        "make_gymnasium_vec: unknown option 'seed' (seed the batch with reset(seed=s));"
    )
    assert "num_envs, num_players, opponent" in text


def test_game_options_still_pass_through_the_batch():
    env = make_gymnasium_vec("wasabi", 2, opponent="random", max_turns=30)
    obs, _ = env.reset(seed=1)
    assert obs.shape[0] == 2


# -- seeds -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [1.5, "1", -1])
def test_aec_reset_bad_seed_is_the_librarys_error(seed):
    env = boardgame_envs.make("wasabi")
    with pytest.raises(InvalidConfigError, match=r"reset\(seed=.*\) is not allowed; allowed: None"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", [1.5, "1", -1])
def test_single_agent_reset_bad_seed_is_the_librarys_error(seed):
    env = boardgame_envs.make_single_agent("wasabi")
    with pytest.raises(InvalidConfigError, match=r"reset\(seed=.*\) is not allowed; allowed: None"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", [1.5, -1])
def test_batch_bad_seed_is_the_librarys_error(seed):
    with pytest.raises(InvalidConfigError, match=r"^make_vec\(seed=.*\) is not allowed; allowed"):
        make_vec("wasabi", 2, opponent="random", seed=seed)
    env = make_gymnasium_vec("wasabi", 2, opponent="random")
    with pytest.raises(InvalidConfigError, match=r"^reset\(seed=.*\) is not allowed; allowed"):
        env.reset(seed=seed)
    env.reset(seed=np.int64(3))


def test_new_state_bad_seed_is_the_librarys_error():
    with pytest.raises(
        InvalidConfigError, match="seed=1.5 is not allowed; allowed: None or an int"
    ):
        make_rules("wasabi").new_state(2, seed=1.5)


def test_valid_seeds_play_as_before():
    def first_obs(env, seed):
        env.reset(seed=seed)
        return env.observe(env.agent_selection)["observation"]

    aec = boardgame_envs.make("wasabi")
    np.testing.assert_array_equal(first_obs(aec, 7), first_obs(aec, np.int64(7)))
    single = boardgame_envs.make_single_agent("wasabi", learner_seat=0)
    a, _ = single.reset(seed=7)
    b, _ = single.reset(seed=np.int64(7))
    np.testing.assert_array_equal(a, b)
    single.reset(seed=None)


# -- player counts, snapshots ---------------------------------------------------------------
def test_fixed_player_count_says_exactly():
    with pytest.raises(
        InvalidConfigError, match="num_players=3 is not allowed; allowed: exactly 2$"
    ):
        boardgame_envs.make("carcassonne_castle", num_players=3)
    with pytest.raises(InvalidConfigError, match="allowed: 2 to 4$"):
        boardgame_envs.make("wasabi", num_players=5)


@pytest.mark.parametrize("engine", ["native", "python"])
def test_another_games_snapshot_names_its_game(engine):
    if engine == "native" and make_rules("wasabi").engine != "native":
        pytest.skip("no native engine built")
    text = make_rules("wasabi", engine).new_state(2, seed=1).to_json()
    with pytest.raises(
        InvalidStateError,
        match="not a cornucopia snapshot: game 'wasabi' .* is another game; load it with "
        r"make_rules\('wasabi'\)",
    ):
        make_rules("cornucopia", engine).from_json(text)


# -- the command line ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "argv, message",
    [
        (
            ["play", "wasabi", "--vs", "heuristic,random"],
            "--vs heuristic,random names 2 agents; --vs takes one agent spec, played at every "
            "seat but yours",
        ),
        (
            ["play", "carcassonne_castle", "--players", "3"],
            "--players 3 is not allowed for carcassonne_castle; allowed: exactly 2",
        ),
        (
            ["play", "carcassonne_castle", "--num-players", "3"],
            "--num-players 3 is not allowed for carcassonne_castle; allowed: exactly 2",
        ),
        (["play", "wasabi", "--seed", "-5"], "--seed -5 is not allowed"),
        (["play", "wasabi", "--seat", "5"], "--seat 5 is not allowed; allowed: 0 to 1"),
        (["watch", "wasabi", "--agents", "random,random", "--seed", "-5"], "--seed -5 is not"),
        (
            ["league", "carcassonne_castle", "--num-players", "3"],
            "--num-players 3 is not allowed; allowed: exactly 2",
        ),
        (["eval", "wasabi", "--seed", "1.5"], "argument --seed: invalid int value"),
    ],
)
def test_cli_names_flags_as_typed(argv, message, capsys):
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse's own errors
        code = stop.code
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert message in captured.err


@pytest.mark.parametrize(
    "argv, message",
    [
        (["eval", "wasabi", "--seed", "-5"], "eval: --seed -5 is not allowed"),
        (["eval", "wasabi", "--seed", "1.5"], "eval: argument --seed: invalid int"),
        (["league", "wasabi", "--seed", "-5"], "league: --seed -5 is not allowed"),
        (["train", "wasabi", "--seed", "-5"], "train: --seed -5 is not allowed"),
        (
            ["train", "carcassonne_castle", "--num-players", "3"],
            "train: carcassonne_castle: --num-players 3 is not allowed; allowed: exactly 2",
        ),
        (["watch", "wasabi", "--agents", "heuristic,random", "--seed", "-5"], "--seed -5 is"),
        (["replay", "no_such_record.json"], "replay: record no_such_record.json: no such"),
        (["bench", "--seed", "-5"], "bench: --seed -5 is not allowed"),
        (["play", "wasabi", "--vs", "heuristic,random"], "play: --vs heuristic,random names 2"),
    ],
)
def test_cli_error_is_one_line_and_nothing_before(argv, message, tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("boardgame-envs ")
    assert message in lines[0]
