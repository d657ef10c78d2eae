"""The search's options are written once: a field of ``SearchOptions`` with its docstring.
The parser reads the fields; the module docstring's table, docs/agents.md's table and its
table of each game's defaults are checked against them here."""

from __future__ import annotations

import ast
import re
from dataclasses import fields
from pathlib import Path

import pytest

import boardgame_envs.agents.search as search
from boardgame_envs import GAMES
from boardgame_envs.agents.search import OPTIONS, SearchOptions, parse_option_values
from boardgame_envs.agents.settings import game_settings

ROOT = Path(__file__).resolve().parents[1]
FIELDS = [f.name for f in fields(SearchOptions)]
SPEC_ONLY = ["seed", "preset"]  # options of the spec that are not knobs of the search


def table_options(text: str, heading: str) -> list[str]:
    """The first column of the markdown table after ``heading`` in ``text``."""
    after = text[text.index(heading) :]
    rows = re.findall(r"^\| `{1,2}(\w+)`{1,2} \|", after.split("\n\n", 2)[1], flags=re.M)
    return rows


def test_every_field_has_a_docstring():
    tree = ast.parse(Path(search.__file__).read_text())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "SearchOptions"]
    documented = set()
    for field, after in zip(cls.body, cls.body[1:]):
        if isinstance(field, ast.AnnAssign) and isinstance(after, ast.Expr):
            documented.add(field.target.id)
    assert [f for f in FIELDS if f not in documented] == []


def test_the_parser_reads_each_field_by_its_type():
    assert list(OPTIONS) == FIELDS + SPEC_ONLY
    parsed = parse_option_values("iterations=7,seconds=0.5,rollout=none,seed=3,preset=v1")
    assert parsed == {"iterations": 7, "seconds": 0.5, "rollout": "none", "seed": 3, "preset": "v1"}


def test_the_module_docstring_lists_every_option():
    assert sorted(table_options(search.__doc__, "Options (agent spec")) == sorted(OPTIONS)


def test_the_agents_page_lists_every_option():
    page = (ROOT / "docs" / "agents.md").read_text()
    assert sorted(table_options(page, "### Options")) == sorted(OPTIONS)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_agents_page_gives_each_games_defaults(game):
    """The row of docs/agents.md's defaults table is the game's settings, in their order."""
    page = (ROOT / "docs" / "agents.md").read_text()
    title = re.escape(GAMES[game].title)
    (row,) = re.findall(rf"^\| {title} \| `([^`]*)` \|$", page, flags=re.M)
    settings = {k: v for k, v in game_settings(game).search.items() if k != "seconds"}
    text = {k: f"{v:g}" if isinstance(v, float) else str(v) for k, v in settings.items()}
    expected = ",".join(f"{k}={v}" for k, v in text.items())
    assert row == expected
