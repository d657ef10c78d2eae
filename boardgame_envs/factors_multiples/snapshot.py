"""Factors and Multiples snapshots: loading ``State.to_dict()`` data, and refusing the rest.

:func:`load` accepts a snapshot only if it is a position play can continue from, and raises
:class:`~boardgame_envs.core.rules.InvalidStateError` naming the first wrong field
otherwise. The checks, in order:

* **shape** — a dict with exactly the fields ``to_dict`` writes (``reveal_discard_marks``
  may be missing, as in snapshots written before it existed: 0 per seat, which counts every
  discard of the round as made after the seat's latest reveal), of this ``game`` and of this
  rules ``version``; ``config`` names every option, each with an allowed value;
* **types and ranges** — every number an ``int`` (a bool or a float such as ``8.7`` is
  refused, never rounded), every card id in 0..51, every seat in 0..n-1, every list of the
  right length (one per seat where there is one per seat);
* **conservation** — the 52 cards each in exactly one zone (hands, piles, play pile, hidden
  discard); each seat's own discards are in the hidden discard; a seat's latest reveal is
  still in its hand, played by it, or discarded by it since (the determinizer relies on it);
* **the match** — ``round`` below ``rounds``; one score list per completed round (the last
  one too once the match is over), each the spec's round score (§6.3: ``n - 6`` for the seat
  that went out, 1 to ``52 // n`` cards for every other seat), ``went_out`` alongside;
* **the phase context** (spec §4) — a live round: every hand holds a card (I4), at a turn's
  start every seat with a pile holds at least 3 cards (I1), a hand above 3 has been shown;
  ``k_player`` is set exactly in K_ANSWER and K_DISCARD, and is the seat before the turn
  player; the card a decision follows is on top of the play pile (the A of A_DISCARD and
  K_DISCARD, with the K under it in K_DISCARD, the 7 of SEVEN_NAME, the J of J_DIRECTION);
  J_DIRECTION has a determined value; the discarding seat holds at least 2 cards; the value
  is that of the top card when that card is a normal one, and determined once a normal card
  or a named 7 has been played this round. A finished match (GAME_OVER) is in its last
  round, has no turn player (-1) and no K player, and its last round's scores are those of
  the final table.

What is not checked is what play never reads back: the order of the play pile below its top
cards, which seat each earlier card came from, and whether the position is reachable from a
deal (hand-built positions from ``rules.position`` load too).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boardgame_envs.core.rules import InvalidConfigError, InvalidStateError, is_integer
from boardgame_envs.factors_multiples.data import (
    ACE,
    HAND_LIMIT,
    JACK,
    KING,
    NUM_CARDS,
    SEVEN,
    SPECIAL_RANKS,
    nominal,
    rank_of,
)
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    GAME_OVER,
    J_DIRECTION,
    K_ANSWER,
    K_DISCARD,
    PHASES,
    PLAY,
    SEVEN_NAME,
    State,
    going_out_score,
)

if TYPE_CHECKING:
    from boardgame_envs.factors_multiples.rules import FactorsMultiplesRules

#: The fields of a snapshot, in ``to_dict`` order.
FIELDS = (
    "game",
    "version",
    "num_players",
    "config",
    "seed",
    "round",
    "round_scores",
    "went_out",
    "hands",
    "piles",
    "play_pile",
    "hidden_discard",
    "own_discards",
    "value",
    "phase",
    "turn_player",
    "k_player",
    "start_player",
    "reveals",
    "reveal_marks",
    "reveal_discard_marks",
    "turns_started",
)
OPTIONAL_FIELDS = frozenset({"reveal_discard_marks"})

#: The card on top of the play pile (rank, played by the turn player) each decision follows.
_TOP_CARD = {A_DISCARD: ACE, SEVEN_NAME: SEVEN, J_DIRECTION: JACK, K_DISCARD: ACE}


def _fail(field: str, problem: str) -> InvalidStateError:
    return InvalidStateError(f"{field}: {problem}")


def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an int (not a bool, not a float) in ``low..high``."""
    if not is_integer(value):
        raise _fail(field, f"{value!r} is not an int")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{'' if low is None else low}..{'' if high is None else high}"
        raise _fail(field, f"{value!r} is out of range {bounds}")
    return int(value)


def _seat(value: Any, field: str, n: int, none: bool = False) -> int | None:
    if value is None and none:
        return None
    if not is_integer(value) or not 0 <= value < n:
        allowed = f"None or a seat 0..{n - 1}" if none else f"a seat 0..{n - 1}"
        raise _fail(field, f"{value!r} is not {allowed} ({n} players)")
    return int(value)


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise _fail(field, f"{value!r} is not a list")
    if length is not None and len(value) != length:
        raise _fail(field, f"has {len(value)} entries, not {length}")
    return list(value)


def _cards(value: Any, field: str) -> list[int]:
    cards = [_int(card, field, 0, NUM_CARDS - 1) for card in _list(value, field)]
    if len(set(cards)) != len(cards):
        raise _fail(field, f"a card appears twice in {cards}")
    return cards


