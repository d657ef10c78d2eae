"""Factors and Multiples as text a person can play from.

Cards are a rank and a suit (``10♦``, ``K♣``); :data:`LEGEND` says what every mark means and
is printed under the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from boardgame_envs.core import text
from boardgame_envs.factors_multiples.data import card_name

if TYPE_CHECKING:
    from boardgame_envs.factors_multiples.rules import State


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


def render_text(state: State, seat: int | None = None) -> str:
    """The table as text; hands other than ``seat``'s are hidden (all shown when None)."""
    n = state.num_players
    value = "*" if state.value is None else str(state.value)
    rounds = state.config["rounds"]
    if state.is_terminal():
        header = f"Factors and Multiples · match over · winners: {_seats(state.winners())}"
    else:
        header = (
            f"Factors and Multiples · round {state.round + 1}/{rounds} · value {value} · "
            f"{state.phase} · P{state.current_player} to decide"
        )
        if state.k_player is not None:
            header += f" · K by P{state.k_player} restricts P{state.turn_player}"
    lines = [header]
    recent = state.play_pile[-6:]
    played = ", ".join(f"{card_name(c)}(P{s})" for c, s in recent) or "-"
    more = "… " if len(state.play_pile) > len(recent) else ""
    lines.append(f"  play pile ({len(state.play_pile)}): {more}{played}")
    lines.append(f"  hidden discard: {len(state.hidden_discard)} cards")
    totals = state.scores()
    for s in range(n):
        you = " (you)" if s == seat else ""
        if seat is None or s == seat:
            hand = _cards(state.hands[s])
        else:
            hand = f"{len(state.hands[s])} cards, last shown: {_cards(state.reveals[s])}"
        marker = ">" if s == state.current_player else " "
        lines.append(
            f"{marker} P{s}{you}: score {int(totals[s])} · pile {len(state.piles[s])} · hand {hand}"
        )
    if state.round_scores:
        history = "; ".join(
            f"R{i + 1}: " + " ".join(str(x) for x in r) for i, r in enumerate(state.round_scores)
        )
        lines.append(f"  round scores: {history}")
    lines += legend_lines()
    return "\n".join(lines)


def _seats(seats: list[int]) -> str:
    return ", ".join(f"P{s}" for s in seats) or "-"
