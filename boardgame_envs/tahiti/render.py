"""Tahiti as text a person can play from, and as an RGB picture of the archipelago.

Text map legend (pointy-topped hexes, one row of the map per axial ``r``, each tile in three
lines): ``I07 Cb`` is island I07 with a coconut cube and an empty banana space (upper case:
cube present, lower case: empty space); ``HOME``, ``W1``-``W3`` are the home and water tiles;
on the second line ``*`` is Haumea, digits are the canoes of those seats, ``x`` a plain
depletion token and ``f`` a fishing-bonus token; the third line is the hex's axial position
``(q, r)``, written as the moves write it (``place E of Haumea at (1, 1), rotation 0``): ``r``
counts rows southwards, ``q`` eastwards along a row. :data:`LEGEND`, printed under the map,
says so too. While a tile waits to be placed, the empty places where it may go show on the
map as ``[E]``, ``[SW]``… (their direction from Haumea, as in the moves), and its goods
spaces and the reef edges it would have at each rotation are listed (the same directions as
the reefs list: E, NE, NW, W, SW, SE); the stacks' top tiles are shown with their goods
spaces.

Picture legend: sea blue background; sand islands, light blue water tiles, the darker home
tile; a red bar along a tile edge is a reef; the two squares of an island are its goods
spaces (filled with the crop's colour when a cube lies there, an outline when empty);
a dark disc is a depletion token (a white ring marks the fishing bonus); the gold disc is
Haumea; small coloured boats are the canoes. The side panel shows whose turn it is (or who
won, and how the game ended) with the round and phase; per seat its colour and name (the
seat legend: P0 red, P1 blue, P2 black, P3 purple), a black triangle at the seat to move, a
gold WINNER badge at the end, its score, cargo (one square per cube) and harvest chart
(cubes delivered per good, the sets and their bonus); then a key to the goods colours and
the map's marks, and the bag and stack sizes. The picture shows no favourite tile;
with a seat (``render_rgb(state, seat)``), the other seats' scores leave out the bonus of their
secret favourite tiles until the end, as the text does from a seat's point of view.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image, text
from boardgame_envs.core.text import plural
from boardgame_envs.tahiti.data import (
    DIRECTION_NAMES,
    FAVOURITES,
    FISHING,
    GOODS_LETTERS,
    GOODS_NAMES,
    HOME,
    ISLAND_SLOTS,
    NUM_GOODS,
    NUM_ISLANDS,
    SET_BONUS,
    TOKEN_NAMES,
    WATERS,
    paddles,
    reef_mask,
    tile_name,
    tile_text,
)
from boardgame_envs.tahiti.rules import (
    CELL_QR,
    NEIGHBOURS,
    PLACE,
    TahitiRules,
    placement_directions,
)

if TYPE_CHECKING:
    from boardgame_envs.tahiti.rules import State


# -- text -------------------------------------------------------------------------------------
CELL_WIDTH = 10  # characters per hex in the text map (room for "(-1, -2)"); rows shift by half


ROTATIONS = 6  # a placed tile's rotation rho, 0..5 (the PLACE actions)
#: Each phase (the rules' decision type, spec §11.1) as the words the table shows for it.
PHASE_WORDS = {
    "HAUMEA_MOVE": "move Haumea or let it stay",
    "HAUMEA_STEP": "walk Haumea one step",
    "STACK": "take a tile from stack A or B",
    "PLACE": "place the tile by Haumea",
    "BOUNTY_PLACE": "place a bounty cube",
    "ACTION": "take actions",
    "DEPLETE": "place the revealed token",
    "GAME_OVER": "season over",
}

#: What each mark of the text map means, as (marks, meaning); printed under the map.
LEGEND: tuple[tuple[str, str], ...] = (
    ("I01-I18", "islands"),
    ("HOME", "the home island"),
    ("W1-W3", "water tiles"),
    (
        " ".join(GOODS_LETTERS[:4]),
        ", ".join(GOODS_NAMES[:4]) + ": an island's goods space with its cube",
    ),
    (" ".join(g.lower() for g in GOODS_LETTERS[:4]), "the same space, empty"),
    ("*", "Haumea"),
    ("0 1 2 3", "the canoe of P0 / P1 / P2 / P3"),
    ("x", "a depletion token"),
    ("f", "a fishing-bonus token"),
    ("(q, r)", "a hex's position, as in the moves: r counts rows southwards, q eastwards"),
    ("[E]", "where the tile in hand may go: its direction from Haumea, as in the moves"),
    (" ".join(DIRECTION_NAMES), "the six directions and edges of a hex (moves, reefs)"),
    (">", "the seat to decide"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the board."""
    return text.legend_lines(LEGEND, width)


