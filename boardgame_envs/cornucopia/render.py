"""Cornucopia as text a person can play from.

``render_text(state, seat)`` shows the table from ``seat``'s point of view: another seat's
bet shows only as "committed" until REVEAL. With ``seat=None`` everything is shown except
the deck order (which nobody ever sees). :data:`LEGEND` (printed under the table) says what
every letter and mark means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgame_envs.core import text
from boardgame_envs.cornucopia.data import (
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
    basket_status,
    fitting_types,
)

if TYPE_CHECKING:
    from boardgame_envs.cornucopia.rules import State


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


def render_text(state: State, seat: int | None = None) -> str:
    """The table as text; other seats' secret bets hidden from ``seat`` (None: all shown)."""
    n = state.num_players
    exhausted = f" · deck run out {state.exhaustions}×" if state.exhaustions else ""
    if state.end_pending and not state.is_terminal():
        exhausted += " (last turn)"
    if state.phase == GAME_OVER:
        header = (
            f"Cornucopia · game over ({state.end_reason}) after {state.turn} turns · "
            f"winners: {', '.join(f'P{s}' for s in state.winners())}"
        )
    else:
        header = (
            f"Cornucopia · turn {state.turn} · P{state.turn_player}'s turn · {state.phase} · "
            f"P{state.current_player} to decide"
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
    lines += legend_lines()
    return "\n".join(lines)
