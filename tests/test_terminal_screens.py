"""The games' terminal screens (``render_text``): counters that are real bounds, not safety
caps; grid positions printed along the map's edges (or under each hex) the way the moves
name them; the key left out on request.

The coordinate tests read a position off the printed labels, the way a person would, and
check it against the moves' descriptions and against where a placed piece then shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import pytest

from boardgame_envs.carcassonne_castle import render as carcassonne_render
from boardgame_envs.core import image
from boardgame_envs.registry import GAMES, game_info, make_rules
from boardgame_envs.tahiti import render as tahiti_render
from boardgame_envs.tahiti.data import DIRECTION_NAMES, DIRECTIONS, tile_name
from boardgame_envs.wasabi import render as wasabi_render
from boardgame_envs.wasabi.data import KIND_SHORT


def _positions(game: str, games: int = 2, every: int = 5) -> Iterator:
    """States (Python engine) from seeded random games: every ``every``-th decision and the
    end, at each table size in turn."""
    rules = game_info(game).rules("python")
    for g in range(games):
        n = rules.min_players + g % (rules.max_players - rules.min_players + 1)
        state = rules.new_state(n, seed=200 + g)
        rng = np.random.default_rng(g)
        step = 0
        while not state.is_terminal() and step < 3000:
            if step % every == 0:
                yield state.clone()
            state.apply(int(rng.choice(state.legal_actions())))
            step += 1
        yield state


def _first(game: str, phase: str, seed: int = 0) -> object:
    """The first position of a seeded random game (Python engine) in ``phase``."""
    rules = game_info(game).rules("python")
    state = rules.new_state(2, seed=seed)
    rng = np.random.default_rng(seed)
    while state.phase != phase:
        assert not state.is_terminal(), f"no {phase} decision in {game} seed {seed}"
        state.apply(int(rng.choice(state.legal_actions())))
    return state


# -- the key on request ---------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_the_key_is_left_out_on_request_and_nothing_else(game):
    for state in _positions(game, games=1, every=25):
        seat = None if state.is_terminal() else state.current_player
        full, compact = state.render_text(seat), state.render_text(seat, legend=False)
        key = "\n".join(state.rules.renderer.legend_lines())
        assert full == compact + "\n" + key
        assert "  key: " not in compact


# -- counters -------------------------------------------------------------------------------
CAP_COUNTER = re.compile(r"\b(?:round|turn) \d+/(\d+)")
COUNTER = re.compile(r"\b(?:round|turn) \d+\b")


@pytest.mark.parametrize("game", list(GAMES))
def test_no_screen_shows_a_safety_cap_as_the_length_of_the_game(game):
    """``round 1/1000`` reads as a thousand-round game: only a real bound follows a slash
    (Factors and Multiples' rounds); elsewhere the count stands alone."""
    seen = 0
    for state in _positions(game, every=12):
        for seat in (None, *range(state.num_players)):
            text = state.render_text(seat, legend=False)
            header = text.splitlines()[0]
            for bound in CAP_COUNTER.findall(text):
                assert game == "factors_multiples", header
                assert int(bound) == state.config["rounds"], header
            if not state.is_terminal():
                assert COUNTER.search(header), header
                seen += 1
    assert seen > 10


@pytest.mark.parametrize(
    ("game", "option", "header"),
    [
        ("tahiti", {"max_rounds": 5}, "Tahiti · round 1 of at most 5 · "),
        ("wasabi", {"max_turns": 40}, "Wasabi! · turn 1 of at most 40 · "),
    ],
)
def test_a_limit_the_user_chose_is_shown_as_a_limit(game, option, header):
    rules = make_rules(game)
    state = rules.new_state(2, seed=0, **option)
    assert state.render_text(0).startswith(header)
    default = rules.new_state(2, seed=0).render_text(0).splitlines()[0]
    assert " of at most " not in default and "/" not in default


def test_the_pictures_count_without_the_cap_too():
    tahiti = game_info("tahiti").rules("python").new_state(2, seed=0)
    picture = tahiti.render_rgb()
    words = tahiti_render.PHASE_WORDS[tahiti.phase]
    assert image.find_label(picture, f"round 1 \u00b7 {words}", tahiti_render.TEXT)
    assert not image.find_label(picture, "round 1/1000", tahiti_render.TEXT)
    wasabi = game_info("wasabi").rules("python").new_state(2, seed=0)
    picture = wasabi.render_rgb()
    detail = f"turn 1 \u00b7 {wasabi_render.PHASE_WORDS[wasabi.phase]}"
    assert image.find_label(picture, detail, wasabi_render.TEXT)
    assert not image.find_label(picture, "turn 1/250", wasabi_render.TEXT)


# -- Carcassonne: (x,y), columns x across the top, rows y down the left ----------------------
def _carcassonne_map(text: str) -> dict[tuple[int, int], list[str]]:
    """The map's blocks by the labels printed along its edges: {(x, y): its three rows}."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith("(x,y) "))
    header = lines[top]
    blocks = {}
    for row in range(0, len(lines) - top - 1, 3):
        rows = lines[top + 1 + row : top + 4 + row]
        if len(rows) < 3 or not re.fullmatch(r"\s*-?\d+\s*", rows[1][:5]):
            break
        y = int(rows[1][:5])
        for j in range((len(header) - 5) // 6):
            x = int(header[5 + 6 * j : 11 + 6 * j])
            blocks[x, y] = [r[5 + 6 * j : 10 + 6 * j].ljust(5) for r in rows]
    return blocks


PLACE = re.compile(r"place (T\d\d) r(\d) on \((-?\d+),(-?\d+)\) \[cell (\d+)\]")


def test_carcassonne_places_a_tile_where_the_edge_labels_say():
    state = _first("carcassonne_castle", "PLACE", seed=3)
    blocks = _carcassonne_map(state.render_text(state.current_player, legend=False))
    assert len(blocks) == 12 * 11
    moves = {a: PLACE.fullmatch(state.describe_action(a)) for a in state.legal_actions()}
    assert all(moves.values())
    for move in moves.values():  # the drawn tile fits there: the cell number shows there
        x, y, cell = int(move.group(3)), int(move.group(4)), move.group(5)
        assert blocks[x, y][1].strip() == cell, (x, y)
    action, move = max(moves.items())
    tile = state.tile
    state.apply(action)
    x, y, r = int(move.group(3)), int(move.group(4)), int(move.group(2))
    placed = _carcassonne_map(state.render_text(0, legend=False))[x, y]
    assert placed == carcassonne_render.tile_block(4 * tile + r, "*")


def test_carcassonne_followers_are_listed_where_the_map_shows_them():
    checked = 0
    for state in _positions("carcassonne_castle", games=2, every=7):
        text = state.render_text(None, legend=False)
        blocks = _carcassonne_map(text)
        for owner, x, y in re.findall(r"P(\d) \w+ \((-?\d+),(-?\d+)\) slot \d+", text):
            assert blocks[int(x), int(y)][1][1] == owner  # the middle row: side, follower...
            checked += 1
    assert checked > 10


# -- Wasabi!: (r,c), rows r down the left, columns c across the top -------------------------
def _wasabi_board(text: str) -> dict[tuple[int, int], str]:
    """The grid's cells by the labels printed along its edges: {(r, c): what it shows}."""
    corner = wasabi_render.COORDINATES
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if line.startswith(corner + " "))
    columns = [(int(m.group()), m.start()) for m in re.finditer(r"\d+", lines[top])]
    cells = {}
    for line in lines[top + 1 :]:
        label = re.match(r"(\d+) ", line)
        if not label:
            break
        for c, start in columns:
            cells[int(label.group(1)), c] = line[start : start + 7].strip()
    return cells


