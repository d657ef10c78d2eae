"""The play screen speaks the game's language: phases as words (``name the value for the 7``,
not ``SEVEN_NAME``), counts with the noun in the right number (``1 card``), and ``eval``'s
seconds per decision in a unit that shows them (``12 µs``, not ``0.0000``).

The rules and observations keep their constants; only what a person reads changes."""

from __future__ import annotations

import io
import re
import types

import pytest

from boardgame_envs.core.text import plural
from boardgame_envs.registry import game_info
from boardgame_envs.training import cli
from boardgame_envs.training.cli.play import play
from boardgame_envs.training.evaluation.tournament import format_seconds
from boardgame_envs.training.records.game_records import load_record, replay_states
from boardgame_envs.training.records.narration import phase_words

BUILT_IN = ("factors_multiples", "cornucopia", "carcassonne_castle", "tahiti", "wasabi")


def _rules(game: str):
    return game_info(game).rules()


def _constants(rules) -> list[str]:
    return [*rules.phases, "GAME_OVER"]


def _shown_constants(text: str, rules) -> set[str]:
    """The game's phase constants that stand as words of their own in ``text`` (not inside
    a longer word, a number or the base64 of a picture in the HTML viewer)."""
    return {
        phase for phase in _constants(rules) if re.search(rf"(?<![\w+/]){phase}(?![\w+/=])", text)
    }


def _run(argv, capsys) -> str:
    code = cli.main(argv)
    captured = capsys.readouterr()
    assert code == 0 and captured.err == "", captured.err
    return captured.out


# -- phases as words -----------------------------------------------------------------------
@pytest.mark.parametrize("game", BUILT_IN)
def test_every_phase_has_words_of_the_game(game):
    rules = _rules(game)
    words = rules.renderer.PHASE_WORDS
    for phase in _constants(rules):
        said = phase_words(rules, phase)
        assert said == words[phase], phase
        assert said and not _shown_constants(said, rules), (phase, said)


@pytest.mark.parametrize("game", BUILT_IN)
@pytest.mark.parametrize("seed", [1, 3])
def test_watch_and_replay_show_no_phase_constant(game, seed, tmp_path, capsys):
    record = tmp_path / "game.json"
    watched = _run(
        ["watch", game, "--agents", "heuristic,random", "--pace", "0", "--seed", str(seed)]
        + ["--save", str(record)],
        capsys,
    )
    replayed = _run(["replay", str(record), "--pace", "0"], capsys)
    seen_by_p1 = _run(["replay", str(record), "--pace", "0", "--seat", "1"], capsys)
    rules = replay_states(load_record(record))[0].rules
    phases_met = {s.view(0).phase for s in replay_states(load_record(record))}
    assert len(phases_met) > 2  # the game went through several decisions
    for text in (watched, replayed, seen_by_p1):
        assert "to decide" in text
        assert _shown_constants(text, rules) == set()
    for phase in phases_met - {"GAME_OVER"}:
        assert phase_words(rules, phase) in watched, phase


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_html_viewer_shows_no_phase_constant(game, tmp_path, capsys):
    page = tmp_path / "game.html"
    _run(["watch", game, "--agents", "heuristic,random", "--seed", "1", "--out", str(page)], capsys)
    text = page.read_text()
    assert "to decide" in text
    assert _shown_constants(text, _rules(game)) == set()


@pytest.mark.parametrize("game", BUILT_IN)
def test_play_shows_the_phase_in_words(game):
    out = io.StringIO()
    play(game, "random", seat=0, seed=1, read=lambda prompt: "q", out=out)
    rules = _rules(game)
    assert "your choices (" in out.getvalue()
    assert _shown_constants(out.getvalue(), rules) == set()


def test_a_game_without_phase_words_shows_its_constants_readably():
    rules = types.SimpleNamespace(renderer=types.SimpleNamespace())
    assert phase_words(rules, "SEVEN_NAME") == "seven name"
    assert phase_words(rules, "BID") == "bid"
    words = types.SimpleNamespace(renderer=types.SimpleNamespace(PHASE_WORDS={"BID": "bid now"}))
    assert phase_words(words, "BID") == "bid now"
    assert phase_words(words, "DRAW_TWO") == "draw two"


def test_factors_and_multiples_names_the_seven_in_words():
    rules = _rules("factors_multiples")
    assert phase_words(rules, "SEVEN_NAME") == "name the value for the 7"
    assert phase_words(_rules("tahiti"), "HAUMEA_MOVE") == "move Haumea or let it stay"


