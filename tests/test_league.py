"""The league: same tables for one process, worker processes and Ray; outputs written whole;
every failure a clear error."""

from __future__ import annotations

import json
import re

import pytest

from boardgame_envs import GAMES
from boardgame_envs.core.rules import InvalidConfigError
from boardgame_envs.training.cli import main as cli_main
from boardgame_envs.training.evaluation import league
from boardgame_envs.training.evaluation.tournament import _play_task, _worker_agent
from boardgame_envs.training.parallel import WorkerError, connect_ray, run_tasks

#: The game every command line here names (no command has a default game).
ON_A_GAME = ("factors_multiples",)

SEARCH = (
    "ismcts:iterations=4,seconds=0,rollout=random,first=0,widen=0,guard=0,verify=0,root=tree,quiet="
)
AGENTS = f"random,heuristic,{SEARCH}"


def table(tournament) -> list[tuple]:
    """Everything a table shows except the clock."""
    rows = [
        (r.agent, r.opponent, r.num_players, r.wins, r.draws, r.losses, r.score_sum, r.decisions)
        for r in tournament.results
    ]
    return rows + sorted(tournament.ratings.items())


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    connect_ray("", workers=2)
    yield ray
    ray.shutdown()


def small_league(**options) -> league.Args:
    base = dict(game="factors_multiples", num_players="2,3", agents=AGENTS, games=3, seed=77)
    return league.Args(**{**base, **options, "progress": False})


@pytest.mark.slow  # Ray's start-up: make test covers Ray with tests/test_agent_specs.py
def test_the_same_seeds_give_the_same_table_on_every_backend(ray_instance):
    one = league.run_league(small_league())
    two = league.run_league(small_league(workers=2))
    on_ray = league.run_league(small_league(workers=2, backend="ray"))
    assert table(one) == table(two) == table(on_ray)
    # 2 players: 3 pairings seen from both sides; 3 players: 6 ordered pairings
    assert len(one.results) == 6 + 6
    assert {r.games for r in one.results} == {3}


def test_the_league_writes_its_tables_and_plots(tmp_path):
    out = tmp_path / "fm"
    league.main(small_league(num_players="2", out=str(out)))
    names = sorted(path.name for path in out.iterdir())
    assert names == [
        "heatmap_2p.png",
        "ratings.png",
        "results.csv",
        "results.json",
        "results.md",
    ]
    text = (out / "results.md").read_text()
    assert "at commit" in text and "Made on" in text
    assert f"| {SEARCH} | " in text and "agent \\ field" in text
    assert "μ − 3σ" in text
    saved = json.loads((out / "results.json").read_text())
    assert {r["agent"] for r in saved["results"]} == set(AGENTS.split(",")[:2]) | {SEARCH}
    assert not (tmp_path / "fm.partial").exists()


def test_matrix_cells_carry_the_win_share_and_its_interval():
    tournament = league.run_league(small_league(num_players="2", agents="heuristic,random"))
    matrix = league.win_share_matrix(tournament, 2)
    heuristic = tournament.result("heuristic", "random")
    low, high = heuristic.ci95
    assert f"| heuristic | – | {heuristic.win_share:.2f} [{low:.2f}, {high:.2f}] |" in matrix


def test_default_agents_cover_every_kind_the_game_has(monkeypatch):
    with_model = league.default_agents("factors_multiples")
    assert with_model[:2] == ["random", "heuristic"]
    assert "ppo:factors_multiples" in with_model  # the shipped policy, by its name
    assert [spec for spec in with_model if spec.startswith("ismcts:")] == list(league.SEARCH_SPECS)
    for game in GAMES:  # every game ships a policy
        assert league.shipped_model(game) is not None, game
    monkeypatch.setattr(league, "shipped_model", lambda game, n=2: None)  # a game without one
    assert not any(spec.startswith("ppo:") for spec in league.default_agents("tahiti"))