def test_wasabi_places_a_tile_where_the_edge_labels_say():
    state = _first("wasabi", "PLACE_TARGET", seed=1)
    assert _wasabi_board(state.render_text(0))  # the corner reads (r,c)
    kind = state.kind
    for action in state.legal_actions():
        after = state.clone()
        move = re.fullmatch(r"place \w+ on \((\d),(\d)\)", state.describe_action(action))
        r, c = int(move.group(1)), int(move.group(2))
        assert _wasabi_board(state.render_text(0))[r, c] == "."  # empty before
        after.apply(action)
        shown = _wasabi_board(after.render_text(None, legend=False))[r, c]
        assert re.fullmatch(rf"\*?\[?{KIND_SHORT[kind]}(\+\d+)?\]?", shown), (r, c, shown)


# -- Tahiti: (q, r) under every hex, [E] where the tile in hand may go ----------------------
def _tahiti_map(state) -> dict[tuple[int, int], tuple[str, str]]:
    """The map's hexes by the position printed under each: {(q, r): (label, marks)}."""
    lines = tahiti_render.render_map(state)
    assert "\n".join(lines) in state.render_text(None, legend=False)
    width, half = tahiti_render.CELL_WIDTH - 1, tahiti_render.CELL_WIDTH // 2
    hexes = {}
    for top, marks, where in zip(lines[::3], lines[1::3], lines[2::3]):
        for found in re.finditer(r"\((-?\d+), (-?\d+)\)", where):
            x = 2 + (found.start() - 2) // half * half  # the hex's slot: padding < half
            key = int(found.group(1)), int(found.group(2))
            hexes[key] = (top[x : x + width].strip(), marks[x : x + width].strip())
    return hexes


