"""Cornucopia as text a person can play from, and as an RGB picture (:func:`render_rgb`).

``render_text(state, seat)`` shows the table from ``seat``'s point of view: another seat's
bet shows only as "committed" until REVEAL. With ``seat=None`` everything is shown except
the deck order (which nobody ever sees). :data:`LEGEND` (printed under the table) says what
every letter and mark means. :func:`turn_report` says how a turn ended, for the commands
that show a game move by move (``play``, ``watch``, ``replay``).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image, text
from boardgame_envs.core.text import plural
from boardgame_envs.cornucopia.data import (
    BASKET_CAPACITY,
    BID_NUMBERS,
    CROP_LETTERS,
    CROP_NAMES,
    NUM_TYPES,
    SAME_BASKET,
)
from boardgame_envs.cornucopia.rules import (
    GAME_OVER,
    SIDE_NAMES,
    STATUS_NAMES,
    YES,
    basket_status,
    fitting_types,
)

if TYPE_CHECKING:
    from boardgame_envs.core.rules import PlayerView
    from boardgame_envs.cornucopia.rules import State


#: Each phase (the rules' constant, spec §4.3) as the words the table shows for it.
PHASE_WORDS = {
    "DECLARE": "declare red chips",
    "BID": "choose a bid",
    "BET": "secret bets on the bid",
    "CARD": "place the drawn card",
    "GAME_OVER": "game over",
}

#: What each letter and mark of the text table means, as (marks, meaning).
LEGEND: tuple[tuple[str, str], ...] = (
    *(
        (letter, name + (" (wild: any crop)" if letter == "W" else ""))
        for letter, name in zip(CROP_LETTERS, CROP_NAMES)
    ),
    ("W*", "the Same basket's own fixed cornucopia"),
    ("B0-B3", "Mixed/Same baskets"),
    ("B4", "the Same basket (one crop only)"),
    ("SAME DIFFERENT", "the basket's crops so far are all one / all different"),
    ("AMBIGUOUS", "it could still become either"),
    ("fits", "crops that may go in it now"),
    ("1:4", "bid stacks, bid number: cards left"),
    ("W0", "discard pile: crop and count"),
    (">", "the seat to decide"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the board."""
    return text.legend_lines(LEGEND, width)