# -- plurals -------------------------------------------------------------------------------
def test_plural_puts_the_noun_in_the_number_it_needs():
    assert plural(1, "card") == "1 card"
    assert plural(2, "card") == "2 cards"
    assert plural(0, "cube") == "0 cubes"
    assert plural(1, "more turn") == "1 more turn"
    assert plural(3, "more turn") == "3 more turns"
    assert plural(2, "match", "matches") == "2 matches"
    for game in BUILT_IN:
        module = _rules(game).renderer
        if hasattr(module, "plural"):
            assert module.plural(1, "point") == "1 point"
            assert module.plural(2, "point") == "2 points"


def test_one_card_in_the_hidden_discard_reads_1_card():
    rules = game_info("factors_multiples").rules("python")  # a state whose fields can be set
    state = rules.new_state(2, seed=1)
    state.hidden_discard = [0]
    text = state.render_text(None, legend=False)
    assert "hidden discard: 1 card\n" in text and "1 cards" not in text
    state.hidden_discard = [0, 1]
    assert "hidden discard: 2 cards\n" in state.render_text(None, legend=False)


@pytest.mark.parametrize("game", BUILT_IN)
def test_no_count_of_one_has_a_plural_noun(game, capsys):
    text = _run(
        ["watch", game, "--agents", "heuristic,random", "--pace", "0", "--seed", "1"], capsys
    )
    nouns = "cards|cubes|paddles|points|turns|rounds|moves|tiles|recipes"
    assert re.findall(rf"(?<![\d.]) ?\b1 (?:{nouns})\b", text) == []


def test_the_final_line_says_1_move_and_2_moves(tmp_path, capsys):
    from boardgame_envs.training.records.replay import final_line

    record = tmp_path / "game.json"
    _run(
        ["watch", "cornucopia", "--agents", "random,random", "--pace", "0", "--seed", "5"]
        + ["--save", str(record)],
        capsys,
    )
    state = replay_states(load_record(record))[-1]
    assert "game over after 1 move:" in final_line(state, ["a", "b"], 1)
    assert "game over after 2 moves:" in final_line(state, ["a", "b"], 2)


# -- eval's seconds per decision -----------------------------------------------------------
@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (0.0, "0 s"),
        (4e-7, "0.4 µs"),
        (1.2e-5, "12 µs"),
        (4.04e-4, "404 µs"),
        (9.9996e-4, "1.0 ms"),
        (0.004, "4.0 ms"),
        (0.025, "25 ms"),
        (0.25, "250 ms"),
        (1.3, "1.3 s"),
        (95.0, "95 s"),
    ],
)
def test_seconds_per_decision_are_shown_in_a_unit_that_shows_them(seconds, shown):
    assert format_seconds(seconds) == shown


def test_eval_table_shows_fast_agents_times_not_zeros():
    from boardgame_envs.training.evaluation.tournament import evaluate, markdown_table

    tournament = evaluate("factors_multiples", ["random", "heuristic"], games=2, seed=1)
    table = markdown_table(tournament)
    assert "s/decision" in table  # scripts/pinned_runs.py finds the column by this header
    rows = [line for line in table.splitlines() if line.startswith("| 2 |")]
    assert rows
    for row in rows:
        cell = row.rsplit("|", 2)[1].strip()
        assert cell != "0.0000" and re.fullmatch(r"\d+(\.\d)? (µs|ms|s)", cell), cell


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_pictures_say_phases_in_words(game, monkeypatch):
    """Every label drawn on a game's picture, over a whole random game, names no phase
    constant (the picture shows the same words as the text board)."""
    import numpy as np

    rules = game_info(game).rules("python")  # the pictures draw the reference state
    renderer = rules.renderer
    drawn: list[str] = []
    real_draw = renderer.image.draw_label
    monkeypatch.setattr(
        renderer.image,
        "draw_label",
        lambda picture, x, y, text, *rest, **kw: (
            drawn.append(text),
            real_draw(picture, x, y, text, *rest, **kw),
        )[1],
    )
    rng = np.random.default_rng(0)
    state = rules.new_state(rules.max_players, seed=3)
    for step in range(400):  # every third decision of the game's first 400, and its end
        if step % 3 == 0 or state.is_terminal():
            renderer.render_rgb(state)
        if state.is_terminal():
            break
        state.apply(int(rng.choice(np.flatnonzero(state.legal_action_mask()))))
    assert drawn
    shown = _shown_constants(" ".join(drawn), rules)
    assert not shown, shown
    said = {renderer.PHASE_WORDS[phase] for phase in rules.phases}
    assert any(words in text for text in drawn for words in said)
