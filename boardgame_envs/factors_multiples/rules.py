"""Factors and Multiples (因數與倍數): the rules engine.

A shedding game for one 52-card deck and 2-5 players, specified in
``shared/rules/factors_multiples.md`` (the "spec"; section numbers below refer to it).
A match of ``rounds`` rounds (default 3) is one game; the lowest total wins.

Actions (one ``Discrete(40)`` space, spec §11.2; rank index ``k``: A=0, 2=1 … K=12):

=======  ==============================================================  ===============
index    meaning                                                          phases
=======  ==============================================================  ===============
0-12     PLAY one card of rank ``k = index`` (its lowest suit)            PLAY, K_ANSWER
13       SHOW_AND_DRAW; DECLINE the K discard (``k_discard_optional``)    PLAY, K_ANSWER,
                                                                          K_DISCARD
14-26    DISCARD one card of rank ``k = index - 14`` (its lowest suit)    A_DISCARD,
                                                                          K_DISCARD
27-37    NAME value ``index - 25`` (2 … 12)                               SEVEN_NAME
38       J_DOWN (-1; 2 wraps to 12)                                       J_DIRECTION
39       J_UP (+1; 12 wraps to 2)                                         J_DIRECTION
=======  ==============================================================  ===============

Every decision the spec defines is presented, even a forced one (a single legal action);
chance (shuffles, draws, the start-player draw) happens inside ``apply``.
"""

from __future__ import annotations

import copy
import importlib
from dataclasses import dataclass
from operator import sub
from typing import Any

import numpy as np

from boardgame_envs.core.rules import (
    InvalidStateError,
    Option,
    PlayerView,
    is_integer,
    is_positive_int,
)
from boardgame_envs.core.rules import Rules as BaseRules
from boardgame_envs.core.rules import State as BaseState
from boardgame_envs.factors_multiples.data import (
    ACE,
    HAND_LIMIT,
    JACK,
    NUM_CARDS,
    NUM_RANKS,
    NUM_SUITS,
    RANK_NAMES,
    SEVEN,
    SPECIAL_RANKS,
    card_name,
    follows,
    j_step,
    nominal,
    rank_of,
    strength,
)

# -- action indices ---------------------------------------------------------------------
#: The snapshot loader (it imports this module, so it is found by name).
SNAPSHOT_MODULE = "boardgame_envs.factors_multiples.snapshot"

PLAY_BASE = 0
SHOW_AND_DRAW = 13
DECLINE = 13  # the same index, in K_DISCARD under ``k_discard_optional``
DISCARD_BASE = 14
NAME_BASE = 27
J_DOWN = 38
J_UP = 39
NUM_ACTIONS = 40


def name_action(value: int) -> int:
    return NAME_BASE + value - 2


# -- phases (decision types, spec §4.2) -------------------------------------------------
PLAY = "PLAY"
K_ANSWER = "K_ANSWER"
A_DISCARD = "A_DISCARD"
SEVEN_NAME = "SEVEN_NAME"
J_DIRECTION = "J_DIRECTION"
K_DISCARD = "K_DISCARD"
GAME_OVER = "GAME_OVER"
PHASES = (PLAY, K_ANSWER, A_DISCARD, SEVEN_NAME, J_DIRECTION, K_DISCARD)

#: Decisions one round can take at most (spec §6.5), by player count.
MAX_DECISIONS_PER_ROUND = {2: 210, 3: 289, 4: 372, 5: 421}
#: The ``rounds`` option's range (the spec sets no maximum; see the game's docs): a match of
#: 100 rounds is at most 42,100 decisions.
MAX_ROUNDS = 100


def is_round_count(value: Any) -> bool:
    """An allowed ``rounds``: an int (not a bool) from 1 to MAX_ROUNDS."""
    return is_positive_int(value) and value <= MAX_ROUNDS


def match_seed(seed: int | None) -> int:
    """The match seed the state keeps: ``seed``, or a fresh one when it is None."""
    return int(np.random.default_rng().integers(2**63)) if seed is None else int(seed)


def round_seed(seed: int, round_index: int) -> int:
    """The seed of round ``round_index`` (0-based): the ``round_index``-th draw of the match
    seed's generator. Derived when the round is dealt, so that nothing is kept per round;
    the state holds plain data, no generator."""
    return int(np.random.default_rng(seed).integers(2**63, size=round_index + 1)[-1])


