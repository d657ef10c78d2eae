"""Cornucopia (豐收季節): the rules engine.

Baskets, bids and bets for 2-5 players, specified in ``shared/rules/cornucopia.md`` (the
"spec"; section numbers below refer to it). Crop type indices, basket numbers and chip
order are those of :mod:`.data` (W=0 C=1 P=2 T=3 E=4 G=5; ``B0``-``B3`` Mixed/Same, ``B4``
Same; chips ``(yellow, blue, red)``).

Actions (one ``Discrete(23)`` space, spec §11.2):

=======  ==========================================================  ===========
index    meaning                                                      phase
=======  ==========================================================  ===========
0-5      BID number ``index + 1``                                     BID
6-8      BET YES with stake ``index - 5`` (1, 2, 3 blue)              BET
9-11     BET NO with stake ``index - 8`` (1, 2, 3 blue)               BET
12-16    PLACE the drawn card in basket ``B{index - 12}``             CARD
17       REDRAW: spend a red chip, discard the card, draw again       CARD
18       FORFEIT a dead card: pay one yellow, the turn fails          CARD
19-22    DECLARE ``index - 19`` red chips (``variant_red3`` only)     DECLARE
=======  ==========================================================  ===========

A turn is DECLARE (variant only) → BID → one BET per eligible bettor, clockwise from the
turn player's left → CARD once per drawn card until SUCCESS or FAILURE. Every decision is
presented, even a forced one. Chance (shuffles; draws are the top of the shuffled deck)
happens inside ``apply``: shuffle ``i`` of a game uses ``numpy.random.default_rng((seed,
i))``, so the state holds plain data only (the seed and the number of shuffles done).

Storage conventions: the deck is a list with its **top last**; ``baskets[4][0]`` is the
permanent ``W*``; bets are ``[side, stake]`` with side 0 = YES, 1 = NO.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
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
from boardgame_envs.core.snapshot import SnapshotReader
from boardgame_envs.cornucopia.data import (
    BASKET_CAPACITY,
    BID_COPIES,
    BID_NUMBERS,
    BID_REWARDS,
    BLUE,
    BLUE_PER_YELLOW,
    COMPLETION_NAMES,
    COPIES_PER_TYPE,
    CROP_LETTERS,
    DECK_AFTER_SETUP,
    DIFFERENT,
    MAX_RED_DECLARED,
    MAX_TURNS,
    NUM_BASKETS,
    NUM_TYPES,
    RED,
    RED_SOLE_FIRST,
    RED_SOLE_SECOND,
    RED_TIED_FIRST,
    RED_TIED_SECOND,
    RUN_POINTS,
    SAME,
    SAME_BASKET,
    SAME_COMMIT_BONUS,
    SEEDING_ORDER,
    SET_POINTS,
    SOWN_SIZE,
    STAKES,
    START_CHIPS,
    WILD,
    YELLOW,
)

# -- action indices --------------------------------------------------------------------------
BID_BASE = 0
YES_BASE = 6
NO_BASE = 9
PLACE_BASE = 12
REDRAW = 17
FORFEIT = 18
DECLARE_BASE = 19
NUM_ACTIONS = 23


def bid_action(number: int) -> int:
    return BID_BASE + number - 1


def bet_action(side: int, stake: int) -> int:
    """``side`` 0 = YES, 1 = NO; ``stake`` 1..3."""
    return (YES_BASE if side == YES else NO_BASE) + stake - 1


def place_action(basket: int) -> int:
    return PLACE_BASE + basket


def declare_action(count: int) -> int:
    return DECLARE_BASE + count


# -- phases (decision types, spec §4.3) ------------------------------------------------------
DECLARE = "DECLARE"
BID = "BID"
BET = "BET"
CARD = "CARD"
GAME_OVER = "GAME_OVER"
PHASES = (DECLARE, BID, BET, CARD)

# -- bet sides, basket statuses, how the game ended ------------------------------------------
YES, NO = 0, 1
SIDE_NAMES = ("YES", "NO")
AMBIGUOUS = 2  # basket status; SAME and DIFFERENT come from data
STATUS_NAMES = {DIFFERENT: "DIFFERENT", SAME: "SAME", AMBIGUOUS: "AMBIGUOUS"}
END_DECK = "deck run out twice"
END_STACKS = "three bid stacks empty"
END_NO_CARDS = "deck and discard pile empty"  # the defensive rule of §4.4.2

#: All crop types, as a bitmask of "fits" sets (bit t = type t).
ALL_TYPES = (1 << NUM_TYPES) - 1


# -- basket geometry (spec §2.7) -------------------------------------------------------------
def basket_status(cards: Sequence[int], same_only: bool) -> int:
    """AMBIGUOUS, SAME or DIFFERENT (the Same basket is always SAME)."""
    if same_only:
        return SAME
    crops = [c for c in cards if c != WILD]
    if len(crops) <= 1:
        return AMBIGUOUS
    return SAME if crops[0] == crops[1] else DIFFERENT


def fitting_types(cards: Sequence[int], same_only: bool) -> int:
    """Bitmask of the crop types that may legally be placed in a basket holding ``cards``."""
    if len(cards) >= BASKET_CAPACITY:
        return 0
    crops = [c for c in cards if c != WILD]
    if not crops:
        return ALL_TYPES
    if same_only or (len(crops) >= 2 and crops[0] == crops[1]):
        return (1 << WILD) | (1 << crops[0])  # all one type: that type or a wild
    if len(crops) == 1:
        return ALL_TYPES  # AMBIGUOUS: the same type makes it SAME, another DIFFERENT
    held = 0
    for crop in crops:
        held |= 1 << crop
    return ALL_TYPES & ~held  # DIFFERENT: a wild or a type not yet in it


def is_valid_basket(cards: Sequence[int], same_only: bool) -> bool:
    """All non-wild cards one type, or (Mixed/Same only) pairwise different; <= 5 cards."""
    crops = [c for c in cards if c != WILD]
    if len(cards) > BASKET_CAPACITY:
        return False
    if len(set(crops)) <= 1:
        return True
    return not same_only and len(set(crops)) == len(crops)


def completion_type(cards: Sequence[int], same_only: bool) -> int:
    """SAME or DIFFERENT for a complete basket; a both-ways basket scores SAME (§2.7)."""
    return DIFFERENT if basket_status(cards, same_only) == DIFFERENT else SAME


# -- final scoring (spec §6) -----------------------------------------------------------------
def chip_points(yellow: int, blue: int) -> int:
    """Yellow chips plus blue converted 3:1 (the rest is lost), §6.2."""
    return yellow + blue // BLUE_PER_YELLOW


@functools.cache
def _basket_info(cards: tuple[int, ...], same_only: bool) -> tuple[int, int]:
    """(fitting types, status) of a basket; there are a few thousand distinct baskets."""
    return fitting_types(cards, same_only), basket_status(cards, same_only)


def red_majority_points(reds: Sequence[int]) -> list[int]:
    """Points per player for holding the most / second-most red chips (§6.3)."""
    points = [0] * len(reds)
    holders = [r for r in reds if r >= 1]
    if not holders:
        return points
    first = max(holders)
    leaders = [i for i, r in enumerate(reds) if r == first]
    if len(leaders) >= 2:
        for i in leaders:
            points[i] = RED_TIED_FIRST
        return points
    points[leaders[0]] = RED_SOLE_FIRST
    rest = [r for r in holders if r < first]
    if rest:
        second = max(rest)
        seconds = [i for i, r in enumerate(reds) if r == second]
        for i in seconds:
            points[i] = RED_SOLE_SECOND if len(seconds) == 1 else RED_TIED_SECOND
    return points


@functools.cache
def combination_points(counts: tuple[int, ...]) -> int:
    """Best arrangement of won bid cards (``counts[i]`` cards of number ``i + 1``), §6.4.

    At most one same-number combination per number; any disjoint runs from the rest.
    """
    choices = [[0] + [size for size in SET_POINTS if size <= count] for count in counts]
    best = 0
    for sets in itertools.product(*choices):
        rest = tuple(count - size for count, size in zip(counts, sets))
        points = sum(SET_POINTS[size] for size in sets if size) + _best_runs(rest)
        best = max(best, points)
    return best


@functools.cache
def _best_runs(counts: tuple[int, ...]) -> int:
    """Best score of disjoint runs: the lowest card is either in no run or starts one."""
    low = next((i for i, count in enumerate(counts) if count), None)
    if low is None:
        return 0
    rest = list(counts)
    rest[low] -= 1
    best = _best_runs(tuple(rest))
    for length, points in RUN_POINTS.items():
        if low + length <= len(counts) and all(counts[low : low + length]):
            rest = list(counts)
            for i in range(low, low + length):
                rest[i] -= 1
            best = max(best, points + _best_runs(tuple(rest)))
    return best


def pay_one_yellow(chips: list[int], bank: list[int]) -> int:
    """PAY-ONE-YELLOW (§4.6): a yellow, else three blue, else nothing. Returns points paid."""
    if chips[YELLOW] >= 1:
        chips[YELLOW] -= 1
        bank[YELLOW] += 1
        return 1
    if chips[BLUE] >= BLUE_PER_YELLOW:
        chips[BLUE] -= BLUE_PER_YELLOW
        bank[BLUE] += BLUE_PER_YELLOW
        return 1
    return 0


@functools.cache
def _mask_of(legal: tuple[int, ...]) -> np.ndarray:
    """The (read-only, shared) mask of a tuple of legal actions; callers get copies."""
    mask = np.zeros(NUM_ACTIONS, dtype=bool)
    mask[list(legal)] = True
    mask.flags.writeable = False
    return mask


def shuffle_seed(seed: int, index: int) -> np.random.Generator:
    """The generator of shuffle ``index`` of the game with ``seed`` (0 = setup)."""
    return np.random.default_rng((seed, index))


def _is_seed(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= 0


class CornucopiaRules(BaseRules):
    """Cornucopia for 2-5 players."""

    name = "cornucopia"
    #: Version history (env ids ``cornucopia-v<N>``): 0, the first release; 1, a finished
    #: game keeps no turn context (``k``, red used, bettors), so the final observation's
    #: ``k`` is 0, and snapshots are checked in full on loading.
    version = 1
    min_players = 2
    max_players = 5
    action_size = NUM_ACTIONS
    phases = PHASES
    encoding_module = "boardgame_envs.cornucopia.encoding"
    render_module = "boardgame_envs.cornucopia.render"
    sample_module = "boardgame_envs.cornucopia.sample"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 1 / 20  # spec §11.4
    options = {
        "variant_red3": Option(
            False,
            "variant 8.1: declare and pay 0-3 red chips at the start of a turn, one per redraw",
            (False, True),
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        """121 turns (§6.1) × the most decisions of one turn (§11.5)."""
        variant = config["variant_red3"]
        redraws = MAX_RED_DECLARED if variant else 1
        per_turn = int(variant) + 1 + (num_players - 1) + max(BID_NUMBERS) + redraws
        return MAX_TURNS * per_turn

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63))
        elif not _is_seed(seed):
            raise InvalidConfigError(f"seed={seed!r} is not allowed; allowed: None or an int >= 0")
        state = State(self, num_players, config, int(seed))
        state._setup()
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A determinization of ``view``: the deck order, the seed of later reshuffles and
        the other seats' unrevealed bets drawn from ``rng`` (see :mod:`.sample`)."""
        return self.sampler(self, view, rng)

    def position(
        self,
        baskets: Sequence[Sequence[int]],
        chips: Sequence[Sequence[int]],
        turn_player: int = 0,
        deck_top: Sequence[int] = (),
        deck_size: int | None = None,
        stacks: Sequence[int] = BID_COPIES,
        won: Sequence[Sequence[int]] | None = None,
        exhaustions: int = 0,
        seed: int = 0,
        **options: Any,
    ) -> State:
        """A position at the start of ``turn_player``'s turn, for tests and notebooks.

        ``baskets``: five lists of crop types (``B4`` starts with ``W*``); ``chips``: one
        ``(y, b, r)`` per seat; ``deck_top``: the next cards drawn, in drawing order; the
        deck is filled below them with the other cards (by type, W first) up to
        ``deck_size`` (default: all), and the cards left over lie in the discard pile.
        ``won``: bid cards won per seat, as lists of numbers.
        """
        num_players = self.check_num_players(len(chips))
        config = self.make_config(options)
        state = State(self, num_players, config, seed)
        state.baskets = [list(b) for b in baskets]
        left = [COPIES_PER_TYPE] * NUM_TYPES
        for card in [c for b in state.baskets for c in b] + list(deck_top):
            left[card] -= 1
        if min(left) < 0:
            raise InvalidStateError(f"more than {COPIES_PER_TYPE} cards of one type: {left}")
        others = [t for t in range(NUM_TYPES) for _ in range(left[t])]
        size = len(deck_top) + len(others) if deck_size is None else deck_size
        below = others[: size - len(deck_top)]
        state.deck = list(reversed(list(deck_top) + below))  # top last
        state.discard = others[len(below) :]
        state.chips = [list(c) for c in chips]
        state.bank = [
            num_players * START_CHIPS[colour] - sum(c[colour] for c in state.chips)
            for colour in range(3)
        ]
        state.won = [[0] * 6 for _ in range(num_players)]
        for seat, numbers in enumerate(won or []):
            for number in numbers:
                state.won[seat][number - 1] += 1
        state.stacks = list(stacks)
        state.exhaustions = exhaustions
        # As in a dealt game: the setup shuffle and one per exhaustion; the end is pending
        # once the deck has run out twice.
        state.shuffles = 1 + exhaustions
        state.end_pending = exhaustions >= 2
        state.start_player = turn_player
        state._begin_turn(turn_player)
        state._check()
        return state