def test_a_table_gets_the_policy_fine_tuned_for_its_size_where_there_is_one(monkeypatch):
    import boardgame_envs.agents.ppo as ppo

    shipped = {"wasabi": "two.zip", "wasabi@4p": "four.zip", "tahiti": "t.zip"}
    monkeypatch.setattr(ppo, "shipped_models", lambda: shipped)
    assert league.shipped_model("wasabi", 4) == "ppo:wasabi@4p"
    assert league.shipped_model("wasabi", 3) == "ppo:wasabi"  # the 2-player one plays any table
    assert league.shipped_model("tahiti", 4) == "ppo:tahiti"
    assert league.shipped_model("cornucopia", 2) is None
    assert "ppo:wasabi@4p" in league.default_agents("wasabi", table_sizes=(4,))
    both = league.default_agents("wasabi", table_sizes=(2, 4))  # one policy for every size
    assert [spec for spec in both if spec.startswith("ppo:")] == ["ppo:wasabi"]


def test_default_agents_include_the_shipped_network_alone_and_guiding_the_search(monkeypatch):
    import boardgame_envs.agents.policy_value as policy_value

    shipped = policy_value.shipped_nets()
    assert "factors_multiples" in shipped
    specs = league.default_agents("factors_multiples")
    assert "net:factors_multiples" in specs
    assert specs[-1] == "ismcts-net:factors_multiples,seconds=0"  # reproducible: no clock
    monkeypatch.setattr(policy_value, "shipped_nets", lambda: {})  # a game without one
    assert not any("net:" in spec for spec in league.default_agents("factors_multiples"))


def test_network_agents_join_only_the_table_size_their_network_reads(monkeypatch):
    import boardgame_envs.agents.policy_value as policy_value

    shipped = {"wasabi": "two.pt", "wasabi@4p": "four.pt"}
    monkeypatch.setattr(policy_value, "shipped_nets", lambda: shipped)
    assert "net:wasabi" in league.default_agents("wasabi", table_sizes=(2,))
    four = league.default_agents("wasabi", table_sizes=(4,))
    assert "net:wasabi@4p" in four and "ismcts-net:wasabi@4p,seconds=0" in four
    assert "net:wasabi@3p" not in league.default_agents("wasabi", table_sizes=(3,))
    assert not any("net:" in spec for spec in league.default_agents("wasabi", table_sizes=(3,)))
    assert not any("net:" in spec for spec in league.default_agents("wasabi", table_sizes=(2, 4)))


def test_ratings_rank_by_the_conservative_estimate():
    tournament = league.run_league(small_league(num_players="2", agents="heuristic,random"))
    rows = league.ranked(tournament)
    scores = [mu - 3 * sigma for _, mu, sigma in rows]
    assert scores == sorted(scores, reverse=True)


def test_an_agent_that_fails_on_a_worker_is_named():
    with pytest.raises(WorkerError, match="agent 'nonsense' could not be built on a worker"):
        _worker_agent("factors_multiples", "nonsense", 0)
    task = ("factors_multiples", "random", "nonsense", 2, 0, 0)
    with pytest.raises(WorkerError, match="agent 'nonsense'"):
        list(run_tasks(_play_task, [task, task], workers=2))


def test_an_agent_that_fails_on_ray_is_named(ray_instance):
    task = ("factors_multiples", "random", "nonsense", 2, 0, 0)
    with pytest.raises(WorkerError, match="agent 'nonsense'"):
        list(run_tasks(_play_task, [task], workers=2, backend="ray"))


def test_a_failed_league_writes_nothing(tmp_path, monkeypatch):
    def fail(*args, **kwargs):
        raise InvalidConfigError("agent 'x' could not be built on a worker; stopped")

    monkeypatch.setattr(league, "run_tournament", fail)
    out = tmp_path / "never"
    with pytest.raises(InvalidConfigError):
        league.main(small_league(out=str(out)))
    assert not out.exists() and not (tmp_path / "never.partial").exists()


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--backend", "spark"], "--backend 'spark' is not allowed; allowed: local, ray"),
        (["--workers", "0"], "--workers 0 is not allowed; allowed: an integer >= 1"),
        (["--games", "0"], "--games 0 is not allowed"),
        (["--num-players", "9"], "--num-players 9 is not allowed"),
        (["--agents", "random,nonsense"], "nonsense"),
        (
            ["--backend", "ray", "--ray-address", "127.0.0.1:1"],
            "cannot be reached within",
        ),
        (["--backend", "ray", "--ray-address", "no-port"], "allowed: host:port"),
    ],
)
def test_league_command_line_mistakes_exit_2_with_one_line(argv, message, capsys, tmp_path):
    code = cli_main(["league", *ON_A_GAME, "--games", "1", "--out", str(tmp_path / "x"), *argv])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert message in err[-1]
    assert not (tmp_path / "x").exists()


