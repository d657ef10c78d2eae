"""Choosing an engine: the default, the environment variable, make_rules(engine=...),
engine_info(), and a clear error where a native engine is asked for and missing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import boardgame_envs
from boardgame_envs import GAMES, InvalidConfigError, make, make_rules
from boardgame_envs.core import native as engine_choice
from boardgame_envs.core.native import native_games, native_module

ROOT = Path(__file__).resolve().parents[2]


def test_engine_info_names_an_engine_for_every_game():
    info = boardgame_envs.engine_info()
    assert set(info["engines"]) == set(GAMES)
    assert set(info["engines"].values()) <= {"native", "python"}
    for game, engine in info["engines"].items():
        assert make_rules(game).engine == engine


@pytest.mark.skipif(native_module() is None, reason="the native extension is not built")
def test_a_full_build_runs_every_game_natively():
    """A build from `pip install -e .` compiles every game; each then runs natively."""
    if os.environ.get("BOARDGAME_ENVS_NATIVE_PATH"):
        pytest.skip("a sanitizer or development build, which may hold some games only")
    assert sorted(native_games()) == sorted(GAMES)
    assert set(boardgame_envs.engine_info()["engines"].values()) == {"native"}
    for game in GAMES:  # every game has its sources in native/games/<game>/
        assert list((ROOT / "native" / "games" / game).glob("*.cc")), game


@pytest.mark.parametrize("game", list(GAMES))
def test_the_python_engine_is_always_there(game):
    rules = make_rules(game, engine="python")
    assert rules.engine == "python"
    assert rules.new_state(rules.min_players, seed=1).engine == "python"


def test_the_environment_variable_selects_the_reference(monkeypatch):
    monkeypatch.setenv("BOARDGAME_ENVS_ENGINE", "python")
    assert {make_rules(g).engine for g in GAMES} == {"python"}
    assert set(boardgame_envs.engine_info()["engines"].values()) == {"python"}
    assert boardgame_envs.engine_info()["requested"] == "python"
    env = make("wasabi")
    assert env.unwrapped.rules.engine == "python"


def test_a_bad_engine_name_is_refused(monkeypatch):
    with pytest.raises(InvalidConfigError, match="engine='fast' is not allowed; allowed: "):
        make_rules("tahiti", engine="fast")
    monkeypatch.setenv("BOARDGAME_ENVS_ENGINE", "c++")
    with pytest.raises(InvalidConfigError, match="BOARDGAME_ENVS_ENGINE='c\\+\\+' is not allowed"):
        make_rules("tahiti")


def test_asking_for_a_missing_native_engine_says_why(monkeypatch):
    monkeypatch.setattr(engine_choice, "native_games", lambda: ())
    with pytest.raises(InvalidConfigError, match="wasabi: no native engine here"):
        make_rules("wasabi", engine="native")
    assert make_rules("wasabi").engine == "python"  # the default falls back quietly


def test_a_native_path_without_an_extension_falls_back_to_python(tmp_path):
    code = (
        "import boardgame_envs, json; info = boardgame_envs.engine_info(); "
        "print(json.dumps([sorted(set(info['engines'].values())), info['native']['error']]))"
    )
    env = dict(os.environ, BOARDGAME_ENVS_NATIVE_PATH=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert '[["python"], "ImportError: BOARDGAME_ENVS_NATIVE_PATH=' in out.stdout
    assert "no _native extension there" in out.stdout


# -- playouts on the Python engine (the native ones are held to these per game) -------------
def test_a_playout_plays_to_the_end_and_counts_its_decisions():
    state = make_rules("factors_multiples", engine="python").new_state(3, seed=4)
    copy = state.clone()
    played = state.playout(seed=9)
    assert state.is_terminal() and played > 0
    rng = np.random.default_rng(9)
    for _ in range(played):
        legal = copy.legal_actions()
        copy.apply(legal[int(rng.integers(len(legal)))])
    assert copy.is_terminal() and copy.to_dict() == state.to_dict()


def test_a_playout_stops_after_depth_decisions():
    state = make_rules("wasabi", engine="python").new_state(2, seed=1)
    assert state.playout(seed=2, depth=5) == 5 and not state.is_terminal()
    assert state.playout(seed=2, depth=0) > 0 and state.is_terminal()
    assert state.playout(seed=2) == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"policy": "greedy"}, "policy='greedy' is not allowed; allowed: 'random', 'heuristic'"),
        ({"policy": "heuristic"}, "policy='heuristic' is played by the native engine"),
        ({"policy": "heuristic", "epsilon": 2}, "epsilon=2 is not allowed; allowed: a number"),
        ({"depth": -1}, "depth=-1 is not allowed; allowed: an int >= 0"),
        ({"depth": 1.5}, "depth=1.5 is not allowed"),
        ({"seed": -3}, "seed=-3 is not allowed; allowed: None or an int >= 0"),
    ],
)
def test_bad_playout_arguments_are_refused(kwargs, message):
    state = make_rules("cornucopia", engine="python").new_state(2, seed=1)
    before = state.to_dict()
    with pytest.raises(InvalidConfigError, match=message.replace("(", "\\(").replace(")", "\\)")):
        state.playout(**kwargs)
    assert state.to_dict() == before
