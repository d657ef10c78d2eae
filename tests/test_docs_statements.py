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


# -- facts about the code -------------------------------------------------------------------

#: The user guides, whose statements about the code are checked below.
GUIDES = [
    DOCS / name
    for name in (
        "index.md",
        "environments.md",
        "agents.md",
        "play-and-watch.md",
        "training.md",
        "benchmarking.md",
    )
] + GAME_PAGES
PY_PATH = re.compile(r"`([\w./<>-]*\.py)(?::\w+)?`|(?<![\w/.])((?:[\w-]+/)+[\w-]+\.py)\b")
#: Placeholders the pages use for a file of the reader's own.
PLACEHOLDERS = {"path/to/file.py", "file.py", "my_agent.py"}


def _paths_named(page: Path) -> set[str]:
    paths = set()
    for match in PY_PATH.finditer(page.read_text(encoding="utf-8")):
        path = match.group(1) or match.group(2)
        if "<" not in path and path not in PLACEHOLDERS:
            paths.add(path)
    return paths


@pytest.mark.parametrize("page", GUIDES, ids=lambda p: str(p.relative_to(REPO)))
def test_every_python_file_a_guide_names_exists(page):
    """A path such as ``examples/my_agent.py`` or ``training/evaluation/league.py`` names a
    file of the repository (or of the package or of ``examples/``, relative to them)."""
    missing = [
        path
        for path in sorted(_paths_named(page))
        if not any(
            (root / path).exists() for root in (REPO, REPO / "boardgame_envs", REPO / "examples")
        )
    ]
    assert not missing, f"{page.name} names files that do not exist: {missing}"


def test_make_vec_returns_the_class_the_docs_name():
    pytest.importorskip("stable_baselines3")
    from boardgame_envs.vector import make_vec

    env = make_vec("factors_multiples", num_envs=1, seed=0)
    try:
        name = type(env).__name__
    finally:
        env.close()
    text = (DOCS / "environments.md").read_text(encoding="utf-8")
    paragraph = next(p for p in text.split("\n\n") if p.startswith("`make_vec("))
    assert f"`{type(env).__module__}.{name}`" in paragraph or f"`{name}`" in paragraph
    assert "in one SB3 `DummyVecEnv`" not in text


def test_the_league_default_agents_are_the_code_s():
    """docs/benchmarking.md lists `league`'s default agents as ``default_agents`` makes them
    (for a 2-player league, where every game has its network), in the same order."""
    from training.evaluation.league import default_agents

    text = (DOCS / "benchmarking.md").read_text(encoding="utf-8")
    sentence = text[text.index("Without `--agents` it ranks") :].split(". ")[0]
    listed = re.findall(r"`([^`]+)`", sentence)[1:]
    for game in sorted(SHIPPED_GAMES):
        expected = [spec.replace(game, "<game>") for spec in default_agents(game)]
        assert listed == expected, (game, listed, expected)


def test_every_page_gives_the_demo_the_readme_s_duration():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    (figure,) = re.findall(r"make demo +# [^\n]*? (\d+–\d+) minutes", readme)
    found = 0
    for page in GUIDES:
        text = page.read_text(encoding="utf-8")
        for line in text.splitlines():
            if "make demo" in line and "minute" in line:
                found += 1
                assert f"{figure} minutes" in line, f"{page.name}: {line}"
    assert found >= 2


def test_the_search_s_time_per_decision_is_one_range():
    """The guides give the search's time per decision on the native engine as one range."""
    ranges = set()
    for page in GUIDES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        ranges.update(re.findall(r"search decides in ([^,;)]*?) s on the native engine", text))
        ranges.update(re.findall(r"`ismcts\[:options\]` \(slow: ([^,;)]*?) s a decision", text))
    assert len(ranges) == 1 and "–" in ranges.pop(), ranges


def test_the_index_names_every_agent_kind():
    from boardgame_envs.agents.specs import KINDS

    text = (DOCS / "index.md").read_text(encoding="utf-8")
    bullet = text[text.index("* **Agents**") :].split("\n* ")[0]
    named = set(re.findall(r"`([^`]+)`", bullet))
    assert set(KINDS) <= named, set(KINDS) - named
    assert {"module.path:attr", "path/to/file.py:attr"} <= named