def _edges(mask: int) -> str:
    return "/".join(DIRECTION_NAMES[d] for d in range(6) if mask >> d & 1) or "none"


def _tile_label(state: State, tile: int) -> str:
    if tile == HOME or tile in WATERS:
        return tile_name(tile)
    cubes = state.island_cubes[tile]
    goods = "".join(
        GOODS_LETTERS[ISLAND_SLOTS[tile][s]]
        if cubes >> s & 1
        else GOODS_LETTERS[ISLAND_SLOTS[tile][s]].lower()
        for s in (0, 1)
    )
    return f"{tile_name(tile)} {goods}"


def _tile_marks(state: State, tile: int, cell: int) -> str:
    marks = ""
    if state.haumea == cell:
        marks += "*"
    marks += "".join(str(seat) for seat, c in enumerate(state.canoes) if c == cell)
    if 1 <= tile <= NUM_ISLANDS and state.tokens[tile]:
        marks += "f" if state.tokens[tile] == FISHING else "x"
    return marks


def placement_targets(state: State) -> dict[int, int]:
    """While the tile in hand waits to be placed: the empty cells where it may go, each with
    its direction from Haumea (the ``d`` of the PLACE actions); else empty."""
    if state.phase != PLACE or state.haumea < 0:
        return {}
    return {
        NEIGHBOURS[state.haumea][d]: d for d in placement_directions(state.cell_tile, state.haumea)
    }


def render_map(state: State) -> list[str]:
    """The archipelago as rows of text, three lines to a row of hexes: each tile's name and
    goods spaces, the pieces on it, and its axial position ``(q, r)`` as the moves write it
    (see the module docstring); the places where the tile in hand may go show as ``[E]``."""
    hexes = {
        cell: (_tile_label(state, tile), _tile_marks(state, tile, cell))
        for tile, cell in enumerate(state.tile_cell)
        if cell >= 0
    }
    for cell, d in placement_targets(state).items():
        hexes[cell] = (f"[{DIRECTION_NAMES[d]}]", "")
    rows = sorted({CELL_QR[cell][1] for cell in hexes})
    # column of a hex in half-cells: 2q + r, shifted so that the leftmost is 0
    left = min(2 * q + r for q, r in (CELL_QR[cell] for cell in hexes))
    lines = []
    for r in rows:
        parts: tuple[dict[int, str], ...] = ({}, {}, {})
        for cell, (label, marks) in hexes.items():
            q, rr = CELL_QR[cell]
            if rr != r:
                continue
            x = (2 * q + r - left) * CELL_WIDTH // 2
            parts[0][x], parts[1][x], parts[2][x] = label, marks, f"({q}, {r})"
        for part in parts:
            line = ""
            for x in sorted(part):
                line = line.ljust(x) + part[x].center(CELL_WIDTH - 1)
            lines.append("  " + line.rstrip())
    return lines


def _goods_counts(counts) -> str:
    return " ".join(f"{GOODS_LETTERS[g]}{counts[g]}" for g in range(NUM_GOODS))


