"""Builders for Factors and Multiples positions written the way the spec writes them, on
either engine: the Python one (``RULES``, the reference, whose fields tests may edit) or the
compiled one (``rules_for("native")``; positions are built on the reference, then loaded)."""

from __future__ import annotations

import pytest

from boardgame_envs import make_rules
from boardgame_envs.core.native import native_games
from boardgame_envs.factors_multiples.data import NUM_CARDS, SPECIAL_RANKS, parse_cards, rank_of
from boardgame_envs.factors_multiples.rules import State

RULES = make_rules("factors_multiples", engine="python")
HAS_NATIVE = "factors_multiples" in native_games()
#: The ``engine`` fixture's values (tests/factors_multiples/conftest.py): native runs where
#: the compiled engine is built.
ENGINES = (
    "python",
    pytest.param(
        "native",
        marks=[
            pytest.mark.native,
            pytest.mark.skipif(not HAS_NATIVE, reason="factors_multiples is not compiled"),
        ],
    ),
)


def rules_for(engine: str):
    """The Rules of ``engine`` ("python" or "native")."""
    return RULES if engine == "python" else make_rules("factors_multiples", engine=engine)


def table(
    n: int,
    hands: dict[int, str],
    piles: dict[int, str | tuple[str, int]] | None = None,
    value: int | None = None,
    turn: int = 0,
    k_player: int | None = None,
    engine: str = "python",
    **options,
) -> State:
    """A position: ``hands`` {seat: "K♠ 4♦"}, ``piles`` {seat: ("2♥ 6♣", size)} (top first,
    padded to ``size`` with unmentioned cards) or {seat: "2♥"} (exactly those cards).

    Seats without a hand hold 3 unmentioned cards; seats without a pile hold 5 cards.
    Every other card lies in the hidden discard pile. On ``engine="native"`` the position is
    the compiled engine's copy of the reference's (``rules.position`` of either engine).
    """
    piles = piles or {}
    named = {
        card
        for text in list(hands.values())
        + [p if isinstance(p, str) else p[0] for p in piles.values()]
        for card in parse_cards(text)
    }
    # Fillers: unmentioned cards, normal ones first (from Q down), so that fillers in hands
    # never interfere with the A and K rules an example is about.
    unnamed = [c for c in reversed(range(NUM_CARDS)) if c not in named]
    filler = iter(sorted(unnamed, key=lambda c: rank_of(c) in SPECIAL_RANKS))
    hand_lists = [
        parse_cards(hands[s]) if s in hands else [next(filler) for _ in range(3)] for s in range(n)
    ]
    pile_lists = []
    for seat in range(n):
        spec = piles.get(seat, ("", 5))
        top, size = (spec, len(parse_cards(spec))) if isinstance(spec, str) else spec
        cards = parse_cards(top)
        pile_lists.append(cards + [next(filler) for _ in range(size - len(cards))])
    return rules_for(engine).position(
        hand_lists, pile_lists, value=value, turn_player=turn, k_player=k_player, **options
    )


def cards(text: str) -> list[int]:
    """Sorted card ids, to compare with a hand."""
    return sorted(parse_cards(text))


def set_turn(state: State, seat: int, value: int | None) -> None:
    """Jump to ``seat``'s turn with ``value`` (what the other players did in between). A
    native state is edited through its snapshot, loaded back as a hand-built position."""
    if state.engine == "native":  # the same edit, on its snapshot (State._begin_turn)
        data = state.to_dict()
        data["value"] = value
        data["turn_player"] = seat
        data["turns_started"][seat] += 1
        data["phase"] = "PLAY" if data["k_player"] is None else "K_ANSWER"
        state._native = state.rules.native_class.from_dict(data, strict=False)
        state._mask = None
        return
    state.value = value
    state._begin_turn(seat)