def _basket(cards: list[int], same_basket: bool) -> str:
    letters = [CROP_LETTERS[c] for c in cards]
    if same_basket:
        letters[0] = "W*"
    return "[" + " ".join(letters) + "]"


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The table as text; other seats' secret bets hidden from ``seat`` (None: all shown).
    ``legend=False`` leaves out the key to the marks (:func:`legend_lines`)."""
    n = state.num_players
    exhausted = f" · deck run out {state.exhaustions}×" if state.exhaustions else ""
    if state.end_pending and not state.is_terminal():
        exhausted += " (last turn)"
    if state.phase == GAME_OVER:
        header = (
            f"Cornucopia · game over ({state.end_reason}) after {plural(state.turn, 'turn')} · "
            f"winners: {', '.join(f'P{s}' for s in state.winners())}"
        )
    else:
        header = (
            f"Cornucopia · turn {state.turn} · P{state.turn_player}'s turn · "
            f"{PHASE_WORDS[state.phase]} · P{state.current_player} to decide"
        )
    lines = [header + f" · deck {len(state.deck)}{exhausted} · discard {len(state.discard)}"]
    stacks = " ".join(f"{number}:{cards}" for number, cards in zip(BID_NUMBERS, state.stacks))
    lines.append(f"  bid stacks {stacks}")
    if state.bid is not None:
        red = (
            f"declared red left {state.declared}"
            if state.variant
            else f"red used {'yes' if state.red_used else 'no'}"
        )
        lines.append(
            f"  bid {state.bid}: placed {state.placed}, {state.bid - state.placed} left · {red}"
        )
    if state.pending is not None:
        lines.append(f"  drawn card: {CROP_LETTERS[state.pending]}")
    for j, cards in enumerate(state.baskets):
        same_basket = j == SAME_BASKET
        status = basket_status(cards, same_basket)
        fits = fitting_types(cards, same_basket)
        fit_text = " ".join(CROP_LETTERS[t] for t in range(NUM_TYPES) if fits >> t & 1)
        kind = " (Same basket)" if same_basket else ""
        label = STATUS_NAMES[status]
        lines.append(f"  B{j} {_basket(cards, same_basket):<16} {label:<10}{kind} fits: {fit_text}")
    discard = [state.discard.count(t) for t in range(NUM_TYPES)]
    lines.append(
        "  discard pile: " + " ".join(f"{CROP_LETTERS[t]}{discard[t]}" for t in range(NUM_TYPES))
    )
    scores = state.score_breakdown()
    for s in range(n):
        y, b, r = state.chips[s]
        won = " ".join(str(i + 1) for i in range(6) for _ in range(state.won[s][i])) or "-"
        chips_points, red_points, combo_points = scores[s]
        total = chips_points + red_points + combo_points
        marker = ">" if s == state.current_player else " "
        you = " (you)" if s == seat else ""
        line = (
            f"{marker} P{s}{you}: yellow {y} blue {b} red {r} · bid cards {won} · "
            f"score {total} ({chips_points}+{red_points}+{combo_points})"
        )
        bet = state.bets[s]
        if bet is not None:
            if state.bets_revealed or seat is None or s == seat:
                staked = "staked" if state.bets_revealed else "to stake"
                line += f" · bet {SIDE_NAMES[bet[0]]} {bet[1]} ({staked})"
            else:
                line += " · bet committed"
        lines.append(line)
    if state.last_log:
        lines.append("  previous turn: " + "; ".join(state.last_log))
    if state.log:
        lines.append("  this turn: " + "; ".join(state.log))
    if legend:
        lines += legend_lines()
    return "\n".join(lines)


def turn_report(before: PlayerView, after: PlayerView, seat: int) -> str | None:
    """How the turn that the last move ended went: the bid's success (the basket
    completed, the chips gained) or failure (why, what was paid) and the bets settled; None
    while the turn goes on. Read from ``seat``'s views before and after the move (the bets
    are public by then), so the person learns the outcome of every turn, their own too."""
    if before.bid is None or (after.turn == before.turn and after.phase != "GAME_OVER"):
        return None
    ended = after.log if after.turn == before.turn else after.last_log
    outcome = next((e for e in ended if e.startswith(("SUCCESS", "FAILURE"))), None)
    if outcome is None:  # the game ended for want of cards before the turn's end
        return None
    t, number = before.turn_player, before.bid
    success = outcome.startswith("SUCCESS")
    whose, who, s = ("your", "you", "") if t == seat else (f"P{t}'s", f"P{t}", "s")
    change = [after.chips[t][c] - before.chips[t][c] for c in range(3)]
    chips = " ".join(f"{d:+d} {name}" for d, name in zip(change, ("yellow", "blue", "red")) if d)
    if success:
        basket = outcome.removeprefix("SUCCESS: ").split(",")[0]  # "B2 complete as SAME"
        text = f"{whose} bid of {number} succeeded: {basket}; {who} keep{s} bid card {number}"
        text += f", chips {chips}" if chips else ""
    else:
        forfeit = next((e for e in ended if e.startswith("forfeits ")), None)
        if forfeit:
            why = f"{forfeit.removeprefix('forfeits ')} was forfeited"
        else:
            why = f"{number} card{'' if number == 1 else 's'} placed and no basket completed"
        paid = f"chips {chips}" if chips else "nothing to pay (no yellow, nor three blue)"
        text = f"{whose} bid of {number} failed: {why}; bid card {number} returns to its stack"
        text += f", {paid}"
    bets = []
    for bettor, bet in enumerate(before.bets):
        if bet is not None:
            side, stake = bet
            won = (side == YES) == success
            bets.append(f"P{bettor} {SIDE_NAMES[side]} {stake} {'won' if won else 'lost'}")
    if bets:
        text += "; bets: " + ", ".join(bets)
    return f"== {text} =="


# -- picture ------------------------------------------------------------------------------
# The table as an RGB picture (render_rgb), the same size for every player count:
#
#   +-------------------------------------------------------------------------+
#   | [] P1 blue to decide       (header: turn, phase, the bid, deck run-outs) |
#   | B0 [C][T][ ][ ][ ] DIFFERENT   | bid stacks  1  2  3  4  5  6            |
#   | ...                            | drawn card, deck, discard pile by crop  |
#   | B4 [W*][G][ ][ ][ ] SAME       |                                         |
#   | > [] P0 red  score 9  chips (y)(b)(r)  bid cards [2][3]  bet: committed  |
#   | ...  one block per seat (up to five)                                     |
#   | this turn: ...   previous turn: ...                                      |
#   +-------------------------------------------------------------------------+
PIC_MARGIN = 10
PIC_HEADER_H = 42
BASKET_TOP = PIC_HEADER_H
BASKET_ROW_H = 40
CROP_W, CROP_H = 28, 34  # a crop card in a basket
SIDE_LEFT = 390  # x of the right-hand column (bid stacks, drawn card, piles)
PIC_SEAT_TOP = BASKET_TOP + 5 * BASKET_ROW_H + 6
PIC_SEAT_H = 50
PIC_MAX_SEATS = 5
LOG_TOP = PIC_SEAT_TOP + PIC_MAX_SEATS * PIC_SEAT_H + 2
LOG_LINE_H = 11
LOG_LINES = 4
CHIP_R = 6
PIC_WIDTH = 760
PIC_HEIGHT = LOG_TOP + LOG_LINES * LOG_LINE_H + 8
LOG_CHARS = (PIC_WIDTH - 2 * PIC_MARGIN) // (image.FONT_WIDTH + 1)

#: One colour per crop type, in id order (W C P T E G).
CROP_COLOURS: tuple[tuple[int, int, int], ...] = (
    (190, 140, 80),  # W, the cornucopia (wild): a horn's brown
    (250, 215, 50),  # C corn
    (240, 130, 30),  # P pumpkin
    (215, 40, 40),  # T tomato
    (110, 50, 140),  # E eggplant
    (90, 160, 60),  # G grape
)
PIC_SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (220, 40, 40),
    (40, 90, 220),
    (240, 190, 0),
    (30, 160, 60),
    (150, 60, 190),
)
PIC_SEAT_NAMES = ("red", "blue", "yellow", "green", "purple")
CHIP_COLOURS = ((245, 200, 20), (40, 110, 220), (205, 30, 30))  # yellow, blue, red
FIELD = (150, 185, 95)  # the table
PIC_PANEL = (244, 238, 220)
PIC_TEXT = (30, 30, 20)
SLOT = (205, 200, 180)  # an empty place in a basket
PIC_WINNER_GOLD = (250, 200, 40)
BID_CARD = (250, 246, 235)
BET_BACK = (90, 80, 70)  # a bet made face down


def _ink(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return image.BLACK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else image.WHITE


def _crop_card(
    picture: np.ndarray, x: int, y: int, crop: int, w: int = CROP_W, h: int = CROP_H, star=False
) -> None:
    """A crop card: its colour and letter (``W*``: the Same basket's own cornucopia)."""
    colour = CROP_COLOURS[crop]
    image.fill_rect(picture, x, y, w, h, colour)
    image.outline_rect(picture, x, y, w, h, PIC_TEXT)
    letter = CROP_LETTERS[crop] + ("*" if star else "")
    scale = 2 if w >= 24 else 1
    lw, lh = image.label_size(letter, scale)
    image.draw_label(
        picture, x + (w - lw + 1) // 2, y + (h - lh + 1) // 2, letter, _ink(colour), scale
    )


@functools.cache
def _disc(radius: float) -> np.ndarray:
    """A boolean disc of ``radius`` in a square of side ``2 * CHIP_R + 1``."""
    stamp = image.canvas(2 * CHIP_R + 1, 2 * CHIP_R + 1, image.BLACK)
    image.fill_circle(stamp, CHIP_R, CHIP_R, radius, image.WHITE)
    return stamp[..., 0] > 0


def _chip(picture: np.ndarray, cx: int, cy: int, colour: tuple[int, int, int]) -> None:
    """A chip centred at (cx, cy), outlined."""
    window = picture[cy - CHIP_R : cy + CHIP_R + 1, cx - CHIP_R : cx + CHIP_R + 1]
    window[_disc(CHIP_R + 0.5)] = PIC_TEXT
    window[_disc(CHIP_R - 0.5)] = colour


def _pic_header(picture: np.ndarray, state: State, seat: int | None) -> None:
    if state.phase == GAME_OVER:
        winners = state.winners()
        badge = PIC_SEAT_COLOURS[winners[0]] if len(winners) == 1 else PIC_WINNER_GOLD
        if len(winners) == 1:
            line = f"P{winners[0]} {PIC_SEAT_NAMES[winners[0]]} wins"
        else:
            line = "tie: " + " and ".join(f"P{s}" for s in winners) + " win"
        detail = f"game over after {plural(state.turn, 'turn')} \u00b7 {state.end_reason}"
    else:
        p = state.current_player
        badge = PIC_SEAT_COLOURS[p]
        line = f"P{p} {PIC_SEAT_NAMES[p]} to decide"
        phase = PHASE_WORDS[state.phase]
        detail = f"turn {state.turn} \u00b7 P{state.turn_player}'s turn \u00b7 {phase}"
        if state.end_pending:
            detail += " \u00b7 last turn"
    if seat is not None:
        detail += f" \u00b7 seen by P{seat}"
    image.fill_rect(picture, PIC_MARGIN, 8, 14, 14, badge)
    image.outline_rect(picture, PIC_MARGIN, 8, 14, 14, PIC_TEXT)
    image.draw_label(picture, PIC_MARGIN + 20, 8, line, PIC_TEXT, 2)
    image.draw_label(picture, PIC_MARGIN + 20, 28, detail, PIC_TEXT)


def _pic_baskets(picture: np.ndarray, state: State) -> None:
    for j, cards in enumerate(state.baskets):
        y = BASKET_TOP + j * BASKET_ROW_H
        same_basket = j == SAME_BASKET
        image.fill_rect(
            picture, PIC_MARGIN, y, SIDE_LEFT - 2 * PIC_MARGIN, BASKET_ROW_H - 4, PIC_PANEL
        )
        image.draw_label(picture, PIC_MARGIN + 4, y + 6, f"B{j}", PIC_TEXT, 2)
        if same_basket:
            image.draw_label(picture, PIC_MARGIN + 4, y + 24, "same", PIC_TEXT)
        for i in range(BASKET_CAPACITY):
            x = PIC_MARGIN + 36 + i * (CROP_W + 3)
            if i < len(cards):
                _crop_card(picture, x, y + 1, cards[i], star=same_basket and i == 0)
            else:
                image.fill_rect(picture, x, y + 1, CROP_W, CROP_H, SLOT)
        x = PIC_MARGIN + 36 + BASKET_CAPACITY * (CROP_W + 3) + 6
        status = STATUS_NAMES[basket_status(cards, same_basket)]
        image.draw_label(picture, x, y + 5, status.lower(), PIC_TEXT)
        fits = fitting_types(cards, same_basket)
        image.draw_label(picture, x, y + 20, "fits", PIC_TEXT)
        fitting = [t for t in range(NUM_TYPES) if fits >> t & 1]
        for i, crop in enumerate(fitting):
            _crop_card(picture, x + 28 + i * 12, y + 17, crop, 11, 13)
        if not fitting:
            image.draw_label(picture, x + 28, y + 20, "-", PIC_TEXT)


def _pic_side(picture: np.ndarray, state: State) -> None:
    x0, right = SIDE_LEFT, PIC_WIDTH - PIC_MARGIN
    image.fill_rect(picture, x0, BASKET_TOP, right - x0, 5 * BASKET_ROW_H - 4, PIC_PANEL)
    x, y = x0 + 8, BASKET_TOP + 5
    image.draw_label(picture, x, y, "bid stacks (number: cards left)", PIC_TEXT)
    for i, (number, cards) in enumerate(zip(BID_NUMBERS, state.stacks)):
        bx = x + i * 40
        colour = BID_CARD if cards else SLOT
        image.fill_rect(picture, bx, y + 12, 26, 30, colour)
        image.outline_rect(picture, bx, y + 12, 26, 30, PIC_TEXT)
        image.draw_label(picture, bx + 8, y + 20, str(number), PIC_TEXT, 2)
        image.draw_label(picture, bx + 28, y + 32, str(cards), PIC_TEXT)
    y += 50
    if state.bid is not None:
        left = state.bid - state.placed
        line = f"bid {state.bid}: {state.placed} placed, {left} to go"
        if state.variant:
            line += f" \u00b7 declared red left {state.declared}"
        else:
            line += f" \u00b7 red used: {'yes' if state.red_used else 'no'}"
        image.draw_label(picture, x, y, line, PIC_TEXT)
    elif state.phase != GAME_OVER:
        image.draw_label(picture, x, y, "no bid yet", PIC_TEXT)
    y += 14
    image.draw_label(picture, x, y + 12, "drawn", PIC_TEXT)
    if state.pending is not None:
        _crop_card(picture, x + 40, y, state.pending, 30, 36)
    else:
        image.fill_rect(picture, x + 40, y, 30, 36, SLOT)
    exhausted = f", run out {state.exhaustions}x" if state.exhaustions else ""
    image.draw_label(picture, x + 84, y + 4, f"deck {len(state.deck)}{exhausted}", PIC_TEXT)
    counts = [state.discard.count(t) for t in range(NUM_TYPES)]
    image.draw_label(picture, x + 84, y + 20, f"discard {len(state.discard)}", PIC_TEXT)
    for t in range(NUM_TYPES):
        cx = x + 160 + t * 30
        _crop_card(picture, cx, y + 16, t, 11, 13)
        image.draw_label(picture, cx + 13, y + 19, str(counts[t]), PIC_TEXT)
    y += 46
    # a key to the crops
    for t in range(NUM_TYPES):
        kx, ky = x + (t % 3) * 118, y + (t // 3) * 16
        _crop_card(picture, kx, ky, t, 11, 13)
        image.draw_label(picture, kx + 15, ky + 3, CROP_NAMES[t], PIC_TEXT)


def _bid_card(picture: np.ndarray, x: int, y: int, number: int) -> None:
    image.fill_rect(picture, x, y, 11, 14, BID_CARD)
    image.outline_rect(picture, x, y, 11, 14, PIC_TEXT)
    image.draw_label(picture, x + 3, y + 4, str(number), PIC_TEXT)


def _pic_seat(picture: np.ndarray, state: State, s: int, seat: int | None) -> None:
    x0, y0 = PIC_MARGIN, PIC_SEAT_TOP + s * PIC_SEAT_H
    right = PIC_WIDTH - PIC_MARGIN
    you = " (you)" if s == seat else ""
    image.draw_seat_header(
        picture,
        (x0, y0, right - x0, PIC_SEAT_H - 5),
        (PIC_PANEL, PIC_SEAT_COLOURS[s], PIC_TEXT),
        f"P{s} {PIC_SEAT_NAMES[s]}{you}",
        s == state.current_player,
    )
    chips_points, red_points, combo_points = state.score_breakdown()[s]
    total = chips_points + red_points + combo_points
    image.draw_label(picture, x0 + 240, y0 + 3, f"score {total}", PIC_TEXT, 2)
    image.draw_label(
        picture,
        x0 + 350,
        y0 + 7,
        f"= {chips_points} chips + {red_points} red + {combo_points} bid cards",
        PIC_TEXT,
    )
    if state.phase == GAME_OVER and s in state.winners():
        image.fill_rect(picture, right - 54, y0 + 2, 50, 15, PIC_WINNER_GOLD)
        image.outline_rect(picture, right - 54, y0 + 2, 50, 15, PIC_TEXT)
        image.draw_label(picture, right - 47, y0 + 6, "winner", PIC_TEXT)
    # chips in hand
    y = y0 + 30
    for colour, count in enumerate(state.chips[s]):
        cx = x0 + 46 + colour * 46
        _chip(picture, cx, y, CHIP_COLOURS[colour])
        image.draw_label(picture, cx + 10, y - 3, str(count), PIC_TEXT)
    # bid cards won
    x = x0 + 190
    image.draw_label(picture, x, y - 3, "bid cards", PIC_TEXT)
    numbers = [i + 1 for i in range(6) for _ in range(state.won[s][i])]
    for i, number in enumerate(numbers):
        _bid_card(picture, x + 58 + i * 13, y - 7, number)
    if not numbers:
        image.draw_label(picture, x + 58, y - 3, "-", PIC_TEXT)
    # the bet on this turn's bid: face down to the other seats until the reveal
    bet = state.bets[s]
    if bet is not None:
        x = right - 170
        if state.bets_revealed or seat is None or s == seat:
            staked = "staked" if state.bets_revealed else "to stake"
            image.draw_label(
                picture, x, y - 3, f"bet {SIDE_NAMES[bet[0]]} {bet[1]} ({staked})", PIC_TEXT
            )
        else:
            image.fill_rect(picture, x, y - 7, 11, 14, BET_BACK)
            image.outline_rect(picture, x, y - 7, 11, 14, PIC_TEXT)
            image.draw_label(picture, x + 16, y - 3, "bet made (secret)", PIC_TEXT)


def _log_lines(state: State) -> list[str]:
    """This turn's and the previous turn's public events, wrapped to the picture's width;
    the last :data:`LOG_LINES` lines."""
    lines: list[str] = []
    for title, events in (("previous turn", state.last_log), ("this turn", state.log)):
        if not events:
            continue
        line = f"{title}:"
        for event in events:
            item = f" {event} \u00b7"
            if len(line) + len(item) > LOG_CHARS:
                lines.append(line)
                line = "  "
            line += item
        lines.append(line.rstrip(" \u00b7"))
    return lines[-LOG_LINES:]


def render_rgb(state: State, seat: int | None = None) -> np.ndarray:
    """The table as ``uint8[PIC_HEIGHT, PIC_WIDTH, 3]`` (760 x 552 pixels for every player
    count): whose turn and which decision across the top; the five baskets (their crop
    cards, whether they are SAME, DIFFERENT or still AMBIGUOUS, and the crops that fit);
    the bid stacks, the bid in play, the drawn card, the deck and the discard pile by crop;
    one block per seat (its colour and name, score and its parts, yellow, blue and red
    chips, the bid cards it won, its bet on this turn's bid); this turn's and the previous
    turn's events at the bottom.

    With ``seat`` None (what ``state.render_rgb()`` and the env's ``rgb_array`` mode draw)
    every bet is shown; with a seat, the other seats' bets are face down until the reveal.
    The deck order is never shown.
    """
    if seat is not None:
        seat = state._check_seat(seat)
    picture = image.canvas(PIC_WIDTH, PIC_HEIGHT, FIELD)
    _pic_header(picture, state, seat)
    _pic_baskets(picture, state)
    _pic_side(picture, state)
    for s in range(state.num_players):
        _pic_seat(picture, state, s, seat)
    for i, line in enumerate(_log_lines(state)):
        image.draw_label(picture, PIC_MARGIN, LOG_TOP + 2 + i * LOG_LINE_H, line, PIC_TEXT)
    return picture


def save_png(state: State, path: str | Path, seat: int | None = None) -> Path:
    """Write :func:`render_rgb` of ``state`` as a PNG file; returns the path."""
    return image.save_png(render_rgb(state, seat), path)
