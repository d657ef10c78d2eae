"""``boardgame-envs watch`` and ``replay``: agents' games move by move in the terminal (from
one seat's point of view, hidden information hidden, or a spectator's), a record saved and
shown again, GIF files, and bad arguments refused with one line and exit 2."""

from __future__ import annotations

import json
import re

import pytest

from boardgame_envs.registry import GAMES, game_info
from boardgame_envs.training import cli
from boardgame_envs.training.records.game_records import load_record, replay_states
from boardgame_envs.training.records.replay import replay
from boardgame_envs.training.records.watch import watch

MOVE = re.compile(r"^move (\d+): P(\d) \((\w+)\): (.+)$", re.MULTILINE)
FINAL = re.compile(
    r"^game over after (\d+) moves.*: scores (.+?)(?: \(lowest score wins\))?; "
    r"(.+)$",
    re.MULTILINE,
)


def run_cli(argv, capsys) -> tuple[int, str, str]:
    code = cli.main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def final_scores(text: str) -> str:
    return FINAL.search(text).group(2)


@pytest.mark.parametrize("game", list(GAMES))
def test_watch_shows_every_move_the_table_and_the_final_scores(game, tmp_path, capsys):
    record_path = tmp_path / "game.json"
    code, out, err = run_cli(
        [
            "watch",
            game,
            "--agents",
            "heuristic,random",
            "--pace",
            "0",
            "--seed",
            "3",
            "--save",
            str(record_path),
        ],
        capsys,
    )
    assert code == 0 and err == ""
    record = load_record(record_path)
    states = replay_states(record)
    title = game_info(game).title
    assert out.startswith(f"{title}: P0 (heuristic) vs P1 (random), seed 3; everything shown")
    moves = MOVE.findall(out)
    assert [int(m[0]) for m in moves] == list(range(1, len(record["actions"]) + 1))
    for (_, seat, name, text), before, action in zip(moves, states, record["actions"]):
        assert int(seat) == before.current_player
        assert name == ("heuristic", "random")[int(seat)]
        assert text.removesuffix(" (only move)") == before.describe_action(action)
        assert text.endswith(" (only move)") == (len(before.legal_actions()) == 1)
    # the table after every move, in order, as a spectator sees it (everything); the key once
    at = 0
    for number, state in enumerate(states[1:], 1):
        at = out.index(f"\nmove {number}: ", at)
        table = state.render_text(None, legend=False)
        assert out.startswith(table, out.index("\n\n", at) + 2), number
    key = states[0].rules.renderer.legend_lines()[0]
    assert out.count(key) == 1
    final = states[-1]
    scores = ", ".join(f"P{s} ({record['agents'][s]}) {x:g}" for s, x in enumerate(final.scores()))
    found = FINAL.search(out)
    assert int(found.group(1)) == len(record["actions"]) and found.group(2) == scores
    winner = final.winners()
    assert found.group(3).startswith(f"P{winner[0]} ({record['agents'][winner[0]]})")
    assert f"saved the game's record to {record_path}" in out

    # the replay of the saved record shows the same game and the same final scores
    code, again, err = run_cli(["replay", str(record_path), "--pace", "0"], capsys)
    assert code == 0 and err == ""
    assert MOVE.findall(again) == moves and final_scores(again) == final_scores(out)
    assert again == out[: out.index("saved the game's record")]


def test_watch_pauses_pace_seconds_between_moves():
    pauses: list[float] = []
    out = _Sink()
    record = watch("cornucopia", "random,random", seed=1, pace=0.25, out=out, sleep=pauses.append)
    assert pauses == [0.25] * (len(record["actions"]) - 1)
    pauses.clear()
    watch("cornucopia", ["random", "random"], seed=1, pace=0, out=out, sleep=pauses.append)
    assert pauses == []


class _Sink:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def watch_text(game, agents, seat, capsys, seed=2) -> str:
    argv = ["watch", game, "--agents", agents, "--pace", "0", "--seed", str(seed)]
    code, out, err = run_cli(argv + ([] if seat is None else ["--seat", str(seat)]), capsys)
    assert code == 0 and err == ""
    return out