def round_counter(state: State) -> str:
    """``round 3``; ``round 3 of at most 5`` when a ``max_rounds`` other than the default was
    chosen. The default is a safety cap far above any real game (the longest seen last about
    1,060 rounds, spec §6.6), so it is not shown as if it were the game's length."""
    text = f"round {state.round + 1}"
    if state.config["max_rounds"] != TahitiRules.options["max_rounds"].default:
        text += f" of at most {state.config['max_rounds']}"
    return text


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The table as text; other seats' favourite tiles are hidden unless ``seat`` is None.
    ``legend=False`` leaves out the key to the marks (:func:`legend_lines`)."""
    n = state.num_players
    if state.is_terminal():
        how = "round limit reached (truncated)" if state.truncated else "season over"
        winners = ", ".join(f"P{s}" for s in state.winners())
        header = f"Tahiti · {how} after {plural(state.round, 'round')} · winners: {winners}"
    else:
        header = (
            f"Tahiti · {round_counter(state)} · P{state.current_player} to decide · "
            f"{PHASE_WORDS[state.phase]}"
        )
        if state.phase == "ACTION":
            cubes = sum(state.cargo[state.turn_player])
            header += f" (actions taken {state.taken} of {paddles(cubes)}, one per paddle)"
        if state.end_triggered:
            header += f" · season ended, {plural(state.turns_left(), 'more turn')} after this one"
    lines = [header]
    if state.haumea >= 0:
        h = state.haumea
        where = f"{tile_name(state.cell_tile[h])} {CELL_QR[h]}"
    else:
        where = "gone"
    tops = [f"{len(st)}, top {tile_text(st[0])}" if st else "empty" for st in state.stacks]
    lines.append(f"  Haumea: {where} · stack A: {tops[0]} · stack B: {tops[1]}")
    lines.append(f"  bag: {_goods_counts(state.bag)} ({plural(sum(state.bag), 'cube')})")
    plain, fishing = state.token_pile.count(1), state.token_pile.count(FISHING)
    lines.append(f"  depletion tokens face down: {plain} plain, {fishing} fishing")
    if state.hand_tile:
        # Its goods spaces too: the map shows them only once it is placed.
        lines.append(f"  tile in hand: {tile_text(state.hand_tile)}")
        if state.phase == "PLACE":  # the rotation decides where its reefs will lie
            rotations = " · ".join(
                f"{rho}: {_edges(reef_mask(state.hand_tile, rho, state.side))}"
                for rho in range(ROTATIONS)
            )
            lines.append(f"    its reefs at rotation {rotations}")
    if state.bounty:
        drawn = ", ".join(GOODS_NAMES[g] for g in state.bounty)
        lines.append(f"  bounty to place: {drawn} (the first is pending)")
    if state.revealed_token:
        lines.append(f"  revealed token: {TOKEN_NAMES[state.revealed_token]}")
    if state.last_event:
        lines.append(f"  last: {state.last_event}")
    lines += render_map(state)
    reefs = [
        f"{tile_name(tile)} {_edges(state.reefs[tile])}"
        for tile, cell in enumerate(state.tile_cell)
        if cell >= 0 and state.reefs[tile]
    ]
    lines.append("  reefs: " + ", ".join(reefs))
    scores = score_texts(state, seat)
    for s in range(n):
        marker = ">" if s == state.current_player else " "
        you = " (you)" if s == seat else ""
        cell = state.canoes[s]
        at = f"{tile_name(state.cell_tile[cell])} {CELL_QR[cell]}"
        fav = ""
        if seat is None or s == seat:
            goods = ", ".join(GOODS_NAMES[g] for g in FAVOURITES[state.favourites[s]])
            fav = f" · favourite F{state.favourites[s]} ({goods})"
        chart = state.charts[s]
        lines.append(
            f"{marker} P{s}{you}: canoe at {at} · cargo {_goods_counts(state.cargo[s])} · "
            f"chart {_goods_counts(chart)} (sets {min(chart)}, +{SET_BONUS[min(chart)]}) · "
            f"score {scores[s]}{fav}"
        )
    if legend:
        lines += legend_lines()
    return "\n".join(lines)


# -- picture ----------------------------------------------------------------------------------
WIDTH, HEIGHT = 880, 560
BOARD_WIDTH = 600  # the side panel takes the rest
MAX_HEX = 40.0  # hex radius (centre to corner) in pixels, at most
SEA = (36, 92, 150)
SAND = (236, 214, 160)
HOME_SAND = (196, 152, 96)
WATER_TILE = (128, 190, 236)
REEF = (214, 48, 40)
OUTLINE = (70, 60, 40)
TOKEN = (60, 60, 60)
HAUMEA = (255, 190, 0)
PANEL = (245, 242, 232)
GOODS_COLOURS = (
    (132, 84, 40),  # coconut, brown
    (246, 212, 36),  # banana, yellow
    (52, 150, 60),  # taro, green
    (236, 110, 170),  # spice, pink
    (255, 255, 255),  # fish, white
)
SEAT_COLOURS = ((220, 30, 30), (30, 60, 220), (20, 20, 20), (140, 40, 190))
SEAT_NAMES = ("red", "blue", "black", "purple")
SEAT_BACK = (232, 226, 210)  # behind a seat's block in the panel
TEXT = (40, 34, 24)
WINNER_GOLD = (250, 200, 40)
PANEL_SEATS_TOP = 52
SEAT_H = 52


def _hex_centre(q: int, r: int, size: float, origin: tuple[float, float]) -> tuple[float, float]:
    return (
        origin[0] + size * math.sqrt(3) * (q + r / 2),
        origin[1] + size * 1.5 * r,
    )


def _corner(centre: tuple[float, float], size: float, i: int) -> tuple[float, float]:
    """Corner i of a pointy-topped hex, at 60 i - 30 degrees counter-clockwise from east:
    edge d (facing direction d) runs from corner d to corner d + 1. Screen y grows down."""
    angle = math.radians(60 * i - 30)
    return centre[0] + size * math.cos(angle), centre[1] - size * math.sin(angle)


def score_texts(state: State, seat: int | None = None) -> list[str]:
    """Each seat's score as ``seat`` may know it (everything when None). A favourite tile is
    secret until the end, and so is its bonus (§6.4): while the game runs, another seat's
    score shows its goods and set bonus followed by ``+?`` (``12+?``)."""
    scores = [str(int(score)) for score in state.scores()]
    if seat is None or state.is_terminal():
        return scores
    return [
        text if s == seat else f"{sum(chart) + SET_BONUS[min(chart)]}+?"
        for s, (text, chart) in enumerate(zip(scores, state.charts))
    ]


def render_rgb(state: State, seat: int | None = None) -> np.ndarray:
    """The archipelago, the pieces and a side panel as ``uint8[560, 880, 3]`` (public facts
    only: see the module docstring). With ``seat``, the other seats' scores leave out their
    secret favourite-tile bonus while the game runs (:func:`score_texts`)."""
    if seat is not None:
        seat = state._check_seat(seat)
    img = image.canvas(WIDTH, HEIGHT, SEA)
    placed = [(t, c) for t, c in enumerate(state.tile_cell) if c >= 0]
    xs, ys = [], []
    for _, cell in placed:
        x, y = _hex_centre(*CELL_QR[cell], 1.0, (0.0, 0.0))
        xs.append(x)
        ys.append(y)
    # fit the tiles on the table into the board area (a fixed picture size, a variable zoom)
    span_x = max(xs) - min(xs) + math.sqrt(3)
    span_y = max(ys) - min(ys) + 2
    size = min(MAX_HEX, (BOARD_WIDTH - 20) / span_x, (HEIGHT - 20) / span_y)
    origin = (
        BOARD_WIDTH / 2 - size * (max(xs) + min(xs)) / 2,
        HEIGHT / 2 - size * (max(ys) + min(ys)) / 2,
    )
    for tile, cell in placed:
        _draw_tile(img, state, tile, cell, size, origin)
    _draw_panel(img, state, seat)
    return img


def _draw_tile(
    img: np.ndarray, state: State, tile: int, cell: int, size: float, origin: tuple[float, float]
) -> None:
    centre = _hex_centre(*CELL_QR[cell], size, origin)
    corners = [_corner(centre, size, i) for i in range(6)]
    inner = [_corner(centre, size - 2, i) for i in range(6)]
    image.fill_polygon(img, corners, OUTLINE)
    colour = HOME_SAND if tile == HOME else WATER_TILE if tile in WATERS else SAND
    image.fill_polygon(img, inner, colour)
    thickness = max(2, int(size / 8))
    for d in range(6):
        if state.reefs[tile] >> d & 1:
            a, b = _corner(centre, size - thickness, d), _corner(centre, size - thickness, d + 1)
            # shorten the bar a little so that neighbouring reefs stay apart
            a2 = (a[0] + (b[0] - a[0]) * 0.12, a[1] + (b[1] - a[1]) * 0.12)
            b2 = (b[0] + (a[0] - b[0]) * 0.12, b[1] + (a[1] - b[1]) * 0.12)
            image.draw_line(img, a2, b2, REEF, thickness)
    cx, cy = centre
    box = max(4, int(size / 3.2))
    if 1 <= tile <= NUM_ISLANDS:
        w, _ = image.label_size(f"{tile}")
        image.draw_label(img, int(cx - w / 2), int(cy - size * 0.85), f"{tile}", OUTLINE)
        for s in (0, 1):
            crop = ISLAND_SLOTS[tile][s]
            x = int(cx + (-1.15 if s == 0 else 0.15) * box)
            y = int(cy - box / 2)
            image.fill_rect(img, x, y, box, box, OUTLINE)
            inside = GOODS_COLOURS[crop] if state.island_cubes[tile] >> s & 1 else SAND
            image.fill_rect(img, x + 1, y + 1, box - 2, box - 2, inside)
            if not state.island_cubes[tile] >> s & 1:  # an empty space: a thin crop mark
                image.fill_rect(img, x + 2, y + box - 4, box - 4, 2, GOODS_COLOURS[crop])
        token = state.tokens[tile]
        if token:
            image.fill_circle(img, cx, cy, box * 0.75, TOKEN)
            if token == FISHING:
                image.fill_circle(img, cx, cy, box * 0.45, (255, 255, 255))
                image.fill_circle(img, cx, cy, box * 0.3, TOKEN)
    if state.haumea == cell:
        image.fill_circle(img, cx, cy - size * 0.45, size * 0.2, OUTLINE)
        image.fill_circle(img, cx, cy - size * 0.45, size * 0.16, HAUMEA)
    here = [seat for seat, c in enumerate(state.canoes) if c == cell]
    boat_w, boat_h = max(6, int(size / 3.5)), max(3, int(size / 8))
    for i, seat in enumerate(here):
        x = int(cx + (i - len(here) / 2) * (boat_w + 2))
        y = int(cy + size * 0.42)
        image.fill_rect(img, x, y, boat_w, boat_h, SEAT_COLOURS[seat])
        image.fill_rect(img, x + boat_w // 2 - 1, y - boat_h, 2, boat_h, SEAT_COLOURS[seat])


def seat_top(seat: int) -> int:
    """The y of the top of ``seat``'s block in the side panel."""
    return PANEL_SEATS_TOP + seat * SEAT_H


