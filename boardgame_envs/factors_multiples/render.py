"""Factors and Multiples as text a person can play from, and as an RGB picture.

Cards are a rank and a suit (``10♦``, ``K♣``); :data:`LEGEND` says what every mark means and
is printed under the table. :func:`render_rgb` draws the table (see its docstring); with a
seat, the other seats' hands are face down.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image, text
from boardgame_envs.core.text import plural
from boardgame_envs.factors_multiples.data import RANK_NAMES, card_name, rank_of, suit_of

if TYPE_CHECKING:
    from boardgame_envs.factors_multiples.rules import State

#: The phases whose move the rules keep from the other seats for good (spec §7): the card
#: discarded face down after an ace is played (A_DISCARD) or by a king's player once the king
#: is answered (K_DISCARD), even when it ends the round (after which nobody's observation
#: depends on it). The replays show such a move as hidden from a seat
#: that cannot tell it from another legal move (boardgame_envs.training.records.replay).
SECRET_PHASES = frozenset({"A_DISCARD", "K_DISCARD"})

#: Each phase (the rules' constant, spec §4.2) as the words the table shows for it.
PHASE_WORDS = {
    "PLAY": "play a card or show and draw",
    "K_ANSWER": "answer the K",
    "A_DISCARD": "discard after the A",
    "SEVEN_NAME": "name the value for the 7",
    "J_DIRECTION": "move the value up or down",
    "K_DISCARD": "discard for the K",
    "GAME_OVER": "match over",
}

#: What each mark of the text table means, as (marks, meaning); printed under the table.
LEGEND: tuple[tuple[str, str], ...] = (
    ("2-6 8-10 Q", "normal cards (Q is 12), played on a factor or multiple of the value"),
    ("A", "any time, then discard one card face down"),
    ("7", "name the value, 2-12"),
    ("J", "value up or down 1 (12 and 2 wrap)"),
    ("K", "the next player must play an A or show and draw"),
    ("♣ ♦ ♥ ♠", "suits (they only rank the start-player cards)"),
    ("*", "no value yet: any card goes"),
    ("(P1)", "who played it"),
    (">", "the seat to decide"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the board."""
    return text.legend_lines(LEGEND, width)