def _qr(text: str) -> tuple[int, int]:
    q, r = re.fullmatch(r"\((-?\d+), (-?\d+)\)", text).groups()
    return int(q), int(r)


TAHITI_PLACE = re.compile(r"place (\w+) of Haumea at (\(-?\d+, -?\d+\)), rotation \d")


def test_tahiti_shows_where_the_tile_may_go_as_the_moves_name_it():
    state = _first("tahiti", "PLACE", seed=2)
    hexes = _tahiti_map(state)
    haumea = _qr(re.search(r"Haumea: \w+ (\(-?\d+, -?\d+\))", state.render_text(0)).group(1))
    assert "*" in hexes[haumea][1]
    targets = {label for label, _ in hexes.values() if label.startswith("[")}
    moves = {}
    for action in state.legal_actions():
        found = TAHITI_PLACE.fullmatch(state.describe_action(action))
        direction, where = found.group(1), _qr(found.group(2))
        dq, dr = DIRECTIONS[DIRECTION_NAMES.index(direction)]
        assert where == (haumea[0] + dq, haumea[1] + dr)  # E is q + 1, SE is r + 1...
        assert hexes[where] == (f"[{direction}]", "")
        moves[where] = action
    assert targets == {hexes[where][0] for where in moves}  # no other place is marked
    where, action = sorted(moves.items())[0]
    tile = state.hand_tile
    state.apply(action)
    hexes = _tahiti_map(state)
    assert hexes[where][0].split()[0] == tile_name(tile)
    assert not any(label.startswith("[") for label, _ in hexes.values())


def test_tahiti_canoes_and_haumea_are_where_the_status_lines_say():
    checked = 0
    for state in _positions("tahiti", games=2, every=17):
        hexes = _tahiti_map(state)
        text = state.render_text(None, legend=False)
        canoes = re.findall(r"P(\d): canoe at (\w+) (\(-?\d+, -?\d+\))", text)
        for seat, name, where in canoes:
            label, marks = hexes[_qr(where)]
            assert label.split()[0] == name and seat in marks
            checked += 1
        haumea = re.search(r"Haumea: (\w+) (\(-?\d+, -?\d+\))", text)
        if haumea:
            label, marks = hexes[_qr(haumea.group(2))]
            assert label.split()[0] == haumea.group(1) and "*" in marks
            checked += 1
    assert checked > 20