def test_ray_missing_says_how_to_install_it(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray":
            raise ImportError("no ray")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    from boardgame_envs.training.parallel import import_ray

    with pytest.raises(InvalidConfigError, match=r"pip install 'boardgame-envs\[ray\]'"):
        import_ray()


def test_the_leaderboard_page_and_the_readme_block(tmp_path):
    from boardgame_envs.training.evaluation import leaderboard

    readme = tmp_path / "README.md"
    readme.write_text(
        f"intro\n\n{leaderboard.README_START}\nold rows\n{leaderboard.README_END}\n\nrest\n"
    )
    page = tmp_path / "docs" / "leaderboard.md"
    leaderboard.main(
        leaderboard.Args(
            games="factors_multiples",
            agents="heuristic,random",
            two_player_games=4,
            large_table_games=2,
            workers=1,
            out=str(page.parent),
            readme=str(readme),
            progress=False,
            checkpoints=str(tmp_path / "kept"),
        )
    )
    text = page.read_text()
    assert "## Factors and Multiples (`factors_multiples`)" in text
    assert "### 2 players (4 games per pairing)" in text
    assert "### 5 players (2 games per pairing)" in text
    for n in (2, 5):
        for figure in (f"heatmap_{n}p.png", f"ratings_{n}p.png"):
            assert (tmp_path / "docs" / "leaderboard" / "factors_multiples" / figure).exists()
            assert f"(leaderboard/factors_multiples/{figure})" in text
    assert not (tmp_path / "docs" / "leaderboard.partial").exists()
    block = readme.read_text()
    assert "old rows" not in block and block.startswith("intro") and block.endswith("rest\n")
    assert "| factors_multiples | 2 | heuristic (" in block


def test_the_leaderboard_remakes_one_table_size_alone(tmp_path):
    from boardgame_envs.training.evaluation import leaderboard

    assert leaderboard.table_sizes("tahiti") == [2, 4]
    assert leaderboard.table_sizes("tahiti", "largest") == [4]
    assert leaderboard.table_sizes("tahiti", "two") == [2]
    assert leaderboard.table_sizes("carcassonne_castle", "largest") == [2]  # a 2-player game
    page = leaderboard.main(
        leaderboard.Args(
            games="factors_multiples",
            tables="largest",
            agents="heuristic,random",
            large_table_games=2,
            workers=1,
            out=str(tmp_path / "part"),
            progress=False,
            checkpoints="",
        )
    )
    text = page.read_text()
    assert "### 5 players (2 games per pairing)" in text and "### 2 players" not in text
    with pytest.raises(
        InvalidConfigError, match="--tables '3' is not allowed; allowed: all, two, largest"
    ):
        leaderboard.Args(games="tahiti", tables="3")
    with pytest.raises(InvalidConfigError, match="give --publish without --tables"):
        leaderboard.Args(tables="largest", publish=True)


def test_the_leaderboard_keeps_finished_pairings_while_the_code_that_plays_is_the_same(
    tmp_path, monkeypatch
):
    from boardgame_envs.training.evaluation import leaderboard
    from boardgame_envs.training.evaluation import tournament as evaluate

    def board(out: str) -> leaderboard.Args:
        return leaderboard.Args(
            games="factors_multiples",
            agents="heuristic,random,ismcts:iterations=5,seconds=0",
            two_player_games=4,
            large_table_games=2,
            workers=1,
            out=str(tmp_path / out),
            readme="",
            progress=False,
            checkpoints=str(tmp_path / "kept"),
        )

    monkeypatch.setattr(leaderboard, "play_version", lambda game: "a" * 16)
    first = leaderboard.main(board("first")).read_text()
    kept = sorted((tmp_path / "kept").iterdir())
    assert len(kept) == 3 + 6  # 3 pairings at 2 players, both directions of each at 5
    assert not list((tmp_path / "kept").glob("*.partial"))

    played = []
    real_play_one = evaluate.play_one

    def counted(rules, lone, field, seed, g, duplicate=False):
        played.append(g)
        return real_play_one(rules, lone, field, seed, g, duplicate)

    monkeypatch.setattr(evaluate, "play_one", counted)
    again = leaderboard.main(board("again")).read_text()
    assert played == []
    assert again == first  # the same tables and ratings, none of it replayed

    # An interrupted run: one pairing was not finished. Only its games are played, and
    # the tables and ratings, fitted game by game in the same order, come out the same (the
    # seconds per decision of the games played again are measured again).
    kept[4].unlink()
    resumed = leaderboard.main(board("resumed")).read_text()
    assert without_timings(resumed) == without_timings(first)
    assert played == [0, 1]  # the 2 games of one pairing at 5 players
    played.clear()
    kept[0].write_text('{"key": ')  # cut short as it was written: played again
    cut = leaderboard.main(board("cut")).read_text()
    assert without_timings(cut) == without_timings(first)
    assert played == [0, 1, 2, 3]

    played.clear()
    monkeypatch.setattr(leaderboard, "play_version", lambda game: "b" * 16)  # other engines
    leaderboard.main(board("other"))
    assert len(played) == 3 * 4 + 6 * 2
    played.clear()
    monkeypatch.setattr(leaderboard, "play_version", lambda game: None)  # uncommitted
    leaderboard.main(board("dirty"))
    assert len(played) == 3 * 4 + 6 * 2


def without_timings(page: str) -> str:
    """The leaderboard page with its seconds per decision (the ratings tables' last column)
    blanked: they are measured, not reproduced."""
    return re.sub(r"\| \d+\.\d{4} \|$", "| s |", page, flags=re.M)


def test_the_play_version_follows_the_code_and_the_models_that_play_the_games(monkeypatch):
    from boardgame_envs.training.evaluation import leaderboard

    files = {
        "agents/search.py": "1",
        "agents/models/wasabi_net.pt": "2",
        "agents/models/tahiti_net.pt": "3",
        "native/wasabi.cc": "4",
    }

    def git(*arguments):
        if arguments[0] == "status":
            return status
        return "\n".join(f"100644 blob {blob}\t{path}" for path, blob in files.items())

    monkeypatch.setattr(leaderboard, "git_output", git)
    status = ""
    wasabi, tahiti = leaderboard.play_version("wasabi"), leaderboard.play_version("tahiti")
    assert len(wasabi) == 16 and wasabi != tahiti
    files["agents/models/tahiti_net.pt"] = "5"  # another game's model: the same version
    assert leaderboard.play_version("wasabi") == wasabi
    assert leaderboard.play_version("tahiti") != tahiti
    files["native/wasabi.cc"] = "6"  # the engines: every game's version
    assert leaderboard.play_version("wasabi") != wasabi
    status = " M agents/search.py"
    assert leaderboard.play_version("wasabi") is None


def test_the_leaderboard_writes_to_an_output_folder_unless_asked_to_publish(tmp_path, monkeypatch):
    from boardgame_envs.training.evaluation import leaderboard

    monkeypatch.chdir(tmp_path)
    args = leaderboard.Args(games="factors_multiples")
    assert (args.out, args.readme) == ("leaderboard", "")  # nothing of the project's
    with pytest.raises(InvalidConfigError, match="--publish: README.md is not a file"):
        leaderboard.Args(publish=True)  # not the repository's root
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("no block here\n")
    with pytest.raises(InvalidConfigError, match="README.md has no leaderboard block"):
        leaderboard.Args(publish=True)
    (tmp_path / "README.md").write_text(f"{leaderboard.README_START}\n{leaderboard.README_END}\n")
    published = leaderboard.Args(publish=True)
    assert (published.out, published.readme) == ("docs", "README.md")
    with pytest.raises(InvalidConfigError, match="give it without --out and --readme"):
        leaderboard.Args(publish=True, out="elsewhere")
    (tmp_path / "a_file").write_text("")
    with pytest.raises(InvalidConfigError, match="--out a_file is a file"):
        leaderboard.Args(out="a_file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["README.md", "a_file", "docs"]
