"""Wasabi! as text a person can play from, and as an RGB picture of the grid.

The text board shows each active cell's top tile by its two letters (``Sa+1``: one more
tile below it), ``[..]`` around a cell covered by a Wasabi! card, ``.`` for an empty cell.

The picture (:func:`render_rgb`, ``uint8[HEIGHT, WIDTH, 3]``, the same size for every
player count) draws the full 6 x 7 grid: inactive cells dark, each tile in its kind's
colour with its kind id (0-16) written on it, one white dot per buried tile, a green
frame and tint over each Wasabi! card, a red frame around a pending selection; below the
grid, a legend of the 17 kinds (colour and id) and each seat's score and cubes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image
from boardgame_envs.wasabi.data import (
    CARD_NAMES,
    GRID_COLUMNS,
    KIND_NAMES,
    KIND_SHORT,
    NUM_KINDS,
    RECIPE_LENGTH,
    RECIPES,
    ROWS,
    recipe_text,
)
from boardgame_envs.wasabi.rules import GAME_OVER, PHASE_INDEX, covered_cells, top_tiles

if TYPE_CHECKING:
    from boardgame_envs.wasabi.rules import State


# -- text ---------------------------------------------------------------------------------
def _counted(names: tuple[str, ...], counts: list[int]) -> str:
    parts = [f"{names[i]}" + (f" x{c}" if c > 1 else "") for i, c in enumerate(counts) if c]
    return ", ".join(parts) or "-"


def _cell_text(state: State, cell: int, covered: list[bool]) -> str:
    stack = state.stacks[cell]
    text = (
        "."
        if not stack
        else KIND_SHORT[stack[-1]] + (f"+{len(stack) - 1}" if len(stack) > 1 else "")
    )
    if covered[cell]:
        text = f"[{text}]"
    if cell == state.selected:
        text = f"*{text}"
    return text


def board_text(state: State) -> list[str]:
    covered = covered_cells(state.anchors)
    columns = state.columns
    width = 7
    lines = [("    " + "".join(f"{c:<{width}}" for c in range(columns))).rstrip()]
    for r in range(ROWS):
        cells = [_cell_text(state, r * GRID_COLUMNS + c, covered) for c in range(columns)]
        lines.append(f"{r:<4}" + "".join(f"{t:<{width}}" for t in cells).rstrip())
    return lines


def render_text(state: State, seat: int | None = None) -> str:
    """The game as text; recipes other than ``seat``'s are hidden (all shown when None).

    Tiles and cards in hand are shown for everyone (every one of them entered and leaves
    a hand openly, spec §7) unless ``hide_opponent_hands`` is set.
    """
    n = state.num_players
    if state.is_terminal():
        how = (
            f"P{state.winner} completed 10 recipes"
            if state.winner is not None
            else "board full"
            if state.board_full()
            else "turn limit"
        )
        winners = ", ".join(f"P{s}" for s in state.winners())
        header = f"Wasabi! · game over ({how}) · winners: {winners}"
    else:
        decision = f"D{PHASE_INDEX[state.phase] + 1} {state.phase}"
        header = (
            f"Wasabi! · turn {state.turn + 1}/{state.config['max_turns']} · "
            f"P{state.current_player} to decide: {decision}"
        )
    lines = [header, *board_text(state)]
    if state.anchors:
        where = ", ".join(f"({a // GRID_COLUMNS},{a % GRID_COLUMNS})" for a in state.anchors)
        lines.append(f"  Wasabi! cards (top-left): {where}")
    lines.append(f"  pantry: {' '.join(f'{KIND_SHORT[k]}{c}' for k, c in enumerate(state.pantry))}")
    lines.append(
        f"  kitchen: {_counted(CARD_NAMES, state.kitchen)} · decks (length:size): "
        + " ".join(f"{i + 2}:{len(d)}" for i, d in enumerate(state.decks))
    )
    context = _turn_context(state)
    if context:
        lines.append(f"  this turn: {context}")
    hide = state.config["hide_opponent_hands"]
    scores = state.scores()
    for s in range(n):
        marker = ">" if s == state.current_player else " "
        you = " (you)" if s == seat else ""
        tokens = " ".join(f"{i + 2}:{t}" for i, t in enumerate(state.tokens[s]))
        lines.append(
            f"{marker} P{s}{you}: score {int(scores[s])} ({state.points(s)} points, "
            f"{state.cubes[s]} cubes) · unused tokens {tokens}"
        )
        if seat is None or s == seat or not hide:
            lines.append(
                f"    tiles: {_counted(KIND_NAMES, state.tiles[s])} · "
                f"cards: {_counted(CARD_NAMES, state.cards[s])}"
            )
        if seat is None or s == seat:
            menu = "; ".join(
                f"[{i}] " + ("-" if r is None else recipe_text(r))
                for i, r in enumerate(state.menus[s])
            )
        else:
            menu = " ".join(
                f"[{i}] " + ("-" if r is None else f"length {RECIPE_LENGTH[r]}")
                for i, r in enumerate(state.menus[s])
            )
        lines.append(f"    menu: {menu}")
        if state.completed[s]:
            done = ", ".join(
                RECIPES[r].name + (" (ideal)" if ideal else "") for r, ideal in state.completed[s]
            )
            lines.append(f"    completed: {done}")
    if not state.is_terminal() and seat in (None, state.current_player):
        lines += _legal_lines(state)
    return "\n".join(lines)


def _turn_context(state: State) -> str:
    parts = []
    if state.phase == GAME_OVER:
        return ""
    if state.gift:
        parts.append("gift so far: " + ", ".join(KIND_NAMES[k] for k in state.gift))
    if state.card_used is not None:
        when = "before" if state.card_before else "after"
        parts.append(f"{CARD_NAMES[state.card_used]} played {when} placing")
    if state.kind is not None:
        parts.append(f"placing {KIND_NAMES[state.kind]}")
    if state.lifted is not None:
        parts.append(f"chopped {KIND_NAMES[state.lifted]}")
    if state.marked:
        parts.append("marked for discard: slots " + ", ".join(map(str, sorted(state.marked))))
    if state.picks:
        parts.append(f"{state.picks} action-card pick(s) pending")
    return " · ".join(parts)


def _legal_lines(state: State, width: int = 96) -> list[str]:
    lines, line = [], "  legal:"
    for action in state.legal_actions():
        item = f" {action} {state.describe_action(action)};"
        if len(line) + len(item) > width:
            lines.append(line)
            line = "   "
        line += item
    lines.append(line.rstrip(";"))
    return lines


# -- picture ------------------------------------------------------------------------------
CELL = 40
MARGIN = 10
SWATCH = 30
LEGEND_PER_ROW = 9
SEAT_ROW = 16
WIDTH = 2 * MARGIN + GRID_COLUMNS * CELL
BOARD_BOTTOM = MARGIN + ROWS * CELL
LEGEND_TOP = BOARD_BOTTOM + MARGIN
SEATS_TOP = LEGEND_TOP + 2 * (SWATCH + 4) + MARGIN
HEIGHT = SEATS_TOP + 4 * SEAT_ROW + MARGIN

#: One colour per ingredient kind, in id order (Rice … Lobster).
KIND_COLOURS: tuple[image.Colour, ...] = (
    (245, 242, 230),  # Rice
    (30, 80, 45),  # Maki
    (250, 140, 120),  # Salmon
    (190, 25, 50),  # Tuna
    (255, 175, 80),  # Snapper
    (110, 75, 45),  # Eel
    (255, 190, 210),  # Shrimp
    (190, 190, 215),  # Squid
    (225, 85, 35),  # Crab
    (245, 205, 0),  # Roe
    (160, 205, 70),  # Avocado
    (40, 150, 95),  # Cucumber
    (255, 125, 0),  # Carrot
    (190, 60, 160),  # Radish
    (95, 160, 225),  # Fugu
    (185, 140, 40),  # Uni
    (150, 0, 0),  # Lobster
)
SEAT_COLOURS: tuple[image.Colour, ...] = (
    (220, 40, 40),
    (40, 90, 220),
    (240, 190, 0),
    (30, 160, 60),
)
BACKGROUND = (215, 190, 140)  # bamboo mat
INACTIVE = (70, 60, 50)
EMPTY = (235, 220, 180)
WASABI_GREEN = (60, 170, 40)
SELECTED_RED = (220, 0, 0)


def _ink(colour: image.Colour) -> image.Colour:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return image.BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else image.WHITE


def _tile(picture: np.ndarray, x: int, y: int, size: int, kind: int) -> None:
    colour = KIND_COLOURS[kind]
    image.fill_rect(picture, x, y, size, size, colour)
    image.outline_rect(picture, x, y, size, size, (90, 70, 40))
    text = str(kind)
    scale = 2
    text_w = (4 * len(text) - 1) * scale
    image.draw_text(
        picture, x + (size - text_w) // 2, y + (size - 5 * scale) // 2, text, _ink(colour), scale
    )


def render_rgb(state: State) -> np.ndarray:
    """The grid as ``uint8[HEIGHT, WIDTH, 3]`` (see the module docstring)."""
    picture = image.canvas(WIDTH, HEIGHT, BACKGROUND)
    geo = state.geo
    covered = covered_cells(state.anchors)
    tops = top_tiles(state.stacks, [])  # covered tiles are drawn too, under the tint
    for cell in range(ROWS * GRID_COLUMNS):
        r, c = divmod(cell, GRID_COLUMNS)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        if not geo.is_active[cell]:
            image.fill_rect(picture, x, y, CELL, CELL, INACTIVE)
            continue
        image.fill_rect(picture, x + 1, y + 1, CELL - 2, CELL - 2, EMPTY)
        if tops[cell] >= 0:
            _tile(picture, x + 3, y + 3, CELL - 6, tops[cell])
            for i in range(len(state.stacks[cell]) - 1):  # buried tiles
                image.fill_circle(picture, x + 8 + 6 * i, y + CELL - 8, 2.5, image.WHITE)
        if covered[cell]:
            block = picture[y : y + CELL, x : x + CELL].astype(np.float32)
            tint = np.array(WASABI_GREEN, dtype=np.float32)
            picture[y : y + CELL, x : x + CELL] = (0.45 * block + 0.55 * tint).astype(np.uint8)
    for anchor in state.anchors:
        r, c = divmod(anchor, GRID_COLUMNS)
        x, y = MARGIN + c * CELL, MARGIN + r * CELL
        image.outline_rect(picture, x, y, 2 * CELL, 2 * CELL, (20, 90, 10), thickness=3)
    if state.selected is not None:
        r, c = divmod(state.selected, GRID_COLUMNS)
        image.outline_rect(
            picture, MARGIN + c * CELL, MARGIN + r * CELL, CELL, CELL, SELECTED_RED, 3
        )
    for kind in range(NUM_KINDS):
        row, col = divmod(kind, LEGEND_PER_ROW)
        _tile(picture, MARGIN + col * (SWATCH + 1), LEGEND_TOP + row * (SWATCH + 4), SWATCH, kind)
    scores = state.scores()
    for seat in range(state.num_players):
        y = SEATS_TOP + seat * SEAT_ROW
        image.fill_rect(picture, MARGIN, y, 12, 12, SEAT_COLOURS[seat])
        if seat == state.current_player:
            image.outline_rect(picture, MARGIN - 2, y - 2, 16, 16, image.BLACK, 2)
        image.draw_text(picture, MARGIN + 20, y + 1, f"{int(scores[seat])}", image.BLACK, 2)
        image.draw_text(picture, MARGIN + 70, y + 1, f"{state.cubes[seat]}", (20, 110, 10), 2)
    return picture


def save_png(state: State, path: str | Path) -> Path:
    """Write :func:`render_rgb` of ``state`` as a PNG file; returns the path."""
    return image.save_png(render_rgb(state), path)