def _cards(cards) -> str:
    return " ".join(card_name(c) for c in cards) or "-"


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The table as text; hands other than ``seat``'s are hidden (all shown when None).
    ``legend=False`` leaves out the key to the marks (:func:`legend_lines`)."""
    n = state.num_players
    value = "*" if state.value is None else str(state.value)
    rounds = state.config["rounds"]
    if state.is_terminal():
        header = f"Factors and Multiples · match over · winners: {_seats(state.winners())}"
    else:
        header = (
            f"Factors and Multiples · round {state.round + 1}/{rounds} · value {value} · "
            f"{PHASE_WORDS[state.phase]} · P{state.current_player} to decide"
        )
        if state.k_player is not None:
            header += f" · K by P{state.k_player} restricts P{state.turn_player}"
    lines = [header]
    recent = state.play_pile[-6:]
    played = ", ".join(f"{card_name(c)}(P{s})" for c, s in recent) or "-"
    more = "… " if len(state.play_pile) > len(recent) else ""
    lines.append(f"  play pile ({len(state.play_pile)}): {more}{played}")
    lines.append(f"  hidden discard: {plural(len(state.hidden_discard), 'card')}")
    totals = state.scores()
    for s in range(n):
        you = " (you)" if s == seat else ""
        if seat is None or s == seat:
            hand = _cards(state.hands[s])
        else:
            hand = f"{plural(len(state.hands[s]), 'card')}, last shown: {_cards(state.reveals[s])}"
        marker = ">" if s == state.current_player else " "
        lines.append(
            f"{marker} P{s}{you}: score {int(totals[s])} · pile {len(state.piles[s])} · hand {hand}"
        )
    if state.round_scores:
        history = "; ".join(
            f"R{i + 1}: " + " ".join(str(x) for x in r) for i, r in enumerate(state.round_scores)
        )
        lines.append(f"  round scores: {history}")
    if legend:
        lines += legend_lines()
    return "\n".join(lines)


def _seats(seats: list[int]) -> str:
    return ", ".join(f"P{s}" for s in seats) or "-"


# -- picture ------------------------------------------------------------------------------
# The table as an RGB picture (render_rgb), the same size for every player count:
#
#   +-----------------------------------------------------------------------+
#   | [] P1 blue to move                      (header: turn, round, phase)   |
#   | VALUE | play pile: the last cards, a strip in the colour of who played |
#   |   6   |                                         hidden discard  [##] 9 |
#   | > [] P0 red      score 4       hand [5♦][8♣][A♠]   pile [##] 12       |
#   |   ...  one block per seat (up to five)                                |
#   | key                                                                    |
#   +-----------------------------------------------------------------------+
PIC_MARGIN = 10
PIC_HEADER_H = 42
PIC_TABLE_TOP = PIC_HEADER_H
PIC_TABLE_H = 84
PIC_SEAT_TOP = PIC_TABLE_TOP + PIC_TABLE_H + 4
PIC_SEAT_H = 72
PIC_MAX_SEATS = 5
PIC_KEY_TOP = PIC_SEAT_TOP + PIC_MAX_SEATS * PIC_SEAT_H + 2
PIC_WIDTH = 760
PIC_HEIGHT = PIC_KEY_TOP + 34
CARD_W, CARD_H = 26, 36  # a card in a hand or on the play pile
SMALL_W, SMALL_H = 18, 26  # a card someone showed (last shown)
HAND_LEFT = 292  # x of a seat's hand, from the seat block's left edge
PILE_SHOWN = 14  # the newest cards of the play pile that are drawn

PIC_SEAT_COLOURS: tuple[tuple[int, int, int], ...] = (
    (220, 40, 40),
    (40, 90, 220),
    (240, 190, 0),
    (30, 160, 60),
    (150, 60, 190),
)
PIC_SEAT_NAMES = ("red", "blue", "yellow", "green", "purple")
FELT = (40, 120, 70)  # the table
PIC_PANEL = (230, 236, 228)
PIC_TEXT = (25, 30, 25)
CARD_FACE = (252, 250, 244)
CARD_EDGE = (60, 60, 60)
CARD_BACK = (70, 60, 150)
CARD_BACK_MARK = (150, 140, 220)
RED_SUIT = (200, 20, 30)
BLACK_SUIT = (20, 20, 20)
PIC_WINNER_GOLD = (250, 200, 40)


@functools.cache
def _suit_stamp(suit: int, size: int) -> np.ndarray:
    """A ``size`` x ``size`` boolean stamp of a suit sign (♣ ♦ ♥ ♠ for 0-3)."""
    stamp = image.canvas(size, size, image.BLACK)
    on = image.WHITE
    c, r = (size - 1) / 2, size / 2
    if suit == 1:  # diamond
        image.fill_polygon(stamp, [(c, 0), (size - 1, c), (c, size - 1), (0, c)], on)
    elif suit == 2:  # heart: two lobes over a point
        image.fill_circle(stamp, c - r / 2, r * 0.55, r / 2, on)
        image.fill_circle(stamp, c + r / 2, r * 0.55, r / 2, on)
        image.fill_polygon(stamp, [(0, r * 0.65), (size, r * 0.65), (c, size)], on)
    elif suit == 3:  # spade: an upturned heart on a stem
        image.fill_circle(stamp, c - r / 2, r * 1.1, r / 2, on)
        image.fill_circle(stamp, c + r / 2, r * 1.1, r / 2, on)
        image.fill_polygon(stamp, [(0, r * 1.0), (size, r * 1.0), (c, 0)], on)
        image.fill_polygon(stamp, [(c, r), (c - r / 2, size), (c + r / 2, size)], on)
    else:  # club: three leaves on a stem
        image.fill_circle(stamp, c, r * 0.5, r * 0.45, on)
        image.fill_circle(stamp, c - r * 0.5, r * 1.05, r * 0.45, on)
        image.fill_circle(stamp, c + r * 0.5, r * 1.05, r * 0.45, on)
        image.fill_polygon(stamp, [(c, r), (c - r / 2, size), (c + r / 2, size)], on)
    return stamp[..., 0] > 0


def _suit(picture: np.ndarray, x: int, y: int, suit: int, size: int) -> None:
    stamp = _suit_stamp(suit, size)
    h = min(size, picture.shape[0] - y)
    w = min(size, picture.shape[1] - x)
    if h > 0 and w > 0:
        picture[y : y + h, x : x + w][stamp[:h, :w]] = RED_SUIT if suit in (1, 2) else BLACK_SUIT


def _card_face(picture: np.ndarray, x: int, y: int, card: int, w: int, h: int) -> None:
    """A face-up card: rank top-left, suit sign under it, in red (♦ ♥) or black (♣ ♠)."""
    suit = suit_of(card)
    ink = RED_SUIT if suit in (1, 2) else BLACK_SUIT
    image.fill_rect(picture, x, y, w, h, CARD_FACE)
    image.outline_rect(picture, x, y, w, h, CARD_EDGE)
    rank = RANK_NAMES[rank_of(card)]
    scale = 2 if w >= 24 else 1
    rank_w = image.label_size(rank, scale)[0]
    if rank_w > w - 4:  # "10" in a narrow card
        scale, rank_w = 1, image.label_size(rank, 1)[0]
    image.draw_label(picture, x + (w - rank_w + 1) // 2, y + 3, rank, ink, scale)
    size = 11 if h >= 34 else 8
    _suit(picture, x + (w - size + 1) // 2, y + h - size - 4, suit, size)


def _card_back(picture: np.ndarray, x: int, y: int, w: int, h: int) -> None:
    """A face-down card."""
    image.fill_rect(picture, x, y, w, h, CARD_BACK)
    image.outline_rect(picture, x, y, w, h, CARD_EDGE)
    image.outline_rect(picture, x + 3, y + 3, w - 6, h - 6, CARD_BACK_MARK)


def _card_row(
    picture: np.ndarray, x: int, y: int, cards: list[int | None], w: int, h: int, room: int
) -> int:
    """Cards left to right from (x, y), overlapping when more than ``room`` pixels would
    be needed (``None``: face down); returns the x after the last card."""
    if not cards:
        image.draw_label(picture, x, y + h // 2 - 3, "-", PIC_TEXT)
        return x + 8
    step = min(w + 3, max(6, (room - w) // max(len(cards) - 1, 1)))
    for i, card in enumerate(cards):
        if card is None:
            _card_back(picture, x + i * step, y, w, h)
        else:
            _card_face(picture, x + i * step, y, card, w, h)
    return x + (len(cards) - 1) * step + w


def _pic_header(picture: np.ndarray, state: State, seat: int | None) -> None:
    rounds = state.config["rounds"]
    if state.is_terminal():
        winners = state.winners()
        badge = PIC_SEAT_COLOURS[winners[0]] if len(winners) == 1 else PIC_WINNER_GOLD
        if len(winners) == 1:
            line = f"P{winners[0]} {PIC_SEAT_NAMES[winners[0]]} wins"
        else:
            line = "tie: " + " and ".join(f"P{s}" for s in winners) + " win"
        detail = (
            f"match over after {rounds} round{'s' if rounds > 1 else ''} \u00b7 lowest total wins"
        )
    else:
        p = state.current_player
        badge = PIC_SEAT_COLOURS[p]
        line = f"P{p} {PIC_SEAT_NAMES[p]} to decide"
        detail = f"round {state.round + 1}/{rounds} \u00b7 {PHASE_WORDS[state.phase]}"
        if state.k_player is not None:
            detail += f" \u00b7 K by P{state.k_player}: P{state.turn_player} must answer with an A"
    if seat is not None:
        detail += f" \u00b7 seen by P{seat}"
    image.fill_rect(picture, PIC_MARGIN, 8, 14, 14, badge)
    image.outline_rect(picture, PIC_MARGIN, 8, 14, 14, PIC_TEXT)
    image.draw_label(picture, PIC_MARGIN + 20, 8, line, image.WHITE, 2)
    image.draw_label(picture, PIC_MARGIN + 20, 28, detail, image.WHITE)


def _pic_table(picture: np.ndarray, state: State) -> None:
    top = PIC_TABLE_TOP
    # the value: what the next normal card must divide or be a multiple of
    image.fill_rect(picture, PIC_MARGIN, top, 84, PIC_TABLE_H - 6, PIC_PANEL)
    image.draw_label(picture, PIC_MARGIN + 6, top + 5, "value", PIC_TEXT)
    value = "*" if state.value is None else str(state.value)
    w, _ = image.label_size(value, 5)
    image.draw_label(picture, PIC_MARGIN + (84 - w) // 2, top + 24, value, PIC_TEXT, 5)
    # the play pile, newest right
    x0 = PIC_MARGIN + 94
    image.draw_label(picture, x0, top + 5, f"play pile ({len(state.play_pile)})", image.WHITE)
    shown = state.play_pile[-PILE_SHOWN:]
    x = x0
    if len(state.play_pile) > len(shown):
        image.draw_label(picture, x, top + 34, "...", image.WHITE)
        x += 22
    if not shown:
        image.draw_label(picture, x, top + 34, "-", image.WHITE)
    for card, owner in shown:
        _card_face(picture, x, top + 18, card, CARD_W, CARD_H)
        image.fill_rect(picture, x, top + 18 + CARD_H + 2, CARD_W, 5, PIC_SEAT_COLOURS[owner])
        x += CARD_W + 3
    # the hidden discard pile (A and K discards, the cards not dealt): face down
    x = PIC_WIDTH - PIC_MARGIN - 110
    image.draw_label(picture, x, top + 5, "hidden discard", image.WHITE)
    _card_back(picture, x, top + 18, CARD_W, CARD_H)
    image.draw_label(
        picture, x + CARD_W + 8, top + 30, str(len(state.hidden_discard)), image.WHITE, 2
    )


def _pic_seat(picture: np.ndarray, state: State, s: int, seat: int | None) -> None:
    x0, y0 = PIC_MARGIN, PIC_SEAT_TOP + s * PIC_SEAT_H
    right = PIC_WIDTH - PIC_MARGIN
    you = " (you)" if s == seat else ""
    image.draw_seat_header(
        picture,
        (x0, y0, right - x0, PIC_SEAT_H - 6),
        (PIC_PANEL, PIC_SEAT_COLOURS[s], PIC_TEXT),
        f"P{s} {PIC_SEAT_NAMES[s]}{you}",
        s == state.current_player,
    )
    image.draw_label(picture, x0 + 38, y0 + 22, f"score {int(state.scores()[s])}", PIC_TEXT, 2)
    if state.is_terminal() and s in state.winners():
        image.fill_rect(picture, x0 + 140, y0 + 21, 50, 15, PIC_WINNER_GOLD)
        image.outline_rect(picture, x0 + 140, y0 + 21, 50, 15, PIC_TEXT)
        image.draw_label(picture, x0 + 147, y0 + 25, "winner", PIC_TEXT)
    rounds = " ".join(f"{r[s]:+d}" if r[s] < 0 else str(r[s]) for r in state.round_scores)
    image.draw_label(picture, x0 + 38, y0 + 42, f"rounds: {rounds or '-'}", PIC_TEXT)
    image.draw_label(
        picture, x0 + 38, y0 + 53, f"to shed {len(state.hands[s]) + len(state.piles[s])}", PIC_TEXT
    )
    # the own draw pile, face down, then the hand (face down where this view may not see it)
    x = x0 + HAND_LEFT - 60
    image.draw_label(picture, x, y0 + 4, "pile", PIC_TEXT)
    _card_back(picture, x, y0 + 14, CARD_W, CARD_H)
    image.draw_label(picture, x + CARD_W + 4, y0 + 28, str(len(state.piles[s])), PIC_TEXT)
    x = x0 + HAND_LEFT
    open_hand = seat is None or s == seat
    image.draw_label(picture, x, y0 + 4, f"hand ({len(state.hands[s])})", PIC_TEXT)
    hand: list[int | None] = list(state.hands[s]) if open_hand else [None] * len(state.hands[s])
    reveals = state.reveals[s]
    room = right - x - (150 if reveals else 10)
    end = _card_row(picture, x, y0 + 14, hand, CARD_W, CARD_H, room)
    if reveals:  # public: the cards it last showed
        x = max(end + 12, right - 146)
        image.draw_label(picture, x, y0 + 4, "last shown", PIC_TEXT)
        _card_row(picture, x, y0 + 16, list(reveals), SMALL_W, SMALL_H, right - 4 - x)


def _pic_key(picture: np.ndarray) -> None:
    y = PIC_KEY_TOP
    x = PIC_MARGIN
    _card_back(picture, x, y, 12, 16)
    image.draw_label(picture, x + 16, y + 5, "face down", image.WHITE)
    x += 90
    image.fill_rect(picture, x, y + 6, 12, 5, PIC_SEAT_COLOURS[0])
    image.draw_label(picture, x + 16, y + 5, "who played it", image.WHITE)
    x += 110
    image.draw_label(
        picture,
        x,
        y + 5,
        "a: discard one \u00b7 7: name 2-12 \u00b7 j: value +-1 \u00b7 k: next must play an a",
        image.WHITE,
    )
    image.draw_label(
        picture,
        PIC_MARGIN,
        y + 20,
        "normal cards go on a factor or a multiple of the value \u00b7 *: any card goes",
        image.WHITE,
    )


def render_rgb(state: State, seat: int | None = None) -> np.ndarray:
    """The table as ``uint8[PIC_HEIGHT, PIC_WIDTH, 3]`` (760 x 526 pixels for every player
    count): whose turn and which decision across the top, the value and the newest cards
    of the play pile (a strip under each card in the colour of who played it), then one
    block per seat (its colour and name, score, round scores, draw pile and hand, the cards
    it last showed) and a key.

    With ``seat`` None (what ``state.render_rgb()`` and the env's ``rgb_array`` mode draw)
    every hand is face up; with a seat, only what that seat may see: the other seats' hands
    face down (their sizes and the cards they last showed are public).
    """
    if seat is not None:
        seat = state._check_seat(seat)
    picture = image.canvas(PIC_WIDTH, PIC_HEIGHT, FELT)
    _pic_header(picture, state, seat)
    _pic_table(picture, state)
    for s in range(state.num_players):
        _pic_seat(picture, state, s, seat)
    _pic_key(picture)
    return picture


def save_png(state: State, path: str | Path, seat: int | None = None) -> Path:
    """Write :func:`render_rgb` of ``state`` as a PNG file; returns the path."""
    return image.save_png(render_rgb(state, seat), path)
