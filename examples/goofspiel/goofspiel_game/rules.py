"""Goofspiel with hidden bids: the rules engine.

A game written outside boardgame-envs, against its rules contract
(:mod:`boardgame_envs.core.rules`), to show how a game of your own plugs in.

Rules in brief (2-4 players; option ``cards`` = N, 1 to 13, default 6):

* Every player holds the bid cards 1..N. The prize cards 1..N are shuffled into a face-down
  prize deck when the game is dealt.
* A round: the top prize card is turned face up; then each player in seat order (seat 0
  first) bids one card from their hand, face down. Nobody sees a bid of this round until
  every player has bid.
* Then all bids are revealed and discarded. The highest bid that no other player matched
  wins the prize: its value goes to that player's score. Equal bids cancel each other, so
  with bids 5, 5, 3 the 3 wins; when every bid is matched, nobody wins the prize.
* After N rounds every card has been bid. The highest score wins; equal highest scores
  share the win.

Hidden: the other players' bids of the current round, and the order of the prize deck.
Public: everything else, including each player's remaining cards (every earlier bid was
revealed).

Actions (one ``Discrete(13)`` space for every option value and player count):

=======  ================================  ======
index    meaning                           phase
=======  ================================  ======
0-12     BID the card ``index + 1``        BID
=======  ================================  ======

The only chance event is the shuffle of the prize deck, drawn from the seed when the game
is dealt; the state keeps the deck's order (face down), so ``apply`` is deterministic. The
last round's bids are forced (one card left each) and are still presented as decisions.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.core.rules import (
    InvalidConfigError,
    InvalidStateError,
    Option,
    PlayerView,
    is_integer,
)
from boardgame_envs.core.rules import Rules as BaseRules
from boardgame_envs.core.rules import State as BaseState

#: The largest ``cards`` option; the action space has one index per card value up to it.
MAX_CARDS = 13
NUM_ACTIONS = MAX_CARDS
MAX_PLAYERS = 4

# -- phases -------------------------------------------------------------------------------
BID = "BID"
GAME_OVER = "GAME_OVER"
PHASES = (BID,)


def is_card_count(value: Any) -> bool:
    """An allowed ``cards``: an int (not a bool) from 1 to MAX_CARDS."""
    return is_integer(value) and 1 <= value <= MAX_CARDS


def bid_action(card: int) -> int:
    """The action that bids ``card``."""
    return card - 1


def round_winner(bids: Sequence[int]) -> int | None:
    """The seat whose bid is the highest one that no other seat matched; None when every
    bid is matched by another."""
    counts = Counter(bids)
    unmatched = [bid for bid in bids if counts[bid] == 1]
    return bids.index(max(unmatched)) if unmatched else None


@dataclass(frozen=True)
class Round:
    """A finished round: its prize, every seat's bid (seat order) and who won (None: nobody)."""

    prize: int
    bids: tuple[int, ...]
    winner: int | None


