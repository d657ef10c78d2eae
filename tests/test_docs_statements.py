"""Statements of the user docs, checked against the code.

The docs must read on their own: no reference points to a rules text outside the
repository, each game page opens with a picture of the game, and the facts the pages state
about the code (return types, default agents, file names, agent kinds) are the code's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md"))
GAME_PAGES = sorted((DOCS / "games").glob("*.md"))
#: The games the package ships: each has its own renderer (``render.py``).
SHIPPED_GAMES = {p.parent.name for p in (REPO / "boardgame_envs").glob("*/render.py")}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_page_cites_sections_of_an_outside_specification(page):
    text = page.read_text(encoding="utf-8")
    assert "§" not in text, f"{page.name} cites a section (§) of a text readers do not have"
    assert "not part of this repository" not in text, page.name


IMAGE = re.compile(r"!\[[^\]]+\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", GAME_PAGES, ids=lambda p: p.stem)
def test_each_game_page_opens_with_a_picture_of_the_game(page):
    """Right after its title, a game page shows a picture (with alt text) that exists: the
    game's own render, made by docs/images/make_pictures.py."""
    lines = [line for line in page.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert lines[0].startswith("# "), page.name
    match = IMAGE.fullmatch(lines[1].strip())
    assert match, f"{page.name}: the line after the title is not an image: {lines[1]!r}"
    image = (page.parent / match.group(1)).resolve()
    assert image.is_file(), f"{page.name}: {match.group(1)} does not exist"
    assert image.stat().st_size < 150_000, f"{image.name} is over 150 KB"


def test_the_picture_script_makes_every_game_s_picture():
    """docs/images/make_pictures.py names every shipped game (each has a renderer), and its
    pictures are the library's renders."""
    import runpy

    script = runpy.run_path(str(DOCS / "images" / "make_pictures.py"))
    assert set(script["SETTINGS"]) == SHIPPED_GAMES
    assert {p.stem for p in GAME_PAGES} == SHIPPED_GAMES
    players, seed, _ = script["SETTINGS"]["factors_multiples"]
    image = script["picture"]("factors_multiples", players, seed, 2)
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype.name == "uint8"
