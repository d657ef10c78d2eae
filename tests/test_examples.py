"""Every script in examples/ runs with its --quick budget and prints what it promises.

Each runs as a user would run it, ``python examples/<script>.py --quick``, in its own
process from an empty folder (so nothing depends on the repository root being the current
folder, and nothing is written into the repository).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"

#: script -> a line its output must contain (a regular expression)
EXPECTED = {
    "random_aec_loop.py": r"mean reward per seat over 3 games: player_0 [+-]\d\.\d{3}",
    "evaluate_my_agent.py": r"greedy against heuristic: win share \d\.\d{3} \[",
    "pytorch_training_loop.py": r"final win share against random: \d\.\d\d over 4 fresh deals",
    "maskable_ppo.py": r"ppo against heuristic: win share \d\.\d{3} \[",
    "self_play.py": r"\| 2 \| learner \| heuristic \| 2 \|",
    "analyse_position.py": r"ismcts \(200 iterations\): \d+ \(play ",
    "rllib_self_play.py": r"win share against random: \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\] over 4 ",
    "cleanrl_ppo.py": r"against the heuristic: win share \d\.\d{3} \[",
}
NEEDS_TRAINING_STACK = {
    "pytorch_training_loop.py",
    "maskable_ppo.py",
    "self_play.py",
    "cleanrl_ppo.py",
}
#: Scripts allowed more than 140 lines: a whole algorithm in one file, as CleanRL's are.
ONE_FILE_ALGORITHMS = {"cleanrl_ppo.py": 300}


def run_example(script: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        "OMP_NUM_THREADS": "1",
    }
    return subprocess.run(
        [sys.executable, str(EXAMPLES / script), *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def test_every_example_is_listed_and_tested():
    scripts = {path.name for path in EXAMPLES.glob("*.py")}
    assert scripts == set(EXPECTED) | {"my_agent.py"}
    listed = (EXAMPLES / "README.md").read_text()
    assert all(f"`{name}`" in listed for name in scripts)


@pytest.mark.parametrize("script", sorted(EXPECTED))
def test_example_runs_with_its_quick_budget(script, tmp_path):
    if script in NEEDS_TRAINING_STACK:
        pytest.importorskip("sb3_contrib")
    if script == "rllib_self_play.py":  # the rllib extra pins gymnasium: its own environment
        pytest.importorskip("ray.rllib", reason="needs the rllib extra: make test-rllib")
    done = run_example(script, tmp_path, "--quick")
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n{done.stderr[-3000:]}"
    assert re.search(EXPECTED[script], done.stdout), done.stdout[-3000:]


def test_every_example_documents_how_to_run_it():
    for path in EXAMPLES.glob("*.py"):
        text = path.read_text()
        docstring = text.split('"""')[1]
        limit = ONE_FILE_ALGORITHMS.get(path.name, 140)
        assert len(text.splitlines()) <= limit, f"{path.name} is no longer short"
        if path.name != "my_agent.py":
            assert f"python examples/{path.name} --quick" in docstring, path.name


def test_my_agents_play_legal_moves_by_their_file_spec():
    from boardgame_envs import make_rules
    from boardgame_envs.agents.specs import make_agent

    for name in ("GreedyAgent", "FirstLegal"):
        agent = make_agent(f"{EXAMPLES / 'my_agent.py'}:{name}", "wasabi", seed=0)
        state = make_rules("wasabi").new_state(num_players=2, seed=1)
        agent.reset(seed=1)
        while not state.is_terminal():  # every seat played by the agent: apply() checks
            state.apply(agent.act(state.view(state.current_player)))
        assert len(state.winners()) >= 1


def test_the_documented_command_line_takes_my_agent():
    """The command of my_agent.py's docstring, from the repository root, as written there."""
    done = subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", "eval", "wasabi",
         "--agents", "examples/my_agent.py:GreedyAgent,heuristic", "--games", "2", "--no-progress"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| 2 | examples/my_agent.py:GreedyAgent | heuristic | 2 |" in done.stdout
    documented = "--agents examples/my_agent.py:GreedyAgent,heuristic"
    assert documented in (EXAMPLES / "my_agent.py").read_text()


def test_the_saved_snapshot_loads_back(tmp_path):
    done = run_example("analyse_position.py", tmp_path, "--quick", "--save", "position.json")
    assert done.returncode == 0, done.stderr[-3000:]
    again = run_example("analyse_position.py", tmp_path, "--quick", "--snapshot", "position.json")
    assert again.returncode == 0, again.stderr[-3000:]
    # the same position, hence the same listing and the same (seeded) search
    assert done.stdout.split("\n", 1)[1] == again.stdout
