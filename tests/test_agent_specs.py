"""Your own agent everywhere: ``module.path:attr`` and ``path/to/file.py:attr`` specs in
``make_agent``, ``eval`` (with worker processes, from another folder, on Ray), ``league``,
``play --vs``, ``train --opponent`` and the :func:`boardgame_envs.training.evaluation.evaluate`
API; game records saved with ``--save-games``; clear errors for specs that name nothing
usable."""

from __future__ import annotations

import io
import json
import os
import re
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from boardgame_envs.agents.base import Agent, ProtocolAgent
from boardgame_envs.agents.specs import (
    AGENT_KINDS,
    load_user_agent,
    make_agent,
    resolve_agent_spec,
    split_agent_specs,
)
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.registry import make_rules
from boardgame_envs.training import opponents
from boardgame_envs.training.cli import main as cli_main
from boardgame_envs.training.cli.play import play
from boardgame_envs.training.evaluation import league
from boardgame_envs.training.evaluation.tournament import evaluate, markdown_table
from boardgame_envs.training.ppo import train as train_ppo
from boardgame_envs.training.records.game_records import load_record, replay_states

GAME = "factors_multiples"
MODULE = "spec_test_agents"  # the agent file's name when imported as a module

AGENT_FILE = '''
import numpy as np

from boardgame_envs.agents.base import Agent


class FirstLegal(Agent):
    """The first legal action, always; counts its decisions."""

    acted = 0

    def act(self, view):
        type(self).acted += 1
        return int(np.flatnonzero(view.legal_action_mask())[0])


class LastLegal:
    """Follows the protocol without subclassing Agent; remembers its game and resets."""

    def __init__(self, game=None, seed=None):
        self.game, self.seed, self.resets = game, seed, []

    def act(self, view):
        return int(np.flatnonzero(view.legal_action_mask())[-1])

    def reset(self, seed=None):
        self.resets.append(seed)


def make_last(game, seed=None):
    return LastLegal(game=game, seed=seed)


def make_nothing():
    return 42


class NoAct:
    pass


class NeedsDepth(Agent):
    def __init__(self, depth):
        super().__init__()

    def act(self, view):
        return 0


INSTANCE = LastLegal(game="shared")
NUMBER = 42
'''


@pytest.fixture(scope="module")
def agent_dir(tmp_path_factory) -> Path:
    """A folder holding the user's agent file (``spec_test_agents.py``)."""
    folder = tmp_path_factory.mktemp("user_code")
    (folder / f"{MODULE}.py").write_text(textwrap.dedent(AGENT_FILE))
    yield folder
    sys.modules.pop(MODULE, None)