def test_seat_view_hides_the_other_hands_factors_and_multiples(capsys):
    seen = watch_text("factors_multiples", "heuristic,random", 0, capsys)
    everything = watch_text("factors_multiples", "heuristic,random", None, capsys)
    assert "the table as P0 sees it" in seen

    def p1_hands(text):
        return re.findall(r"^[> ] P1: .* · hand (.*)$", text, re.MULTILINE)

    assert p1_hands(seen) and all(re.match(r"\d+ cards", h) for h in p1_hands(seen))
    assert any(not re.match(r"\d+ cards", h) for h in p1_hands(everything))
    # P0's own hand stays in view
    assert any(
        "♦" in h or "♣" in h or "♥" in h or "♠" in h
        for h in re.findall(r"^[> ] P0 \(you\): .* · hand (.*)$", seen, re.MULTILINE)
    )
    # a card discarded face down (an A's or K's effect) is no move P0 sees
    hidden = [m for m in MOVE.findall(seen) if m[1] == "1" and "hidden" in m[3]]
    spectator = {m[0]: m[3] for m in MOVE.findall(everything)}
    for number, _, _, text in hidden:
        assert text == "discard (hidden from P0)"
        assert re.fullmatch(r"discard \S+", spectator[number])


def test_seat_view_hides_the_other_recipes_wasabi(capsys):
    seen = watch_text("wasabi", "heuristic,random", 1, capsys)
    everything = watch_text("wasabi", "heuristic,random", None, capsys)
    menus_seen = re.findall(r"^    menu: (.*)$", seen, re.MULTILINE)
    menus_all = re.findall(r"^    menu: (.*)$", everything, re.MULTILINE)
    assert any("length" in m for m in menus_seen)  # P0's recipes face down: their lengths
    assert not any("length" in m for m in menus_all)
    assert any(" > " in m for m in menus_seen)  # P1's own recipes shown


def test_seat_view_hides_the_bets_not_yet_revealed_cornucopia(capsys):
    seen = watch_text("cornucopia", "heuristic,random,heuristic", 0, capsys, seed=3)
    everything = watch_text("cornucopia", "heuristic,random,heuristic", None, capsys, seed=3)
    spectator = {m[0]: m[3] for m in MOVE.findall(everything)}
    hidden = [m for m in MOVE.findall(seen) if "hidden" in m[3]]
    assert hidden
    for number, seat, _, text in hidden:
        assert seat != "0" and text == "bet (hidden from P0)"
        assert re.fullmatch(r"bet (YES|NO) \d", spectator[number])
    assert "hidden" not in " ".join(spectator.values())
    assert final_scores(seen) == final_scores(everything)


def test_a_hidden_move_stays_hidden_in_the_replay(tmp_path, capsys):
    path = tmp_path / "c.json"
    watch("cornucopia", "heuristic,random,heuristic", seed=3, pace=0, save=path, out=_Sink())
    code, out, _ = run_cli(["replay", str(path), "--seat", "0", "--pace", "0"], capsys)
    assert code == 0 and "bet (hidden from P0)" in out and "the table as P0 sees it" in out


def test_replay_narrator_reads_the_record_agents(tmp_path):
    path = tmp_path / "t.json"
    record = watch("tahiti", "random,heuristic", seed=4, pace=0, save=path, out=_Sink())
    lines: list[str] = []

    class Lines:
        def write(self, text):
            lines.append(text)

        def flush(self):
            pass

    replay(path, pace=0, out=Lines())
    text = "".join(lines)
    assert "P0 (random) vs P1 (heuristic), seed 4" in text
    assert f"game over after {len(record['actions'])} moves" in text


def test_replay_writes_an_animated_gif(tmp_path, capsys):
    Image = pytest.importorskip("PIL.Image")
    record_path, gif = tmp_path / "w.json", tmp_path / "out" / "w.gif"
    watch("wasabi", "heuristic,heuristic", seed=1, pace=0, save=record_path, out=_Sink())
    code, out, err = run_cli(
        ["replay", str(record_path), "--out", str(gif), "--pace", "0.1", "--seat", "0"], capsys
    )
    assert code == 0 and err == ""
    assert f"wrote {gif}" in out and "game over after" in out
    record = load_record(record_path)
    states = replay_states(record)
    with Image.open(gif) as picture:
        assert picture.format == "GIF" and picture.is_animated and picture.n_frames > 1
        height, width, _ = states[0].render_rgb().shape
        assert picture.size == (width, height)
        assert picture.info["duration"] == 100 and picture.info["loop"] == 0
        assert picture.n_frames <= len(states)