@dataclass(eq=False)
class View(PlayerView):
    """What ``seat`` knows (spec §7): everything but the deck order and others' secret bets.

    Seats are absolute here; the encoding makes them relative to ``seat``.
    """

    rules: CornucopiaRules
    seat: int
    num_players: int
    variant_red3: bool
    phase: str
    current_player: int
    turn_player: int
    turn: int
    stacks: tuple[int, ...]  # cards per bid stack 1..6 (a pending bid card is out)
    bid: int | None  # the pending bid number N
    placed: int  # k, cards placed this turn
    red_used: bool
    declared: int
    redraw_available: bool
    pending: int | None  # the drawn card waiting to be handled
    baskets: tuple[tuple[int, ...], ...]  # B4 starts with W*
    statuses: tuple[int, ...]  # per basket: AMBIGUOUS, SAME or DIFFERENT (§2.7)
    deck_size: int
    deck_counts: tuple[int, ...]  # composition by type (public, §7); never the order
    discard_counts: tuple[int, ...]
    exhaustions: int
    end_pending: bool
    chips: tuple[tuple[int, int, int], ...]  # (y, b, r) in hand per seat
    won: tuple[tuple[int, ...], ...]  # bid cards won per seat, per number 1..6
    committed: tuple[bool, ...]  # per seat: has bet this turn
    bets: tuple[tuple[int, int] | None, ...]  # per seat: (side, stake) if this seat may see it
    bets_revealed: bool
    mask: np.ndarray
    # Public facts the observation does not encode; they let ``sample_state`` rebuild the
    # whole position from the view (everything but the deck order, the seed and others'
    # secret bets).
    start_player: int
    discard: tuple[int, ...]  # the face-up discard pile, oldest first
    bank: tuple[int, int, int]  # signed bank balance per colour (§2.6)
    end_reason: str | None
    log: tuple[str, ...]  # public events of this turn (a bet enters it at REVEAL)
    last_log: tuple[str, ...]  # ... and of the previous turn

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()


