"""Duplicate deals and the benchmark's score card: the same deal in every seating, intervals
over deals, a card that is the same on every run apart from its timings, and --verify
finding every tampered record, score or card entry."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from boardgame_envs import InvalidConfigError
from boardgame_envs.agents.base import RandomAgent
from boardgame_envs.registry import GAMES, make_rules
from boardgame_envs.training.evaluation import benchmark
from boardgame_envs.training.evaluation.duplicate import (
    deal_and_seat,
    deal_interval,
    deal_means,
    mean_interval,
    t_quantile,
    wilson_interval,
)
from boardgame_envs.training.evaluation.tournament import evaluate, play_one
from boardgame_envs.training.records.game_records import load_record, replay_states


# -- duplicate deals ------------------------------------------------------------------------
def test_duplicate_games_are_every_deal_in_every_seating():
    assert [deal_and_seat(100, g, 2, True) for g in range(4)] == [
        (100, 0),
        (100, 1),
        (101, 0),
        (101, 1),
    ]
    assert [deal_and_seat(100, g, 3, True) for g in range(4)] == [
        (100, 0),
        (100, 1),
        (100, 2),
        (101, 0),
    ]
    assert [deal_and_seat(100, g, 2, False) for g in range(3)] == [(100, 0), (101, 1), (102, 0)]


@pytest.mark.parametrize("game", list(GAMES))
def test_a_seat_keeps_its_generator_so_a_deal_plays_the_same_in_every_seating(game):
    """Two agents of one kind swapped between the seats play the very same game: the deal
    and each seat's generator, not who sits there, decide the cards and the moves."""
    rules = make_rules(game)
    first = play_one(rules, RandomAgent(), [RandomAgent()], 5, 0, duplicate=True)
    second = play_one(rules, RandomAgent(), [RandomAgent()], 5, 1, duplicate=True)
    assert (first.seat, second.seat) == (0, 1)
    assert first.actions == second.actions and first.scores == second.scores


def test_a_duplicate_deal_gives_the_same_cards_in_both_seatings(tmp_path):
    evaluate(
        "wasabi", ["heuristic", "random"], games=4, seed=9, duplicate=True, save_games=tmp_path
    )
    records = [load_record(tmp_path / f"heuristic-vs-random-2p-{g}.json") for g in range(4)]
    assert [r["seed"] for r in records] == [9, 9, 10, 10]
    assert records[0]["agents"] == ["heuristic", "random"]
    assert records[1]["agents"] == ["random", "heuristic"]
    for a, b in ((records[0], records[1]), (records[2], records[3])):
        start_a, start_b = replay_states(a)[0], replay_states(b)[0]
        for seat in range(2):  # each seat is dealt the same cards whoever sits there
            assert start_a.view(seat).observation().tolist() == (
                start_b.view(seat).observation().tolist()
            )


def test_duplicate_eval_reports_intervals_over_deals():
    tournament = evaluate("wasabi", ["heuristic", "random"], games=4, duplicate=True)
    result = tournament.result("heuristic", "random")
    assert (result.seatings, result.deals, len(result.points)) == (2, 2, 4)
    assert result.ci95 == deal_interval(result.points, 2)
    assert tournament.result("random", "heuristic").points == [1 - p for p in result.points]
    with pytest.raises(InvalidConfigError, match="multiple of every table size"):
        evaluate("wasabi", ["heuristic", "random"], games=3, duplicate=True)


def test_t_quantiles():
    known = {1: 12.7062, 2: 4.3027, 3: 3.1824, 5: 2.5706, 10: 2.2281, 30: 2.0423, 100: 1.9840}
    for df, value in known.items():
        assert t_quantile(df) == pytest.approx(value, abs=2e-4)


def test_interval_over_deals_by_hand():
    # six deals of two seatings; per-deal means 0.5, 1, 0.5, 0.5, 1, 0.5
    points = [1, 0, 1, 1, 0, 1, 0.5, 0.5, 1, 1, 0, 1]
    assert deal_means(points, 2) == [0.5, 1, 0.5, 0.5, 1, 0.5]
    # mean 2/3, sample variance 1/15, standard error sqrt(1/90), t(5) = 2.570582
    half = 2.570582 * (1 / 90) ** 0.5
    low, high = deal_interval(points, 2)
    assert low == pytest.approx(2 / 3 - half, abs=1e-5)
    assert high == pytest.approx(2 / 3 + half, abs=1e-5)
    # every deal the same: the Wilson interval of that share over the deals
    assert mean_interval([1.0] * 8) == wilson_interval(8, 8)
    with pytest.raises(ValueError):
        deal_means([1, 0, 1], 2)


# -- the card -------------------------------------------------------------------------------
def small(game: str, n: int, reference: str) -> bool:
    """A part of the pool that plays in about a second: Wasabi!, random and heuristic."""
    return game == "wasabi" and reference in ("random", "heuristic")


