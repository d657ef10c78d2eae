"""docs/add-a-game.md works as written.

The page has three kinds of code block:

* excerpts, titled with their file (```` ```python title="examples/goofspiel/..." ````):
  each is the file's own text, word for word (at any indentation);
* the files of the heuristic section, titled ``goofspiel_game/<file>.py``: written into a
  copy of the example's package, they register a heuristic that every agent spec finds;
* every other ```` ```python ```` block: all of them, the files above included, run in
  order in one interpreter that sees the example registered, and print what the page says.
"""

from __future__ import annotations

import re
import shutil
import textwrap

import pytest

from tests.plugin.helpers import (
    EXAMPLE,
    REPO,
    plugin_environ,
    run_python,
    with_path,
    write_distribution,
)

PAGE = REPO / "docs" / "add-a-game.md"
#: A fenced block: its language, its title (if any) and its text.
FENCE = re.compile(r'^```(\w+)(?: title="([^"]+)")?\n(.*?)^```', re.DOTALL | re.MULTILINE)
EXCERPT = "examples/goofspiel/"
NEW_FILE = "goofspiel_game/"


def blocks() -> list[tuple[str, str, str]]:
    """(language, title or "", text) of every fenced block of the page, in order."""
    return [m.groups(default="") for m in FENCE.finditer(PAGE.read_text(encoding="utf-8"))]


def runnable() -> list[str]:
    """The python blocks that run: all but the excerpts."""
    return [
        text for lang, title, text in blocks() if lang == "python" and not title.startswith(EXCERPT)
    ]


def new_files() -> dict[str, str]:
    return {title: text for _, title, text in blocks() if title.startswith(NEW_FILE)}


def test_every_block_is_read():
    """Each fence of the page opens a block this file reads (none is skipped unseen)."""
    fences = [
        line for line in PAGE.read_text(encoding="utf-8").splitlines() if line.startswith("```")
    ]
    assert len(fences) == 2 * len(blocks()), "a fence without a language, or a stray fence"


def test_the_excerpts_are_the_examples_own_text():
    excerpts = [(title, text) for _, title, text in blocks() if title.startswith(EXCERPT)]
    assert len(excerpts) >= 8, excerpts
    for title, text in excerpts:
        source = (REPO / title).read_text(encoding="utf-8")
        code = textwrap.dedent(text)
        found = any(textwrap.indent(code, " " * indent) in source for indent in range(0, 13, 4))
        assert found, f"the page's excerpt of {title} is not in the file:\n{text}"


def test_the_pages_python_blocks_run_in_order(tmp_path):
    code = runnable()
    assert len(code) >= 8
    out = run_python("\n".join(code), plugin_environ(tmp_path))
    expected = [
        "goofspiel 0 13 (137,)",
        "action 3 (bid 4 for prize 3) is not legal in phase BID for seat 0; legal: 0, 1, 2",
        "  last round: prize 4 · bids P0 4, P1 4 → nobody wins it",
        "invalid goofspiel snapshot: hands[0]: [1, 2, 3, 4] with the seat's bids [4] are not "
        "each of 1..4 once",
        "True [5.0, 1.0] [0] [1.0, -1.0]",
        "(137,) float32 0.0 1.0",
        "actual:  [6, 1, None] [1, 3, 2, 6, 4]",
        "boardgame_envs/goofspiel-v0 boardgame_envs/Goofspiel-v0 python",
        "batched: (4, 150) (4, 13)",
        "game 'goofspiel' has no heuristic agent; agents it can play: random, ismcts",
        "| 2 | match | random | 100 |",
        "4 players: 50 games, 1200 decisions",
    ]
    for line in expected:
        assert line in out, f"{line!r} not in the output:\n{out}"
    # what the page shows under its blocks is what they print (seconds per decision aside)
    shown = {without_time(line) for line in PAGE.read_text(encoding="utf-8").splitlines()}
    for line in out.splitlines():
        if line.strip():
            assert without_time(line) in shown, f"the blocks print {line!r}; the page does not"


def without_time(line: str) -> str:
    """A line of a tournament's table without its last cell, the seconds per decision (they
    depend on the machine); other lines as they are."""
    return re.sub(r"\| [^|]+ \|$", "|", line) if line.startswith("| 2 |") else line


def test_the_heuristic_section_gives_the_game_a_heuristic(tmp_path):
    """The page's three files, added to a copy of the example's package, register a game
    whose ``heuristic``, search defaults and ``preset=v1`` every agent spec finds."""
    files = new_files()
    assert set(files) == {f"{NEW_FILE}{name}.py" for name in ("heuristic", "settings", "__init__")}
    source = tmp_path / "src"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for title, text in files.items():
        (source / title).write_text(text, encoding="utf-8")
    environ = with_path(write_distribution(tmp_path / "dist"), source)
    out = run_python(
        """
        import boardgame_envs
        from boardgame_envs.agents import make_agent
        from boardgame_envs.agents.search import default_options
        from boardgame_envs.registry import BROKEN_GAMES

        assert not BROKEN_GAMES, BROKEN_GAMES
        assert boardgame_envs.game_info("goofspiel").settings_module == "goofspiel_game.settings"
        heuristic = make_agent("heuristic", "goofspiel", seed=0)
        assert type(heuristic).__name__ == "MatchThePrize", type(heuristic)
        assert default_options("goofspiel").iterations == 200
        assert default_options("goofspiel", "v1").iterations == 200
        state = boardgame_envs.make_rules("goofspiel").new_state(2, seed=0)
        search = make_agent("ismcts:seconds=0,rollout=heuristic", "goofspiel", seed=0)
        while not state.is_terminal():
            seat = state.current_player
            agent = heuristic if seat == 0 else search
            state.apply(agent.act(state.view(seat)))
        print("heuristic ok", state.scores())
        """,
        environ,
    )
    assert out.startswith("heuristic ok"), out


@pytest.mark.parametrize("title", [f"{NEW_FILE}heuristic.py", f"{NEW_FILE}settings.py"])
def test_the_new_files_are_not_in_the_example(title):
    """The page presents them as files to add: the example ships without a heuristic."""
    assert not (EXAMPLE / title).exists()