def test_watch_writes_a_gif_too(tmp_path, capsys):
    pytest.importorskip("PIL.Image")
    gif = tmp_path / "c.gif"
    code, out, err = run_cli(
        [
            "watch",
            "wasabi",
            "--agents",
            "heuristic,heuristic",
            "--seed",
            "1",
            "--out",
            str(gif),
            "--pace",
            "0",
        ],
        capsys,
    )
    assert code == 0 and gif.read_bytes()[:6] == b"GIF89a" and "move 1:" not in out


def test_gif_for_a_game_without_a_picture_is_a_clear_error(tmp_path, capsys, monkeypatch):
    renderer = game_info("cornucopia").rules("python").renderer
    monkeypatch.delattr(renderer, "render_rgb", raising=False)
    code, out, err = run_cli(
        ["watch", "cornucopia", "--agents", "random,random", "--out", str(tmp_path / "c.gif")],
        capsys,
    )
    assert code == 2 and out == ""
    assert err.startswith("boardgame-envs watch: cornucopia has no picture to make a GIF of")
    assert "an .html replay works for every game" in err and not (tmp_path / "c.gif").exists()


@pytest.mark.slow  # the viewer itself: tests/test_html_replay.py and the browser test
def test_watch_and_replay_write_the_html_viewer(tmp_path, capsys):
    pytest.importorskip("boardgame_envs.training.records.html_replay")
    html = tmp_path / "game.html"
    code, out, _ = run_cli(
        [
            "watch",
            "wasabi",
            "--agents",
            "random,random",
            "--seed",
            "1",
            "--out",
            str(html),
            "--save",
            str(tmp_path / "g.json"),
        ],
        capsys,
    )
    assert (
        code == 0
        and f"wrote {html}" in out
        and html.read_text().lower().startswith("<!doctype html")
    )
    html.unlink()
    code, out, _ = run_cli(["replay", str(tmp_path / "g.json"), "--out", str(html)], capsys)
    assert code == 0 and html.exists()


# -- bad arguments: one line on stderr, exit 2 -------------------------------------------------
@pytest.mark.parametrize(
    "argv,expected",
    [
        (
            ["watch", "wasabi", "--agents", "heuristic"],
            "--agents heuristic gives 1 agent(s); wasabi is played by 2 to 4",
        ),
        (
            ["watch", "carcassonne_castle", "--agents", "random,random,random"],
            "gives 3 agent(s); carcassonne_castle is played by exactly 2",
        ),
        (["watch", "wasabi", "--agents", "heuristic,grandmaster"], "unknown agent 'grandmaster'"),
        (["watch", "chess", "--agents", "random,random"], "unknown game 'chess'"),
        (
            ["watch", "wasabi", "--agents", "random,random", "--seat", "2"],
            "--seat 2 is not allowed; allowed: 0 to 1 (2 players)",
        ),
        (
            ["watch", "wasabi", "--agents", "random,random", "--pace", "-1"],
            "--pace -1.0 is not allowed; allowed: seconds >= 0",
        ),
        (
            ["watch", "wasabi", "--agents", "random,random", "--pace", "inf"],
            "--pace inf is not allowed",
        ),
        (
            ["watch", "wasabi", "--agents", "random,random", "--seed", "-4"],
            "--seed -4 is not allowed",
        ),
        (
            ["watch", "wasabi", "--agents", "random,random", "--out", "game.png"],
            "--out game.png: unknown kind of file; allowed: .html (an HTML replay viewer); "
            ".gif (an animated GIF of the pictures)",
        ),
        (["replay", "no/such/record.json"], "record no/such/record.json: no such file"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, expected, capsys):
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"boardgame-envs {argv[0]}: ") and expected in err
    assert err.count("\n") == 1


def test_replay_refuses_a_bad_record_and_a_bad_seat(tmp_path, capsys):
    path = tmp_path / "g.json"
    record = watch("wasabi", "random,random", seed=2, pace=0, save=path, out=_Sink())
    code, _, err = run_cli(["replay", str(path), "--seat", "3"], capsys)
    assert code == 2 and "--seat 3 is not allowed" in err
    path.write_text(json.dumps(dict(record, scores=[99, 99])))
    code, out, err = run_cli(["replay", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"boardgame-envs replay: record {path}: the replayed game ends with")
    code, _, err = run_cli(["replay", str(path), "--out", "x.svg"], capsys)
    assert code == 2 and "unknown kind of file" in err
