"""Wasabi! as text a person can play from, and as an RGB picture of the grid.

The text board shows each active cell's top tile by its two letters (``Sa+1``: one more
tile below it), ``[..]`` around a cell covered by a Wasabi! card, ``*`` before the selected
cell, ``.`` for an empty cell; :data:`LEGEND`, printed under the table, names all of them and
the 17 ingredient codes. The rows ``r`` are numbered down the left and the columns ``c``
across the top, and the corner says ``(r,c)``: a cell is named so in the moves
(``place Rice on (2,3)``). The legal moves are not listed (a player's menu, or
``describe_action``, says what each does).

The picture (:func:`render_rgb`, ``uint8[HEIGHT, WIDTH, 3]``, 730 x 418 pixels, the same size for
every player count) shows the **full state** unless a seat is given. Across the top: whose
turn it is (its seat colour and name, the turn and the decision) or, once the game is over,
who won and how. Left: the 6 x 7 grid (inactive cells dark; each tile in its kind's colour
with its two-letter code, one white dot per buried tile, a green frame and tint over each
Wasabi! card, a red frame around a pending selection), a key to those marks and the legend
of the 17 ingredients (colour, code and name). Right: one block per seat in its colour (the
legend of seats), a black triangle at the seat to move, a gold WINNER badge at the end; the
seat's score (recipe points + cubes), recipes done, its hand (tiles as icons, action cards
by name) and its menu (each recipe's name and ingredients in the ideal order).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image, text
from boardgame_envs.core.text import plural
from boardgame_envs.wasabi.data import (
    CARD_NAMES,
    DEFAULT_MAX_TURNS,
    GRID_COLUMNS,
    KIND_NAMES,
    KIND_SHORT,
    NUM_KINDS,
    RECIPE_LENGTH,
    RECIPES,
    RECIPES_TO_WIN,
    ROWS,
    recipe_text,
)
from boardgame_envs.wasabi.rules import (
    GAME_OVER,
    PHASE_INDEX,
    cell_name,
    covered_cells,
    top_tiles,
)

if TYPE_CHECKING:
    from boardgame_envs.wasabi.rules import State


# -- text ---------------------------------------------------------------------------------
#: How a cell is written (in the moves, the Wasabi! cards line and the board's corner): its
#: row r, then its column c, both from 0 at the top left (cell index ``r * 7 + c``).
COORDINATES = "(r,c)"
#: Each decision point (the rules' phase, spec §4.4; D1-D16 in the rules' order) as the
#: words the table shows for it.
PHASE_WORDS = {
    "GIFT_PICK": "give an ingredient (setup)",
    "DRAFT_PICK": "draw a recipe (setup)",
    "STEP1_START": "step 1: place, play a card or pass",
    "PLACE_TARGET": "place the tile",
    "PLACE_DUE": "choose the tile to place",
    "AFTER_PLACEMENT": "play a card after placing, or stop",
    "SWITCH_FIRST": "Switch!: the first tile",
    "SWITCH_SECOND": "Switch!: the second tile",
    "CHOP_TARGET": "Chop!: the tile to chop",
    "CHOPPED_TILE": "Chop!: where the chopped tile goes",
    "WASABI_ANCHOR": "Wasabi!: where to lay the card",
    "DISCARD_MORE": "discard more recipes, or stop",
    "REWARD_PICK": "step 2: take a reward",
    "REWARD_DISCARD": "discard one of three action cards",
    "REFILL_INGREDIENT": "refill ingredients",
    "REFILL_RECIPE": "refill recipes",
    "GAME_OVER": "game over",
}

#: What each mark of the text board means, as (marks, meaning); printed under the table.
LEGEND: tuple[tuple[str, str], ...] = (
    *zip(KIND_SHORT, KIND_NAMES),
    ("+1", "that many more tiles below the top one"),
    ("[ ]", "a cell covered by a Wasabi! card"),
    ("*", "the selected cell"),
    (".", "an empty cell"),
    ("Ri10", "pantry: ingredient and tiles left"),
    (COORDINATES, "a cell, as in the moves: row r (down the left), column c (across the top)"),
    (">", "the seat to decide"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the board."""
    return text.legend_lines(LEGEND, width)


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
    """The grid: the columns c numbered across the top, the rows r down the left, and
    :data:`COORDINATES` in the corner, the way the moves name a cell (``place Rice on (2,3)``)."""
    covered = covered_cells(state.anchors)
    columns = state.columns
    width = 7
    margin = len(COORDINATES) + 1
    header = f"{COORDINATES:<{margin}}" + "".join(f"{c:<{width}}" for c in range(columns))
    lines = [header.rstrip()]
    for r in range(ROWS):
        cells = [_cell_text(state, r * GRID_COLUMNS + c, covered) for c in range(columns)]
        lines.append(f"{r:<{margin}}" + "".join(f"{t:<{width}}" for t in cells).rstrip())
    return lines