def going_out_score(num_players: int) -> int:
    """The round score of the player who went out: n - 6 (spec §6.3)."""
    return num_players - 6


class FactorsMultiplesRules(BaseRules):
    """Factors and Multiples for 2-5 players."""

    name = "factors_multiples"
    version = 1  # the history: docs/games/factors_multiples.md
    min_players = 2
    max_players = 5
    action_size = NUM_ACTIONS
    phases = PHASES
    encoding_module = "boardgame_envs.factors_multiples.encoding"
    render_module = "boardgame_envs.factors_multiples.render"
    sample_module = "boardgame_envs.factors_multiples.sample"
    render_modes = ("ansi", "human", "rgb_array")
    lower_score_wins = True
    score_reward_scale = 1 / 52  # spec §11.5
    options = {
        "rounds": Option(
            3,
            "rounds in a match (the match is one episode)",
            is_round_count,
            f"an integer from 1 to {MAX_ROUNDS}",
        ),
        "start_draw": Option(
            "top", "start-player card: top of the pile or a random one (§8.1)", ("top", "random")
        ),
        "a_needs_discard": Option(
            False, "an A needs total >= 3 to be played (§8.2, R8)", (False, True)
        ),
        "k_discard_optional": Option(
            False, "the K player may decline the discard (§8.2, R9)", (False, True)
        ),
        "choose_after_refill": Option(
            False, "name the 7 / choose the J after the refill (§8.2, R7)", (False, True)
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        return MAX_DECISIONS_PER_ROUND[num_players] * config["rounds"]

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        state = State(self, num_players, config, match_seed(seed))
        state._start_round()
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        """The state of a :meth:`State.to_dict` snapshot, validated (see :mod:`.snapshot`);
        :class:`InvalidStateError` naming the field when it is not a position play can
        continue from."""
        return State.from_dict(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A determinization of ``view``: the other seats' unseen hand cards and discards,
        every draw pile's order, the hidden leftovers and later rounds' seeds drawn from
        ``rng`` (see :mod:`.sample`)."""
        return self.sampler(self, view, rng)

    def position(
        self,
        hands: list[list[int]],
        piles: list[list[int]],
        value: int | None = None,
        turn_player: int = 0,
        k_player: int | None = None,
        seed: int = 0,
        **options: Any,
    ) -> State:
        """A mid-round position for tests and notebooks.

        Cards in no hand or pile go to the hidden discard pile; ``k_player`` puts the turn
        player under that seat's K restriction (it must be the seat before the turn player).
        """
        num_players = self.check_num_players(len(hands))
        config = self.make_config(options)
        if len(piles) != num_players:
            raise InvalidStateError(f"piles: {len(piles)} piles for {num_players} hands")
        if not is_integer(turn_player) or not 0 <= turn_player < num_players:
            raise InvalidStateError(
                f"turn_player: {turn_player!r} is not a seat (0 to {num_players - 1})"
            )
        if k_player is not None and k_player != (turn_player - 1) % num_players:
            raise InvalidStateError(
                f"k_player: {k_player!r} is not the seat before turn_player {turn_player}"
            )
        if value is not None and (not is_integer(value) or not 2 <= value <= 12):
            raise InvalidStateError(f"value: {value!r} is not None or an int from 2 to 12")
        if not is_integer(seed) or seed < 0:
            raise InvalidStateError(f"seed: {seed!r} is not an int >= 0")
        state = State(self, num_players, config, int(seed))
        state.hands = [sorted(hand) for hand in hands]
        state.piles = [list(pile) for pile in piles]
        used = {card for zone in state.hands + state.piles for card in zone}
        state.hidden_discard = [card for card in range(NUM_CARDS) if card not in used]
        state.value = value
        state.k_player = k_player
        state.reveals = [[] for _ in range(num_players)]
        state._begin_turn(turn_player)
        state._check_cards()
        return state


@dataclass(eq=False, slots=True)  # slots: one is built every env step, at less cost
class View(PlayerView):
    """What ``seat`` knows (spec §7). Seats are absolute here; encoding makes them relative."""

    rules: FactorsMultiplesRules
    seat: int
    num_players: int
    rounds: int
    round: int
    phase: str
    current_player: int
    turn_player: int  # -1 once the match is over, like current_player
    k_player: int | None
    value: int | None
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    play_pile: tuple[tuple[int, int], ...]  # (card, seat), oldest first
    own_discards: tuple[int, ...]
    hidden_discard_size: int
    reveals: tuple[tuple[int, ...], ...]  # per seat, the cards it last showed this round
    reveal_ages: tuple[int, ...]  # per seat, its turns started since that reveal
    match_totals: tuple[int, ...]
    mask: np.ndarray
    # Public facts the observation does not encode; they let ``sample_state`` rebuild the
    # whole position from the view (everything but unseen cards and later rounds' seeds).
    options: tuple[tuple[str, Any], ...]  # the match config, (name, value) pairs
    start_player: int  # of this round
    round_scores: tuple[tuple[int, ...], ...]  # per completed round, per seat
    went_out: tuple[int | None, ...]  # per completed round: who went out (None: blocked)
    turns_started: tuple[int, ...]  # per seat, its turns begun this round
    discard_counts: tuple[int, ...]  # per seat, cards it discarded (A / K) this round
    reveal_discards: tuple[int, ...]  # per seat, of those, the ones after its latest reveal

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()

    @property
    def total(self) -> int:
        """Cards this seat still has to shed: hand + own pile."""
        return len(self.hand) + self.pile_sizes[self.seat]


def _names(cards: list[int]) -> str:
    return " ".join(card_name(c) if 0 <= c < NUM_CARDS else repr(c) for c in cards) or "-"


_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=bool)
_NO_ACTIONS.flags.writeable = False  # the mask of every seat not to decide (views share it)


class State(BaseState):
    """One position of a Factors and Multiples match. Mutated in place by ``apply``."""

    def __init__(
        self,
        rules: FactorsMultiplesRules,
        num_players: int,
        config: dict[str, Any],
        seed: int,
    ) -> None:
        self.rules = rules
        self.num_players = num_players
        self.config = dict(config)
        self.seed = seed  # the match seed: each round's shuffle comes from round_seed()
        n = num_players
        self.round = 0
        self.round_scores: list[list[int]] = []  # one list per completed round
        self.went_out: list[int | None] = []  # per completed round; None when blocked
        self.hands: list[list[int]] = [[] for _ in range(n)]  # sorted card ids
        self.piles: list[list[int]] = [[] for _ in range(n)]  # top card first
        self.play_pile: list[tuple[int, int]] = []  # (card, seat), oldest first
        self.hidden_discard: list[int] = []
        self.own_discards: list[list[int]] = [[] for _ in range(n)]
        self.value: int | None = None
        self.phase = PLAY
        self.turn_player = 0  # -1 once the match is over
        self.k_player: int | None = None  # the K player while a K restriction is pending
        self.start_player = 0
        self.reveals: list[list[int]] = [[] for _ in range(n)]
        self.reveal_marks = [0] * n
        # Per seat, its discard count at its latest reveal: a revealed card it no longer
        # holds and did not play can only be among the discards made after the reveal.
        self.reveal_discard_marks = [0] * n
        self.turns_started = [0] * n

    # -- the contract ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == GAME_OVER:
            return -1
        if self.phase == K_DISCARD:
            assert self.k_player is not None
            return self.k_player
        return self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _phase_name(self) -> str:
        return self.phase

    def _compute_mask(self) -> np.ndarray:
        # Written into bytes, then seen as bools: cheaper than numpy fancy indexing for the
        # few legal actions of a position (one mask is computed every env step).
        mask = bytearray(NUM_ACTIONS)
        phase = self.phase
        if phase == PLAY:
            ranks = self._legal_plays(self.turn_player)
            for k in ranks:
                mask[PLAY_BASE + k] = 1
            if not ranks:
                mask[SHOW_AND_DRAW] = 1
        elif phase == K_ANSWER:
            can_answer = self._can_answer_king(self.turn_player)
            mask[PLAY_BASE + ACE if can_answer else SHOW_AND_DRAW] = 1
        elif phase == A_DISCARD:
            for action in self._legal_discards(self.turn_player):
                mask[action] = 1
        elif phase == K_DISCARD:
            assert self.k_player is not None
            for action in self._legal_discards(self.k_player):
                mask[action] = 1
            mask[DECLINE] = self.config["k_discard_optional"]
        elif phase == SEVEN_NAME:
            mask[NAME_BASE : NAME_BASE + 11] = b"\x01" * 11
        elif phase == J_DIRECTION:
            mask[J_DOWN] = mask[J_UP] = 1
        return np.frombuffer(mask, np.bool_)

    def scores(self) -> list[float]:
        """Match totals over the completed rounds (lower is better)."""
        return [float(sum(r[seat] for r in self.round_scores)) for seat in range(self.num_players)]

    def clone(self) -> State:
        other = copy.copy(self)
        other.config = dict(self.config)
        other.round_scores = [list(r) for r in self.round_scores]
        other.went_out = list(self.went_out)
        other.hands = [list(h) for h in self.hands]
        other.piles = [list(p) for p in self.piles]
        other.play_pile = list(self.play_pile)
        other.hidden_discard = list(self.hidden_discard)
        other.own_discards = [list(d) for d in self.own_discards]
        other.reveals = [list(r) for r in self.reveals]
        other.reveal_marks = list(self.reveal_marks)
        other.reveal_discard_marks = list(self.reveal_discard_marks)
        other.turns_started = list(self.turns_started)
        return other

    def view(self, seat: int) -> View:
        if type(seat) is not int or not 0 <= seat < self.num_players:  # else: checked
            seat = self._check_seat(seat)
        current = self.current_player
        mask = self._legal_mask() if seat == current else _NO_ACTIONS
        own_discards = self.own_discards
        discard_counts = tuple(map(len, own_discards))
        round_scores = self.round_scores
        # positional, in the field order of View (cheaper than keywords; a view is built
        # every env step); tuple(map(...)) rather than generators, for the same reason
        return View(
            self.rules,
            seat,
            self.num_players,
            self.config["rounds"],
            self.round,
            self.phase,
            current,
            self.turn_player,
            self.k_player,
            self.value,
            tuple(self.hands[seat]),
            tuple(map(len, self.hands)),
            tuple(map(len, self.piles)),
            tuple(self.play_pile),
            tuple(own_discards[seat]),
            len(self.hidden_discard),
            tuple(map(tuple, self.reveals)),
            tuple(map(sub, self.turns_started, self.reveal_marks)),
            # the match totals (``scores()`` as ints)
            tuple(map(int, map(sum, zip(*round_scores))))
            if round_scores
            else (0,) * self.num_players,
            mask,
            tuple(self.config.items()),
            self.start_player,
            tuple(map(tuple, round_scores)),
            tuple(self.went_out),
            tuple(self.turns_started),
            discard_counts,
            tuple(map(sub, discard_counts, self.reveal_discard_marks)),
        )

    def describe_action(self, action: int) -> str:
        if action == SHOW_AND_DRAW:
            return "decline the discard" if self.phase == K_DISCARD else "show hand and draw"
        if PLAY_BASE <= action < PLAY_BASE + NUM_RANKS:
            return f"play {RANK_NAMES[action - PLAY_BASE]}"
        if DISCARD_BASE <= action < DISCARD_BASE + NUM_RANKS:
            return f"discard {RANK_NAMES[action - DISCARD_BASE]}"
        if NAME_BASE <= action < J_DOWN:
            return f"name {action - NAME_BASE + 2}"
        if action in (J_DOWN, J_UP):
            direction = -1 if action == J_DOWN else +1
            word = "down" if action == J_DOWN else "up"
            if self.phase == J_DIRECTION and self.value is not None:
                return f"J {word} ({self.value} → {j_step(self.value, direction)})"
            return f"J {word}"
        return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"

    # -- legal-move generation, one function per decision type ----------------------------
    def total(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.piles[seat])

    def _legal_plays(self, seat: int) -> list[int]:
        """The plain legal set L(seat) as rank indices, ascending (spec §4.1)."""
        total = self.total(seat)
        ranks = sorted({card // NUM_SUITS for card in self.hands[seat]})  # rank_of, inlined
        legal = []
        for rank in ranks:
            if rank in SPECIAL_RANKS:
                needed = 3 if rank == ACE and self.config["a_needs_discard"] else 2
                if total >= needed:
                    legal.append(rank)
            elif follows(rank, self.value):
                legal.append(rank)
        return legal

    def _can_answer_king(self, seat: int) -> bool:
        """L_K(seat) = {A}: holds an A that is not its last card (spec §4.1)."""
        return self.total(seat) >= 2 and any(rank_of(c) == ACE for c in self.hands[seat])

    def _legal_discards(self, seat: int) -> list[int]:
        return sorted({DISCARD_BASE + card // NUM_SUITS for card in self.hands[seat]})

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        if self.phase == PLAY:
            self._apply_play(action)
        elif self.phase == K_ANSWER:
            self._apply_king_answer(action)
        elif self.phase == A_DISCARD:
            self._discard(self.turn_player, action - DISCARD_BASE)
            self._end_turn()
        elif self.phase == SEVEN_NAME:
            self.value = action - NAME_BASE + 2
            self._end_turn()
        elif self.phase == J_DIRECTION:
            assert self.value is not None
            self.value = j_step(self.value, -1 if action == J_DOWN else +1)
            self._end_turn()
        elif self.phase == K_DISCARD:
            self._apply_king_discard(action)

    def _apply_play(self, action: int) -> None:
        p = self.turn_player
        if action == SHOW_AND_DRAW:
            self._show_and_draw(p)
            self._end_turn()
            return
        rank = action - PLAY_BASE
        self._play_card(p, rank)
        if rank not in SPECIAL_RANKS:
            self.value = nominal(rank)
            if self.total(p) == 0:
                self._end_round(went_out=p)
            else:
                self._end_turn()
        elif rank == SEVEN:
            self._choose_next(SEVEN_NAME)
        elif rank == JACK and self.value is not None:
            self._choose_next(J_DIRECTION)
        elif rank == JACK:  # on the undetermined value a J changes nothing (R4)
            self._end_turn()
        elif rank == ACE:
            self._refill(p)  # before the discard (R6)
            if len(self.hands[p]) >= 2:
                self.phase = A_DISCARD
            else:  # never discard the last card (R8)
                self._end_turn()
        else:  # KING
            self.k_player = p
            self._end_turn()

    def _choose_next(self, phase: str) -> None:
        """The 7's value or the J's direction: before the refill unless the switch says after."""
        if self.config["choose_after_refill"]:
            self._refill(self.turn_player)
        self.phase = phase

    def _apply_king_answer(self, action: int) -> None:
        q, k = self.turn_player, self.k_player
        assert k is not None
        if action == SHOW_AND_DRAW:
            self._show_and_draw(q)
            self.k_player = None
            self._end_turn()
            return
        self._play_card(q, ACE)  # the answerer does not discard
        if len(self.hands[k]) >= 2:
            self.phase = K_DISCARD
        else:  # never discard the last card (R8)
            self._refill(k)
            self.k_player = None
            self._end_turn()

    def _apply_king_discard(self, action: int) -> None:
        k = self.k_player
        assert k is not None
        if action != DECLINE:
            self._discard(k, action - DISCARD_BASE)
        self._refill(k)
        self.k_player = None
        self._end_turn()

    def _take_card(self, seat: int, rank: int) -> int:
        """Remove the lowest-suit card of ``rank`` from the seat's hand (spec §11.2)."""
        hand = self.hands[seat]
        card = next(c for c in hand if rank_of(c) == rank)  # hands are sorted by id
        hand.remove(card)
        return card

    def _play_card(self, seat: int, rank: int) -> None:
        self.play_pile.append((self._take_card(seat, rank), seat))

    def _discard(self, seat: int, rank: int) -> None:
        card = self._take_card(seat, rank)
        self.hidden_discard.append(card)
        self.own_discards[seat].append(card)

    def _draw(self, seat: int) -> None:
        self.hands[seat].append(self.piles[seat].pop(0))
        self.hands[seat].sort()

    def _refill(self, seat: int) -> None:
        while len(self.hands[seat]) < HAND_LIMIT and self.piles[seat]:
            self._draw(seat)

    def _show_and_draw(self, seat: int) -> None:
        self._reveal(seat, self.hands[seat])
        if self.piles[seat]:
            self._draw(seat)

    def _reveal(self, seat: int, cards: list[int]) -> None:
        self.reveals[seat] = list(cards)
        self.reveal_marks[seat] = self.turns_started[seat]
        self.reveal_discard_marks[seat] = len(self.own_discards[seat])

    def _end_turn(self) -> None:
        """End of the turn player's turn (spec §4.6): refill, blocked check, pass."""
        t = self.turn_player
        self._refill(t)
        if self._is_blocked():
            self._end_round(went_out=None)
        else:
            self._begin_turn((t + 1) % self.num_players)

    def _is_blocked(self) -> bool:
        """All piles empty and nobody has a plain legal play (R14)."""
        return all(not pile for pile in self.piles) and not any(
            self._legal_plays(seat) for seat in range(self.num_players)
        )

    def _begin_turn(self, seat: int) -> None:
        self._mask = None  # tests jump to a turn by hand (``apply`` drops it otherwise)
        self.turn_player = seat
        self.turns_started[seat] += 1
        self.phase = PLAY if self.k_player is None else K_ANSWER

    def _end_round(self, went_out: int | None) -> None:
        n = self.num_players
        scores = [going_out_score(n) if seat == went_out else self.total(seat) for seat in range(n)]
        self.round_scores.append(scores)
        self.went_out.append(went_out)
        if len(self.round_scores) < self.config["rounds"]:
            self.round += 1
            self._start_round()
        else:
            # A finished match keeps the last round's table, but no turn context: nobody's
            # turn, no K restriction (a blocked end right after a K would leave one).
            self.phase = GAME_OVER
            self.turn_player = -1
            self.k_player = None

    def _start_round(self) -> None:
        """Shuffle, deal, choose the start player, draw hands (spec §3)."""
        rng = np.random.default_rng(round_seed(self.seed, self.round))
        self._deal([int(card) for card in rng.permutation(NUM_CARDS)], rng)

    def _deal(self, deck: list[int], rng: np.random.Generator | None = None) -> None:
        """Set up a round from ``deck`` (top first): piles, selection, hands (spec §3)."""
        n = self.num_players
        per_player = NUM_CARDS // n
        self.piles = [deck[i * per_player : (i + 1) * per_player] for i in range(n)]
        self.hidden_discard = deck[n * per_player :]
        self.hands = [[] for _ in range(n)]
        self.play_pile = []
        self.own_discards = [[] for _ in range(n)]
        self.value = None
        self.k_player = None
        self.turns_started = [0] * n
        selection = []
        for seat in range(n):
            pile = self.piles[seat]
            random_draw = self.config["start_draw"] == "random" and rng is not None
            index = int(rng.integers(len(pile))) if random_draw else 0
            selection.append(pile.pop(index))
            self.hands[seat] = [selection[-1]]
            self._reveal(seat, self.hands[seat])
        self.start_player = max(range(n), key=lambda seat: strength(selection[seat]))
        for seat in range(n):
            self._refill(seat)
        self._begin_turn(self.start_player)

    # -- snapshots ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The snapshot: plain data, every list and dict a copy (editing it leaves the state
        alone)."""
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "seed": self.seed,
            "round": self.round,
            "round_scores": [list(r) for r in self.round_scores],
            "went_out": list(self.went_out),
            "hands": [list(h) for h in self.hands],
            "piles": [list(p) for p in self.piles],
            "play_pile": [list(entry) for entry in self.play_pile],
            "hidden_discard": list(self.hidden_discard),
            "own_discards": [list(d) for d in self.own_discards],
            "value": self.value,
            "phase": self.phase,
            "turn_player": self.turn_player,
            "k_player": self.k_player,
            "start_player": self.start_player,
            "reveals": [list(r) for r in self.reveals],
            "reveal_marks": list(self.reveal_marks),
            "reveal_discard_marks": list(self.reveal_discard_marks),
            "turns_started": list(self.turns_started),
        }

    @classmethod
    def from_dict(cls, rules: FactorsMultiplesRules, data: dict[str, Any]) -> State:
        # the loader imports this module: found by name, as the determinizer is
        return importlib.import_module(SNAPSHOT_MODULE).load(rules, data)

    def _check_cards(self) -> None:
        zones = self.card_zones()
        if sorted(zones) != list(range(NUM_CARDS)):
            seen: dict[int, int] = {}
            for card in zones:
                seen[card] = seen.get(card, 0) + 1
            twice = sorted(c for c, k in seen.items() if k > 1)
            missing = [c for c in range(NUM_CARDS) if c not in seen]
            raise InvalidStateError(
                "the 52 cards are not each in exactly one zone (hands, piles, play_pile, "
                f"hidden_discard): in several: {_names(twice)}, in none: {_names(missing)}"
            )

    def card_zones(self) -> list[int]:
        """Every card id in some zone (tests check it is each of the 52 exactly once)."""
        return (
            [c for h in self.hands for c in h]
            + [c for p in self.piles for c in p]
            + [c for c, _ in self.play_pile]
            + list(self.hidden_discard)
        )

    def __repr__(self) -> str:
        hands = " | ".join(" ".join(card_name(c) for c in h) for h in self.hands)
        return (
            f"<FactorsMultiples round {self.round} {self.phase} P{self.current_player} "
            f"value={self.value} [{hands}]>"
        )
