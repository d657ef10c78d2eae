"""Carcassonne: The Castle as text a person can play from, and as an RGB picture.

Text: every grid position is a block of 5 x 3 characters showing the 12 ports of what
stands there, clockwise from the top-left corner like the spec's port diagram::

    Wb Na N Nb Ea      HH|TT    T tower, H house, C court; | or - a path at a side's middle
    W  f  o  m  E      H0| T    f a follower's seat (or * on the tile just placed)
    Wa Sb S Sa Eb      HH|TT    o the path hub; m one market, M two

Path hubs: ``|`` / ``-`` straight, ``+`` curve or junction, ``#`` a square (it ends every
path), ``o`` a dead end at a building, ``~`` a fountain. An empty cell shows its cell index
when the drawn tile fits there (the PLACE actions are ``4 * index + rotation``), else ``.``;
the wall is ``#####``; a gate shows its name (``G1`` … ``G7``). The columns ``x`` are numbered
across the top and the rows ``y`` down the left, and the corner says ``(x,y)``: a position is
named so in the moves (``place T40 r1 on (4,6) [cell 57]``) and in the followers list.
Followers are listed under the map with their slots, then :data:`LEGEND`, a key to every
mark. The legal moves are not listed (a player's menu, or ``describe_action``, says what each
does).

Picture: :func:`render_rgb` draws the castle (half-port triangles coloured by area type,
paths, squares, fountains, markets, followers in seat colours, keeps, gates, the last tile
framed, the cells where the drawn tile fits lit yellow), and a side panel: whose turn it is
(or who won, or a draw) with the turn and phase; per seat its colour and name (the seat
legend; P0 blue, P1 orange), a black triangle at the seat to move, a gold WINNER badge at
the end, its score, followers in supply and wall tiles held (by number); the score track
(corner towers dark, the stocked ones marked gold); a key to the area colours and marks;
the drawn tile, the stack and set-aside sizes; and what the wall-tile numbers mean. The
picture shows only public facts (never the stack order), so it is the same for every seat.
:func:`save_png` writes it to a file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_HALVES,
    CODE_PATHS,
    CODE_SEGMENTS,
    CODE_SQUARE,
    EMPTY,
    GATE_CODE,
    GRID_CELL,
    GRID_H,
    GRID_W,
    NUM_TILE_CODES,
    OUTSIDE,
    xy_of,
)
from boardgame_envs.carcassonne_castle.data import (
    KIND_NAMES,
    PATH,
    SLOT_NAMES,
    STOCKED_CORNERS,
    TILE_TYPES,
    WALL_NAMES,
)
from boardgame_envs.core import image, text

if TYPE_CHECKING:
    from boardgame_envs.carcassonne_castle.rules import State


# -- text ---------------------------------------------------------------------------------------
#: How a position is written (in the moves, the followers list and the map's corner): the
#: column x, then the row y, both numbered from -1 (the wall's outer ring).
COORDINATES = "(x,y)"
#: Each phase (the rules' decision point, spec §4) as the words the table shows for it.
PHASE_WORDS = {
    "PLACE": "place the drawn tile",
    "FOLLOWER": "place a follower or pass",
    "ORDER": "choose the feature scored next",
    "DOUBLE": "double with the ×2 wall tile or not",
    "EXTRA": "take the extra turn or not",
    "GAME_OVER": "game over",
}

#: What each mark of the text map means, as (marks, meaning); printed under the map.
LEGEND: tuple[tuple[str, str], ...] = (
    ("T H C", "tower, house, court: the area at that edge of a tile"),
    ("| -", "a path crossing the middle of a side"),
    ("+", "paths meeting or turning"),
    ("#", "a square (it ends every path)"),
    ("o", "a path ending at a building"),
    ("~", "a fountain"),
    ("m M", "one / two markets"),
    ("0 1", "a follower of P0 / P1 on that tile (its area: see followers)"),
    ("*", "the tile just placed"),
    ("G1-G7", "gates"),
    ("#####", "the wall"),
    (".", "an empty cell"),
    (
        f"0-{len(CELL_GRID) - 1}",
        "an empty cell where the drawn tile fits: its cell number, as in the moves",
    ),
    (COORDINATES, "a position, as in the moves: column x (across the top), row y (down the left)"),
    (">", "the seat to decide"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the board."""
    return text.legend_lines(LEGEND, width)