def test_every_shipped_game_has_a_picture_as_the_docs_say():
    import boardgame_envs

    for game in SHIPPED_GAMES:
        assert hasattr(boardgame_envs.make_rules(game).renderer, "render_rgb"), game
    for page in GUIDES:
        text = " ".join(page.read_text(encoding="utf-8").split())
        assert "games with a picture" not in text, page.name
        assert "where the game has a picture" not in text, page.name


#: The longest sentence a game page's rules may have: about four lines of the page.
LONGEST_SENTENCE = 360


@pytest.mark.parametrize("page", GAME_PAGES, ids=lambda p: p.stem)
def test_the_rules_in_brief_have_no_sentence_longer_than_four_lines(page):
    text = page.read_text(encoding="utf-8")
    section = text[text.index("## The rules in brief") :]
    section = re.sub(r"```.*?```", "", section[: section.index("\n## ", 5)], flags=re.DOTALL)
    # A table row is not a sentence: rules tables (score tables, card lists) are skipped.
    section = "\n".join(line for line in section.splitlines() if not line.startswith("|"))
    for item in re.split(r"\n\s*(?:[*-]|\d+\.) ", section):
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z*`(0-9])", " ".join(item.split())):
            assert len(sentence) <= LONGEST_SENTENCE, f"{page.name}: {sentence}"


#: The pages a user reads: the README, the guides and the examples' README. The game pages'
#: rules are checked above; the API reference is generated from docstrings.
USER_PAGES = [REPO / "README.md", *sorted(DOCS.glob("*.md")), REPO / "examples" / "README.md"]


def _prose(text: str) -> str:
    """The page without code (fenced or indented blocks), tables, headings and HTML."""
    text = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    blocks = [
        block
        for block in re.split(r"\n[ \t]*\n", text)
        if not all(line.startswith("    ") for line in block.splitlines() if line.strip())
    ]
    lines = "\n\n".join(blocks).splitlines()
    return "\n".join(line for line in lines if not line.startswith(("|", "#", "<")))


@pytest.mark.parametrize("page", USER_PAGES, ids=lambda p: str(p.relative_to(REPO)))
def test_no_user_page_has_a_sentence_longer_than_four_lines(page):
    """Every sentence of a user page's prose, list items and paragraphs apart, is at most
    ``LONGEST_SENTENCE`` characters: a reader need not hold a seven-line sentence."""
    for item in re.split(r"\n\s*(?:[*-]|\d+\.) |\n\n", _prose(page.read_text(encoding="utf-8"))):
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z*`(0-9])", " ".join(item.split())):
            assert len(sentence) <= LONGEST_SENTENCE, f"{page.name}: {sentence}"


# -- the rules stated on the game pages -------------------------------------------------------


def _page(game: str) -> str:
    return (DOCS / "games" / f"{game}.md").read_text(encoding="utf-8")


def _table(text: str, header_start: str) -> list[list[str]]:
    """The body rows of the Markdown table whose header row starts with ``header_start``,
    each as a list of stripped cells."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows


def test_factors_multiples_follow_table_is_the_code_s():
    """The table of normal cards that may be played on each value is ``follows``."""
    from boardgame_envs.factors_multiples.data import NORMAL_RANKS, RANK_NAMES, follows

    rows = _table(_page("factors_multiples"), "| current value | normal cards")
    assert [row[0] for row in rows] == ["`*`"] + [str(v) for v in range(2, 13)]
    for value_text, cards_text in rows:
        value = None if value_text == "`*`" else int(value_text)
        expected = [RANK_NAMES[r] for r in NORMAL_RANKS if follows(r, value)]
        assert cards_text.split(", ") == (expected or ["none"]), value_text


def test_factors_multiples_setup_table_is_the_code_s():
    """Cards dealt, left over, in the pile after setup and the going-out score, per count."""
    import boardgame_envs
    from boardgame_envs.factors_multiples.data import HAND_LIMIT, NUM_CARDS
    from boardgame_envs.factors_multiples.rules import going_out_score

    rows = _table(_page("factors_multiples"), "| players | draw pile dealt")
    assert [int(row[0]) for row in rows] == [2, 3, 4, 5]
    for row in rows:
        n = int(row[0])
        dealt, left, after, out = (int(cell.replace("−", "-")) for cell in row[1:])
        assert (dealt, left) == (NUM_CARDS // n, NUM_CARDS % n), n
        assert after == dealt - HAND_LIMIT and out == going_out_score(n), n
    state = boardgame_envs.make_rules("factors_multiples").new_state(3, seed=0)
    assert [len(pile) for pile in state.piles] == [14, 14, 14]
    assert [len(hand) for hand in state.hands] == [HAND_LIMIT] * 3


def test_cornucopia_combination_tables_are_the_code_s():
    """The combination table and the examples of the best grouping are the scoring's."""
    from boardgame_envs.cornucopia.data import RUN_POINTS, SET_POINTS
    from boardgame_envs.cornucopia.rules import combination_points

    text = _page("cornucopia")
    rows = _table(text, "| combination | cards | points |")
    sizes = {"pair": 2, "three of a kind": 3, "four of a kind": 4}
    stated_sets = {sizes[name]: int(points) for name, _, points in rows if name in sizes}
    stated_runs = {
        int(name.split()[-1]): int(points) for name, _, points in rows if name.startswith("run")
    }
    assert (stated_sets, stated_runs) == (SET_POINTS, RUN_POINTS)
    examples = _table(text, "| bid cards won | best grouping | points |")
    assert len(examples) >= 5
    for cards, _, points in examples:
        counts = tuple(cards.split().count(str(number)) for number in range(1, 7))
        assert combination_points(counts) == int(points), cards


