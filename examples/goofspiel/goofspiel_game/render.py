"""Goofspiel as text a person can play from, and as an RGB picture.

Both take a ``seat``: from that seat's point of view the other seats' bids of this round are
face down and the prize deck's order is hidden; with ``seat=None`` (a spectator) everything
is shown. :data:`LEGEND` says what the marks mean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgame_envs.core import image, text

if TYPE_CHECKING:
    from goofspiel_game.rules import State

#: What each mark of the text table means, as (marks, meaning); printed under the table.
LEGEND: tuple[tuple[str, str], ...] = (
    ("1-13", "bid cards and prize values"),
    (">", "the seat to bid"),
    ("face down", "a bid of this round, not yet revealed"),
    ("wins", "the highest bid no other seat matched takes the prize"),
)


def legend_lines(width: int = 96) -> list[str]:
    """:data:`LEGEND` as text lines under the table."""
    return text.legend_lines(LEGEND, width)


def _cards(cards) -> str:
    return " ".join(map(str, cards)) or "-"


def _seats(seats) -> str:
    return ", ".join(f"P{s}" for s in seats) or "nobody"


def render_text(state: State, seat: int | None = None, legend: bool = True) -> str:
    """The table as text; bids of this round other than ``seat``'s are face down (all shown
    when None). ``legend=False`` leaves out the key to the marks (:func:`legend_lines`)."""
    cards = state.config["cards"]
    if state.is_terminal():
        lines = [f"Goofspiel · game over · winners: {_seats(state.winners())}"]
    else:
        down = len(state.prize_deck)
        lines = [
            f"Goofspiel · round {len(state.history) + 1}/{cards} · prize {state.prize} face up "
            f"· {down} {'prize' if down == 1 else 'prizes'} face down · "
            f"P{state.current_player} to bid"
        ]
    if seat is None and state.prize_deck:
        lines.append(f"  prize deck (top first): {_cards(state.prize_deck)}")
    scores = state.scores()
    for s in range(state.num_players):
        marker = ">" if s == state.current_player else " "
        you = " (you)" if s == seat else ""
        bid = state.bids[s]
        if bid is None:
            bid_text = "" if state.is_terminal() else " · not bid yet"
            hand = _cards(state.hands[s])
        elif seat is None or s == seat:
            bid_text, hand = f" · bid {bid}", _cards(state.hands[s])
        else:  # its bid is one of the cards it had: which one is hidden
            bid_text, hand = " · bid face down", _cards(sorted([*state.hands[s], bid]))
        lines.append(f"{marker} P{s}{you}: score {int(scores[s])} · cards {hand}{bid_text}")
    if state.history:
        last = state.history[-1]
        won = "nobody wins it" if last.winner is None else f"P{last.winner} wins {last.prize}"
        bids = ", ".join(f"P{s} {bid}" for s, bid in enumerate(last.bids))
        lines.append(f"  last round: prize {last.prize} · bids {bids} → {won}")
    if legend:
        lines.extend(legend_lines())
    return "\n".join(lines)


# -- the picture ------------------------------------------------------------------------------
SEAT_COLOURS = ((200, 60, 60), (60, 110, 200), (50, 150, 80), (210, 150, 30))
PANEL = (235, 235, 228)
CARD = (255, 255, 255)
BACK = (120, 120, 150)
BID_FACE = (255, 230, 120)
CARD_W, CARD_H, GAP = 24, 30, 4
ROW_H = 44
WIDTH = 200 + 14 * (CARD_W + GAP)
TOP = 44


def _card(picture: np.ndarray, x: int, y: int, value: int | None, face: tuple) -> None:
    """One card at (x, y): its value on ``face``, or its back when ``value`` is None."""
    image.fill_rect(picture, x, y, CARD_W, CARD_H, BACK if value is None else face)
    image.outline_rect(picture, x, y, CARD_W, CARD_H, image.BLACK)
    if value is not None:
        label = str(value)
        width = image.label_size(label)[0]
        image.draw_label(picture, x + (CARD_W - width) // 2, y + 11, label)


def render_rgb(state: State, seat: int | None = None) -> np.ndarray:
    """``uint8[H, W, 3]``: a header with the round and the face-up prize, then one row per
    seat (its colour, score and cards; a bid of this round in yellow, face down where
    ``seat`` may not see it)."""
    n = state.num_players
    picture = image.canvas(WIDTH, TOP + n * ROW_H + 8)
    if state.is_terminal():
        header = f"GAME OVER  WINNERS {_seats(state.winners())}"
    else:
        header = f"ROUND {len(state.history) + 1}/{state.config['cards']}  PRIZE"
        _card(picture, 16 + image.label_size(header, 2)[0] + 10, 6, state.prize, BID_FACE)
    image.draw_label(picture, 10, 14, header, image.BLACK, 2)
    scores = state.scores()
    for s in range(n):
        y = TOP + s * ROW_H
        image.fill_rect(picture, 4, y, WIDTH - 8, ROW_H - 4, PANEL)
        image.fill_rect(picture, 4, y, 8, ROW_H - 4, SEAT_COLOURS[s])
        if s == state.current_player:
            image.fill_polygon(picture, [(16, y + 10), (26, y + 20), (16, y + 30)], image.BLACK)
        you = " YOU" if s == seat else ""
        image.draw_label(picture, 32, y + 14, f"P{s}{you} {int(scores[s])}", image.BLACK, 2)
        bid = state.bids[s]
        hidden = bid is not None and seat is not None and s != seat
        # a hidden bid is one of the cards the seat had: show them all, and a card back
        cards = sorted([*state.hands[s], bid]) if hidden else state.hands[s]
        x = 200
        for card in cards:
            _card(picture, x, y + 5, card, CARD)
            x += CARD_W + GAP
        if bid is not None:
            _card(picture, x + GAP, y + 5, None if hidden else bid, BID_FACE)
    return picture