def _hub(code: int) -> str:
    paths = CODE_PATHS[code]
    if not paths:
        return " "
    if any(seg.fountain for seg in CODE_SEGMENTS[code]):
        return "~"
    if code < NUM_TILE_CODES and CODE_SQUARE[code]:
        return "#"
    sides = [d for d in range(4) if paths >> d & 1]
    if len(sides) == 1:
        return "o"
    if sides == [0, 2]:
        return "|"
    if sides == [1, 3]:
        return "-"
    return "+"


def _middle(code: int, side: int) -> str:
    """The middle point of a side: a path, or the area if both halves agree."""
    if CODE_PATHS[code] >> side & 1:
        return "|" if side in (0, 2) else "-"
    a, b = CODE_HALVES[code][2 * side], CODE_HALVES[code][2 * side + 1]
    return a if a == b else " "


def tile_block(code: int, follower: str = " ") -> list[str]:
    """Three 5-character rows showing a tile (or gate) with ``code``."""
    h = CODE_HALVES[code]
    markets = " mM"[sum(seg.markets for seg in CODE_SEGMENTS[code])]
    centre = follower + _hub(code) + markets
    if code >= GATE_CODE:  # a gate: its name, and its market if any
        centre = f"G{code - GATE_CODE + 1}" + markets
    return [
        h[7] + h[0] + _middle(code, 0) + h[1] + h[2],
        _middle(code, 3) + centre + _middle(code, 1),
        h[6] + h[5] + _middle(code, 2) + h[4] + h[3],
    ]


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The whole position (all of it is public, apart from the stack order and the
    face-down wall tiles, which are never shown). The map's corner reads ``(x,y)``: columns
    ``x`` are numbered across the top, rows ``y`` down the left, as positions are named in
    the moves. ``legend=False`` leaves out the key to the marks (:func:`legend_lines`)."""
    castle = state.castle
    fits = set()
    if state.tile is not None and state.phase == "PLACE":
        mask = castle.placement_mask(state.tile)
        fits = {cell for cell in range(len(CELL_GRID)) if mask[4 * cell : 4 * cell + 4].any()}
    lines = [_header(state, seat)]
    lines.append(f"{COORDINATES:<5}" + "".join(f"{x:^6}" for x in range(-1, GRID_W - 1)))
    for row in range(GRID_H):
        blocks = []
        for col in range(GRID_W):
            g = row * GRID_W + col
            code = int(castle.code[g])
            if code == OUTSIDE:
                blocks.append(["#####"] * 3)
            elif code == EMPTY:
                cell = GRID_CELL[g]
                label = f"{cell:^5}" if cell in fits else "  .  "
                blocks.append(["     ", label, "     "])
            else:
                follower = castle.followers.get(g)
                mark = str(follower[0]) if follower else " "
                if g == CELL_GRID[state.last_cell] if state.last_cell is not None else False:
                    mark = mark if follower else "*"
                blocks.append(tile_block(code, mark))
        for i in range(3):
            label = f"{row - 1:>3}  " if i == 1 else "     "
            lines.append(label + " ".join(block[i] for block in blocks))
    if castle.followers:
        items = []
        for g, (owner, slot) in sorted(castle.followers.items()):
            x, y = xy_of(g)
            root = castle.feature_at(g, slot)
            items.append(f"P{owner} {KIND_NAMES[int(castle.kind[root])]} ({x},{y}) slot {slot}")
        lines.append("  followers: " + "; ".join(items))
    lines += _tile_lines(state)
    if state.events:
        lines.append("  lately: " + "; ".join(state.events))
    if legend:
        lines += legend_lines()
    return "\n".join(lines)


def _header(state: State, seat: int | None) -> str:
    you = f" · you are P{seat}" if seat is not None else ""
    if state.is_terminal():
        winners = state.winners()
        result = "draw" if len(winners) == 2 else f"P{winners[0]} wins"
        head = f"Carcassonne: The Castle · game over · {result}{you}"
    else:
        extra = " (extra turn)" if state.extra_turn else ""
        head = (
            f"Carcassonne: The Castle · turn {state.turn}{extra} · P{state.active} to decide: "
            f"{PHASE_WORDS[state.phase]}{you} · stack {len(state.stack)} · "
            f"set aside {len(state.discards)}"
        )
    lines = [head]
    for s in range(2):
        keep = state.keeps[s]
        walls = " ".join(f"{k}({WALL_NAMES[k]})" for k, _ in sorted(state.held[s])) or "-"
        lines.append(
            f"{'>' if s == state.current_player else ' '} P{s}: score {state.scores_[s]} "
            f"(track {state.scores_[s] % 100}) · followers {state.supply[s]} · "
            f"keep {keep[0] if keep else '-'} · wall tiles {walls}"
        )
    stocked = [
        f"{c.name}({c.spaces[0]}/{c.spaces[1]})"
        for c, kind in zip(STOCKED_CORNERS, state.corners)
        if kind
    ]
    lines.append("  corners with a wall tile: " + (" ".join(stocked) or "none"))
    if state.groups[0] or state.groups[1] or state.doubling is not None:
        lines.append(
            f"  pending: P{state.active}'s {state.groups[0]}, P{1 - state.active}'s "
            f"{state.groups[1]}, doubling {state.doubling}"
        )
    for s in range(2):
        for label, points in state.final[s]:
            lines.append(f"  final: P{s} +{points} ({label})")
    return "\n".join(lines)


def _tile_lines(state: State) -> list[str]:
    if state.tile is None:
        return []
    name = TILE_TYPES[state.tile].name
    blocks = [tile_block(4 * state.tile + r) for r in range(4)]
    lines = [f"  drawn tile {name}, rotations r0..r3:"]
    for i in range(3):
        lines.append("    " + "   ".join(f"{b[i]}" for b in blocks))
    return lines


# -- picture ------------------------------------------------------------------------------------
TILE_PX = 40
PANEL_PX = 200
AREA_COLOURS = {
    "T": (150, 150, 162),
    "H": (196, 72, 56),
    "C": (118, 176, 86),
}
PATH_COLOUR = (232, 210, 150)
PATH_EDGE = (150, 120, 70)
WALL_COLOUR = (84, 72, 64)
EMPTY_COLOUR = (238, 230, 208)
FIT_COLOUR = (250, 244, 170)
GRID_COLOUR = (60, 50, 44)
FOUNTAIN_COLOUR = (120, 220, 250)
MARKET_COLOUR = (250, 200, 30)
SEAT_COLOURS = ((40, 90, 220), (240, 150, 20))
CORNER_COLOUR = (120, 104, 92)


def _triangle(x: int, y: int, k: int) -> list[tuple[float, float]]:
    """The triangle of half-port ``k`` of the tile with top-left (x, y): the centre and
    the half side the port covers (border points k and k + 1 of a clockwise walk from
    the north-west corner)."""
    t, h = TILE_PX, TILE_PX / 2
    walk = [(x, y), (x + h, y), (x + t, y), (x + t, y + h), (x + t, y + t), (x + h, y + t)]
    walk += [(x, y + t), (x, y + h), (x, y)]
    return [(x + h, y + h), walk[k], walk[k + 1]]


def _side_mid(x: int, y: int, d: int) -> tuple[float, float]:
    h = TILE_PX / 2
    return [(x + h, y), (x + TILE_PX, y + h), (x + h, y + TILE_PX), (x, y + h)][d]


def _anchor(x: int, y: int, slot: int) -> tuple[float, float]:
    """Where a follower on the segment with this lowest slot is drawn."""
    h = TILE_PX / 2
    if slot >= 8:
        mx, my = _side_mid(x, y, slot - 8)
        return (mx + (x + h)) / 2, (my + (y + h)) / 2
    tri = _triangle(x, y, slot)
    return sum(p[0] for p in tri) / 3, sum(p[1] for p in tri) / 3


def _draw_code(img: np.ndarray, x: int, y: int, code: int) -> None:
    """A tile or a gate with top-left (x, y)."""
    halves = CODE_HALVES[code]
    for k in range(8):
        if halves[k] != " ":
            image.fill_polygon(img, _triangle(x, y, k), AREA_COLOURS[halves[k]])
    h = TILE_PX / 2
    centre = (x + h, y + h)
    width = max(TILE_PX // 6, 2)
    square = code < NUM_TILE_CODES and CODE_SQUARE[code]
    for seg in CODE_SEGMENTS[code]:
        if seg.kind != PATH:
            continue
        for slot in seg.slots:
            image.draw_line(img, _side_mid(x, y, slot - 8), centre, PATH_COLOUR, width)
        if len(seg.slots) == 1 and not square and code < NUM_TILE_CODES:
            image.fill_circle(img, centre[0], centre[1], width * 0.7, PATH_EDGE)  # dead end
        if seg.fountain:
            image.fill_circle(img, centre[0], centre[1], width * 0.9, FOUNTAIN_COLOUR)
    if square:
        s = TILE_PX // 3
        image.fill_rect(img, int(x + h - s / 2), int(y + h - s / 2), s, s, PATH_COLOUR)
        image.outline_rect(img, int(x + h - s / 2), int(y + h - s / 2), s, s, PATH_EDGE)
    for seg in CODE_SEGMENTS[code]:
        for i in range(seg.markets):
            ax, ay = _anchor(x, y, seg.slots[-1])
            image.fill_rect(img, int(ax) - 3 + 7 * i, int(ay) - 3, 6, 6, MARKET_COLOUR)


def _draw_castle(img: np.ndarray, state: State) -> None:
    castle = state.castle
    fits = None
    if state.tile is not None and state.phase == "PLACE":
        fits = castle.placement_mask(state.tile).reshape(-1, 4).any(axis=1)
    for g in range(GRID_W * GRID_H):
        x, y = (g % GRID_W) * TILE_PX, (g // GRID_W) * TILE_PX
        code = int(castle.code[g])
        if code == OUTSIDE:
            image.fill_rect(img, x, y, TILE_PX, TILE_PX, WALL_COLOUR)
            continue
        if code == EMPTY:
            lit = fits is not None and fits[GRID_CELL[g]]
            image.fill_rect(img, x, y, TILE_PX, TILE_PX, FIT_COLOUR if lit else EMPTY_COLOUR)
        else:
            if code >= GATE_CODE:
                image.fill_rect(img, x, y, TILE_PX, TILE_PX, WALL_COLOUR)
            _draw_code(img, x, y, code)
        image.outline_rect(img, x, y, TILE_PX, TILE_PX, GRID_COLOUR)
    for seat in range(2):
        keep = state.keeps[seat]
        if keep is None:
            continue
        for g in keep[1]:
            x, y = (g % GRID_W) * TILE_PX, (g // GRID_W) * TILE_PX
            image.outline_rect(
                img,
                x + 2 + 3 * seat,
                y + 2 + 3 * seat,
                TILE_PX - 4 - 6 * seat,
                TILE_PX - 4 - 6 * seat,
                SEAT_COLOURS[seat],
                2,
            )
    for g, (seat, slot) in castle.followers.items():
        x, y = (g % GRID_W) * TILE_PX, (g // GRID_W) * TILE_PX
        ax, ay = _anchor(x, y, slot)
        image.fill_circle(img, ax, ay, TILE_PX / 7 + 1, image.BLACK)
        image.fill_circle(img, ax, ay, TILE_PX / 7, SEAT_COLOURS[seat])
    if state.last_cell is not None:
        g = CELL_GRID[state.last_cell]
        x, y = (g % GRID_W) * TILE_PX, (g // GRID_W) * TILE_PX
        image.outline_rect(img, x, y, TILE_PX, TILE_PX, SEAT_COLOURS[state.active], 3)


SEAT_NAMES = ("blue", "orange")
TEXT = (40, 34, 28)
WINNER_GOLD = (250, 200, 40)
SEATS_TOP = 40  # the two seat blocks of the side panel
SEAT_H = 44
TRACK_TOP = SEATS_TOP + 2 * SEAT_H + 10  # "score track", then 10 x 10 spaces
TRACK_CELL = 14


def seat_top(seat: int) -> int:
    """The y of the top of ``seat``'s block in the side panel."""
    return SEATS_TOP + seat * SEAT_H