def _per_seat(value: Any, field: str, n: int) -> list[Any]:
    return _list(value, field, n)


def load(rules: FactorsMultiplesRules, data: Any) -> State:
    """The :class:`State` of snapshot ``data``; ``InvalidStateError`` naming the field when
    it is not a position play can continue from (see the module docstring)."""
    name = rules.name
    if not isinstance(data, dict):
        raise InvalidStateError(f"not a {name} snapshot: a dict is due, not {type(data).__name__}")
    missing = [f for f in FIELDS if f not in data and f not in OPTIONAL_FIELDS]
    if missing:
        raise InvalidStateError(
            f"not a {name} snapshot: missing field {', '.join(map(repr, missing))}"
        )
    unknown = [key for key in data if key not in FIELDS]
    if unknown:
        raise InvalidStateError(
            f"not a {name} snapshot: unknown field {', '.join(map(repr, unknown))}; "
            f"known: {', '.join(FIELDS)}"
        )
    if not isinstance(data["game"], str) or data["game"] != name:
        raise _fail("game", f"the snapshot is of game {data['game']!r}, not {name!r}")
    version = _int(data["version"], "version")
    if version != rules.version:
        raise _fail(
            "version",
            f"the snapshot is of {name} version {version}; this is version {rules.version}",
        )
    n = data["num_players"]
    if not is_integer(n) or not rules.min_players <= n <= rules.max_players:
        raise _fail(
            "num_players", f"{n!r} is not allowed: {rules.min_players} to {rules.max_players}"
        )
    n = int(n)
    config = _config(rules, data["config"])
    state = State(rules, n, config, _int(data["seed"], "seed", 0))

    phase = data["phase"]
    if not isinstance(phase, str) or phase not in (*PHASES, GAME_OVER):
        raise _fail("phase", f"{phase!r} is not one of {', '.join((*PHASES, GAME_OVER))}")
    state.phase = phase
    over = phase == GAME_OVER
    rounds = config["rounds"]
    state.round = _int(data["round"], "round", 0, rounds - 1)
    if over and state.round != rounds - 1:
        raise _fail("round", f"a finished match of {rounds} rounds ends in round {rounds - 1}")
    _load_match(state, data, over)

    # The table: zones, then conservation.
    state.hands = [sorted(_cards(h, "hands")) for h in _per_seat(data["hands"], "hands", n)]
    state.piles = [_cards(p, "piles") for p in _per_seat(data["piles"], "piles", n)]
    state.play_pile = []
    for entry in _list(data["play_pile"], "play_pile"):
        card, seat = _list(entry, "play_pile entry", 2)
        state.play_pile.append(
            (_int(card, "play_pile", 0, NUM_CARDS - 1), _seat(seat, "play_pile seat", n))
        )
    state.hidden_discard = _cards(data["hidden_discard"], "hidden_discard")
    state.own_discards = [
        _cards(d, "own_discards") for d in _per_seat(data["own_discards"], "own_discards", n)
    ]
    state._check_cards()
    hidden = set(state.hidden_discard)
    discarded = [card for d in state.own_discards for card in d]
    if not set(discarded) <= hidden or len(set(discarded)) != len(discarded):
        raise _fail("own_discards", "each seat's discards must be distinct cards of hidden_discard")

    _load_reveals(state, data, n)

    value = data["value"]
    if value is not None and (not is_integer(value) or not 2 <= value <= 12):
        raise _fail("value", f"{value!r} is not None (undetermined) or an int from 2 to 12")
    state.value = None if value is None else int(value)
    state.start_player = _seat(data["start_player"], "start_player", n)
    if over:
        if not is_integer(data["turn_player"]) or data["turn_player"] != -1:
            raise _fail("turn_player", f"{data['turn_player']!r}: a finished match has -1")
        if data["k_player"] is not None:
            raise _fail("k_player", f"{data['k_player']!r}: a finished match has None")
        state.turn_player, state.k_player = -1, None
        _check_final_table(state)
    else:
        state.turn_player = _seat(data["turn_player"], "turn_player", n)
        state.k_player = _seat(data["k_player"], "k_player", n, none=True)
        _check_phase_context(state)
    return state


def _config(rules: FactorsMultiplesRules, config: Any) -> dict[str, Any]:
    if not isinstance(config, dict):
        raise _fail("config", f"{config!r} is not a dict of options")
    missing = sorted(set(rules.options) - set(config))
    if missing:
        raise _fail("config", f"missing option {', '.join(map(repr, missing))}")
    try:
        return rules.make_config(config)
    except InvalidConfigError as error:
        raise _fail("config", str(error)) from None


def _load_match(state: State, data: dict[str, Any], over: bool) -> None:
    """Completed rounds: one score list and one ``went_out`` per round (spec §6.3)."""
    n = state.num_players
    completed = state.round + over
    round_scores = _list(data["round_scores"], "round_scores", completed)
    went_out = _list(data["went_out"], "went_out", completed)
    most = 52 // n
    state.round_scores, state.went_out = [], []
    for index, (scores, out) in enumerate(zip(round_scores, went_out)):
        out = _seat(out, "went_out", n, none=True)
        row = []
        for seat, score in enumerate(_list(scores, "round_scores", n)):
            field = f"round_scores[{index}][{seat}]"
            if seat == out:
                row.append(_int(score, field, going_out_score(n), going_out_score(n)))
            else:  # the cards left; everyone still holds one (I4)
                row.append(_int(score, field, 1, most))
        state.round_scores.append(row)
        state.went_out.append(out)