def _status(state: State) -> tuple[str, list[str]]:
    """The headline (whose turn, or who won) and the detail lines under it."""
    if state.is_terminal():
        winners = state.winners()
        if len(winners) == 1:
            line = f"P{winners[0]} {SEAT_NAMES[winners[0]]} wins"
        else:
            line = "tie: " + " and ".join(f"P{s}" for s in winners)
        how = "round limit (truncated)" if state.truncated else "season over"
        return line, [f"{how} after {state.round} rounds"]
    p = state.current_player
    details = [f"{round_counter(state)} \u00b7 {PHASE_WORDS[state.phase]}"]
    if state.phase == "ACTION":
        cubes = sum(state.cargo[state.turn_player])
        details[0] += f" \u00b7 {state.taken} of {paddles(cubes)} paddles"
    if state.end_triggered:
        details.append(f"season ended: {state.turns_left()} more turns")
    return f"P{p} {SEAT_NAMES[p]} to move", details


def _draw_panel(img: np.ndarray, state: State, viewer: int | None = None) -> None:
    x0 = BOARD_WIDTH
    image.fill_rect(img, x0, 0, WIDTH - x0, HEIGHT, PANEL)
    right = WIDTH - 8
    line, details = _status(state)
    if state.is_terminal():
        winners = state.winners()
        badge = SEAT_COLOURS[winners[0]] if len(winners) == 1 else WINNER_GOLD
    else:
        badge = SEAT_COLOURS[state.current_player]
    image.fill_rect(img, x0 + 8, 8, 14, 14, badge)
    image.outline_rect(img, x0 + 8, 8, 14, 14, OUTLINE)
    image.draw_label(img, x0 + 28, 8, line, TEXT, 2)
    for i, detail in enumerate(details):
        image.draw_label(img, x0 + 8, 28 + 10 * i, detail, TEXT)
    cube = 8
    scores = score_texts(state, viewer)
    winners = state.winners()
    for seat in range(state.num_players):
        y = seat_top(seat)
        image.fill_rect(img, x0 + 4, y - 3, right - x0 - 4, SEAT_H - 6, SEAT_BACK)
        image.fill_rect(img, x0 + 4, y - 3, 3, SEAT_H - 6, SEAT_COLOURS[seat])
        if seat == state.current_player:  # the turn marker: a triangle
            image.fill_polygon(img, [(x0 + 10, y), (x0 + 18, y + 6), (x0 + 10, y + 12)], TEXT)
        image.fill_rect(img, x0 + 22, y, 13, 13, SEAT_COLOURS[seat])
        image.outline_rect(img, x0 + 22, y, 13, 13, OUTLINE)
        image.draw_label(img, x0 + 40, y, f"P{seat} {SEAT_NAMES[seat]}", TEXT, 2)
        image.draw_label(img, x0 + 150, y + 3, f"score {scores[seat]}", TEXT)
        if seat in winners:
            image.fill_rect(img, right - 48, y - 1, 44, 14, WINNER_GOLD)
            image.outline_rect(img, right - 48, y - 1, 44, 14, OUTLINE)
            image.draw_label(img, right - 44, y + 3, "winner", TEXT)
        # cargo: one square per cube, in the goods colours
        y += 18
        image.draw_label(img, x0 + 10, y + 1, "cargo", TEXT)
        cx = x0 + 50
        for g in range(NUM_GOODS):
            for _ in range(state.cargo[seat][g]):
                image.fill_rect(img, cx, y, cube + 1, cube + 1, OUTLINE)
                image.fill_rect(img, cx + 1, y + 1, cube - 1, cube - 1, GOODS_COLOURS[g])
                cx += cube + 3
        if cx == x0 + 50:
            image.draw_label(img, cx, y + 1, "-", TEXT)
        # harvest chart: per good its colour and the cubes delivered
        y += 13
        chart = state.charts[seat]
        image.draw_label(img, x0 + 10, y + 1, "chart", TEXT)
        for g in range(NUM_GOODS):
            gx = x0 + 50 + 30 * g
            image.fill_rect(img, gx, y, cube + 1, cube + 1, OUTLINE)
            image.fill_rect(img, gx + 1, y + 1, cube - 1, cube - 1, GOODS_COLOURS[g])
            image.draw_label(img, gx + cube + 4, y + 1, str(chart[g]), TEXT)
        bonus = f"sets {min(chart)} (+{SET_BONUS[min(chart)]})"
        image.draw_label(img, right - 4 - image.label_size(bonus)[0], y + 1, bonus, TEXT)
    _draw_legend(img, state, x0 + 8, seat_top(4) + 2)