def test_cornucopia_red_majority_and_setup_are_the_code_s():
    """6 / 3 / 2 for a sole leader, a sole second and tied seconds; 4 each for tied leaders;
    nothing without a red chip. Setup: 3 blue and 2 red each, 56 cards left in the deck."""
    import boardgame_envs
    from boardgame_envs.cornucopia.data import BID_COPIES, MAX_TURNS, START_CHIPS
    from boardgame_envs.cornucopia.rules import red_majority_points

    assert red_majority_points([5, 3, 1]) == [6, 3, 0]
    assert red_majority_points([5, 3, 3, 0]) == [6, 2, 2, 0]
    assert red_majority_points([4, 4, 2]) == [4, 4, 0]
    assert red_majority_points([0, 0]) == [0, 0]
    text = " ".join(_page("cornucopia").split())
    assert "with 4, 4, 5, 5, 6 and 6 copies" in text and BID_COPIES == (4, 4, 5, 5, 6, 6)
    assert "takes 3 blue and 2 red chips, and no yellow" in text and START_CHIPS == (0, 3, 2)
    state = boardgame_envs.make_rules("cornucopia").new_state(4, seed=0)
    assert len(state.deck) == 56 and "deck holds 56 cards" in text
    assert [len(b) for b in state.baskets] == [2] * 5
    assert f"A game lasts at most {MAX_TURNS} turns" in text


def test_carcassonne_castle_map_gates_and_corners_are_the_code_s():
    """The castle map (cell numbers, gates, wall), the cell each gate touches and what it
    shows, and the track spaces of the stocked corner towers."""
    from boardgame_envs.carcassonne_castle.data import (
        CELL_INDEX,
        DX,
        DY,
        GATES,
        MAP_GATES,
        STOCKED_CORNERS,
    )

    text = _page("carcassonne_castle")
    block = text[text.index("```\n y\\x") + 4 :]
    rows = block[: block.index("```")].splitlines()[1:]
    gate_at = {(x, y): k for k, (x, y, _) in MAP_GATES.items()}
    for y, row in zip(range(-1, 10), rows, strict=True):
        cells = row.split()
        assert int(cells[0]) == y
        for x, cell in zip(range(-1, 11), cells[1:], strict=True):
            if (x, y) in CELL_INDEX:
                assert cell == str(CELL_INDEX[(x, y)]), (x, y)
            elif (x, y) in gate_at:
                assert cell == f"G{gate_at[(x, y)]}", (x, y)
            else:
                assert cell == "#", (x, y)
    flat = " ".join(text.split())
    for gate in GATES:
        x, y, side = MAP_GATES[int(gate.name[1:])]
        cell = CELL_INDEX[(x + DX[side], y + DY[side])]
        assert f"{gate.name} {'touches ' if gate.name == 'G1' else ''}cell {cell}" in flat
    with_path = [g.name for g in GATES if g.path]
    assert f"{', '.join(with_path[:-1])} and {with_path[-1]} also have a path" in flat
    assert [g.name for g in GATES if any(s.markets for s in g.segments)] == ["G2"]
    spaces = ", ".join(f"{a}–{b}" for a, b in (c.spaces for c in STOCKED_CORNERS))
    last = spaces.rindex(", ")
    assert spaces[:last] + " and" + spaces[last + 1 :] in flat


