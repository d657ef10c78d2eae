"""The files every released package has agree with the package they describe.

* ``LICENSE`` is the license ``pyproject.toml`` declares (MIT).
* ``CHANGELOG.md`` names the library's version and every built-in env at its current
  version (``boardgame_envs/<game>-vN``, read from the registry, so that a version bump
  without a changelog line fails), and links each game's version history to a heading
  that exists.
* ``CITATION.cff`` (CFF 1.2.0) holds the package's version and license, and the README's
  BibTeX entry the same facts.
* The README names the Python floor of ``requires-python``, the operating systems CI runs,
  and the install commands of a released package and of a development clone.
* CI builds an sdist and a wheel and installs the wheel into a fresh venv.
"""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import pytest

import boardgame_envs

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")  # Python 3.11+; CI runs 3.11
yaml = pytest.importorskip("yaml")

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def read(name: str) -> str:
    path = ROOT / name
    assert path.is_file(), f"{name} is missing"
    return path.read_text(encoding="utf-8")


def section(text: str, heading: str) -> str:
    """The text of the ``## heading`` section of a markdown page."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def built_in_games() -> dict[str, int]:
    """{game id: env version} of the games this distribution ships (a plugin registered
    from elsewhere keeps its own changelog)."""
    return {
        game: int(info.pettingzoo_id.rpartition("-v")[2])
        for game, info in boardgame_envs.GAMES.items()
        if info.rules_class.startswith("boardgame_envs.")
    }


# -- LICENSE ---------------------------------------------------------------------------------
def test_the_license_file_is_the_declared_license():
    assert PROJECT["license"] == {"text": "MIT"}
    text = read("LICENSE")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 the boardgame-envs authors" in text
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS"' in text


# -- CHANGELOG.md ----------------------------------------------------------------------------
def test_the_changelog_names_the_library_version():
    assert re.search(rf"^## {re.escape(PROJECT['version'])}\b", read("CHANGELOG.md"), re.M)


def test_the_changelog_names_every_env_at_its_current_version():
    text = read("CHANGELOG.md")
    games = built_in_games()
    assert len(games) == 5, games
    for game, version in games.items():
        info = boardgame_envs.GAMES[game]
        assert info.pettingzoo_id.endswith(f"-v{version}")
        assert info.rules().version == version, (game, info.rules().version, version)
        for env_id in (info.pettingzoo_id, info.gymnasium_id):
            assert f"`{env_id}`" in text, f"CHANGELOG.md does not name {env_id}"


def test_the_changelog_links_every_game_to_its_version_history():
    text = read("CHANGELOG.md")
    for game in built_in_games():
        link = f"docs/games/{game}.md#version-history"
        assert f"]({link})" in text, f"CHANGELOG.md lacks a link to {link}"
        page = read(f"docs/games/{game}.md")
        assert "\n## Version history\n" in page, f"docs/games/{game}.md has no version history"


def test_each_game_history_names_its_current_version():
    for game, version in built_in_games().items():
        history = section(read(f"docs/games/{game}.md"), "Version history")
        assert f"v{version}" in history, f"docs/games/{game}.md's history lacks v{version}"


# -- CITATION.cff and the README's BibTeX ----------------------------------------------------
def citation() -> dict:
    return yaml.safe_load(read("CITATION.cff"))


def test_the_citation_file_holds_the_package_facts():
    cff = citation()
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["message"] and cff["title"]
    assert cff["authors"] == [{"name": "boardgame-envs authors"}]
    assert str(cff["version"]) == PROJECT["version"]
    assert str(cff["version"]) == importlib.metadata.version("boardgame-envs")
    assert cff["license"] == PROJECT["license"]["text"]
    assert str(cff["date-released"]) == "2026-12-06"


def bibtex() -> dict[str, str]:
    """{field: value} of the README's BibTeX entry (values without their outer braces)."""
    blocks = re.findall(r"^```bibtex\n(.*?)^```", section(README, "How to cite"), re.S | re.M)
    assert len(blocks) == 1, "the README's 'How to cite' needs one ```bibtex block"
    fields = re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?\s*$", blocks[0], re.M)
    return {name: value for name, value in fields}


def test_the_readme_bibtex_matches_the_citation_file():
    cff, entry = citation(), bibtex()
    assert entry["version"] == str(cff["version"])
    assert entry["license"] == cff["license"]
    assert entry["year"] == str(cff["date-released"].year)
    assert entry["month"] == str(cff["date-released"].month)
    assert entry["title"] == cff["title"]
    # "~" is a tie (a space that does not break): the author reads as the CFF's name
    assert entry["author"].strip("{}").replace("~", " ") == cff["authors"][0]["name"]
    assert "(CITATION.cff)" in section(README, "How to cite")


# -- README: platforms and install lines ------------------------------------------------------
def test_the_readme_names_the_python_floor_of_requires_python():
    floor = re.fullmatch(r">=\s*(3\.\d+)", PROJECT["requires-python"])
    assert floor, PROJECT["requires-python"]
    platforms = section(README, "Install and supported platforms")
    assert f"| Python | {floor.group(1)} or newer" in platforms
    assert f'`requires-python = "{PROJECT["requires-python"]}"`' in platforms


def test_the_readme_says_what_ci_runs():
    platforms = section(README, "Install and supported platforms")
    assert re.search(r"^\| Python \|.*\| 3\.11 \|$", platforms, re.M)
    assert re.search(r"^\| operating system \|.*\| Linux x86_64 \|$", platforms, re.M)


def test_the_readme_shows_the_released_and_the_development_install():
    platforms = section(README, "Install and supported platforms")
    assert 'pip install "boardgame-envs[train]"' in platforms
    assert 'pip install -e ".[train]"' in platforms
    assert "train" in PROJECT["optional-dependencies"]


# -- CI builds and smoke-tests the released package -----------------------------------------
def test_ci_builds_an_sdist_and_a_wheel_and_installs_the_wheel():
    run = read(".ci/run")
    release = run[run.index("# release:start") : run.index("# release:end")]
    assert "-m build" in release
    assert 'pip install -q "$wheel"' in release
    for needed in ("LICENSE", "native/CMakeLists.txt"):
        assert needed in release, f"the sdist check does not look for {needed}"
    assert run.index("make test\n") < run.index("# release:start")