def card_of(**options) -> dict:
    return benchmark.run_benchmark(
        "heuristic", games=4, large_table_games=20, progress=False, keep=small, **options
    )


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in benchmark.TIMING_KEYS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    folder = tmp_path_factory.mktemp("card")
    card = card_of(save_games=folder)
    benchmark.write_card(card, folder)
    return folder, card


def test_the_card_is_the_same_on_every_run_apart_from_timings(saved):
    _, card = saved
    again = card_of()
    assert without_timings(again) == without_timings(card)
    assert card["benchmark_version"] == benchmark.BENCHMARK_VERSION
    assert set(card["envs"]) == set(GAMES) and card["library"]
    assert card["whole_benchmark"] is False  # a part of the pool, and the card says so
    assert [(t["game"], t["num_players"]) for t in card["tables"]] == [("wasabi", 2), ("wasabi", 4)]
    four = card["tables"][1]
    assert four["left_out"] == ["ppo:wasabi (no policy shipped for 4 players)"]
    assert [r["reference"] for r in four["references"]] == ["random", "heuristic"]
    assert four["references"][1]["win_share"] == 0.25  # the heuristic against itself
    assert "PART of the reference pool" in benchmark.card_markdown(card)


def test_the_card_is_the_same_with_worker_processes(saved):
    assert without_timings(card_of(workers=2)) == without_timings(saved[1])


def test_the_frozen_scale_moves_only_the_agent():
    rating = benchmark.FrozenRating()
    for _ in range(30):
        rating.update(0, (10.0, 0.0), benchmark.POOL["wasabi", 2]["heuristic"])
    assert rating.rating.mu > benchmark.POOL["wasabi", 2]["heuristic"][0]
    published = next(
        t["references"]["heuristic"]
        for t in benchmark.DEFINITION["tables"]
        if (t["game"], t["num_players"]) == ("wasabi", 2)
    )
    assert benchmark.POOL["wasabi", 2]["heuristic"] == tuple(published)
    assert benchmark.agent_for("ppo:{game}", "wasabi") == "ppo:wasabi"


def test_verify_accepts_the_saved_card(saved):
    folder, _ = saved
    assert benchmark.verify(folder) == []


def tampered(saved, tmp_path, change) -> list[str]:
    folder = tmp_path / "card"
    shutil.copytree(saved[0], folder)
    change(folder)
    return benchmark.verify(folder)


def edit_json(path, edit):
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))


def test_verify_finds_a_changed_score(saved, tmp_path):
    name = "wasabi-2p-heuristic-1.json"

    def change(folder):
        edit_json(folder / name, lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1))

    problems = tampered(saved, tmp_path, change)
    assert len(problems) == 1 and problems[0].startswith(f"record {name}: the engines give")


def test_verify_finds_a_changed_move(saved, tmp_path):
    name = "wasabi-4p-random-3.json"

    def change(folder):
        edit_json(folder / name, lambda r: r["actions"].pop())

    problems = tampered(saved, tmp_path, change)
    assert problems and problems[0].startswith(f"record {name}: the game is not over")


def test_verify_finds_a_changed_card_entry(saved, tmp_path):
    def change(folder):
        def edit(card):
            card["tables"][0]["references"][0]["win_share"] = 0.5
            card["tables"][1]["rating"]["mu"] = 99.0

        edit_json(folder / "card.json", edit)
        (folder / "card.md").write_text(
            benchmark.card_markdown(json.loads((folder / "card.json").read_text()))
        )

    problems = tampered(saved, tmp_path, change)
    assert problems[0] == "card wasabi 2p vs random win_share: 0.5, the games give 1.0"
    assert problems[1].startswith("card wasabi 4p rating: {'mu': 99.0")
    assert len(problems) == 2


def test_verify_finds_a_card_md_that_differs(saved, tmp_path):
    def change(folder):
        text = (folder / "card.md").read_text()
        (folder / "card.md").write_text(text.replace("| random | 4 | 4 |", "| random | 4 | 3 |"))

    problems = tampered(saved, tmp_path, change)
    assert len(problems) == 1 and problems[0].startswith("card.md: does not say what card.json")


def test_verify_finds_missing_and_foreign_records(saved, tmp_path):
    def change(folder):
        (folder / "wasabi-2p-random-0.json").rename(folder / "stray.json")

    problems = tampered(saved, tmp_path, change)
    assert "no such file" in problems[0] and "wasabi-2p-random-0.json" in problems[0]
    assert "record stray.json: not a game of this card" in problems