def test_carcassonne_castle_counts_and_wall_tiles_are_the_code_s():
    from boardgame_envs.carcassonne_castle.data import (
        FOLLOWERS_PER_PLAYER,
        KEEP_BONUS_TILES,
        NUM_CASTLE_TILES,
        NUM_CELLS,
        NUM_STOCKED,
        NUM_WALL_TILES,
        WALL9_POINTS,
        WALL_NAMES,
    )

    text = _page("carcassonne_castle")
    flat = " ".join(text.split())
    assert (NUM_CELLS, NUM_CASTLE_TILES, NUM_WALL_TILES, NUM_STOCKED) == (76, 60, 18, 13)
    assert "76 playable cells" in flat and "60 castle tiles" in flat
    assert "18 wall tiles" in flat and "13 of the 18 wall tiles" in flat
    assert f"With all 60 tiles placed, {NUM_CELLS - NUM_CASTLE_TILES} cells are empty" in flat
    assert f"Per player: {FOLLOWERS_PER_PLAYER} **followers**" in flat
    rows = _table(text, "| kind | name | effect |")
    assert {int(kind): name.replace("×", "x") for kind, name, _ in rows} == WALL_NAMES
    effects = {int(kind): effect for kind, _, effect in rows}
    assert f"counts {KEEP_BONUS_TILES} tiles larger" in effects[8]
    assert f"{WALL9_POINTS} points" in effects[9]


def test_tahiti_setup_table_is_the_code_s():
    """Cubes per kind, home side, starting islands, water tiles, favourite set and stack
    sizes per player count, as a new game deals them."""
    import boardgame_envs
    from boardgame_envs.tahiti.data import (
        CUBES_PER_KIND,
        CUBES_REMOVED_PER_KIND,
        FAVOURITE_SETS,
        START_LAYOUT,
        TILE_NAMES,
        WATERS,
        home_side,
    )

    rows = _table(_page("tahiti"), "| players | cubes of each kind | home side")
    assert [int(row[0]) for row in rows] == [2, 3, 4]
    for players, cubes, side, islands, waters, favourites, stacks in rows:
        n = int(players)
        assert int(cubes) == CUBES_PER_KIND - CUBES_REMOVED_PER_KIND[n]
        assert side == home_side(n)
        layout = START_LAYOUT[side]
        names = [TILE_NAMES[tile] for tile, _, _ in layout if tile not in WATERS]
        assert islands == f"{names[0]}–{names[-1]}" and int(waters) == len(layout) - len(names)
        assert favourites == f"F{min(FAVOURITE_SETS[n])}–F{max(FAVOURITE_SETS[n])}"
        state = boardgame_envs.make_rules("tahiti").new_state(n, seed=1).to_dict()
        assert stacks == " + ".join(str(len(stack)) for stack in state["stacks"])
        assert sum(state["bag"]) + 2 * len(names) == 5 * int(cubes)