class GoofspielRules(BaseRules):
    """Goofspiel with hidden bids, for 2-4 players."""

    name = "goofspiel"
    version = 0  # any change to observations, actions or rules bumps it (see the README)
    min_players = 2
    max_players = MAX_PLAYERS
    action_size = NUM_ACTIONS
    phases = PHASES
    encoding_module = "goofspiel_game.encoding"
    render_module = "goofspiel_game.render"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 1 / 21  # the prizes of the default game (1..6) add up to 21
    options = {
        "cards": Option(
            6,
            "bid cards per player and prize cards (1..N); the game lasts N rounds",
            is_card_count,
            f"an integer from 1 to {MAX_CARDS}",
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        return num_players * config["cards"]  # one bid per player per round, N rounds

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        cards = int(config["cards"])
        state = State(self, num_players, {**config, "cards": cards})
        rng = np.random.default_rng(seed)
        deck = [int(value) + 1 for value in rng.permutation(cards)]
        state.prize, state.prize_deck = deck[0], deck[1:]
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        """The state of a :meth:`State.to_dict` snapshot; :class:`InvalidStateError` naming
        the field when it is not a position play can continue from."""
        return _load(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A determinization of ``view``: the other seats' face-down bids of this round and
        the prize deck's order drawn from ``rng`` (see :mod:`.sample`)."""
        from goofspiel_game.sample import sample_state

        return sample_state(self, view, rng)


@dataclass(eq=False)
class View(PlayerView):
    """What ``seat`` knows. Seats are absolute here; the encoding makes them relative."""

    rules: GoofspielRules
    seat: int
    num_players: int
    cards: int  # the option: bid cards 1..cards, prizes 1..cards
    phase: str
    current_player: int  # -1 once the game is over
    prize: int  # face up now; 0 once the game is over
    prizes_left: tuple[int, ...]  # the face-down prize deck as a set (ascending), not its order
    hand: tuple[int, ...]  # own cards still to bid, ascending
    own_bid: int | None  # own face-down bid of this round
    unrevealed: tuple[tuple[int, ...], ...]  # per seat: its hand and face-down bid, ascending
    has_bid: tuple[bool, ...]  # per seat: bid this round (what, only for ``seat``)
    history: tuple[Round, ...]  # the finished rounds, oldest first
    scores: tuple[int, ...]
    mask: np.ndarray

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()


_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=bool)
_NO_ACTIONS.flags.writeable = False  # the mask of every seat not to decide (views share it)


class State(BaseState):
    """One position of a game of Goofspiel. Mutated in place by ``apply``."""

    def __init__(self, rules: GoofspielRules, num_players: int, config: dict[str, Any]) -> None:
        self.rules = rules
        self.num_players = num_players
        self.config = dict(config)
        cards = self.config["cards"]
        self.hands: list[list[int]] = [list(range(1, cards + 1)) for _ in range(num_players)]
        self.prize = 0  # the face-up prize; 0 once the game is over
        self.prize_deck: list[int] = []  # face down, top first
        self.bids: list[int | None] = [None] * num_players  # this round's, face down
        self.history: list[Round] = []  # finished rounds, oldest first

    # -- the contract -----------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return -1
        return self.bids.index(None)  # seat order: the first seat that has not bid

    def is_terminal(self) -> bool:
        return len(self.history) == self.config["cards"]

    def _phase_name(self) -> str:
        return GAME_OVER if self.is_terminal() else BID

    def _compute_mask(self) -> np.ndarray:
        mask = np.zeros(NUM_ACTIONS, dtype=bool)
        if not self.is_terminal():
            for card in self._legal_bids(self.current_player):
                mask[bid_action(card)] = True
        return mask

    def scores(self) -> list[float]:
        """Prize points won so far (higher is better)."""
        points = [0.0] * self.num_players
        for finished in self.history:
            if finished.winner is not None:
                points[finished.winner] += finished.prize
        return points

    def clone(self) -> State:
        other = copy.copy(self)
        other.config = dict(self.config)
        other.hands = [list(hand) for hand in self.hands]
        other.prize_deck = list(self.prize_deck)
        other.bids = list(self.bids)
        other.history = list(self.history)  # rounds are immutable
        return other

    def view(self, seat: int) -> View:
        seat = self._check_seat(seat)
        current = self.current_player
        unrevealed = tuple(
            tuple(sorted(hand + ([] if bid is None else [bid])))
            for hand, bid in zip(self.hands, self.bids)
        )
        return View(
            rules=self.rules,
            seat=seat,
            num_players=self.num_players,
            cards=self.config["cards"],
            phase=self._phase_name(),
            current_player=current,
            prize=self.prize,
            prizes_left=tuple(sorted(self.prize_deck)),
            hand=tuple(self.hands[seat]),
            own_bid=self.bids[seat],
            unrevealed=unrevealed,
            has_bid=tuple(bid is not None for bid in self.bids),
            history=tuple(self.history),
            scores=tuple(int(points) for points in self.scores()),
            mask=self._legal_mask() if seat == current else _NO_ACTIONS,
        )

    def describe_action(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"
        if self.is_terminal():
            return f"bid {action + 1}"
        return f"bid {action + 1} for prize {self.prize}"

    # -- legal moves ------------------------------------------------------------------------
    def _legal_bids(self, seat: int) -> list[int]:
        """Any card still in the bidder's hand."""
        return self.hands[seat]

    # -- transitions ------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        seat = self.current_player
        card = action + 1
        self.hands[seat].remove(card)
        self.bids[seat] = card
        if None not in self.bids:
            self._reveal()

    def _reveal(self) -> None:
        """Every seat has bid: reveal, award the prize, turn up the next one."""
        bids = tuple(int(bid) for bid in self.bids if bid is not None)
        self.history.append(Round(self.prize, bids, round_winner(bids)))
        self.bids = [None] * self.num_players
        if self.prize_deck:
            self.prize = self.prize_deck.pop(0)
        else:
            self.prize = 0

    # -- snapshots --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The snapshot: plain data, every list a copy (editing it leaves the state alone)."""
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "hands": [list(hand) for hand in self.hands],
            "prize": self.prize,
            "prize_deck": list(self.prize_deck),
            "bids": list(self.bids),
            "history": [
                {"prize": r.prize, "bids": list(r.bids), "winner": r.winner} for r in self.history
            ],
        }

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(map(str, hand)) for hand in self.hands)
        return (
            f"<Goofspiel round {len(self.history) + 1}/{self.config['cards']} "
            f"prize={self.prize} P{self.current_player} [{hands}]>"
        )


# -- loading a snapshot ----------------------------------------------------------------------
SNAPSHOT_FIELDS = (
    "game", "version", "num_players", "config", "hands", "prize", "prize_deck", "bids", "history"
)  # fmt: skip


def _fail(field: str, message: str) -> InvalidStateError:
    return InvalidStateError(f"invalid goofspiel snapshot: {field}: {message}")


def _int(value: Any, field: str, low: int, high: int) -> int:
    if not is_integer(value) or not low <= value <= high:
        raise _fail(field, f"is {value!r}, not an integer from {low} to {high}")
    return int(value)


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(field, f"is {value!r}, not a list")
    if length is not None and len(value) != length:
        raise _fail(field, f"has {len(value)} entries, not {length}")
    return value


def _load(rules: GoofspielRules, data: Any) -> State:
    """Read and check a snapshot: types, ranges, card conservation, round context."""
    if not isinstance(data, dict):
        raise InvalidStateError(f"invalid goofspiel snapshot: not an object but {data!r}")
    missing = [name for name in SNAPSHOT_FIELDS if name not in data]
    unknown = sorted(set(data) - set(SNAPSHOT_FIELDS))
    if missing or unknown:
        raise InvalidStateError(
            f"invalid goofspiel snapshot: missing fields {missing or 'none'}, "
            f"unknown fields {unknown or 'none'}"
        )
    if data["game"] != rules.name:
        raise _fail("game", f"is {data['game']!r}, not {rules.name!r}")
    if data["version"] != rules.version or not is_integer(data["version"]):
        raise _fail("version", f"is {data['version']!r}, not {rules.version}")
    n = _int(data["num_players"], "num_players", rules.min_players, rules.max_players)
    config = data["config"]
    if not isinstance(config, dict):
        raise _fail("config", f"is {config!r}, not an object")
    try:
        config = rules.make_config(config)
    except InvalidConfigError as error:
        raise _fail("config", str(error)) from None
    cards = config["cards"]
    every_card = list(range(1, cards + 1))

    history = []
    for i, entry in enumerate(_list(data["history"], "history")):
        where = f"history[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"prize", "bids", "winner"}:
            raise _fail(where, f"is {entry!r}, not an object with prize, bids and winner")
        prize = _int(entry["prize"], f"{where}.prize", 1, cards)
        bids = tuple(
            _int(bid, f"{where}.bids[{s}]", 1, cards)
            for s, bid in enumerate(_list(entry["bids"], f"{where}.bids", n))
        )
        winner = entry["winner"]
        if not (winner is None or is_integer(winner)) or winner != round_winner(bids):
            raise _fail(f"{where}.winner", f"is {winner!r}; those bids give {round_winner(bids)!r}")
        history.append(Round(prize, bids, None if winner is None else int(winner)))
    if len(history) > cards:
        raise _fail("history", f"has {len(history)} rounds; a game of {cards} cards has {cards}")
    over = len(history) == cards

    bids: list[int | None] = []
    for s, bid in enumerate(_list(data["bids"], "bids", n)):
        bids.append(None if bid is None else _int(bid, f"bids[{s}]", 1, cards))
    placed = [bid is not None for bid in bids]
    if placed != sorted(placed, reverse=True) or all(placed):
        raise _fail("bids", f"is {bids}; seats bid in seat order and the last bid reveals all")
    if over and any(placed):
        raise _fail("bids", f"is {bids}, but the game is over")

    prize = data["prize"]
    if over:
        if not (is_integer(prize) and prize == 0):
            raise _fail("prize", f"is {prize!r}, not 0 (the game is over)")
    else:
        prize = _int(prize, "prize", 1, cards)
    deck = [
        _int(value, f"prize_deck[{i}]", 1, cards)
        for i, value in enumerate(_list(data["prize_deck"], "prize_deck"))
    ]
    shown = [r.prize for r in history] + ([] if over else [prize])
    if sorted(shown + deck) != every_card:
        raise _fail(
            "prize_deck",
            f"the prizes played {shown} and the deck {deck} are not each of 1..{cards} once",
        )

    hands = []
    for s, hand in enumerate(_list(data["hands"], "hands", n)):
        hand = [
            _int(card, f"hands[{s}][{i}]", 1, cards)
            for i, card in enumerate(_list(hand, f"hands[{s}]"))
        ]
        spent = [r.bids[s] for r in history] + ([] if bids[s] is None else [bids[s]])
        if sorted(hand + spent) != every_card:
            raise _fail(
                f"hands[{s}]",
                f"{hand} with the seat's bids {spent} are not each of 1..{cards} once",
            )
        hands.append(sorted(hand))

    state = State(rules, n, config)
    state.hands = hands
    state.prize = int(prize)
    state.prize_deck = deck
    state.bids = bids
    state.history = history
    return state