def test_verify_refuses_what_is_no_card(saved, tmp_path):
    with pytest.raises(InvalidConfigError, match="not a benchmark card folder"):
        benchmark.verify(tmp_path)
    other = tmp_path / "other"
    shutil.copytree(saved[0], other)
    edit_json(other / "card.json", lambda c: c.__setitem__("benchmark_version", "0"))
    with pytest.raises(InvalidConfigError, match="benchmark version '0'"):
        benchmark.verify(other)
    record = tmp_path / "record"
    shutil.copytree(saved[0], record)
    edit_json(record / "wasabi-2p-heuristic-0.json", lambda r: r.__setitem__("benchmark", "0"))
    with pytest.raises(InvalidConfigError, match="record wasabi-2p-heuristic-0.json is from"):
        benchmark.verify(record)


def run_cli(*argv: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "boardgame_envs.training.cli", "benchmark", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
    )


def test_the_command_line(saved, tmp_path):
    done = run_cli("--version")
    assert (done.returncode, done.stdout) == (
        0,
        f"benchmark version {benchmark.BENCHMARK_VERSION}\n",
    )
    done = run_cli("--verify", str(saved[0]))
    assert done.returncode == 0 and "the card checks out" in done.stdout
    for argv, said in (
        (["nosuchagent"], "unknown agent 'nosuchagent'"),
        (["--verify", str(tmp_path)], "not a benchmark card folder"),
        (["heuristic", "--games", "3"], "--games 3 is not allowed"),
        (["heuristic", "--save-games", str(saved[0])], "already holds JSON files"),
        ([], "the agent to benchmark is required"),
    ):
        done = run_cli(*argv, cwd=tmp_path)
        assert done.returncode == 2 and done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_the_published_pool_is_the_benchmark_s():
    """docs/reporting-results.md publishes the pool and its frozen ratings: the code's."""
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "reporting-results.md"
    rows = {
        tuple(cells[:2]): cells[2]
        for cells in (line.strip("| ").split(" | ") for line in page.read_text().splitlines())
        if len(cells) > 2 and "`random` " in cells[2]  # the pool's table
    }
    for (game, n), refs in benchmark.POOL.items():
        shown = rows[game, str(n)]
        for spec, (mu, sigma) in refs.items():
            assert f"`{spec}` {mu:.2f} ({sigma:.2f})" in shown, (game, n, spec)
    assert f"{benchmark.SEED:,}" in page.read_text()


def test_the_shipped_reference_models_are_the_benchmark_s():
    # A reference policy or network shipped anew without a new benchmark version fails here.
    benchmark.check_reference_models()
    pool_models = {
        spec
        for refs in benchmark.POOL.values()
        for spec in refs
        if spec.split(":")[0] in ("ppo", "net")
    }
    assert set(benchmark.REFERENCE_MODELS) == pool_models


def test_a_changed_reference_model_is_refused_before_any_game(monkeypatch, tmp_path):
    spec = next(iter(benchmark.REFERENCE_MODELS))
    monkeypatch.setitem(benchmark.REFERENCE_MODELS, spec, "0" * 64)
    refused = f"the reference {spec} of benchmark {benchmark.BENCHMARK_VERSION} is another"
    with pytest.raises(InvalidConfigError, match=refused):
        benchmark.run_benchmark("random", save_games=tmp_path / "card", progress=False)
    assert not (tmp_path / "card").exists()


def test_an_agent_that_cannot_play_a_table_is_refused_before_any_game(tmp_path):
    # The shipped 2-player networks cannot sit at the largest tables: said before game one.
    with pytest.raises(InvalidConfigError, match="its network is for 2 players, this game has"):
        benchmark.run_benchmark(
            "net:{game}",
            games=2,
            large_table_games=20,
            save_games=tmp_path / "card",
            progress=False,
        )
    assert not (tmp_path / "card").exists()


def test_an_agent_that_crashes_is_one_clear_error_before_any_game(tmp_path):
    crashing = tmp_path / "crashing.py"
    crashing.write_text(
        "from boardgame_envs.agents import Agent\n\n"
        "class Crashes(Agent):\n"
        "    def act(self, view):\n"
        "        raise ZeroDivisionError('division by zero')\n"
    )
    with pytest.raises(
        InvalidConfigError, match="failed its first decision at .*ZeroDivisionError"
    ):
        benchmark.run_benchmark(
            f"{crashing}:Crashes", games=2, large_table_games=20, progress=False
        )


def test_a_larger_table_leaves_out_only_what_its_pool_lacks():
    left_out = benchmark._left_out
    assert left_out("tahiti", 4, ["random", "ppo:tahiti@4p", "net:tahiti@4p"]) == []
    assert left_out("wasabi", 4, ["random", "net:wasabi@4p"]) == [
        "ppo:wasabi (no policy shipped for 4 players)"
    ]
    assert left_out("tahiti", 4, ["random", "ppo:tahiti@4p"]) == [
        "net:tahiti (no network shipped for 4 players)"
    ]
    assert left_out("cornucopia", 5, ["random", "heuristic"]) == [
        "ppo:cornucopia and net:cornucopia (no policy or network shipped for 5 players)"
    ]