def _load_reveals(state: State, data: dict[str, Any], n: int) -> None:
    """Each seat's latest reveal and the turn and discard counts that date it."""
    state.turns_started = [
        _int(t, "turns_started", 0) for t in _per_seat(data["turns_started"], "turns_started", n)
    ]
    state.reveal_marks = [
        _int(mark, "reveal_marks", 0, started)
        for mark, started in zip(
            _per_seat(data["reveal_marks"], "reveal_marks", n), state.turns_started
        )
    ]
    marks = data.get("reveal_discard_marks", [0] * n)
    if not isinstance(marks, (list, tuple)) or len(marks) != n:
        raise _fail("reveal_discard_marks", f"{marks!r}: one per seat is due")
    state.reveal_discard_marks = [
        _int(mark, "reveal_discard_marks", 0, len(discards))
        for mark, discards in zip(marks, state.own_discards)
    ]
    reveals = _per_seat(data["reveals"], "reveals", n)
    state.reveals = []
    for seat, shown in enumerate(reveals):
        cards = _cards(shown, "reveals")
        mark = state.reveal_discard_marks[seat]
        whereabouts = {*state.hands[seat], *state.own_discards[seat][mark:]}
        whereabouts |= {card for card, s in state.play_pile if s == seat}
        lost = [card for card in cards if card not in whereabouts]
        if lost:
            raise _fail(
                "reveals",
                f"seat {seat} showed cards {lost} that are neither in its hand, nor played by "
                "it, nor discarded by it since",
            )
        state.reveals.append(cards)


def _check_final_table(state: State) -> None:
    """The last round's scores are those of the final table (spec §6.3)."""
    out = state.went_out[-1]
    for seat in range(state.num_players):
        total = state.total(seat)
        score = going_out_score(state.num_players) if seat == out else total
        if (seat == out and total) or state.round_scores[-1][seat] != score:
            raise _fail(
                "round_scores",
                f"seat {seat} holds {total} cards at the end but scores "
                f"{state.round_scores[-1][seat]} in the last round",
            )


def _check_phase_context(state: State) -> None:
    """What the current decision needs is set and consistent; what it forbids is not."""
    n, phase, turn, k = state.num_players, state.phase, state.turn_player, state.k_player
    for seat in range(n):
        hand = state.hands[seat]
        if not hand:
            raise _fail("hands", f"seat {seat} holds no card in a live round (I4)")
        if phase in (PLAY, K_ANSWER) and state.piles[seat] and len(hand) < HAND_LIMIT:
            raise _fail(
                "hands", f"seat {seat} holds {len(hand)} cards with a pile at a turn's start (I1)"
            )
        if len(hand) > HAND_LIMIT and not state.reveals[seat]:
            raise _fail("reveals", f"seat {seat} holds {len(hand)} cards but never showed")
    if state.turns_started[turn] < 1:
        raise _fail("turns_started", f"the turn player {turn} has begun no turn")
    if phase in (K_ANSWER, K_DISCARD):
        if k != (turn - 1) % n:
            raise _fail(
                "k_player", f"{k!r} in {phase}: the K player is the seat before turn_player {turn}"
            )
    elif k is not None:
        raise _fail("k_player", f"{k!r} in {phase}: only K_ANSWER and K_DISCARD have a K player")

    pile = state.play_pile
    if phase in _TOP_CARD:
        rank = _TOP_CARD[phase]
        if not pile or rank_of(pile[-1][0]) != rank or pile[-1][1] != turn:
            raise _fail("play_pile", f"{phase} follows a card of rank index {rank} by seat {turn}")
    if phase == K_DISCARD and (len(pile) < 2 or rank_of(pile[-2][0]) != KING or pile[-2][1] != k):
        raise _fail("play_pile", f"K_DISCARD follows a K by the K player {k} under the A")
    discarding = {A_DISCARD: turn, K_DISCARD: k}.get(phase)
    if discarding is not None and len(state.hands[discarding]) < 2:
        raise _fail("hands", f"{phase}: seat {discarding} would discard its last card (R8)")

    value = state.value
    if phase == J_DIRECTION and value is None:
        raise _fail("value", "J_DIRECTION needs a determined value (a J on * has no choice)")
    if pile and rank_of(pile[-1][0]) not in SPECIAL_RANKS:
        if value != nominal(rank_of(pile[-1][0])):
            raise _fail("value", f"{value!r}, but the last card played is a normal card")
    sevens = sum(rank_of(card) == SEVEN for card, _ in pile) - (phase == SEVEN_NAME)
    normal = any(rank_of(card) not in SPECIAL_RANKS for card, _ in pile)
    if value is None and (normal or sevens > 0):
        raise _fail("value", "undetermined after a normal card or a named 7 this round")