def test_tahiti_tables_and_counts_are_the_code_s():
    from boardgame_envs.tahiti.data import (
        BOUNTY_WITH_HAUMEA,
        BOUNTY_WITHOUT_HAUMEA,
        CANOE_CAPACITY,
        FAVOURITE_FIRST,
        FAVOURITE_SECOND,
        FAVOURITES,
        FISH_DRAWS,
        FISH_DRAWS_WITH_BONUS,
        GOODS_NAMES,
        SET_BONUS,
        TOKEN_COUNTS,
        UNDEPLETED_AT_END,
        paddles,
    )

    text = _page("tahiti")
    flat = " ".join(text.split())
    rows = text[text.index("| cubes on the canoe |") :].splitlines()[:3]
    cubes = [int(c) for c in rows[0].strip("|").split("|")[1:]]
    uncovered = [int(c) for c in rows[2].strip("|").split("|")[1:]]
    assert cubes == list(range(CANOE_CAPACITY + 1))
    assert uncovered == [paddles(n) for n in cubes]
    rows = text[text.index("| complete sets |") :].splitlines()[:3]
    sets = [int(c) for c in rows[0].strip("|").split("|")[1:]]
    bonus = [int(c) for c in rows[2].strip("|").split("|")[1:]]
    assert bonus == [SET_BONUS[c] for c in sets]
    assert all(SET_BONUS[c] == c * (c + 5) // 2 for c in range(len(SET_BONUS)))
    for number, crops in FAVOURITES.items():
        assert f"F{number} {GOODS_NAMES[crops[0]]}–{GOODS_NAMES[crops[1]]}" in flat
    assert sorted(TOKEN_COUNTS.values()) == [6, 12] and "12 plain and 6 with a fishing" in flat
    assert (BOUNTY_WITH_HAUMEA, BOUNTY_WITHOUT_HAUMEA) == (3, 2)
    assert "Draw 3 cubes from the bag (2 once Haumea has left" in flat
    assert (FISH_DRAWS, FISH_DRAWS_WITH_BONUS) == (2, 3)
    assert "Draw 2 cubes (3 on a tile with a fishing-bonus token)" in flat
    assert (FAVOURITE_FIRST, FAVOURITE_SECOND) == (5, 3)
    assert "The highest count scores 5 and the second highest 3" in flat
    assert f"leaves only **{UNDEPLETED_AT_END}** islands without a token" in flat


def test_wasabi_components_tables_are_the_code_s():
    """Ingredients per category, tokens, and active columns and kitchen per player count."""
    from boardgame_envs.wasabi.data import (
        ACTIVE_COLUMNS,
        CARD_HAND_LIMIT,
        CARDS_IN_PLAY,
        DECK_RECIPES,
        INGREDIENTS,
        LENGTHS,
        MENU_SLOTS,
        RECIPES,
        ROWS,
        TILE_HAND_LIMIT,
        TOKENS,
    )

    text = _page("wasabi")
    flat = " ".join(text.split())
    stated = {}
    for category, kinds in _table(text, "| category | kinds"):
        for item in kinds.split(", "):
            name, count = item.rsplit(" ", 1)
            stated[name] = (category, int(count))
    assert stated == {i.name: (i.category, i.tiles) for i in INGREDIENTS}
    not_giftable = [i.name for i in INGREDIENTS if not i.giftable]
    assert not_giftable == ["Rice", "Fugu", "Uni", "Lobster"]
    assert "Rice and the unique kinds (Fugu, Uni, Lobster) may not be given" in flat
    rows = _table(text, "| recipe length | tokens per player")
    assert {int(r[0]): tuple(int(x) for x in r[1:]) for r in rows} == {
        length: tuple(token) for length, token in TOKENS.items()
    }
    rows = _table(text, "| players | active columns | cells | kitchen")
    for players, columns, cells, kitchen in rows:
        n = int(players)
        assert int(columns) == ACTIVE_COLUMNS[n] and int(cells) == ROWS * ACTIVE_COLUMNS[n]
        assert tuple(int(x) for x in kitchen.split(", ")) == CARDS_IN_PLAY[n]
    decks = ", ".join(
        f"{len(deck)} of length {length}" for length, deck in zip(LENGTHS, DECK_RECIPES)
    )
    assert decks.replace(", 10 of", " and 10 of") in flat
    limits = (TILE_HAND_LIMIT, MENU_SLOTS, CARD_HAND_LIMIT)
    assert "holds at most {} tiles, {} recipes and {} action cards".format(*limits) in flat
    by_name = {r.name: r for r in RECIPES}
    for name in ("Salmon Nigiri", "Dragon Roll"):
        kinds = " → ".join(INGREDIENTS[k].name for k in by_name[name].kinds)
        assert f"{name} is {kinds}" in flat, name


def test_tahiti_favourite_example_is_the_code_s():
    """Taro counts 5, 5, 3, 0 with taro on the first three players' tiles: 5, 5, 3 (and 0)."""
    from boardgame_envs.tahiti.data import FAVOURITES, TARO
    from boardgame_envs.tahiti.rules import favourite_bonus

    flat = " ".join(_page("tahiti").split())
    assert "with taro counts of 5, 5, 3 and 0, each player with 5 scores 5 and the" in flat
    with_taro = [f for f, crops in FAVOURITES.items() if TARO in crops]
    without = next(f for f, crops in FAVOURITES.items() if TARO not in crops)
    charts = [[0, 0, count, 0, 0] for count in (5, 5, 3, 0)]
    assert favourite_bonus(charts, with_taro[:3] + [without]) == [5, 5, 3, 0]