def turn_counter(state: State) -> str:
    """``turn 5``; ``turn 5 of at most 40`` when a ``max_turns`` other than the default was
    chosen. The default is a safety cap far above any real game (a full board ends one after
    37-59 turns), so it is not shown as if it were the game's length."""
    text = f"turn {state.turn + 1}"
    if state.config["max_turns"] != DEFAULT_MAX_TURNS:
        text += f" of at most {state.config['max_turns']}"
    return text


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The game as text; recipes other than ``seat``'s are hidden (all shown when None).

    Tiles and cards in hand are shown for everyone (every one of them entered and leaves
    a hand openly, spec §7) unless ``hide_opponent_hands`` is set. ``legend=False`` leaves
    out the key to the marks (:func:`legend_lines`).
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
        decision = f"D{PHASE_INDEX[state.phase] + 1} {PHASE_WORDS[state.phase]}"
        header = f"Wasabi! · {turn_counter(state)} · P{state.current_player} to decide: {decision}"
    lines = [header, *board_text(state)]
    if state.anchors:
        where = ", ".join(cell_name(a) for a in state.anchors)
        lines.append(f"  Wasabi! cards (top-left): {where}")
    lines.append(f"  pantry: {' '.join(f'{KIND_SHORT[k]}{c}' for k, c in enumerate(state.pantry))}")
    lines.append(
        f"  kitchen: {_counted(CARD_NAMES, state.kitchen)} · decks (length:size): "
        + " ".join(f"{i + 2}:{len(d)}" for i, d in enumerate(state.decks))
    )
    context = _turn_context(state, seat)
    if context:
        lines.append(f"  this turn: {context}")
    hide = state.config["hide_opponent_hands"]
    scores = state.scores()
    for s in range(n):
        marker = ">" if s == state.current_player else " "
        you = " (you)" if s == seat else ""
        tokens = " ".join(f"{i + 2}:{t}" for i, t in enumerate(state.tokens[s]))
        lines.append(
            f"{marker} P{s}{you}: score {int(scores[s])} ({plural(state.points(s), 'point')}, "
            f"{plural(state.cubes[s], 'cube')}) · unused tokens {tokens}"
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
    if legend:
        lines += legend_lines()
    return "\n".join(lines)


def _turn_context(state: State, seat: int | None) -> str:
    parts = []
    if state.phase == GAME_OVER:
        return ""
    if state.gift:
        parts.append("gift so far: " + ", ".join(KIND_NAMES[k] for k in state.gift))
    if state.card_used is not None:
        when = "before" if state.card_before else "after"
        parts.append(f"{CARD_NAMES[state.card_used]} played {when} placing")
    hidden = state.config["hide_opponent_hands"] and seat not in (None, state.active)
    if state.kind is not None and not hidden:  # the chosen tile is behind the mover's screen
        parts.append(f"placing {KIND_NAMES[state.kind]}")
    if state.lifted is not None:
        parts.append(f"chopped {KIND_NAMES[state.lifted]}")
    if state.marked:
        parts.append("marked for discard: slots " + ", ".join(map(str, sorted(state.marked))))
    if state.picks:
        parts.append(f"{state.picks} action-card pick(s) pending")
    return " · ".join(parts)


# -- picture ------------------------------------------------------------------------------
CELL = 40
MARGIN = 10
HEADER_H = 40  # the status lines across the top
ICON = 16  # an ingredient in a hand, a recipe or the legend
ICON_STEP = ICON + 2
BOARD_LEFT, BOARD_TOP = MARGIN, HEADER_H
BOARD_BOTTOM = BOARD_TOP + ROWS * CELL
NOTES_TOP = BOARD_BOTTOM + 6  # what the board's marks mean
LEGEND_TOP = NOTES_TOP + 20  # "INGREDIENTS", then the 17 kinds
LEGEND_PER_ROW = 4
LEGEND_COLUMN_W = 70
LEGEND_ROW_H = 18
PANEL_LEFT = 2 * MARGIN + GRID_COLUMNS * CELL
PANEL_W = 430
SEAT_H = 84
WIDTH = PANEL_LEFT + PANEL_W
HEIGHT = (
    max(
        LEGEND_TOP + 12 + -(-NUM_KINDS // LEGEND_PER_ROW) * LEGEND_ROW_H,
        HEADER_H + 4 * SEAT_H,
    )
    + MARGIN
)

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
#: The two-letter code written on every tile (capitals of ``KIND_SHORT``: all different).
KIND_CODES: tuple[str, ...] = tuple(short.upper() for short in KIND_SHORT)
SEAT_COLOURS: tuple[image.Colour, ...] = (
    (220, 40, 40),
    (40, 90, 220),
    (240, 190, 0),
    (30, 160, 60),
)
SEAT_NAMES = ("red", "blue", "yellow", "green")
BACKGROUND = (215, 190, 140)  # bamboo mat
PANEL = (240, 228, 200)
INACTIVE = (70, 60, 50)
EMPTY = (235, 220, 180)
WASABI_GREEN = (60, 170, 40)
SELECTED_RED = (220, 0, 0)
HIDDEN = (150, 140, 125)  # a face-down tile or recipe
TILE_EDGE = (90, 70, 40)
TEXT = (40, 30, 20)
TURN_MARKER = (0, 0, 0)
WINNER_GOLD = (250, 200, 40)


def seat_top(seat: int) -> int:
    """The y of the top of ``seat``'s block in the side panel."""
    return HEADER_H + seat * SEAT_H


def legend_xy(kind: int) -> tuple[int, int]:
    """Top-left corner of ``kind``'s icon in the legend under the board."""
    row, col = divmod(kind, LEGEND_PER_ROW)
    return MARGIN + col * LEGEND_COLUMN_W, LEGEND_TOP + 12 + row * LEGEND_ROW_H


def _ink(colour: image.Colour) -> image.Colour:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return image.BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else image.WHITE


def _centred(picture: np.ndarray, x: int, y: int, size: int, text: str, colour, scale: int):
    w, h = image.label_size(text, scale)
    image.draw_label(picture, x + (size - w + 1) // 2, y + (size - h + 1) // 2, text, colour, scale)


def _tile(picture: np.ndarray, x: int, y: int, size: int, kind: int | None) -> None:
    """An ingredient tile: its colour and two-letter code; a face-down one (``?``) if None."""
    colour = HIDDEN if kind is None else KIND_COLOURS[kind]
    image.fill_rect(picture, x, y, size, size, colour)
    image.outline_rect(picture, x, y, size, size, TILE_EDGE)
    text = "?" if kind is None else KIND_CODES[kind]
    _centred(picture, x, y, size, text, _ink(colour), 2 if size >= 28 else 1)


def _winner_text(state: State) -> tuple[str, str]:
    winners = state.winners()
    if len(winners) == 1:
        line = f"P{winners[0]} {SEAT_NAMES[winners[0]]} wins"
    else:
        line = "tie: " + " and ".join(f"P{s}" for s in winners) + " win"
    how = (
        f"P{state.winner} completed {RECIPES_TO_WIN} recipes"
        if state.winner is not None
        else "board full"
        if state.board_full()
        else "turn limit"
    )
    return line, f"game over \u00b7 {how} \u00b7 turn {state.turn + 1}"


def _draw_header(picture: np.ndarray, state: State, seat: int | None) -> None:
    if state.is_terminal():
        line, detail = _winner_text(state)
        winners = state.winners()
        badge = SEAT_COLOURS[winners[0]] if len(winners) == 1 else WINNER_GOLD
        image.fill_rect(picture, MARGIN, 8, 14, 14, badge)
        image.outline_rect(picture, MARGIN, 8, 14, 14, TEXT)
    else:
        p = state.current_player
        line = f"P{p} {SEAT_NAMES[p]} to move"
        image.fill_rect(picture, MARGIN, 8, 14, 14, SEAT_COLOURS[p])
        image.outline_rect(picture, MARGIN, 8, 14, 14, TEXT)
        detail = f"{turn_counter(state)} \u00b7 {PHASE_WORDS[state.phase]}"
        hidden = state.config["hide_opponent_hands"] and seat not in (None, state.active)
        if state.kind is not None and not hidden:
            detail += f" \u00b7 placing {KIND_NAMES[state.kind]}"
        if state.lifted is not None:
            detail += f" \u00b7 chopped {KIND_NAMES[state.lifted]}"
    image.draw_label(picture, MARGIN + 20, 8, line, TEXT, 2)
    if seat is not None:
        detail += f" \u00b7 seen by P{seat}"
    image.draw_label(picture, MARGIN + 20, 27, detail, TEXT, 1)


def _draw_board(picture: np.ndarray, state: State) -> None:
    geo = state.geo
    covered = covered_cells(state.anchors)
    tops = top_tiles(state.stacks, [])  # covered tiles are drawn too, under the tint
    for cell in range(ROWS * GRID_COLUMNS):
        r, c = divmod(cell, GRID_COLUMNS)
        x, y = BOARD_LEFT + c * CELL, BOARD_TOP + r * CELL
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
        x, y = BOARD_LEFT + c * CELL, BOARD_TOP + r * CELL
        image.outline_rect(picture, x, y, 2 * CELL, 2 * CELL, (20, 90, 10), thickness=3)
    if state.selected is not None:
        r, c = divmod(state.selected, GRID_COLUMNS)
        x, y = BOARD_LEFT + c * CELL, BOARD_TOP + r * CELL
        image.outline_rect(picture, x, y, CELL, CELL, SELECTED_RED, 3)
    # what the marks mean
    y = NOTES_TOP
    image.fill_circle(picture, MARGIN + 4, y + 4, 2.5, image.WHITE)
    image.draw_label(picture, MARGIN + 10, y + 1, "tile below", TEXT)
    image.outline_rect(picture, MARGIN + 82, y, 10, 10, (20, 90, 10), 2)
    image.draw_label(picture, MARGIN + 96, y + 1, "wasabi! card", TEXT)
    image.outline_rect(picture, MARGIN + 180, y, 10, 10, SELECTED_RED, 2)
    image.draw_label(picture, MARGIN + 194, y + 1, "chosen cell", TEXT)


def _draw_legend(picture: np.ndarray) -> None:
    image.draw_label(picture, MARGIN, LEGEND_TOP, "ingredients", TEXT)
    for kind in range(NUM_KINDS):
        x, y = legend_xy(kind)
        _tile(picture, x, y, ICON, kind)
        image.draw_label(picture, x + ICON + 3, y + 5, KIND_NAMES[kind], TEXT)


def _draw_seat(picture: np.ndarray, state: State, s: int, seat: int | None) -> None:
    x0, y0 = PANEL_LEFT, seat_top(s)
    right = WIDTH - MARGIN
    you = " (you)" if s == seat else ""
    image.draw_seat_header(
        picture,
        (x0, y0, right - x0, SEAT_H - 6),
        (PANEL, SEAT_COLOURS[s], TEXT),
        f"P{s} {SEAT_NAMES[s]}{you}",
        not state.is_terminal() and s == state.current_player,
        TURN_MARKER,
    )
    score = int(state.scores()[s])
    image.draw_label(picture, x0 + 236, y0 + 3, f"score {score}", TEXT, 2)
    if state.is_terminal() and s in state.winners():
        image.fill_rect(picture, right - 52, y0 + 2, 50, 15, WINNER_GOLD)
        image.outline_rect(picture, right - 52, y0 + 2, 50, 15, TEXT)
        image.draw_label(picture, right - 45, y0 + 6, "winner", TEXT)
    detail = (
        f"{state.points(s)} recipe pts + {state.cubes[s]} cubes \u00b7 "
        f"{len(state.completed[s])}/{RECIPES_TO_WIN} recipes done"
    )
    image.draw_label(picture, x0 + 38, y0 + 20, detail, TEXT)
    # hand: tiles and action cards
    y = y0 + 32
    open_hand = seat is None or s == seat or not state.config["hide_opponent_hands"]
    image.draw_label(picture, x0 + 8, y + 5, "hand", TEXT)
    kinds: list[int | None]
    if open_hand:
        kinds = [k for k in range(NUM_KINDS) for _ in range(state.tiles[s][k])]
        cards = _counted(CARD_NAMES, list(state.cards[s]))
    else:
        kinds = [None] * sum(state.tiles[s])
        held = sum(state.cards[s])
        cards = f"{held} hidden" if held else "-"
    for i, kind in enumerate(kinds):
        _tile(picture, x0 + 38 + i * ICON_STEP, y, ICON, kind)
    if not kinds:
        image.draw_label(picture, x0 + 38, y + 5, "-", TEXT)
    image.draw_label(picture, x0 + 130, y + 5, f"cards: {cards}", TEXT)
    # menu: three recipe slots, each its name and its ingredients in the ideal order
    y = y0 + 52
    image.draw_label(picture, x0 + 8, y + 4, "menu", TEXT)
    for i, recipe in enumerate(state.menus[s]):
        x = x0 + 38 + i * 128
        if recipe is None:
            image.draw_label(picture, x, y, "-", TEXT)
        elif seat is None or s == seat:
            image.draw_label(picture, x, y, RECIPES[recipe].name, TEXT)
            for j, kind in enumerate(RECIPES[recipe].kinds):
                _tile(picture, x + j * ICON_STEP, y + 9, ICON, kind)
        else:  # another seat's recipe: face down, only its length shows
            length = RECIPE_LENGTH[recipe]
            image.draw_label(picture, x, y, f"hidden, length {length}", TEXT)
            for j in range(length):
                _tile(picture, x + j * ICON_STEP, y + 9, ICON, None)


def render_rgb(state: State, seat: int | None = None) -> np.ndarray:
    """The table as ``uint8[HEIGHT, WIDTH, 3]`` (see the module docstring).

    With ``seat`` None (what ``state.render_rgb()`` and the env's ``rgb_array`` mode draw)
    the picture shows the **full state**, every recipe and hand included; with a seat, only
    what that seat may see: other seats' recipes face down (their lengths), and under
    ``hide_opponent_hands`` their tiles and cards face down and the pending kind unnamed.
    """
    if seat is not None:
        seat = state._check_seat(seat)
    picture = image.canvas(WIDTH, HEIGHT, BACKGROUND)
    _draw_header(picture, state, seat)
    _draw_board(picture, state)
    _draw_legend(picture)
    for s in range(state.num_players):
        _draw_seat(picture, state, s, seat)
    return picture


def save_png(state: State, path: str | Path, seat: int | None = None) -> Path:
    """Write :func:`render_rgb` of ``state`` as a PNG file; returns the path."""
    return image.save_png(render_rgb(state, seat), path)