def _draw_legend(img: np.ndarray, state: State, x: int, y: int) -> None:
    """What the colours and marks mean, and the bag and the tile stacks (public counts)."""
    image.draw_label(img, x, y, "goods", TEXT)
    for g in range(NUM_GOODS):
        gx, gy = x + 44 + (g % 3) * 74, y + (g // 3) * 12
        image.fill_rect(img, gx, gy - 1, 9, 9, OUTLINE)
        image.fill_rect(img, gx + 1, gy, 7, 7, GOODS_COLOURS[g])
        image.draw_label(img, gx + 12, gy, f"{GOODS_LETTERS[g]} {GOODS_NAMES[g]}", TEXT)
    y += 28
    image.draw_line(img, (x, y + 3), (x + 14, y + 3), REEF, 3)
    image.draw_label(img, x + 18, y, "reef", TEXT)
    image.fill_circle(img, x + 74, y + 3, 5, OUTLINE)
    image.fill_circle(img, x + 74, y + 3, 4, HAUMEA)
    image.draw_label(img, x + 84, y, "haumea", TEXT)
    image.fill_rect(img, x + 140, y + 2, 8, 3, SEAT_COLOURS[0])
    image.fill_rect(img, x + 143, y - 1, 2, 3, SEAT_COLOURS[0])
    image.draw_label(img, x + 152, y, "canoe", TEXT)
    y += 14
    image.fill_circle(img, x + 5, y + 3, 5, TOKEN)
    image.draw_label(img, x + 14, y, "depletion", TEXT)
    image.fill_circle(img, x + 80, y + 3, 5, TOKEN)
    image.fill_circle(img, x + 80, y + 3, 3, (255, 255, 255))
    image.fill_circle(img, x + 80, y + 3, 2, TOKEN)
    image.draw_label(img, x + 90, y, "fishing bonus", TEXT)
    image.fill_rect(img, x + 176, y - 1, 9, 9, OUTLINE)
    image.fill_rect(img, x + 177, y, 7, 7, SAND)
    image.fill_rect(img, x + 178, y + 5, 5, 2, GOODS_COLOURS[1])
    image.draw_label(img, x + 188, y, "empty space", TEXT)
    y += 18
    bag = " ".join(f"{GOODS_LETTERS[g]}{c}" for g, c in enumerate(state.bag))
    image.draw_label(img, x, y, f"bag: {bag} ({sum(state.bag)} cubes)", TEXT)
    stacks = " \u00b7 ".join(f"{name} {len(st)}" for name, st in zip("AB", state.stacks))
    image.draw_label(img, x, y + 12, f"tile stacks: {stacks}", TEXT)


def save_png(state: State, path: str | Path) -> Path:
    """Write the picture of ``state`` (:func:`render_rgb`) to ``path`` as a PNG file."""
    return image.save_png(render_rgb(state), path)