@pytest.fixture
def elsewhere(tmp_path, monkeypatch) -> Path:
    """The current folder: an empty one, not the agent file's nor the repository."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    monkeypatch.chdir(folder)
    monkeypatch.setattr(sys, "path", list(sys.path))  # whatever a test adds is undone
    return folder


def file_spec(agent_dir: Path, attr: str) -> str:
    return f"{agent_dir / MODULE}.py:{attr}"


def first_view(game: str = GAME, seed: int = 3):
    state = make_rules(game).new_state(2, seed=seed)
    return state.view(state.current_player), state.legal_actions()


def table_without_clock(markdown: str) -> list[str]:
    """The result and rating rows of a markdown table, without the seconds per decision."""
    rows = [line for line in markdown.splitlines() if line.startswith("| ")]
    return [line.rsplit("|", 2)[0] if line.count("|") == 12 else line for line in rows]


# -- make_agent ----------------------------------------------------------------------------
def test_a_file_spec_builds_a_class_a_factory_and_an_instance(agent_dir):
    view, legal = first_view()
    first = make_agent(file_spec(agent_dir, "FirstLegal"), GAME, seed=1)
    assert isinstance(first, Agent) and first.act(view) == legal[0]

    made = make_agent(file_spec(agent_dir, "make_last"), GAME, seed=5)
    assert isinstance(made, ProtocolAgent) and made.act(view) == legal[-1]
    assert (made.inner.game, made.inner.seed) == (GAME, 5)  # the factory got game and seed
    made.reset(9)
    assert made.inner.resets == [9]  # reset(seed) reaches an object that has one

    plain_class = make_agent(file_spec(agent_dir, "LastLegal"), GAME, seed=2)
    assert plain_class.inner.game == GAME and plain_class.act(view) == legal[-1]

    shared = make_agent(file_spec(agent_dir, "INSTANCE"), GAME, seed=7)
    again = make_agent(file_spec(agent_dir, "INSTANCE"), GAME)
    assert shared.inner is again.inner  # used as it is: one object
    assert shared.inner.game == "shared" and shared.inner.resets[0] == 7


def test_a_relative_file_spec_and_a_module_spec(agent_dir, elsewhere, monkeypatch):
    spec = f"{os.path.relpath(agent_dir)}/{MODULE}.py:FirstLegal"  # from the current folder
    view, legal = first_view()
    assert make_agent(spec, GAME).act(view) == legal[0]
    assert resolve_agent_spec(spec) == file_spec(agent_dir, "FirstLegal")

    # a module: on the Python path, or in the current folder (as python -m finds it)
    monkeypatch.chdir(agent_dir)
    assert make_agent(f"{MODULE}:FirstLegal", GAME).act(view) == legal[0]
    assert make_agent(f"{MODULE}:make_last", GAME).act(view) == legal[-1]


def test_specs_other_than_files_are_sent_to_workers_as_they_are():
    for spec in ("random", "heuristic", "ismcts:seconds=0", "ppo:wasabi", "pkg.mod:Agent"):
        assert resolve_agent_spec(spec) == spec


def test_split_keeps_user_specs_whole_beside_options():
    text = "ismcts:iterations=5,seconds=0,my_agents.py:FirstLegal,ppo:wasabi,device=cpu,pkg.mod:A"
    assert split_agent_specs(text) == [
        "ismcts:iterations=5,seconds=0",
        "my_agents.py:FirstLegal",
        "ppo:wasabi,device=cpu",
        "pkg.mod:A",
    ]
    assert split_agent_specs("dir/my_agents.py:FirstLegal=0.5,heuristic=0.5") == [
        "dir/my_agents.py:FirstLegal=0.5",
        "heuristic=0.5",
    ]


@pytest.mark.parametrize(
    ("attr", "message"),
    [
        ("Missing", r"has no attribute 'Missing'; it defines: FirstLegal, LastLegal, make_last"),
        ("NUMBER", r"is 42 \(of type int\), not an agent; allowed: an Agent subclass, a factory"),
        ("NoAct", r"is the class NoAct \(it has no act method\), not an agent"),
        ("make_nothing", r"the factory returned 42 \(of type int\), not an agent"),
        ("NeedsDepth", r"cannot call NeedsDepth\(\) \(missing a required argument: 'depth'\)"),
    ],
)
def test_an_attribute_that_is_no_agent_is_a_clear_error(agent_dir, attr, message):
    spec = file_spec(agent_dir, attr)
    with pytest.raises(InvalidConfigError, match=re.escape(f"agent {spec!r}")):
        make_agent(spec, GAME)
    with pytest.raises(InvalidConfigError, match=message):
        make_agent(spec, GAME)


def test_a_missing_file_or_module_is_a_clear_error(elsewhere):
    with pytest.raises(InvalidConfigError) as missing_file:
        make_agent("nowhere/my_agents.py:FirstLegal", GAME)
    text = str(missing_file.value)
    assert "agent 'nowhere/my_agents.py:FirstLegal': no file nowhere/my_agents.py" in text
    assert str(elsewhere / "nowhere/my_agents.py") in text and "path/to/file.py:attr" in text
    with pytest.raises(InvalidConfigError, match="no module named 'no_such_module'; allowed"):
        make_agent("no_such_module:Agent", GAME)
    with pytest.raises(InvalidConfigError, match="module.path:attr or path/to/file.py:attr"):
        make_agent("my_agents.py:", GAME)
    with pytest.raises(InvalidConfigError, match="unknown agent 'wizard'.*path/to/file.py:attr"):
        make_agent("wizard", GAME)
    assert {"module.path:attr", "path/to/file.py:attr"} <= set(AGENT_KINDS)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing.py:FirstLegal", "no file missing.py"),
        ("{dir}/spec_test_agents.py:Missing", "has no attribute 'Missing'"),
        ("{dir}/spec_test_agents.py:NUMBER", "is 42 (of type int), not an agent"),
    ],
)
def test_bad_specs_exit_2_with_one_line_in_every_command(
    agent_dir, elsewhere, capsys, spec, message
):
    spec = spec.format(dir=agent_dir)
    commands = [
        ["eval", GAME, "--agents", f"{spec},random", "--games", "1", "--workers", "2"],
        ["league", GAME, "--agents", f"random,{spec}", "--games", "1"],
        ["play", GAME, "--vs", spec],
        ["train", GAME, "--opponent", f"{spec}=0.5,random=0.5", "--timesteps", "64"],
    ]
    for argv in commands:
        assert cli_main([*argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err and f"agent '{spec}'" in err, err
    assert list(elsewhere.iterdir()) == []  # nothing left behind (no league/, no runs/)


# -- eval, the evaluate() API and saved games ---------------------------------------------
def test_eval_with_worker_processes_from_another_folder_matches_the_api(
    agent_dir, elsewhere, capsys
):
    spec = f"../{agent_dir.name}/{MODULE}.py:FirstLegal"
    (elsewhere.parent / agent_dir.name).symlink_to(agent_dir)  # relative to this folder
    argv = ["eval", GAME, "--agents", f"{spec},heuristic", "--games", "3"]
    assert cli_main([*argv, "--seed", "11", "--workers", "2", "--no-progress"]) == 0
    printed = capsys.readouterr().out
    api = evaluate(GAME, [spec, "heuristic"], games=3, seed=11)
    assert table_without_clock(printed) == table_without_clock(markdown_table(api))
    mine = api.result(spec, "heuristic")
    assert mine.games == 3 and mine.wins + mine.draws + mine.losses == 3


def test_the_api_takes_names_specs_and_objects(agent_dir, tmp_path):
    spec = file_spec(agent_dir, "FirstLegal")
    by_name = evaluate(GAME, {"first": spec, "h": "heuristic"}, games=4, num_players=[2, 3])
    by_spec = evaluate(GAME, f"{spec},heuristic", games=4, num_players=[2, 3])
    LastLegal = type(load_user_agent(file_spec(agent_dir, "LastLegal"), GAME).inner)
    with_object = evaluate(GAME, {"first": spec, "last": LastLegal()}, games=4)

    assert {(r.agent, r.opponent, r.num_players) for r in by_name.results} == {
        ("first", "h", 2),
        ("h", "first", 2),
        ("first", "h", 3),
        ("h", "first", 3),
    }
    assert set(by_name.ratings) == {"first", "h"}
    for r in by_name.results:  # the names are labels only: the same games
        same = by_spec.result(
            spec if r.agent == "first" else "heuristic",
            spec if r.opponent == "first" else "heuristic",
            r.num_players,
        )
        assert (r.wins, r.draws, r.losses, r.score_sum) == (
            same.wins,
            same.draws,
            same.losses,
            same.score_sum,
        )
    assert with_object.result("first", "last").games == 4
    assert "| first | last | 4 |" in markdown_table(with_object)


def test_objects_with_workers_are_refused_with_a_spec_suggested(agent_dir):
    first = make_agent(file_spec(agent_dir, "FirstLegal"), GAME)
    with pytest.raises(InvalidConfigError, match="agent 'mine' is an object.*spec string") as e:
        evaluate(GAME, {"mine": first, "random": "random"}, games=1, workers=2)
    assert "my_agents.py:MyAgent" in str(e.value)
    for bad, message in (
        ({"mine": 42, "random": "random"}, r"agents\['mine'\] = 42 is not allowed"),
        (["random", first], "a list of agent specs"),
    ):
        with pytest.raises(InvalidConfigError, match=message):
            evaluate(GAME, bad, games=1)
    with pytest.raises(InvalidConfigError, match="games=0 is not allowed"):
        evaluate(GAME, ["random", "heuristic"], games=0)


def test_save_games_writes_a_record_that_replays_for_every_game(agent_dir, tmp_path):
    spec = file_spec(agent_dir, "FirstLegal")
    folder = tmp_path / "games"
    agents = {"my:first": spec, "heuristic": "heuristic"}
    tournament = evaluate(GAME, agents, games=2, num_players=[2, 3], seed=40, save_games=folder)
    names = sorted(path.name for path in folder.iterdir())
    assert names == [
        "heuristic-vs-my_first-3p-0.json",
        "heuristic-vs-my_first-3p-1.json",
        "my_first-vs-heuristic-2p-0.json",
        "my_first-vs-heuristic-2p-1.json",
        "my_first-vs-heuristic-3p-0.json",
        "my_first-vs-heuristic-3p-1.json",
    ]
    for name in names:
        record = load_record(folder / name)
        index = int(name.removesuffix(".json").rsplit("-", 1)[1])
        n = record["num_players"]
        lone = spec if name.startswith("my_first") else "heuristic"
        field = "heuristic" if lone == spec else spec
        assert record["seed"] == 40 + index and n == int(name.split("-")[-2][0])
        assert record["agents"] == [lone if s == index % n else field for s in range(n)]
        states = replay_states(record)
        assert len(states) == len(record["actions"]) + 1 and states[-1].is_terminal()
    # the scores of the records are those the tables count
    result = tournament.result("my:first", "heuristic", 2)
    seat_scores = [
        load_record(folder / f"my_first-vs-heuristic-2p-{g}.json")["scores"][g % 2] for g in (0, 1)
    ]
    assert sum(seat_scores) == pytest.approx(result.score_sum)


def test_league_and_eval_save_games_from_the_command_line(agent_dir, elsewhere, capsys):
    spec = file_spec(agent_dir, "FirstLegal")
    argv = [GAME, "--agents", f"{spec},random", "--games", "2", "--no-progress"]
    assert cli_main(["league", *argv, "--out", "table", "--save-games", "lg"]) == 0
    assert cli_main(["eval", *argv, "--workers", "2", "--save-games", "ev"]) == 0
    assert f"| {spec} | random | 2 |" in capsys.readouterr().out
    results = json.loads((elsewhere / "table/results.json").read_text())
    assert {r["agent"] for r in results["results"]} == {spec, "random"}
    stem = re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("._")
    for folder in ("lg", "ev"):
        names = sorted(path.name for path in (elsewhere / folder).iterdir())
        assert names == [f"{stem}-vs-random-2p-0.json", f"{stem}-vs-random-2p-1.json"]
        for name in names:
            replay_states(load_record(elsewhere / folder / name))
    assert (elsewhere / "lg" / names[0]).read_text() == (elsewhere / "ev" / names[0]).read_text()


# -- play and train ------------------------------------------------------------------------
def test_play_against_your_own_agent(agent_dir):
    spec = file_spec(agent_dir, "FirstLegal")
    FirstLegal = type(make_agent(spec, GAME))
    before = FirstLegal.acted
    out = io.StringIO()
    returns = play(GAME, spec, num_players=2, seat=0, seed=8, read=lambda prompt: "1", out=out)
    assert returns is not None and sum(returns) == pytest.approx(0)
    assert f"against {spec}" in out.getvalue()
    assert FirstLegal.acted > before  # it made the other seat's moves


def test_train_against_your_own_agent_from_another_folder(agent_dir, elsewhere):
    spec = f"{MODULE}.py:FirstLegal"
    (elsewhere / f"{MODULE}.py").write_text((agent_dir / f"{MODULE}.py").read_text())
    args = train_ppo.Args(
        game=GAME,
        opponent=f"{spec}=0.5,random=0.5",
        reward="outcome",
        imitate="",
        timesteps=128,
        n_envs=2,
        n_steps=64,
        batch_size=64,
        n_epochs=1,
        net_arch="16",
        eval_every=0,
        eval_games=1,
        checkpoint_every=0,
        out_dir=str(elsewhere / "runs"),
        run_name="run",
        progress=False,
    )
    run_dir = train_ppo.main(args)
    assert (run_dir / "model.zip").exists()
    saved = json.loads((run_dir / "config.json").read_text())["args"]
    # the path is made absolute: workers elsewhere and --resume from elsewhere find it
    assert saved["opponent"] == f"{elsewhere / MODULE}.py:FirstLegal=0.5,random=0.5"
    mix = opponents.parse_opponents(saved["opponent"], GAME, None)
    assert [type(a).__name__ for a in mix.agents] == ["FirstLegal", "RandomAgent"]
    assert np.allclose(mix.weights, [0.5, 0.5])
    assert not opponents.wants_self_play("self-play-agents/a.py:A")


def test_resolve_opponents_makes_only_file_paths_absolute(elsewhere):
    (elsewhere / "mine.py").write_text("A = None\n")
    text = "ismcts:iterations=5,seconds=0=0.2,mine.py:A=0.3,pkg.mod:B,self-play=0.5"
    assert opponents.resolve_opponents(text) == (
        f"ismcts:iterations=5,seconds=0=0.2,{elsewhere}/mine.py:A=0.3,pkg.mod:B,self-play=0.5"
    )
    assert opponents.resolve_opponents("heuristic=0.7, random=0.3") == "heuristic=0.7, random=0.3"


# -- Ray -----------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    from boardgame_envs.training.parallel import connect_ray

    connect_ray("", workers=2)
    yield ray
    ray.shutdown()


def test_a_file_spec_on_ray_from_another_folder(agent_dir, elsewhere, ray_instance, capsys):
    (elsewhere / "code").symlink_to(agent_dir)
    spec = f"code/{MODULE}.py:FirstLegal"  # relative to this folder, not the Ray workers'
    argv = ["eval", GAME, "--agents", f"{spec},random", "--games", "2", "--seed", "5"]
    assert cli_main([*argv, "--workers", "2", "--backend", "ray", "--no-progress"]) == 0
    on_ray = capsys.readouterr().out
    here = evaluate(GAME, [spec, "random"], games=2, seed=5)
    assert table_without_clock(on_ray) == table_without_clock(markdown_table(here))
    args = league.Args(
        game=GAME, agents=f"{spec},random", games=1, workers=2, backend="ray", progress=False
    )
    assert league.run_league(args).result(spec, "random").games == 1
