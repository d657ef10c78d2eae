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


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_page_cites_sections_of_an_outside_specification(page):
    text = page.read_text(encoding="utf-8")
    assert "§" not in text, f"{page.name} cites a section (§) of a text readers do not have"
    assert "not part of this repository" not in text, page.name
