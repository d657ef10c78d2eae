"""A game no one here wrote, registered from outside the library, through every command.

The example game ``examples/goofspiel`` (a separate distribution with a
``boardgame_envs.games`` entry point) is registered for a subprocess (see :mod:`.helpers`)
and driven through the command line as a user would: ``list``, ``play``, ``watch`` (terminal,
HTML and GIF: the game has a picture), ``replay``, ``eval`` and ``league`` with ``random``,
``ismcts`` and the user's own agent, ``train`` (PPO and expert iteration with the generic
recipes), ``bench``; and through the Python API: ``make``, the PettingZoo and Gymnasium
ids, the batched env. ``heuristic`` says in one line that the game has none.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from tests.plugin.helpers import plugin_environ, run_python

AGENT_FILE = '''
import numpy as np
from boardgame_envs.agents.base import Agent


class HighestBid(Agent):
    """Always bids its highest card."""

    def act(self, view):
        return int(np.flatnonzero(view.legal_action_mask())[-1])
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    """``(environment, working folder)`` in which the example game is registered."""
    folder = tmp_path_factory.mktemp("plugin")
    (folder / "my_agents.py").write_text(AGENT_FILE)
    return plugin_environ(folder / "site"), folder


def cli(plugin, *args: str, stdin: str = "", timeout: int = 300) -> subprocess.CompletedProcess:
    environ, folder = plugin
    done = subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", *args],
        cwd=folder,
        env=environ,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    return done


def ok(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done.stdout


def test_list_shows_the_game(plugin):
    out = ok(cli(plugin, "list"))
    games, ids = out.split("\n\n")[:2]
    (line,) = [row for row in games.splitlines() if row.startswith("goofspiel ")]
    assert line.split()[1:5] == ["2-4", "13", "(137,)", "python"]
    (line,) = [row for row in ids.splitlines() if row.startswith("goofspiel ")]
    assert line.split()[1:] == ["boardgame_envs/goofspiel-v0", "boardgame_envs/Goofspiel-v0"]


def test_play_against_ismcts_in_the_terminal(plugin):
    # the person bids their lowest card every round: "1" picks the first legal move
    out = ok(
        cli(plugin, "play", "goofspiel", "--vs", "ismcts:seconds=0,iterations=10", stdin="1\n" * 6)
    )
    assert "game over" in out


def test_watch_saves_a_record_that_replays_as_text_html_and_gif(plugin):
    _, folder = plugin
    record = folder / "game.json"
    out = ok(
        cli(
            plugin,
            "watch",
            "goofspiel",
            "--agents",
            "random,my_agents.py:HighestBid",
            "--pace",
            "0",
            "--save",
            str(record),
        )
    )
    assert "game over" in out
    assert json.loads(record.read_text())["game"] == "goofspiel"
    assert "game over" in ok(cli(plugin, "replay", str(record), "--pace", "0", "--seat", "1"))
    for suffix in ("html", "gif"):
        target = folder / f"game.{suffix}"
        ok(cli(plugin, "replay", str(record), "--out", str(target)))
        assert target.stat().st_size > 1000


def test_eval_with_random_ismcts_and_the_users_agent(plugin):
    out = ok(
        cli(
            plugin,
            "eval",
            "goofspiel",
            "--agents",
            "random,ismcts:seconds=0,iterations=20,my_agents.py:HighestBid",
            "--games",
            "6",
            "--no-progress",
            "--num-players",
            "2,3",
        )
    )
    assert "my_agents.py:HighestBid" in out and "| 3 |" in out


def test_league(plugin):
    _, folder = plugin
    out = ok(
        cli(
            plugin,
            "league",
            "goofspiel",
            "--agents",
            "random,ismcts:seconds=0,iterations=10",
            "--games",
            "4",
            "--no-progress",
            "--out",
            str(folder / "lg"),
        )
    )
    assert (folder / "lg" / "results.md").exists(), out


def test_heuristic_says_the_game_has_none(plugin):
    done = cli(
        plugin,
        "eval",
        "goofspiel",
        "--agents",
        "heuristic,random",
        "--games",
        "2",
        "--no-progress",
    )
    assert done.returncode == 2
    (line,) = [row for row in done.stderr.splitlines() if row.strip()]
    assert "has no heuristic agent" in line and "random" in line


def test_train_ppo_and_expert_iteration_with_generic_recipes(plugin):
    _, folder = plugin
    ok(
        cli(
            plugin,
            "train",
            "goofspiel",
            "--timesteps",
            "512",
            "--n-envs",
            "2",
            "--n-steps",
            "128",
            "--batch-size",
            "64",
            "--imitation-games",
            "0",
            "--opponent",
            "random",
            "--eval-every",
            "0",
            "--no-progress",
            "--out-dir",
            str(folder / "runs"),
            "--run-name",
            "ppo",
        )
    )
    assert (folder / "runs" / "ppo" / "model.zip").exists()
    ok(
        cli(
            plugin,
            "train",
            "--algo",
            "exit",
            "goofspiel",
            "--iterations",
            "1",
            "--games-per-iteration",
            "2",
            "--search",
            "ismcts:seconds=0,iterations=8",
            "--imitate",
            "random",
            "--imitation-games",
            "2",
            "--epochs",
            "1",
            "--eval-every",
            "0",
            "--no-progress",
            "--out-dir",
            str(folder / "runs"),
            "--run-name",
            "exit",
        )
    )
    assert list((folder / "runs" / "exit").rglob("*.pt"))
    out = ok(
        cli(
            plugin,
            "eval",
            "goofspiel",
            "--agents",
            f"ppo:{folder / 'runs' / 'ppo'},net:{folder / 'runs' / 'exit'},random",
            "--games",
            "2",
            "--no-progress",
        )
    )
    assert "ppo:" in out and "net:" in out


def test_bench(plugin):
    out = ok(
        cli(
            plugin,
            "bench",
            "--games",
            "goofspiel",
            "--seconds",
            "0.05",
            "--repeats",
            "1",
            "--learner-steps",
            "0",
        )
    )
    assert "goofspiel" in out


def test_the_python_api_and_the_batched_env(plugin):
    environ, _ = plugin
    out = run_python(
        textwrap.dedent(
            """
            import gymnasium, numpy as np, pettingzoo
            import boardgame_envs
            from boardgame_envs.vector import make_vec
            env = pettingzoo.make("aec", "boardgame_envs/goofspiel-v0", num_players=3)
            env.reset(seed=1)
            searcher = "ismcts:seconds=0,iterations=5"
            single = gymnasium.make("boardgame_envs/Goofspiel-v0", opponent=searcher)
            single.reset(seed=1)
            batch = make_vec("goofspiel", 4, opponent="random", seed=3)
            batch.reset()
            rng = np.random.default_rng(0)
            for _ in range(30):
                masks = batch.action_masks()
                batch.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
            rules = boardgame_envs.make_rules("goofspiel")
            print("rules", rules.name, batch.observation_space.shape)
            """
        ),
        environ,
    )
    assert out.splitlines()[-1].startswith("rules goofspiel (")