class State(BaseState):
    """One position of a Cornucopia game. Mutated in place by ``apply``."""

    def __init__(
        self, rules: CornucopiaRules, num_players: int, config: dict[str, Any], seed: int
    ) -> None:
        self.rules = rules
        self.num_players = n = num_players
        self.config = dict(config)
        self.variant = bool(config["variant_red3"])
        self.seed = seed
        self.shuffles = 0  # shuffles done; the next one uses shuffle_seed(seed, shuffles)
        self.deck: list[int] = []  # top last
        self.discard: list[int] = []  # face up, oldest first
        self.baskets: list[list[int]] = [[] for _ in range(NUM_BASKETS - 1)] + [[WILD]]
        self.exhaustions = 0
        self.end_pending = False
        self.stacks = list(BID_COPIES)
        self.won = [[0] * 6 for _ in range(n)]
        self.chips = [list(START_CHIPS) for _ in range(n)]
        self.bank = [0, 0, 0]  # signed balance: chips + stakes + bank is constant
        self.start_player = 0
        self.turn_player = 0
        self.turn = 0  # turns started
        self.phase = BID
        self.bid: int | None = None
        self.placed = 0
        self.red_used = False
        self.declared = 0
        self.pending: int | None = None
        self.bet_order: list[int] = []  # eligible bettors, clockwise from the turn player
        self.bet_index = 0  # the next bettor in bet_order
        self.bets: list[list[int] | None] = [None] * n
        self.bets_revealed = False
        self.end_reason: str | None = None
        self.log: list[str] = []  # public events of the current turn
        self.last_log: list[str] = []  # ... and of the previous one
        # Private caches (rebuilt from the facts above; they make the hot path fast):
        self._fits = [0] * NUM_BASKETS  # per basket, bitmask of the crop types it accepts
        self._status = [SAME] * NUM_BASKETS  # per basket, AMBIGUOUS / SAME / DIFFERENT
        self._deck_counts = [0] * NUM_TYPES  # cards per crop type in the deck
        self._discard_counts = [0] * NUM_TYPES  # ... and in the discard pile
        self._legal: tuple[int, ...] | None = None  # the legal actions of this position

    # -- the contract ------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase == BET:
            return self.bet_order[self.bet_index]
        if self.phase == GAME_OVER:
            return -1
        return self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _phase_name(self) -> str:
        return self.phase

    def _compute_mask(self) -> np.ndarray:
        return _mask_of(self._legal_tuple())

    def legal_actions(self) -> list[int]:
        return list(self._legal_tuple())

    def _legal_tuple(self) -> tuple[int, ...]:
        """The legal actions, ascending; the mask is built from them in one place."""
        if self._legal is None:
            phase = self.phase
            if phase == CARD:
                placements = self._legal_placements()
                legal = [PLACE_BASE + j for j in placements]
                if self._can_redraw():
                    legal.append(REDRAW)
                if not placements:  # a dead card
                    legal.append(FORFEIT)
                self._legal = tuple(legal)
            elif phase == BET:
                self._legal = tuple(self._legal_bets(self.current_player))
            elif phase == BID:
                self._legal = tuple(self._legal_bids())
            elif phase == DECLARE:
                self._legal = tuple(range(DECLARE_BASE, DECLARE_BASE + self._max_declaration() + 1))
            else:
                self._legal = ()
        return self._legal

    def scores(self) -> list[float]:
        """Totals of §6.5 (provisional before the end: chips in hand, reds, combinations)."""
        return [float(sum(parts)) for parts in self.score_breakdown()]

    def score_breakdown(self) -> list[tuple[int, int, int]]:
        """Per seat: (chip points, red-majority points, combination points)."""
        reds = red_majority_points([c[RED] for c in self.chips])
        return [
            (chip_points(c[YELLOW], c[BLUE]), red, combination_points(tuple(won)))
            for c, red, won in zip(self.chips, reds, self.won)
        ]

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        other.config = dict(self.config)
        other.deck = self.deck.copy()
        other.discard = self.discard.copy()
        other.baskets = [b.copy() for b in self.baskets]
        other._fits = self._fits.copy()
        other._status = self._status.copy()
        other._deck_counts = self._deck_counts.copy()
        other._discard_counts = self._discard_counts.copy()
        other.stacks = self.stacks.copy()
        other.won = [w.copy() for w in self.won]
        other.chips = [c.copy() for c in self.chips]
        other.bank = self.bank.copy()
        other.bet_order = self.bet_order.copy()
        other.bets = [None if b is None else b.copy() for b in self.bets]
        other.log = self.log.copy()
        other.last_log = self.last_log.copy()
        return other

    def view(self, seat: int) -> View:
        seat = self._check_seat(seat)
        current = self.current_player
        mask = self.legal_action_mask() if seat == current else np.zeros(NUM_ACTIONS, dtype=bool)
        revealed = self.bets_revealed
        bets = self.bets
        return View(
            rules=self.rules,
            seat=seat,
            num_players=self.num_players,
            variant_red3=self.variant,
            phase=self.phase,
            current_player=current,
            turn_player=self.turn_player,
            turn=self.turn,
            stacks=tuple(self.stacks),
            bid=self.bid,
            placed=self.placed,
            red_used=self.red_used,
            declared=self.declared,
            redraw_available=self.phase == CARD and self._can_redraw(),
            pending=self.pending,
            baskets=tuple(map(tuple, self.baskets)),
            statuses=tuple(self._status),
            deck_size=len(self.deck),
            deck_counts=tuple(self._deck_counts),  # public (§7); the order is not
            discard_counts=tuple(self._discard_counts),
            exhaustions=self.exhaustions,
            end_pending=self.end_pending,
            chips=tuple(map(tuple, self.chips)),
            won=tuple(map(tuple, self.won)),
            committed=tuple([b is not None for b in bets]),
            bets=tuple(
                [
                    None if b is None or not (revealed or s == seat) else (b[0], b[1])
                    for s, b in enumerate(bets)
                ]
            ),
            bets_revealed=revealed,
            mask=mask,
            start_player=self.start_player,
            discard=tuple(self.discard),
            bank=tuple(self.bank),
            end_reason=self.end_reason,
            log=tuple(self.log),
            last_log=tuple(self.last_log),
        )

    def describe_action(self, action: int) -> str:
        if BID_BASE <= action < YES_BASE:
            return f"bid {action - BID_BASE + 1}"
        if YES_BASE <= action < PLACE_BASE:
            side = YES if action < NO_BASE else NO
            return f"bet {SIDE_NAMES[side]} {action - (YES_BASE if side == YES else NO_BASE) + 1}"
        if PLACE_BASE <= action < REDRAW:
            card = "the card" if self.pending is None else CROP_LETTERS[self.pending]
            return f"place {card} in B{action - PLACE_BASE}"
        if action == REDRAW:
            return "redraw (spend a red chip)" if not self.variant else "redraw (a declared chip)"
        if action == FORFEIT:
            return "forfeit (pay one yellow, the turn fails)"
        if DECLARE_BASE <= action < NUM_ACTIONS:
            return f"declare {action - DECLARE_BASE} red"
        return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"

    # -- legal-move generation, one function per decision type -------------------------------
    def _max_declaration(self) -> int:
        return min(MAX_RED_DECLARED, self.chips[self.turn_player][RED])

    def _legal_bids(self) -> list[int]:
        return [BID_BASE + i for i, cards in enumerate(self.stacks) if cards]

    def _legal_bets(self, seat: int) -> list[int]:
        chips = self.chips[seat]
        funds = chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW]
        stakes = [s for s in STAKES if s <= funds]
        return [YES_BASE + s - 1 for s in stakes] + [NO_BASE + s - 1 for s in stakes]

    def _legal_placements(self) -> list[int]:
        bit = 1 << self.pending
        return [j for j, fits in enumerate(self._fits) if fits & bit]

    def _refresh_fits(self, j: int | None = None) -> None:
        """Recompute the cached fitting types of basket ``j`` (of all baskets when None)."""
        for i in range(NUM_BASKETS) if j is None else (j,):
            self._fits[i], self._status[i] = _basket_info(tuple(self.baskets[i]), i == SAME_BASKET)

    def _can_redraw(self) -> bool:
        if self.variant:
            return self.declared >= 1
        return not self.red_used and self.chips[self.turn_player][RED] >= 1

    # -- transitions -------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        self._legal = None
        if self.phase == CARD:
            if action == REDRAW:
                self._redraw()
            elif action == FORFEIT:
                self._forfeit()
            else:
                self._place(action - PLACE_BASE)
        elif self.phase == BET:
            self._bet(action)
        elif self.phase == BID:
            self._bid(action - BID_BASE + 1)
        elif self.phase == DECLARE:
            self._declare(action - DECLARE_BASE)

    def _declare(self, count: int) -> None:
        t = self.turn_player
        self.chips[t][RED] -= count
        self.bank[RED] += count
        self.declared = count
        self.log.append(f"P{t} declares {count} red")
        self.phase = BID

    def _bid(self, number: int) -> None:
        t, n = self.turn_player, self.num_players
        self.stacks[number - 1] -= 1
        self.bid = number
        self.log.append(f"P{t} bids {number}")
        order = [(t + i) % n for i in range(1, n)]
        self.bet_order = [
            s for s in order if self.chips[s][BLUE] + BLUE_PER_YELLOW * self.chips[s][YELLOW] >= 1
        ]
        self.bet_index = 0
        if self.bet_order:
            self.phase = BET
        else:
            self._reveal()

    def _bet(self, action: int) -> None:
        seat = self.bet_order[self.bet_index]
        side = YES if action < NO_BASE else NO
        stake = action - (YES_BASE if side == YES else NO_BASE) + 1
        self.bets[seat] = [side, stake]
        self.bet_index += 1
        if self.bet_index == len(self.bet_order):
            self._reveal()

    def _reveal(self) -> None:
        """All bets become public; each stake goes onto its bet card (§4.2 REVEAL)."""
        shown = []
        for seat in self.bet_order:
            side, stake = self.bets[seat]
            chips = self.chips[seat]
            if stake > chips[BLUE]:  # convert exactly one yellow into three blue
                chips[YELLOW] -= 1
                chips[BLUE] += BLUE_PER_YELLOW
                self.bank[YELLOW] += 1
                self.bank[BLUE] -= BLUE_PER_YELLOW
            chips[BLUE] -= stake
            shown.append(f"P{seat} {SIDE_NAMES[side]} {stake}")
        self.bets_revealed = True
        if shown:
            self.log.append("bets: " + ", ".join(shown))
        self._draw_pending()

    def _draw_pending(self) -> None:
        card = self._draw()
        if card is None:
            self._end_without_cards()
            return
        self.pending = card
        self.phase = CARD
        self.log.append(f"draws {CROP_LETTERS[card]}")

    def _place(self, j: int) -> None:
        card = self.pending
        basket = self.baskets[j]
        # The same-commit bonus: an AMBIGUOUS Mixed/Same basket whose one crop is this one.
        bonus = (
            j != SAME_BASKET and card != WILD and self._status[j] == AMBIGUOUS and card in basket
        )
        t = self.turn_player
        if bonus:
            self.chips[t][YELLOW] += SAME_COMMIT_BONUS
            self.bank[YELLOW] -= SAME_COMMIT_BONUS
        basket.append(card)
        self._refresh_fits(j)
        self.pending = None
        self.placed += 1
        self.log.append(
            f"places {CROP_LETTERS[card]} in B{j}"
            + (f" (+{SAME_COMMIT_BONUS} bonus)" if bonus else "")
        )
        if len(basket) == BASKET_CAPACITY:
            self._success(j)
        elif self.placed == self.bid:
            self._failure(forfeited=False)
        else:
            self._draw_pending()

    def _redraw(self) -> None:
        t = self.turn_player
        if self.variant:
            self.declared -= 1
        else:
            self.chips[t][RED] -= 1
            self.bank[RED] += 1
            self.red_used = True
        self._to_discard([self.pending])
        self.log.append(f"redraws ({CROP_LETTERS[self.pending]} discarded)")
        self.pending = None
        self._draw_pending()

    def _forfeit(self) -> None:
        pay_one_yellow(self.chips[self.turn_player], self.bank)
        self._to_discard([self.pending])
        self.log.append(f"forfeits the dead {CROP_LETTERS[self.pending]}")
        self.pending = None
        self._failure(forfeited=True)

    def _success(self, j: int) -> None:
        """§4.4.3: reward, bid card, clear, sow, settle, bid-stack check."""
        t, number = self.turn_player, self.bid
        basket = self.baskets[j]
        same_only = j == SAME_BASKET
        kind = completion_type(basket, same_only)
        reward = BID_REWARDS[number][kind]
        for colour in range(3):
            self.chips[t][colour] += reward[colour]
            self.bank[colour] -= reward[colour]
        self.won[t][number - 1] += 1
        self.bid = None  # won: no longer pending
        self.log.append(
            f"SUCCESS: B{j} complete as {COMPLETION_NAMES[kind]}, P{t} keeps bid {number}"
        )
        keep = 1 if same_only else 0  # W* stays in the Same basket
        self._to_discard(basket[keep:])
        del basket[keep:]
        self._refresh_fits(j)
        while len(basket) < SOWN_SIZE:
            card = self._draw()
            if card is None:
                self._end_without_cards()
                return
            basket.append(card)
        self._refresh_fits(j)
        self.log.append(f"B{j} sown: " + " ".join(CROP_LETTERS[c] for c in basket))
        self._settle(success=True)
        if sum(1 for cards in self.stacks if cards == 0) >= 3:
            self._game_over(END_STACKS)
        else:
            self._end_turn()

    def _failure(self, forfeited: bool) -> None:
        """§4.4.4: penalty (unless forfeited), bid card back, settle."""
        t = self.turn_player
        if not forfeited:
            pay_one_yellow(self.chips[t], self.bank)
        self.stacks[self.bid - 1] += 1
        self.log.append(f"FAILURE: bid {self.bid} returns to its stack")
        self.bid = None
        self._settle(success=False)
        self._end_turn()

    def _settle(self, success: bool) -> None:
        """Winners get their stake back plus as much from the bank; losers' stakes go to it."""
        winning_side = YES if success else NO
        for seat in self.bet_order:
            side, stake = self.bets[seat]
            if side == winning_side:
                self.chips[seat][BLUE] += 2 * stake
                self.bank[BLUE] -= stake
            else:
                self.bank[BLUE] += stake
        self.bets = [None] * self.num_players
        self.bets_revealed = False

    def _end_turn(self) -> None:
        self.declared = 0
        if self.end_pending:
            self._game_over(END_DECK)
        else:
            self._begin_turn((self.turn_player + 1) % self.num_players)

    def _begin_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.turn += 1
        self.bid = None
        self.placed = 0
        self.red_used = False
        self.declared = 0
        self.pending = None
        self.bet_order = []
        self.bet_index = 0
        self.bets = [None] * self.num_players
        self.bets_revealed = False
        if self.log:
            self.last_log = self.log
        self.log = []
        self.phase = DECLARE if self.variant else BID

    def _game_over(self, reason: str) -> None:
        """The end: no turn context survives it (no bid, placements, red used, bettors)."""
        self.bid = None
        self.placed = 0
        self.red_used = False
        self.declared = 0
        self.pending = None
        self.bet_order = []
        self.bet_index = 0
        self.bets = [None] * self.num_players
        self.bets_revealed = False
        self.phase = GAME_OVER
        self.end_reason = reason
        self.log.append(f"game over: {reason}")

    def _end_without_cards(self) -> None:
        """Defensive rule of §4.4.2: stakes go back, a pending bid card returns, no penalty."""
        if self.bets_revealed:
            for seat in self.bet_order:
                self.chips[seat][BLUE] += self.bets[seat][1]
        self.bets = [None] * self.num_players
        self.bets_revealed = False
        if self.bid is not None:
            self.stacks[self.bid - 1] += 1
            self.bid = None
        self._game_over(END_NO_CARDS)

    # -- chance ------------------------------------------------------------------------------
    def _draw(self) -> int | None:
        """DRAW (§4.4.1): the top card; DECK EXHAUSTION at once when it was the last one."""
        if not self.deck:
            return None
        card = self.deck.pop()
        self._deck_counts[card] -= 1
        if not self.deck:
            self._exhaust()
        return card

    def _to_discard(self, cards: list[int]) -> None:
        self.discard.extend(cards)
        for card in cards:
            self._discard_counts[card] += 1

    def _refresh_counts(self) -> None:
        """Recompute the cached deck and discard compositions from the piles."""
        self._deck_counts = [self.deck.count(t) for t in range(NUM_TYPES)]
        self._discard_counts = [self.discard.count(t) for t in range(NUM_TYPES)]

    def _exhaust(self) -> None:
        """DECK EXHAUSTION (§4.4.2): count, shuffle the discard pile into a new deck."""
        self.exhaustions += 1
        if self.discard:
            order = shuffle_seed(self.seed, self.shuffles).permutation(len(self.discard))
            self.deck = [self.discard[i] for i in order.tolist()]
            self.discard = []
            self._deck_counts = self._discard_counts
            self._discard_counts = [0] * NUM_TYPES
        self.shuffles += 1
        if self.exhaustions >= 2:
            self.end_pending = True
        self.log.append(f"deck exhausted ({self.exhaustions}): discard pile reshuffled")

    def _setup(self) -> None:
        """§3: start player, shuffle the 65 cards, seed the baskets (in this order, §5)."""
        rng = shuffle_seed(self.seed, 0)
        self.shuffles = 1
        self.start_player = int(rng.integers(self.num_players))
        cards = [WILD] * (COPIES_PER_TYPE - 1) + [
            t for t in range(1, NUM_TYPES) for _ in range(COPIES_PER_TYPE)
        ]
        self.deck = [cards[i] for i in rng.permutation(len(cards)).tolist()]
        for j in SEEDING_ORDER:
            self.baskets[j].append(self.deck.pop())
        self._refresh_counts()
        self._refresh_fits()
        self.turn = 0
        self._begin_turn(self.start_player)

    # -- snapshots ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-compatible copy: no list or dict of the snapshot is one of the state's."""
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "seed": self.seed,
            "shuffles": self.shuffles,
            "deck": self.deck.copy(),
            "discard": self.discard.copy(),
            "baskets": [b.copy() for b in self.baskets],
            "exhaustions": self.exhaustions,
            "end_pending": self.end_pending,
            "stacks": self.stacks.copy(),
            "won": [w.copy() for w in self.won],
            "chips": [c.copy() for c in self.chips],
            "bank": self.bank.copy(),
            "start_player": self.start_player,
            "turn_player": self.turn_player,
            "turn": self.turn,
            "phase": self.phase,
            "bid": self.bid,
            "placed": self.placed,
            "red_used": self.red_used,
            "declared": self.declared,
            "pending": self.pending,
            "bet_order": self.bet_order.copy(),
            "bet_index": self.bet_index,
            "bets": [None if b is None else b.copy() for b in self.bets],
            "bets_revealed": self.bets_revealed,
            "end_reason": self.end_reason,
            "log": self.log.copy(),
            "last_log": self.last_log.copy(),
        }

    @classmethod
    def from_dict(cls, rules: CornucopiaRules, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_dict`, refusing any snapshot that is not a
        position play can continue from: JSON types exactly (no coercion; a bool is not an
        int), the version, then ranges, conservation and the phase context (:meth:`_check`).
        Errors name the field."""
        name = rules.name
        if not isinstance(data, dict):
            raise InvalidStateError(
                f"a {name} snapshot is a dict (JSON object), not {type(data).__name__}"
            )
        missing = [key for key in SNAPSHOT_FIELDS if key not in data]
        unknown = sorted(repr(key) for key in data if key not in SNAPSHOT_FIELDS)
        if missing or unknown:
            raise InvalidStateError(
                f"not a {name} snapshot: "
                + "; ".join(
                    ([f"missing field(s) {', '.join(missing)}"] if missing else [])
                    + ([f"unknown field(s) {', '.join(unknown)}"] if unknown else [])
                )
            )
        read = _Reader(name, data)
        if data["game"] != name:
            read.fail("game", f"snapshot is of game {data['game']!r}, not {name!r}")
        version = read.integer("version")
        if version != rules.version:
            read.fail("version", f"is {version}; this is {name} version {rules.version}")
        n = read.integer("num_players")
        try:
            n = rules.check_num_players(n)
        except InvalidConfigError as error:
            read.fail("num_players", str(error))
        config = data["config"]
        if not isinstance(config, dict):
            read.fail("config", f"is {config!r}, not a dict of options")
        try:
            config = rules.make_config(config)
        except InvalidConfigError as error:
            read.fail("config", str(error))
        seed = read.integer("seed")
        if seed < 0:
            read.fail("seed", f"is {seed}, not an int >= 0")
        state = cls(rules, n, config, seed)
        state.shuffles = read.integer("shuffles")
        state.deck = read.integers("deck")
        state.discard = read.integers("discard")
        state.baskets = read.rows("baskets", NUM_BASKETS)
        state.exhaustions = read.integer("exhaustions")
        state.end_pending = read.boolean("end_pending")
        state.stacks = read.integers("stacks", len(BID_NUMBERS))
        state.won = read.rows("won", n, len(BID_NUMBERS))
        state.chips = read.rows("chips", n, 3)
        state.bank = read.integers("bank", 3)
        state.start_player = read.integer("start_player")
        state.turn_player = read.integer("turn_player")
        state.turn = read.integer("turn")
        state.phase = read.string("phase")
        state.bid = read.integer("bid", nullable=True)
        state.placed = read.integer("placed")
        state.red_used = read.boolean("red_used")
        state.declared = read.integer("declared")
        state.pending = read.integer("pending", nullable=True)
        state.bet_order = read.integers("bet_order")
        state.bet_index = read.integer("bet_index")
        state.bets = read.rows("bets", n, 2, nullable=True)
        state.bets_revealed = read.boolean("bets_revealed")
        state.end_reason = read.string("end_reason", nullable=True)
        state.log = read.strings("log")
        state.last_log = read.strings("last_log")
        state._check()
        return state

    def _check(self) -> None:
        """Raise InvalidStateError, naming the field, unless this is a position play can
        continue from (snapshots and built positions): ranges, conservation of cards, bid
        cards and chips, and what the current phase needs and forbids."""
        n = self.num_players

        def fail(field: str, message: str) -> None:
            raise InvalidStateError(f"invalid {self.rules.name} snapshot: {field}: {message}")

        phase = self.phase
        if phase not in (*PHASES, GAME_OVER):
            fail("phase", f"unknown phase {phase!r}; known: {', '.join((*PHASES, GAME_OVER))}")
        if phase == DECLARE and not self.variant:
            fail("phase", "DECLARE happens only with variant_red3")
        live = phase != GAME_OVER

        # Crop cards (§2.1, §2.7): 66, 11 per type; 5 legal baskets of 2-4 cards, W* in B4.
        for field, cards in (
            ("deck", self.deck),
            ("discard", self.discard),
            ("baskets", [c for b in self.baskets for c in b]),
            ("pending", [] if self.pending is None else [self.pending]),
        ):
            if any(not 0 <= c < NUM_TYPES for c in cards):
                fail(field, f"a crop type is outside 0..{NUM_TYPES - 1}")
        cards = self.card_zones()
        counts = [cards.count(t) for t in range(NUM_TYPES)]
        if counts != [COPIES_PER_TYPE] * NUM_TYPES:
            fail(
                "deck, discard, baskets, pending",
                f"crop cards per type are {counts}, not {COPIES_PER_TYPE} of each (66 cards)",
            )
        if len(self.baskets) != NUM_BASKETS or not self.baskets[SAME_BASKET][:1] == [WILD]:
            fail("baskets", "there must be 5 baskets and B4 must start with its W*")
        for j, basket in enumerate(self.baskets):
            if not is_valid_basket(basket, j == SAME_BASKET) or len(basket) >= BASKET_CAPACITY:
                fail("baskets", f"basket B{j} {basket} is not a legal incomplete basket")
            if len(basket) < SOWN_SIZE:
                fail("baskets", f"basket B{j} {basket} holds fewer than {SOWN_SIZE} cards")
        if not self.deck:
            # The deck is refilled the moment its last card is drawn (§4.4.2), from a
            # discard pile of at least 45 cards.
            fail("deck", "the deck is empty")

        # Deck exhaustions (§4.4.2): at most two; the end is pending after the second.
        if not 0 <= self.exhaustions <= 2:
            fail("exhaustions", f"is {self.exhaustions}, not 0, 1 or 2")
        if self.end_pending != (self.exhaustions == 2):
            fail(
                "end_pending",
                f"must be {self.exhaustions == 2} after {self.exhaustions} exhaustion(s)",
            )
        if self.shuffles != 1 + self.exhaustions:
            fail(
                "shuffles",
                f"is {self.shuffles}: the setup shuffle and one per exhaustion "
                f"make {1 + self.exhaustions}",
            )

        # Bid cards (§2.3): 30 across stacks, hands and the pending bid.
        if self.bid is not None and not 1 <= self.bid <= 6:
            fail("bid", f"{self.bid} is not a number 1..6")
        if len(self.stacks) != 6 or min(self.stacks) < 0:
            fail("stacks", "needs 6 card counts >= 0, for bid numbers 1..6")
        if len(self.won) != n or any(len(w) != 6 or min(w) < 0 for w in self.won):
            fail("won", "needs one list of 6 card counts >= 0 per seat")
        for i, copies in enumerate(BID_COPIES):
            held = self.stacks[i] + sum(w[i] for w in self.won) + (self.bid == i + 1)
            if held != copies:
                fail("stacks", f"bid cards {i + 1}: {held} in stacks, hands and play, not {copies}")
        empty = sum(1 for i, cards in enumerate(self.stacks) if cards + (self.bid == i + 1) == 0)

        # Seats and chips.
        if len(self.chips) != n or any(len(c) != 3 or min(c) < 0 for c in self.chips):
            fail("chips", "must be one (yellow, blue, red) of non-negative counts per seat")
        if len(self.bank) != 3:
            fail("bank", "needs one balance per chip colour")
        for field in ("turn_player", "start_player"):
            if not 0 <= getattr(self, field) < n:
                fail(field, f"is {getattr(self, field)}, not a seat 0..{n - 1}")
        t = self.turn_player
        if not 1 <= self.turn <= MAX_TURNS:
            fail("turn", f"is {self.turn}, not 1..{MAX_TURNS} (§6.1)")
        if (self.start_player + self.turn - 1) % n != t:
            fail(
                "turn",
                f"turn {self.turn} from start player {self.start_player} is seat "
                f"{(self.start_player + self.turn - 1) % n}'s, not turn player {t}'s",
            )

        # The phase context (§4.1): what the current decision needs, and nothing else.
        needs_bid = phase in (BET, CARD)
        if needs_bid != (self.bid is not None):
            fail("bid", f"phase {phase} {'needs' if needs_bid else 'has no'} pending bid")
        if (phase == CARD) != (self.pending is not None):
            fail("pending", "a drawn card is pending exactly in phase CARD")
        if phase == CARD and not 0 <= self.placed < self.bid:
            fail(
                "placed",
                f"is {self.placed}; bid {self.bid} allows 0..{self.bid - 1} before the turn ends",
            )
        if phase != CARD and self.placed != 0:
            fail("placed", f"is {self.placed}; cards are placed only in phase CARD")
        if self.red_used and (self.variant or phase != CARD):
            fail("red_used", "a red chip is spent only by a REDRAW (base game, phase CARD)")
        if not 0 <= self.declared <= MAX_RED_DECLARED:
            fail("declared", f"is {self.declared}, not 0..{MAX_RED_DECLARED}")
        if self.declared and (not self.variant or phase in (DECLARE, GAME_OVER)):
            fail("declared", "declared red chips exist only with variant_red3, after DECLARE")
        if self.bets_revealed != (phase == CARD):
            fail("bets_revealed", "bets are revealed exactly in phase CARD")
        self._check_bets(fail)
        self._check_turn_bound(fail)
        chips = self.chip_totals()
        expected = [n * START_CHIPS[colour] for colour in range(3)]
        if chips != expected:
            fail(
                "bank",
                f"chips in hands, on bet cards and the bank total {chips}, "
                f"not {expected} (the start chips of {n} players)",
            )

        # How the game ended (§6.1).
        if live:
            if self.end_reason is not None:
                fail("end_reason", f"is {self.end_reason!r} while the game goes on")
            if empty >= 3:
                fail("stacks", f"{empty} bid stacks are empty: the game would be over")
        elif self.end_reason == END_DECK:
            if not self.end_pending:
                fail("end_reason", "the deck ran out twice, but end_pending is not set")
            if empty >= 3:
                fail("end_reason", f"{empty} bid stacks are empty: the game ended by them")
        elif self.end_reason == END_STACKS:
            if empty < 3:
                fail("end_reason", f"only {empty} bid stacks are empty, not 3")
        else:
            fail(
                "end_reason",
                f"is {self.end_reason!r}; a game with all 66 crop cards ends "
                f"by {END_DECK!r} or {END_STACKS!r}",
            )
        self._refresh_fits()
        self._refresh_counts()
        self._legal = None
        self._mask = None

    def _check_turn_bound(self, fail: Callable[[str, str], None]) -> None:
        """``turn`` against the cards drawn: every turn draws a card, so the game ends
        within 121 turns (§6.1); a snapshot must not claim more turns than draws allow."""
        drew = self.phase in (CARD, GAME_OVER)  # the current turn has drawn its first card
        deck = len(self.deck)
        if self.exhaustions == 0 and self.turn - 1 + drew > DECK_AFTER_SETUP - deck:
            fail(
                "turn",
                f"turn {self.turn} with {deck} cards still in the first deck: "
                f"only {DECK_AFTER_SETUP - deck} have been drawn",
            )
        if self.phase != GAME_OVER and self.exhaustions == 1:
            # The turns still to come draw at most the cards left before the last exhaustion.
            last = self.turn + deck - 1 + drew
            if last > MAX_TURNS:
                fail(
                    "turn",
                    f"turn {self.turn} with {deck} cards left before the deck runs "
                    f"out twice could reach turn {last}, beyond {MAX_TURNS}",
                )

    def _check_bets(self, fail: Callable[[str, str], None]) -> None:
        """Bettors, bet order and bets against the phase (§4.3 DP-2, REVEAL)."""
        n, t, phase = self.num_players, self.turn_player, self.phase
        if any(
            b is not None and (len(b) != 2 or b[0] not in (YES, NO) or b[1] not in STAKES)
            for b in self.bets
        ):
            fail("bets", "bets must be null or [side 0/1, stake 1..3] per seat")
        order = self.bet_order
        if any(not 0 <= s < n for s in order):
            fail("bet_order", f"{order} lists a seat outside 0..{n - 1}")
        clockwise = [(t + i) % n for i in range(1, n)]
        betting = [s for s, b in enumerate(self.bets) if b is not None]
        if phase == BET:
            eligible = [s for s in clockwise if _funds(self.chips[s]) >= 1]
            if order != eligible:
                fail(
                    "bet_order",
                    f"is {order}; the seats able to bet, clockwise from the "
                    f"turn player's left, are {eligible}",
                )
            if not 0 <= self.bet_index < len(order):
                fail("bet_index", f"is {self.bet_index}: phase BET with no bettor left")
            if betting != sorted(order[: self.bet_index]):
                fail(
                    "bets", f"the seats that have bet are {order[: self.bet_index]}, not {betting}"
                )
            for s in betting:
                if self.bets[s][1] > _funds(self.chips[s]):
                    fail("bets", f"seat {s}'s stake {self.bets[s][1]} exceeds its funds")
        elif phase == CARD:
            if order != [s for s in clockwise if s in order] or len(set(order)) != len(order):
                fail("bet_order", f"{order} is not other seats in clockwise order from {t}'s left")
            if self.bet_index != len(order):
                fail("bet_index", f"is {self.bet_index}; after REVEAL it is {len(order)}")
            if betting != sorted(order):
                fail("bets", f"the bettors {order} hold the revealed bets, not seats {betting}")
            for s in clockwise:
                if s not in order and _funds(self.chips[s]) >= 1:
                    fail("bet_order", f"seat {s} could fund a stake but did not bet")
        else:
            if order or self.bet_index or betting:
                fail("bet_order", f"phase {phase} has no bettors, bet index or bets")

    def card_zones(self) -> list[int]:
        """Every crop card (W* included) in some zone: 66 in all, 11 of each type."""
        pending = [] if self.pending is None else [self.pending]
        return self.deck + self.discard + [c for b in self.baskets for c in b] + pending

    def chip_totals(self) -> list[int]:
        """Per colour: chips in hands + stakes on bet cards + bank balance (constant)."""
        escrow = [0, 0, 0]
        if self.bets_revealed:
            escrow[BLUE] = sum(self.bets[s][1] for s in self.bet_order)
        return [
            sum(c[colour] for c in self.chips) + escrow[colour] + self.bank[colour]
            for colour in range(3)
        ]

    def __repr__(self) -> str:
        baskets = " | ".join("".join(CROP_LETTERS[c] for c in b) for b in self.baskets)
        return (
            f"<Cornucopia turn {self.turn} {self.phase} P{self.current_player} "
            f"bid={self.bid} k={self.placed} [{baskets}]>"
        )


#: The fields of a snapshot, in :meth:`State.to_dict`'s order.
SNAPSHOT_FIELDS = (
    "game", "version", "num_players", "config", "seed", "shuffles", "deck", "discard",
    "baskets", "exhaustions", "end_pending", "stacks", "won", "chips", "bank",
    "start_player", "turn_player", "turn", "phase", "bid", "placed", "red_used",
    "declared", "pending", "bet_order", "bet_index", "bets", "bets_revealed",
    "end_reason", "log", "last_log",
)  # fmt: skip


def _funds(chips: Sequence[int]) -> int:
    """Blue a seat can stake: its blue plus three per yellow (§4.3 DP-2)."""
    return chips[BLUE] + BLUE_PER_YELLOW * chips[YELLOW]


class _Reader(SnapshotReader):
    """Reads the fields of a snapshot, each of exactly its JSON type (no coercion: ``8.7``
    or ``true`` where an int is due is refused). Ranges are :meth:`State._check`'s job."""

    def string(self, field: str, nullable: bool = False) -> Any:
        value = self.data[field]
        if not (isinstance(value, str) or (nullable and value is None)):
            self.fail(field, f"is {value!r}, not a string" + (" or null" if nullable else ""))
        return value

    def integers(self, field: str, length: int | None = None) -> list[int]:
        return self._integers(field, self.data[field], length)

    def rows(
        self, field: str, length: int, inner: int | None = None, nullable: bool = False
    ) -> list[Any]:
        """A list of ``length`` integer lists (of ``inner`` entries each), or nulls."""
        rows = self._list(field, self.data[field], length)
        return [
            None if nullable and row is None else self._integers(f"{field}[{i}]", row, inner)
            for i, row in enumerate(rows)
        ]

    def strings(self, field: str) -> list[str]:
        values = self._list(field, self.data[field], None)
        if not all(isinstance(v, str) for v in values):
            self.fail(field, "holds a line that is not a string")
        return list(values)

    def _integers(self, field: str, value: Any, length: int | None) -> list[int]:
        values = self._list(field, value, length)
        if not all(is_integer(v) for v in values):
            self.fail(field, f"{values!r} holds a value that is not an integer")
        return [int(v) for v in values]