def _status(state: State) -> tuple[str, str, image.Colour]:
    """The headline (whose turn, or who won), the line under it, and the headline's swatch."""
    if state.is_terminal():
        winners = state.winners()
        if len(winners) == 2:
            return "draw", f"game over after turn {state.turn}", WINNER_GOLD
        line = _fitted(f"P{winners[0]} {SEAT_NAMES[winners[0]]} wins", f"P{winners[0]} wins")
        return line, f"game over after turn {state.turn}", SEAT_COLOURS[winners[0]]
    extra = " (extra)" if state.extra_turn else ""
    line = _fitted(
        f"P{state.active} {SEAT_NAMES[state.active]} to move", f"P{state.active} to move"
    )
    return (
        line,
        f"turn {state.turn}{extra} \u00b7 {PHASE_WORDS[state.phase]}",
        SEAT_COLOURS[state.active],
    )


def _fitted(long: str, short: str) -> str:
    return long if image.label_size(long, 2)[0] <= PANEL_PX - 34 else short


def _draw_panel(img: np.ndarray, state: State, left: int) -> None:
    right = left + PANEL_PX - 6
    line, detail, badge = _status(state)
    image.fill_rect(img, left + 8, 6, 14, 14, badge)
    image.outline_rect(img, left + 8, 6, 14, 14, GRID_COLOUR)
    image.draw_label(img, left + 28, 6, line, TEXT, 2)
    image.draw_label(img, left + 8, 25, detail, TEXT)
    winners = state.winners()
    for s in range(2):  # per seat: colour, name, score; followers in supply; wall tiles
        y = seat_top(s)
        image.fill_rect(img, left + 4, y - 2, right - left - 4, SEAT_H - 4, (232, 226, 212))
        image.fill_rect(img, left + 4, y - 2, 3, SEAT_H - 4, SEAT_COLOURS[s])
        if s == state.current_player:  # the turn marker: a triangle
            image.fill_polygon(img, [(left + 10, y), (left + 17, y + 5), (left + 10, y + 10)], TEXT)
        image.fill_rect(img, left + 20, y, 11, 11, SEAT_COLOURS[s])
        image.outline_rect(img, left + 20, y, 11, 11, GRID_COLOUR)
        image.draw_label(img, left + 36, y + 2, f"P{s} {SEAT_NAMES[s]}", TEXT)
        image.draw_label(img, left + 98, y + 2, f"score {state.scores_[s]}", TEXT)
        if s in winners:
            image.fill_rect(img, right - 44, y, 42, 11, WINNER_GOLD)
            image.outline_rect(img, right - 44, y, 42, 11, GRID_COLOUR)
            image.draw_label(img, right - 41, y + 2, "winner", TEXT)
        image.draw_label(img, left + 10, y + 14, "followers", TEXT)
        for i in range(state.supply[s]):
            image.fill_circle(img, left + 76 + 9 * i, y + 17, 3.5, SEAT_COLOURS[s])
        if not state.supply[s]:
            image.draw_label(img, left + 76, y + 14, "-", TEXT)
        image.draw_label(img, left + 10, y + 26, "wall tiles", TEXT)
        held = sorted(state.held[s])
        for i, (kind, _) in enumerate(held):
            wx = left + 76 + 11 * i
            image.fill_rect(img, wx, y + 24, 10, 11, CORNER_COLOUR)
            image.draw_text(img, wx + 4, y + 27, str(kind), image.WHITE, 1)
        if not held:
            image.draw_label(img, left + 76, y + 26, "-", TEXT)
    _draw_track(img, state, left)
    y = TRACK_TOP + 10 + 10 * TRACK_CELL + 4
    for i, (name, colour) in enumerate(
        (("tower", AREA_COLOURS["T"]), ("house", AREA_COLOURS["H"]), ("court", AREA_COLOURS["C"]))
    ):
        x = left + 8 + 62 * i
        image.fill_rect(img, x, y, 9, 9, colour)
        image.draw_label(img, x + 12, y + 1, name, TEXT)
    y += 12
    image.fill_rect(img, left + 8, y + 3, 10, 4, PATH_COLOUR)
    image.draw_label(img, left + 20, y + 1, "path", TEXT)
    image.fill_rect(img, left + 70, y + 1, 6, 6, MARKET_COLOUR)
    image.draw_label(img, left + 82, y + 1, "market", TEXT)
    image.fill_circle(img, left + 136, y + 4, 4, FOUNTAIN_COLOUR)
    image.draw_label(img, left + 144, y + 1, "fountain", TEXT)
    y += 14
    if state.tile is not None:
        image.fill_rect(img, left + 8, y, TILE_PX + 4, TILE_PX + 4, image.BLACK)
        _draw_code(img, left + 10, y + 2, 4 * state.tile)
        image.draw_label(img, left + 58, y + 2, f"drawn {TILE_TYPES[state.tile].name}", TEXT)
    image.draw_label(img, left + 58, y + 14, f"stack {len(state.stack)}", TEXT)
    image.draw_label(img, left + 58, y + 26, f"set aside {len(state.discards)}", TEXT)
    image.fill_rect(img, left + 58, y + 37, 9, 9, FIT_COLOUR)
    image.outline_rect(img, left + 58, y + 37, 9, 9, GRID_COLOUR)
    image.draw_label(img, left + 70, y + 38, "the drawn tile fits", TEXT)
    y += 50
    for i, kind in enumerate(sorted(WALL_NAMES)):  # what the wall tile numbers mean
        name = WALL_NAMES[kind].replace("unfinished", "unfin.")
        image.draw_label(img, left + 8 + 96 * (i % 2), y + 10 * (i // 2), f"{kind} {name}", TEXT)


def _draw_track(img: np.ndarray, state: State, left: int) -> None:
    cell = TRACK_CELL
    top = TRACK_TOP + 10
    image.draw_label(img, left + 8, TRACK_TOP, "score track (mod 100)", TEXT)
    stocked = {sp for c, kind in zip(STOCKED_CORNERS, state.corners) if kind for sp in c.spaces}
    corner_spaces = {sp for c in STOCKED_CORNERS for sp in c.spaces} | {0, 1}
    for space in range(100):
        x = left + 8 + (space % 10) * (cell + 3)
        y = top + (space // 10) * cell
        colour = CORNER_COLOUR if space in corner_spaces else EMPTY_COLOUR
        image.fill_rect(img, x, y, cell + 1, cell - 2, colour)
        if space in stocked:
            image.fill_rect(img, x + 5, y + 4, 6, 5, MARKET_COLOUR)
    for s in range(2):
        space = state.scores_[s] % 100
        x = left + 8 + (space % 10) * (cell + 3) + 4 + 7 * s
        y = top + (space // 10) * cell + 6
        image.fill_circle(img, x, y, 4.5, image.BLACK)
        image.fill_circle(img, x, y, 3.5, SEAT_COLOURS[s])


def render_rgb(state: State) -> np.ndarray:
    """The position as an ``uint8[440, 680, 3]`` picture (all of it public: see the module
    docstring)."""
    width = GRID_W * TILE_PX + PANEL_PX
    height = GRID_H * TILE_PX
    img = image.canvas(width, height, (245, 240, 230))
    _draw_castle(img, state)
    _draw_panel(img, state, GRID_W * TILE_PX)
    return img


def save_png(state: State, path: str | Path) -> Path:
    """Write :func:`render_rgb` of ``state`` to a PNG file; returns the path."""
    return image.save_png(render_rgb(state), path)


__all__ = ["render_rgb", "render_text", "save_png", "tile_block", "SLOT_NAMES"]
