"""Wasabi! (哇沙米!): the rules engine.

Recipes on a grid for 2-4 players, specified in ``shared/rules/wasabi.md`` (the "spec";
section numbers below refer to it). Players place ingredient tiles on a shared 6-row grid
(5, 6 or 7 columns by player count) and complete their secret recipes when a row or column
window shows the recipe's ingredients; action cards bend the rules for one turn.

Board cells are ``r * 7 + c`` (row 0 at the top, column 0 at the left) for every player
count; cells in columns ``>= C`` are inactive and never legal. A cell holds a stack of tiles
(bottom first; only the top counts) and may be covered by a Wasabi! card, named by its
anchor (top-left) cell.

Actions (one ``Discrete(72)`` space, spec §11.2):

=======  =====================================================  ==========================
index    meaning                                                decision points
=======  =====================================================  ==========================
0-41     ``CELL(r, c)``, index ``r * 7 + c``                    PLACE_TARGET, SWITCH_FIRST,
                                                                SWITCH_SECOND, CHOP_TARGET,
                                                                CHOPPED_TILE, WASABI_ANCHOR,
                                                                REWARD_PICK (a board card)
42-58    ``KIND(k)``, ingredient ``k = index - 42``             GIFT_PICK, STEP1_START,
                                                                PLACE_DUE, REFILL_INGREDIENT
59-63    ``CARD(t)``, type ``t = index - 59`` (Stack!, Spicy!,  STEP1_START, AFTER_PLACEMENT,
         Switch!, Chop!, Wasabi!)                               REWARD_PICK, REWARD_DISCARD
64-67    ``LENGTH(L)``, ``L = index - 62``: a recipe deck       DRAFT_PICK, REFILL_RECIPE
68-70    ``RECIPE_SLOT(i)``, ``i = index - 68``                 STEP1_START, DISCARD_MORE
71       ``DONE``: decline / stop                               see spec §4.4
=======  =====================================================  ==========================

Every decision point of spec §4.4 (D1-D16) is its own step, even a forced one (a single
legal action). The only chance is at setup (the start player and the four deck shuffles),
drawn from the seed in :meth:`WasabiRules.new_state`; afterwards the game is deterministic,
so the state holds no generator, only the shuffled decks (hidden from every view).

Version history (``Rules.version``, the ``-vN`` of the env ids ``boardgame_envs/wasabi-vN``):

* v1: observation offsets 1972-1974 ("own slots marked for discard") show the observing
  seat's own marks (they showed the active player's to every seat); under
  ``hide_opponent_hands`` the pending kind (offsets 2180-2196, and ``View.kind``) is shown
  only to the seat placing it; a finished state keeps no turn context (after an instant
  victory the card used, placements and picks of the last turn are cleared); ``view(seat)``
  refuses a seat out of range; snapshots are fully validated (exact JSON types, ranges,
  conservation, the context of the current decision) and carry ``version: 1`` (a v0
  snapshot is refused); ``max_turns`` is at most 1,000,000.
* v0: first release.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

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
from boardgame_envs.wasabi.data import (
    ACTIVE_COLUMNS,
    CARD_HAND_LIMIT,
    CARD_NAMES,
    CARDS_IN_PLAY,
    CHOP,
    DECK_RECIPES,
    DEFAULT_MAX_TURNS,
    DRAFT_SIZE,
    GIFT_SIZE,
    GRID_COLUMNS,
    INGREDIENTS,
    KIND_NAMES,
    LENGTHS,
    MAKI,
    MENU_SLOTS,
    NUM_CARD_TYPES,
    NUM_CELLS,
    NUM_KINDS,
    NUM_RECIPES,
    NUM_TILES,
    RECIPE_LENGTH,
    RECIPES,
    RECIPES_TO_WIN,
    ROWS,
    SPICY,
    STACK,
    SWITCH,
    TILE_COUNTS,
    TILE_HAND_LIMIT,
    TOKENS,
    WASABI,
)

# -- action indices ---------------------------------------------------------------------
CELL_BASE = 0
KIND_BASE = 42
CARD_BASE = 59
LENGTH_BASE = 64
SLOT_BASE = 68
DONE = 71
NUM_ACTIONS = 72


def cell_action(row: int, col: int) -> int:
    return CELL_BASE + row * GRID_COLUMNS + col


def kind_action(kind: int) -> int:
    return KIND_BASE + kind


def card_action(card: int) -> int:
    return CARD_BASE + card


def length_action(length: int) -> int:
    return LENGTH_BASE + length - 2


def slot_action(slot: int) -> int:
    return SLOT_BASE + slot


def cell_name(cell: int) -> str:
    return f"({cell // GRID_COLUMNS},{cell % GRID_COLUMNS})"


# -- decision points (spec §4.4), in the order D1..D16 ------------------------------------
GIFT_PICK = "GIFT_PICK"  # D1
DRAFT_PICK = "DRAFT_PICK"  # D2
STEP1_START = "STEP1_START"  # D3
PLACE_TARGET = "PLACE_TARGET"  # D4
PLACE_DUE = "PLACE_DUE"  # D5
AFTER_PLACEMENT = "AFTER_PLACEMENT"  # D6
SWITCH_FIRST = "SWITCH_FIRST"  # D7
SWITCH_SECOND = "SWITCH_SECOND"  # D8
CHOP_TARGET = "CHOP_TARGET"  # D9
CHOPPED_TILE = "CHOPPED_TILE"  # D10
WASABI_ANCHOR = "WASABI_ANCHOR"  # D11
DISCARD_MORE = "DISCARD_MORE"  # D12
REWARD_PICK = "REWARD_PICK"  # D13
REWARD_DISCARD = "REWARD_DISCARD"  # D14
REFILL_INGREDIENT = "REFILL_INGREDIENT"  # D15
REFILL_RECIPE = "REFILL_RECIPE"  # D16
GAME_OVER = "GAME_OVER"
PHASES = (
    GIFT_PICK,
    DRAFT_PICK,
    STEP1_START,
    PLACE_TARGET,
    PLACE_DUE,
    AFTER_PLACEMENT,
    SWITCH_FIRST,
    SWITCH_SECOND,
    CHOP_TARGET,
    CHOPPED_TILE,
    WASABI_ANCHOR,
    DISCARD_MORE,
    REWARD_PICK,
    REWARD_DISCARD,
    REFILL_INGREDIENT,
    REFILL_RECIPE,
)
PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
_SETUP = frozenset((GIFT_PICK, DRAFT_PICK))

#: Decisions of one turn at most: Step 1 <= 5 (e.g. Spicy! before: D3 D5 D4 D5 D4),
#: <= 3 completions (a menu holds 3 recipes) each with a pick and a discard (6),
#: <= 3 ingredient refills and <= 3 recipe draws.
MAX_DECISIONS_PER_TURN = 5 + 2 * MENU_SLOTS + TILE_HAND_LIMIT + MENU_SLOTS

#: The largest ``max_turns`` (games end by a full board after 37-59 turns in random and
#: heuristic play). Nothing is allocated in proportion to it; it bounds ``max_decisions``
#: and so the env's step limit.
MAX_TURNS_LIMIT = 1_000_000


def _is_turn_limit(value: Any) -> bool:
    """A plain int (a snapshot's config must stay JSON), not a bool, in range."""
    return type(value) is int and 1 <= value <= MAX_TURNS_LIMIT


_BIT = np.array([1 << k for k in range(NUM_KINDS)] + [0], dtype=np.int64)  # _BIT[-1] == 0


@dataclass(frozen=True)
class Geometry:
    """Cells, windows, neighbours and Wasabi! anchors of the active area with ``columns``."""

    columns: int
    active: tuple[int, ...]  # active cells, ascending
    is_active: tuple[bool, ...]  # per cell of the 6 x 7 grid
    neighbours: tuple[tuple[int, ...], ...]  # active orthogonal neighbours per cell
    #: Windows of each length (index L - 2): cells in reading order (left → right in a row,
    #: top → bottom in a column).
    windows: tuple[tuple[tuple[int, ...], ...], ...]
    window_arrays: tuple[np.ndarray, ...]  # the same as int arrays of shape (W, L)
    through: tuple[tuple[tuple[int, ...], ...], ...]  # [L - 2][cell]: windows containing it
    anchors: tuple[int, ...]  # Wasabi! anchors: r <= 4, c <= C - 2
    block: tuple[tuple[int, ...], ...]  # per cell: the 4 cells of a card anchored there


@functools.cache
def geometry(columns: int) -> Geometry:
    active = tuple(r * GRID_COLUMNS + c for r in range(ROWS) for c in range(columns))
    is_active = tuple(cell in active for cell in range(NUM_CELLS))
    neighbours = []
    for cell in range(NUM_CELLS):
        r, c = divmod(cell, GRID_COLUMNS)
        near = [(r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)]
        neighbours.append(
            tuple(
                rr * GRID_COLUMNS + cc
                for rr, cc in near
                if is_active[cell] and 0 <= rr < ROWS and 0 <= cc < columns
            )
        )
    windows, arrays, through = [], [], []
    for length in LENGTHS:
        found = []
        for r in range(ROWS):
            for c in range(columns - length + 1):
                found.append(tuple(r * GRID_COLUMNS + c + i for i in range(length)))
        for c in range(columns):
            for r in range(ROWS - length + 1):
                found.append(tuple((r + i) * GRID_COLUMNS + c for i in range(length)))
        windows.append(tuple(found))
        arrays.append(np.array(found, dtype=np.intp))
        through.append(
            tuple(
                tuple(w for w, cells in enumerate(found) if cell in cells)
                for cell in range(NUM_CELLS)
            )
        )
    anchors = tuple(r * GRID_COLUMNS + c for r in range(ROWS - 1) for c in range(columns - 1))
    block = tuple(
        (cell, cell + 1, cell + GRID_COLUMNS, cell + GRID_COLUMNS + 1) for cell in range(NUM_CELLS)
    )
    return Geometry(
        columns,
        active,
        is_active,
        tuple(neighbours),
        tuple(windows),
        tuple(arrays),
        tuple(through),
        anchors,
        block,
    )


def covered_cells(anchors: Sequence[int]) -> list[bool]:
    """Per cell of the grid: covered by one of the Wasabi! cards at ``anchors``."""
    covered = [False] * NUM_CELLS
    for anchor in anchors:
        covered[anchor] = covered[anchor + 1] = True
        covered[anchor + GRID_COLUMNS] = covered[anchor + GRID_COLUMNS + 1] = True
    return covered


def top_tiles(stacks: Sequence[tuple[int, ...]], anchors: Sequence[int]) -> list[int]:
    """Per cell: the kind of the top tile in play, or -1 (empty or covered)."""
    covered = covered_cells(anchors)
    return [s[-1] if s and not covered[i] else -1 for i, s in enumerate(stacks)]


def _replaced(items: tuple, index: int, value: Any) -> tuple:
    """Copy-on-write: ``items`` with the entry at ``index`` replaced by ``value``."""
    return items[:index] + (value,) + items[index + 1 :]


def _added(items: tuple[int, ...], index: int, delta: int) -> tuple[int, ...]:
    """Copy-on-write: ``items`` with ``delta`` added to the count at ``index``."""
    return items[:index] + (items[index] + delta,) + items[index + 1 :]


_NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=bool)
_NO_ACTIONS.flags.writeable = False
_POINTS = tuple(TOKENS[length].points for length in RECIPE_LENGTH)
_LENGTH_OF: dict[int | None, int] = {None: 0, **dict(enumerate(RECIPE_LENGTH))}
RECIPE_KINDS = tuple(frozenset(r.kinds) for r in RECIPES)
RECIPE_MASKS = tuple(sum(1 << k for k in r.kinds) for r in RECIPES)


def find_match(
    recipe: int, tops: np.ndarray, geo: Geometry, either_direction: bool = False
) -> tuple[bool, bool]:
    """(some usable window matches ``recipe``, some matching window is ideal), spec §4.2.

    A window matches when its top tiles are the recipe's kinds in any order: the sum of
    ``1 << kind`` over the window equals the recipe's bit mask exactly when the kinds are
    distinct and are the recipe's (a repeated kind would carry into another bit; an empty
    or covered cell adds 0 and leaves a bit missing).
    """
    kinds = RECIPES[recipe].kinds
    windows = geo.window_arrays[len(kinds) - 2]
    hits = np.flatnonzero(_BIT[tops][windows].sum(axis=1) == RECIPE_MASKS[recipe])
    if hits.size == 0:
        return False, False
    seen = tops[windows[hits]]
    ideal = bool((seen == kinds).all(axis=1).any())
    if not ideal and either_direction:
        ideal = bool((seen[:, ::-1] == kinds).all(axis=1).any())
    return True, ideal


class WasabiRules(BaseRules):
    """Wasabi! for 2-4 players."""

    name = "wasabi"
    version = 1
    min_players = 2
    max_players = 4
    action_size = NUM_ACTIONS
    phases = PHASES
    encoding_module = "boardgame_envs.wasabi.encoding"
    render_module = "boardgame_envs.wasabi.render"
    sample_module = "boardgame_envs.wasabi.sample"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 0.02  # spec §11.3: λ ≈ 0.02 per point
    options = {
        "style_either_direction": Option(
            False, "a window read backwards is ideal too (§8, §9.3)", (False, True)
        ),
        "gift_excludes_maki": Option(
            False, "Maki may not be given in the setup gift either (§8, §9.6)", (False, True)
        ),
        "hide_opponent_hands": Option(
            False, "remove the opponents' tiles and cards from views (§8)", (False, True)
        ),
        "max_turns": Option(
            DEFAULT_MAX_TURNS,
            "safety limit: the game ends after this many turns (§6.3)",
            _is_turn_limit,
            f"an integer from 1 to {MAX_TURNS_LIMIT:,}",
        ),
        "start_player": Option(
            "random",
            "the start player: drawn at random, or a fixed seat (§3.1)",
            lambda v: (
                v == "random" or (isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 3)
            ),
            "'random' or a seat 0..3 (below the player count)",
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        setup = (GIFT_SIZE + DRAFT_SIZE) * num_players
        return setup + MAX_DECISIONS_PER_TURN * config["max_turns"]

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        start = config["start_player"]
        if start != "random" and start >= num_players:
            raise InvalidConfigError(
                f"option start_player={start!r} is not allowed with {num_players} players; "
                f"allowed: 'random' or 0..{num_players - 1}"
            )
        rng = np.random.default_rng(seed)
        decks = [[int(r) for r in rng.permutation(np.array(deck))] for deck in DECK_RECIPES]
        if start == "random":
            start = int(rng.integers(num_players))
        state = State(self, num_players, config)
        state.decks = decks
        state.start_player = state.active = start
        state.phase = GIFT_PICK
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A determinization of ``view`` (see :mod:`.sample`)."""
        if not isinstance(view, View):
            raise TypeError(f"not a {self.name} view: {type(view).__name__}")
        return self.sampler(self, view, rng)

    def position(
        self,
        num_players: int,
        *,
        board: dict[int, list[int]] | None = None,
        anchors: tuple[int, ...] | list[int] = (),
        tiles: dict[int, list[int]] | None = None,
        cards: dict[int, list[int]] | None = None,
        menus: dict[int, list[int | None]] | None = None,
        completed: dict[int, list[tuple[int, bool]]] | None = None,
        cubes: dict[int, int] | None = None,
        active: int = 0,
        start_player: int = 0,
        turn: int = 0,
        seed: int = 0,
        **options: Any,
    ) -> State:
        """A position at the start of ``active``'s turn (D3), for tests and notebooks.

        ``board`` {cell: [kinds, bottom first]}; ``tiles`` / ``cards`` {seat: [ids]};
        ``menus`` {seat: [recipe ids or None]}; ``completed`` {seat: [(recipe, ideal)]}
        (their tokens are used). Tiles and cards in no hand and not on the board are in the
        pantry and the kitchen; recipes in no menu and not completed are in the decks,
        shuffled by ``seed``. ``cubes`` defaults to the style cubes of the ideal
        completions.
        """
        n = self.check_num_players(num_players)
        config = self.make_config(options)
        state = State(self, n, config)
        geo = state.geo
        stacks = list(state.stacks)
        for cell, stack in (board or {}).items():
            if not geo.is_active[cell]:
                raise InvalidStateError(f"cell {cell_name(cell)} is not active with {n} players")
            stacks[cell] = tuple(stack)
        state.stacks = tuple(stacks)
        state.anchors = tuple(sorted(anchors))
        hands = [[0] * NUM_KINDS for _ in range(n)]
        for seat, kinds in (tiles or {}).items():
            for k in kinds:
                hands[seat][k] += 1
        state.tiles = tuple(map(tuple, hands))
        hands = [[0] * NUM_CARD_TYPES for _ in range(n)]
        for seat, types in (cards or {}).items():
            for t in types:
                hands[seat][t] += 1
        state.cards = tuple(map(tuple, hands))
        state.menus = tuple(
            tuple(menu) + (None,) * (MENU_SLOTS - len(menu))
            for menu in ((menus or {}).get(seat, ()) for seat in range(n))
        )
        state.completed = tuple(
            tuple((r, bool(ideal)) for r, ideal in (completed or {}).get(seat, ()))
            for seat in range(n)
        )
        state.tokens = tuple(
            tuple(
                TOKENS[length].per_player - sum(RECIPE_LENGTH[r] == length for r, _ in done)
                for length in LENGTHS
            )
            for done in state.completed
        )
        state.cubes = tuple(
            (cubes or {}).get(
                seat,
                sum(TOKENS[RECIPE_LENGTH[r]].cubes for r, ideal in state.completed[seat] if ideal),
            )
            for seat in range(n)
        )
        state.pantry = tuple(
            TILE_COUNTS[k] - sum(t[k] for t in state.tiles) - sum(s.count(k) for s in state.stacks)
            for k in range(NUM_KINDS)
        )
        in_play = CARDS_IN_PLAY[n]
        state.kitchen = tuple(
            in_play[t] - sum(c[t] for c in state.cards) - (len(state.anchors) if t == WASABI else 0)
            for t in range(NUM_CARD_TYPES)
        )
        used = {r for m in state.menus for r in m if r is not None}
        used |= {r for done in state.completed for r, _ in done}
        rng = np.random.default_rng(seed)
        state.decks = [
            [int(r) for r in rng.permutation([r for r in deck if r not in used])]
            for deck in DECK_RECIPES
        ]
        state.start_player = start_player
        state.turn = turn
        state._begin_turn(active)
        state._validate()
        return state


@dataclass(eq=False)
class View(PlayerView):
    """What ``seat`` knows (spec §7): everything but the deck order, the contents of the
    other players' recipes, and (under ``hide_opponent_hands``) their tiles and cards.

    Seats are absolute here; the encoding makes them relative to ``seat``. The fields after
    ``mask`` are public facts the encoding does not use; they are there so that a full
    state can be rebuilt from a view (``sample.py``).
    """

    rules: WasabiRules
    seat: int
    num_players: int
    columns: int
    phase: str  # GAME_OVER once the game is over
    current_player: int
    active: int  # the giver, drafter or active player
    start_player: int
    turn: int
    max_turns: int
    style_either_direction: bool
    stacks: tuple[tuple[int, ...], ...]  # per cell, bottom first
    anchors: tuple[int, ...]
    pantry: tuple[int, ...]
    kitchen: tuple[int, ...]
    deck_sizes: tuple[int, ...]
    #: Tiles / cards per seat (counts per kind / type); None for hidden opponents.
    tiles: tuple[tuple[int, ...] | None, ...]
    cards: tuple[tuple[int, ...] | None, ...]
    menu: tuple[int | None, ...]  # own recipe ids per slot
    menu_lengths: tuple[tuple[int, ...], ...]  # per seat, per slot: recipe length or 0
    tokens: tuple[tuple[int, ...], ...]  # per seat: unused tokens of length 2..5
    completed: tuple[tuple[tuple[int, bool], ...], ...]  # per seat: (recipe, ideal)
    cubes: tuple[int, ...]
    scores: tuple[int, ...]
    gift: tuple[int, ...]  # kinds chosen in the current gift (D1)
    card_used: int | None
    card_before: bool
    stack_on: bool
    placements_left: int
    must_place: bool
    #: Kind chosen for the pending placement (D4); under ``hide_opponent_hands`` None for
    #: every seat but the one placing it (the tile is still behind its screen).
    kind: int | None
    selected: int | None  # first Switch! cell (D8) or the cell chopped (D10)
    lifted: int | None  # kind of the chopped tile (D10)
    marked: tuple[int, ...]  # menu slots marked for discard (D12)
    picks: int
    winner: int | None
    mask: np.ndarray  # read-only (shared with the state's memo)
    new_card: int | None  # the card just picked when its discard is due (D14)
    tiles_held: tuple[int, ...]  # per seat: tiles in hand (public even when hidden)
    cards_held: tuple[int, ...]  # per seat: action cards in hand (likewise)
    #: During the setup (GIFT_PICK, DRAFT_PICK): the left neighbour's tiles per kind,
    #: which are exactly what this seat gave it so far (spec §3.2); None afterwards.
    gift_given: tuple[int, ...] | None
    gift_excludes_maki: bool
    hide_opponent_hands: bool
    start_player_option: str | int  # the start_player option: "random" or a seat

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()

    @property
    def geo(self) -> Geometry:
        return geometry(self.columns)

    def tops(self) -> list[int]:
        return top_tiles(self.stacks, self.anchors)


class State(BaseState):
    """One position of a game of Wasabi!. Mutated in place by ``apply``.

    Copy-on-write: every component a view shows is an immutable tuple (of tuples),
    replaced, never changed, when the game moves it. A view can then hold the state's own
    tuples and stays a snapshot; clones share them; and an unchanged component is the same
    object from one view to the next, which the encoder's memos rely on.
    """

    def __init__(self, rules: WasabiRules, num_players: int, config: dict[str, Any]) -> None:
        self.rules = rules
        self.num_players = n = num_players
        self.config = dict(config)
        self.columns = ACTIVE_COLUMNS[n]
        self.stacks: tuple[tuple[int, ...], ...] = ((),) * NUM_CELLS  # per cell, bottom first
        self.anchors: tuple[int, ...] = ()  # Wasabi! cards on the board, ascending
        self.pantry: tuple[int, ...] = tuple(TILE_COUNTS)
        self.kitchen: tuple[int, ...] = tuple(CARDS_IN_PLAY[n])
        #: Top first. The only mutable component: views show just their sizes.
        self.decks: list[list[int]] = [list(deck) for deck in DECK_RECIPES]
        self.tiles: tuple[tuple[int, ...], ...] = ((0,) * NUM_KINDS,) * n
        self.cards: tuple[tuple[int, ...], ...] = ((0,) * NUM_CARD_TYPES,) * n
        self.menus: tuple[tuple[int | None, ...], ...] = ((None,) * MENU_SLOTS,) * n
        self.tokens: tuple[tuple[int, ...], ...] = (
            tuple(TOKENS[L].per_player for L in LENGTHS),
        ) * n
        self.completed: tuple[tuple[tuple[int, bool], ...], ...] = ((),) * n
        self.cubes: tuple[int, ...] = (0,) * n
        self.start_player = 0
        self.active = 0
        self.phase = GIFT_PICK
        self.turn = 0
        self.winner: int | None = None  # instant victory (spec §6.1)
        self.gift: tuple[int, ...] = ()
        self._reset_turn()
        self._derived: tuple = ()  # memo of view fields derived from the tuples, see view
        self._held_memo: tuple = ()  # likewise for the hand sizes, see _held

    def _reset_turn(self) -> None:
        """The context of one turn (spec §2.7)."""
        self.card_used: int | None = None
        self.card_before = False
        self.stack_on = False
        self.placements_left = 1
        self.must_place = True
        self.kind: int | None = None
        self.selected: int | None = None
        self.lifted: int | None = None
        self.marked: tuple[int, ...] = ()
        self.picks = 0
        self.new_card: int | None = None

    @property
    def geo(self) -> Geometry:
        return geometry(self.columns)

    # -- the contract ---------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.phase == GAME_OVER else self.active

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _phase_name(self) -> str:
        return self.phase

    def points(self, seat: int) -> int:
        """Points of the seat's flipped tokens."""
        return sum(_POINTS[r] for r, _ in self.completed[seat])

    def scores(self) -> list[float]:
        """Token points plus wasabi cubes (spec §6.4)."""
        return [float(self.points(s) + self.cubes[s]) for s in range(self.num_players)]

    def _score_keys(self) -> list[float]:
        """Score, then cubes (spec §6.4), as one number per seat: cubes divided by a bound
        on any cube count break ties of score only. After an instant victory only the
        winner ranks: 1 for it, 0 for everybody else."""
        n = self.num_players
        if self.winner is not None:
            return [1.0 if s == self.winner else 0.0 for s in range(n)]
        bound = 21 + self.config["max_turns"]  # 20 style cubes + one per Wasabi! play
        return [self.points(s) + self.cubes[s] + self.cubes[s] / bound for s in range(n)]

    def _compute_mask(self) -> np.ndarray:
        raw = bytearray(NUM_ACTIONS)
        for action in self.legal_list():
            raw[action] = 1
        return np.frombuffer(bytes(raw), dtype=bool)  # read-only: over bytes

    def legal_list(self) -> list[int]:
        """The legal actions of the current decision, by decision point (spec §4.4)."""
        phase = self.phase
        if phase == STEP1_START:
            return self._legal_step1_start()
        if phase == PLACE_TARGET:
            return self._targets()
        if phase == PLACE_DUE:
            kinds = self._placeable_kinds()
            legal = [KIND_BASE + k for k in kinds]
            return legal + [DONE] if not self.must_place or not kinds else legal
        if phase == AFTER_PLACEMENT:
            return [CARD_BASE + t for t in self._usable_cards(before=False)] + [DONE]
        if phase == SWITCH_FIRST:
            return self._switch_firsts()
        if phase == SWITCH_SECOND:
            return self._switch_partners(self.selected)
        if phase == CHOP_TARGET:
            return self._occupied()
        if phase == CHOPPED_TILE:
            return [c for c in self._empties() if c != self.selected] + [DONE]
        if phase == WASABI_ANCHOR:
            return self._free_anchors()
        if phase == DISCARD_MORE:
            slots = self._menu_slots(self.active)
            return [SLOT_BASE + i for i in slots if i not in self.marked] + [DONE]
        if phase == REWARD_PICK:
            types, anchors = self._reward_options()
            return anchors + [CARD_BASE + t for t in types] + [DONE]
        if phase == REWARD_DISCARD:
            return [CARD_BASE + t for t in self._discardable_cards()]
        if phase == REFILL_INGREDIENT:
            return [KIND_BASE + k for k in range(NUM_KINDS) if self.pantry[k]] + [DONE]
        if phase in (REFILL_RECIPE, DRAFT_PICK):
            legal = [LENGTH_BASE + i for i in range(len(LENGTHS)) if self.decks[i]]
            return legal + [DONE] if phase == REFILL_RECIPE else legal
        if phase == GIFT_PICK:
            return [KIND_BASE + k for k in self._giftable_kinds()]
        return []  # GAME_OVER

    def _legal_step1_start(self) -> list[int]:
        p = self.active
        kinds = self._hand_kinds(p) if self._empties() else []
        legal = [KIND_BASE + k for k in kinds]
        legal += [CARD_BASE + t for t in self._usable_cards(before=True)]
        legal += [SLOT_BASE + i for i in self._menu_slots(p)]
        return legal if kinds else legal + [DONE]

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)  # the tuples are shared (copy-on-write)
        other.config = dict(self.config)
        other.decks = [list(d) for d in self.decks]
        return other

    def view(self, seat: int) -> View:
        seat = self._check_seat(seat)
        mask = self._legal_mask() if seat == self.current_player else _NO_ACTIONS
        tiles, cards = self.tiles, self.cards
        config = self.config
        kind = self.kind
        if config["hide_opponent_hands"]:
            tiles = tuple(t if s == seat else None for s, t in enumerate(tiles))
            cards = tuple(c if s == seat else None for s, c in enumerate(cards))
            if seat != self.active:
                kind = None  # the tile chosen at D3/D5 is still behind the mover's screen
        menu_lengths, scores = self._derived_fields()
        # The components are the state's own immutable tuples (see the class docstring).
        # Positional arguments, in View's field order: keywords would cost about 2 µs more
        # per view (a test checks the order).
        return View(
            self.rules,
            seat,
            self.num_players,
            self.columns,
            self.phase,
            self.current_player,
            self.active,
            self.start_player,
            self.turn,
            config["max_turns"],
            config["style_either_direction"],
            self.stacks,
            self.anchors,
            self.pantry,
            self.kitchen,
            tuple(map(len, self.decks)),  # deck_sizes
            tiles,
            cards,
            self.menus[seat],  # menu
            menu_lengths,
            self.tokens,
            self.completed,
            self.cubes,
            scores,
            self.gift,
            self.card_used,
            self.card_before,
            self.stack_on,
            self.placements_left,
            self.must_place,
            kind,
            self.selected,
            self.lifted,
            self.marked,
            self.picks,
            self.winner,
            mask,
            self.new_card,
            *self._held(),  # tiles_held, cards_held
            self.tiles[(seat + 1) % self.num_players] if self.phase in _SETUP else None,
            config["gift_excludes_maki"],
            config["hide_opponent_hands"],
            config["start_player"],
        )

    def _held(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(tiles, cards) held per seat for the views, memoised like ``_derived_fields``."""
        memo = self._held_memo
        tiles, cards = self.tiles, self.cards
        if not memo or memo[0] is not tiles or memo[1] is not cards:
            memo = self._held_memo = (
                tiles,
                cards,
                tuple([sum(t) for t in tiles]),
                tuple([sum(c) for c in cards]),
            )
        return memo[2], memo[3]

    def _derived_fields(self) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """(menu lengths, scores) of every seat for the views: recomputed only when the
        menus, completions or cubes were replaced since the last view (they rarely are);
        the memo holds the tuples it was made from, so identity cannot be mistaken."""
        memo = self._derived
        menus, completed, cubes = self.menus, self.completed, self.cubes
        if not memo or memo[0] is not menus or memo[1] is not completed or memo[2] is not cubes:
            length = _LENGTH_OF
            lengths = tuple([(length[a], length[b], length[c]) for a, b, c in menus])
            scores = tuple([self.points(s) + cubes[s] for s in range(self.num_players)])
            memo = self._derived = (menus, completed, cubes, lengths, scores)
        return memo[3], memo[4]

    def describe_action(self, action: int) -> str:
        phase = self.phase
        if CELL_BASE <= action < KIND_BASE:
            cell = action - CELL_BASE
            where = cell_name(cell)
            if phase == PLACE_TARGET and self.kind is not None:
                return f"place {KIND_NAMES[self.kind]} on {where}"
            if phase == SWITCH_FIRST:
                return f"Switch!: first cell {where}"
            if phase == SWITCH_SECOND and self.selected is not None:
                return f"Switch!: swap {cell_name(self.selected)} with {where}"
            if phase == CHOP_TARGET:
                return f"Chop! the top tile of {where}"
            if phase == CHOPPED_TILE and self.lifted is not None:
                return f"put the chopped {KIND_NAMES[self.lifted]} on {where}"
            if phase == WASABI_ANCHOR:
                return f"Wasabi! on {where} (2 x 2, top-left)"
            if phase == REWARD_PICK:
                return f"take the Wasabi! card at {where} from the board"
            return f"cell {where}"
        if KIND_BASE <= action < CARD_BASE:
            name = KIND_NAMES[action - KIND_BASE]
            verb = {GIFT_PICK: "give", REFILL_INGREDIENT: "take"}.get(phase, "place")
            return f"{verb} {name}"
        if CARD_BASE <= action < LENGTH_BASE:
            name = CARD_NAMES[action - CARD_BASE]
            verb = {REWARD_PICK: "take", REWARD_DISCARD: "discard"}.get(phase, "play")
            return f"{verb} {name}"
        if LENGTH_BASE <= action < SLOT_BASE:
            return f"draw a length-{action - LENGTH_BASE + 2} recipe"
        if SLOT_BASE <= action < DONE:
            return f"discard the recipe in slot {action - SLOT_BASE}"
        if action == DONE:
            return {
                STEP1_START: "done (nothing to place)",
                PLACE_DUE: "done (no further placement)",
                AFTER_PLACEMENT: "done (no card)",
                CHOPPED_TILE: "return the chopped tile to the pantry",
                DISCARD_MORE: "done (discard the marked recipes)",
                REWARD_PICK: "decline the action-card pick",
                REFILL_INGREDIENT: "stop taking ingredients",
                REFILL_RECIPE: "stop drawing recipes",
            }.get(phase, "done")
        return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"

    # -- legal-move generation, one function per decision type ----------------------------
    def _hand_kinds(self, seat: int) -> list[int]:
        return [k for k, count in enumerate(self.tiles[seat]) if count]

    def _menu_slots(self, seat: int) -> list[int]:
        return [i for i, r in enumerate(self.menus[seat]) if r is not None]

    def _empties(self) -> list[int]:
        """Active, uncovered, empty cells: the targets of a normal placement."""
        covered = covered_cells(self.anchors)
        stacks = self.stacks
        return [c for c in self.geo.active if not stacks[c] and not covered[c]]

    def _occupied(self) -> list[int]:
        """Active, uncovered, occupied cells: Stack! targets with tiles, Chop! targets."""
        covered = covered_cells(self.anchors)
        stacks = self.stacks
        return [c for c in self.geo.active if stacks[c] and not covered[c]]

    def _targets(self) -> list[int]:
        """Placement targets (D4): empty ones, or every uncovered cell under Stack!."""
        if self.stack_on:
            covered = covered_cells(self.anchors)
            return [c for c in self.geo.active if not covered[c]]
        return self._empties()

    def _placeable_kinds(self) -> list[int]:
        return self._hand_kinds(self.active) if self._targets() else []

    def _switch_partners(self, a: int | None) -> list[int]:
        if a is None:
            return []
        covered = covered_cells(self.anchors)
        if covered[a]:
            return []
        stacks = self.stacks
        return [b for b in self.geo.neighbours[a] if not covered[b] and (stacks[a] or stacks[b])]

    def _switch_firsts(self) -> list[int]:
        """Cells with a partner for Switch!: adjacent, uncovered, not both empty (D7)."""
        covered = covered_cells(self.anchors)
        stacks, neighbours = self.stacks, self.geo.neighbours
        return [
            a
            for a in self.geo.active
            if not covered[a]
            and any(not covered[b] and (stacks[a] or stacks[b]) for b in neighbours[a])
        ]

    def _free_anchors(self) -> list[int]:
        """Wasabi! anchors whose 2 x 2 block overlaps no card on the board (D11)."""
        covered = covered_cells(self.anchors)
        block = self.geo.block
        return [a for a in self.geo.anchors if not any(covered[c] for c in block[a])]

    def _card_usable(self, card: int, before: bool) -> bool:
        if card == STACK:
            return before and any(self.tiles[self.active]) and bool(self._occupied())
        if card == SPICY:
            return any(self.tiles[self.active]) and bool(self._empties())
        if card == SWITCH:
            return self._has_swap()
        if card == CHOP:
            return bool(self._occupied())
        covered = covered_cells(self.anchors)  # WASABI: some free 2 x 2 block
        block = self.geo.block
        return any(not any(covered[c] for c in block[a]) for a in self.geo.anchors)

    def _has_swap(self) -> bool:
        """Whether Switch! has a legal pair: any occupied uncovered cell with an uncovered
        neighbour (two empty cells never make a pair)."""
        covered = covered_cells(self.anchors)
        stacks, neighbours = self.stacks, self.geo.neighbours
        return any(
            stacks[a] and not covered[a] and any(not covered[b] for b in neighbours[a])
            for a in self.geo.active
        )

    def _usable_cards(self, before: bool) -> list[int]:
        hand = self.cards[self.active]
        return [t for t in range(NUM_CARD_TYPES) if hand[t] and self._card_usable(t, before)]

    def _reward_options(self) -> tuple[list[int], list[int]]:
        """(kitchen types, board Wasabi! actions) allowed at a pick (D13, spec §9.10).

        Options of the type used this turn are forbidden while some option of another
        type is on offer; a Wasabi! card on the board counts as type Wasabi!.
        """
        types = [t for t in range(NUM_CARD_TYPES) if self.kitchen[t]]
        anchors = list(self.anchors)
        used = self.card_used
        if used is not None:
            offered = set(types) | ({WASABI} if anchors else set())
            if offered - {used}:
                types = [t for t in types if t != used]
                if used == WASABI:
                    anchors = []
        return types, [CELL_BASE + a for a in anchors]

    def _discardable_cards(self) -> list[int]:
        """The types among the two cards held before the pick (D14)."""
        hand = list(self.cards[self.active])
        if self.new_card is not None:
            hand[self.new_card] -= 1
        return [t for t in range(NUM_CARD_TYPES) if hand[t]]

    def _giftable_kinds(self) -> list[int]:
        return [k for k in self._gift_kinds() if k not in self.gift and self.pantry[k]]

    def _gift_kinds(self) -> list[int]:
        """The kinds a gift may hold (spec §3.2, ``gift_excludes_maki``)."""
        no_maki = self.config["gift_excludes_maki"]
        return [
            k
            for k, ingredient in enumerate(INGREDIENTS)
            if ingredient.giftable and not (no_maki and k == MAKI)
        ]

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        getattr(self, "_apply_" + self.phase.lower())(action)

    # setup
    def _apply_gift_pick(self, action: int) -> None:
        kind = action - KIND_BASE
        receiver = (self.active + 1) % self.num_players
        self.pantry = _added(self.pantry, kind, -1)
        self._add_tile(receiver, kind, 1)
        self.gift += (kind,)
        if len(self.gift) == GIFT_SIZE:
            self.gift = ()
            self.active = receiver
            if receiver == self.start_player:
                self.phase = DRAFT_PICK

    def _apply_draft_pick(self, action: int) -> None:
        self._draw_recipe(action - LENGTH_BASE)
        if None not in self.menus[self.active]:
            self.active = (self.active + 1) % self.num_players
            if self.active == self.start_player:
                self._begin_turn(self.active)

    # Step 1
    def _apply_step1_start(self, action: int) -> None:
        if action == DONE:
            self._end_step1()
        elif action >= SLOT_BASE:
            self.marked = (action - SLOT_BASE,)
            self.phase = DISCARD_MORE
        elif action >= CARD_BASE:
            self._play_card(action - CARD_BASE, before=True)
        else:
            self.kind = action - KIND_BASE
            self.phase = PLACE_TARGET

    def _apply_place_target(self, action: int) -> None:
        p, kind = self.active, self.kind
        assert kind is not None
        self._add_tile(p, kind, -1)
        cell = action - CELL_BASE
        self.stacks = _replaced(self.stacks, cell, self.stacks[cell] + (kind,))
        self.kind = None
        self.stack_on = False
        self.placements_left -= 1
        self.must_place = False
        if self._check():
            return
        if self.placements_left > 0:
            self.phase = PLACE_DUE
        elif self.card_used is None:
            self.phase = AFTER_PLACEMENT
        else:
            self._end_step1()

    def _apply_place_due(self, action: int) -> None:
        if action == DONE:
            self._end_step1()
        else:
            self.kind = action - KIND_BASE
            self.phase = PLACE_TARGET

    def _apply_after_placement(self, action: int) -> None:
        if action == DONE:
            self._end_step1()
        else:
            self._play_card(action - CARD_BASE, before=False)

    def _play_card(self, card: int, before: bool) -> None:
        """Play ``card`` (spec §4.6). A Wasabi! card stays in hand until D11 lays it."""
        p = self.active
        self.card_used = card
        self.card_before = before
        if card != WASABI:
            self._add_card(p, card, -1)
            self.kitchen = _added(self.kitchen, card, 1)
        if card == STACK:
            self.stack_on = True
            self.phase = PLACE_DUE
        elif card == SPICY:
            self.placements_left += 1
            self.must_place = before  # Spicy! before: the first placement is still due
            self.phase = PLACE_DUE
        elif card == SWITCH:
            self.phase = SWITCH_FIRST
        elif card == CHOP:
            self.phase = CHOP_TARGET
        else:
            self.phase = WASABI_ANCHOR

    def _apply_switch_first(self, action: int) -> None:
        self.selected = action - CELL_BASE
        self.phase = SWITCH_SECOND

    def _apply_switch_second(self, action: int) -> None:
        a, b = self.selected, action - CELL_BASE
        assert a is not None
        stacks = list(self.stacks)
        stacks[a], stacks[b] = stacks[b], stacks[a]
        self.stacks = tuple(stacks)
        self.selected = None
        if self._check():
            return
        self._after_card_effect()

    def _apply_chop_target(self, action: int) -> None:
        cell = action - CELL_BASE
        self.lifted = self.stacks[cell][-1]
        self.stacks = _replaced(self.stacks, cell, self.stacks[cell][:-1])
        self.selected = cell
        if self._check():  # a 10th recipe: _game_over returns the lifted tile (§4.4 D9)
            return
        if self.card_before:
            self.phase = CHOPPED_TILE
        else:
            self._return_lifted()
            self._end_step1()

    def _apply_chopped_tile(self, action: int) -> None:
        if action == DONE:
            self._return_lifted()
            self.phase = PLACE_DUE
            return
        assert self.lifted is not None
        cell = action - CELL_BASE
        self.stacks = _replaced(self.stacks, cell, self.stacks[cell] + (self.lifted,))
        self.lifted = self.selected = None
        self.placements_left = 0  # the chopped tile was this turn's placement
        self.must_place = False
        if self._check():
            return
        self._end_step1()

    def _return_lifted(self) -> None:
        if self.lifted is not None:
            self.pantry = _added(self.pantry, self.lifted, 1)
        self.lifted = self.selected = None

    def _apply_wasabi_anchor(self, action: int) -> None:
        p = self.active
        self._add_card(p, WASABI, -1)
        self.anchors = tuple(sorted((*self.anchors, action - CELL_BASE)))
        self.cubes = _added(self.cubes, p, 1)
        if self._check():
            return
        self._after_card_effect()

    def _after_card_effect(self) -> None:
        """After Switch! or Wasabi!: the placement is still due if played before it."""
        if self.card_before:
            self.phase = PLACE_DUE
        else:
            self._end_step1()

    def _apply_discard_more(self, action: int) -> None:
        if action != DONE:
            self.marked += (action - SLOT_BASE,)
            return
        menu = list(self.menus[self.active])
        for slot in sorted(self.marked):
            recipe = menu[slot]
            assert recipe is not None
            self.decks[RECIPE_LENGTH[recipe] - 2].append(recipe)
            menu[slot] = None
        self.menus = _replaced(self.menus, self.active, tuple(menu))
        self.marked = ()
        self._end_step1()

    def _check(self) -> bool:
        """Completion check for the active player (spec §4.3); True if the game ended."""
        p = self.active
        menu, tokens = self.menus[p], self.tokens[p]
        candidates = [
            (slot, r)
            for slot, r in enumerate(menu)
            if r is not None and tokens[RECIPE_LENGTH[r] - 2]
        ]
        if not candidates:
            return False
        top_list = top_tiles(self.stacks, self.anchors)
        in_play = set(top_list)
        # A recipe can only match if each of its kinds is a top tile somewhere.
        candidates = [(slot, r) for slot, r in candidates if in_play.issuperset(RECIPE_KINDS[r])]
        if not candidates:
            return False
        tops = np.array(top_list, dtype=np.intp)
        geo, either = self.geo, self.config["style_either_direction"]
        found = []  # (not ideal, slot, recipe): ideal ones first, then lower slot
        for slot, r in candidates:
            match, ideal = find_match(r, tops, geo, either)
            if match:
                found.append((not ideal, slot, r))
        if not found:
            return False
        found.sort()
        chosen = []
        left = list(tokens)
        for not_ideal, slot, r in found:
            if left[RECIPE_LENGTH[r] - 2]:
                left[RECIPE_LENGTH[r] - 2] -= 1
                chosen.append((slot, r, not not_ideal))
        new_menu, new_tokens, done, cubes = list(menu), list(tokens), [], self.cubes[p]
        for slot, r, ideal in sorted(chosen):
            length = RECIPE_LENGTH[r]
            new_menu[slot] = None
            new_tokens[length - 2] -= 1
            done.append((r, ideal))
            if ideal:
                cubes += TOKENS[length].cubes
            self.picks += 1
        self.menus = _replaced(self.menus, p, tuple(new_menu))
        self.tokens = _replaced(self.tokens, p, tuple(new_tokens))
        self.completed = _replaced(self.completed, p, self.completed[p] + tuple(done))
        self.cubes = _replaced(self.cubes, p, cubes)
        if len(self.completed[p]) >= RECIPES_TO_WIN:
            self.winner = p
            self._game_over()
            return True
        return False

    def _game_over(self) -> None:
        """The game ends (spec §6): a tile lifted by Chop! goes back to the pantry (§4.4 D9)
        and no turn context is kept."""
        self._return_lifted()
        self._reset_turn()
        self.phase = GAME_OVER

    # Step 2
    def _end_step1(self) -> None:
        """Step 2 begins: the action-card picks, then the refills (spec §4.7)."""
        if self.picks:
            self.phase = REWARD_PICK
        else:
            self._to_refill_ingredients()

    def _apply_reward_pick(self, action: int) -> None:
        p = self.active
        self.picks -= 1
        if action == DONE:
            self._after_pick()
            return
        if action < KIND_BASE:  # a Wasabi! card from the board: its cells are uncovered
            taken = action - CELL_BASE
            self.anchors = tuple(a for a in self.anchors if a != taken)
            card = WASABI
        else:
            card = action - CARD_BASE
            self.kitchen = _added(self.kitchen, card, -1)
        self._add_card(p, card, 1)
        self.new_card = card
        if sum(self.cards[p]) > CARD_HAND_LIMIT:
            self.phase = REWARD_DISCARD
        else:
            self._after_pick()

    def _apply_reward_discard(self, action: int) -> None:
        card = action - CARD_BASE
        self._add_card(self.active, card, -1)
        self.kitchen = _added(self.kitchen, card, 1)
        self._after_pick()

    def _after_pick(self) -> None:
        self.new_card = None
        if self.picks:
            self.phase = REWARD_PICK
        else:
            self._to_refill_ingredients()

    def _to_refill_ingredients(self) -> None:
        if sum(self.tiles[self.active]) < TILE_HAND_LIMIT and any(self.pantry):
            self.phase = REFILL_INGREDIENT
        else:
            self._to_refill_recipes()

    def _apply_refill_ingredient(self, action: int) -> None:
        if action == DONE:
            self._to_refill_recipes()
            return
        kind = action - KIND_BASE
        self.pantry = _added(self.pantry, kind, -1)
        self._add_tile(self.active, kind, 1)
        self._to_refill_ingredients()

    def _to_refill_recipes(self) -> None:
        if None in self.menus[self.active] and any(self.decks):
            self.phase = REFILL_RECIPE
        else:
            self._end_turn()

    def _apply_refill_recipe(self, action: int) -> None:
        if action == DONE:
            self._end_turn()
            return
        self._draw_recipe(action - LENGTH_BASE)
        self._to_refill_recipes()

    def _draw_recipe(self, deck: int) -> None:
        p = self.active
        menu = self.menus[p]
        recipe = self.decks[deck].pop(0)
        self.menus = _replaced(self.menus, p, _replaced(menu, menu.index(None), recipe))

    def _add_tile(self, seat: int, kind: int, delta: int) -> None:
        self.tiles = _replaced(self.tiles, seat, _added(self.tiles[seat], kind, delta))

    def _add_card(self, seat: int, card: int, delta: int) -> None:
        self.cards = _replaced(self.cards, seat, _added(self.cards[seat], card, delta))

    # turns
    def board_full(self) -> bool:
        """Every active cell occupied or covered (spec §6.2)."""
        covered = covered_cells(self.anchors)
        return all(self.stacks[c] or covered[c] for c in self.geo.active)

    def _end_turn(self) -> None:
        """End-of-turn tests (spec §6.2, §6.3), then the left neighbour's turn."""
        self.turn += 1
        if self.board_full() or self.turn >= self.config["max_turns"]:
            self._game_over()
            return
        self._begin_turn((self.active + 1) % self.num_players)

    def _begin_turn(self, seat: int) -> None:
        self.active = seat
        self._reset_turn()
        self.phase = STEP1_START

    # -- snapshots ------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "stacks": [list(stack) for stack in self.stacks],
            "anchors": list(self.anchors),
            "pantry": list(self.pantry),
            "kitchen": list(self.kitchen),
            "decks": [list(deck) for deck in self.decks],
            "tiles": [list(t) for t in self.tiles],
            "cards": [list(c) for c in self.cards],
            "menus": [list(m) for m in self.menus],
            "tokens": [list(t) for t in self.tokens],
            "completed": [[[r, ideal] for r, ideal in done] for done in self.completed],
            "cubes": list(self.cubes),
            "start_player": self.start_player,
            "active": self.active,
            "phase": self.phase,
            "turn": self.turn,
            "winner": self.winner,
            "gift": list(self.gift),
            "card_used": self.card_used,
            "card_before": self.card_before,
            "stack_on": self.stack_on,
            "placements_left": self.placements_left,
            "must_place": self.must_place,
            "kind": self.kind,
            "selected": self.selected,
            "lifted": self.lifted,
            "marked": list(self.marked),
            "picks": self.picks,
            "new_card": self.new_card,
        }

    @classmethod
    def from_dict(cls, rules: WasabiRules, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_dict`, refusing any snapshot that is not a position
        play can continue from: every field of exactly its JSON type (no coercion: ``8.7``
        or ``true`` where an int is due is refused; a bool is not an int), the version,
        then ranges, conservation and the context of the current decision
        (:meth:`_validate`). Errors name the field."""
        name = rules.name
        if not isinstance(data, dict):
            raise InvalidStateError(
                f"not a {name} snapshot: expected a JSON object, not {type(data).__name__}"
            )
        missing = [key for key in SNAPSHOT_FIELDS if key not in data]
        unknown = sorted(repr(key) for key in data if key not in SNAPSHOT_FIELDS)
        if missing or unknown:
            problems = [f"missing field(s) {', '.join(missing)}"] if missing else []
            problems += [f"unknown field(s) {', '.join(unknown)}"] if unknown else []
            raise InvalidStateError(f"not a {name} snapshot: " + "; ".join(problems))
        read = _Reader(name, data)
        if data["game"] != name:
            read.fail("game", f"snapshot is of game {data['game']!r}, not {name!r}")
        version = read.integer("version")
        if version != rules.version:
            read.fail("version", f"is {version}; this is {name} version {rules.version}")
        try:
            n = rules.check_num_players(read.integer("num_players"))
        except InvalidConfigError as error:
            read.fail("num_players", str(error))
        config = data["config"]
        if not isinstance(config, dict) or set(config) != set(rules.options):
            read.fail("config", f"is {config!r}; expected the options {', '.join(rules.options)}")
        try:
            config = rules.make_config(config)
        except InvalidConfigError as error:
            read.fail("config", str(error))
        state = cls(rules, n, config)
        state.stacks = read.rows("stacks", NUM_CELLS)
        state.anchors = tuple(sorted(read.integers("anchors")))
        state.pantry = read.integers("pantry", NUM_KINDS)
        state.kitchen = read.integers("kitchen", NUM_CARD_TYPES)
        state.decks = [list(deck) for deck in read.rows("decks", len(LENGTHS))]
        state.tiles = read.rows("tiles", n, NUM_KINDS)
        state.cards = read.rows("cards", n, NUM_CARD_TYPES)
        state.menus = read.rows("menus", n, MENU_SLOTS, nullable=True)
        state.tokens = read.rows("tokens", n, len(LENGTHS))
        state.completed = read.completed("completed", n)
        state.cubes = read.integers("cubes", n)
        state.start_player = read.integer("start_player")
        state.active = read.integer("active")
        state.phase = read.string("phase")
        state.turn = read.integer("turn")
        state.winner = read.integer("winner", nullable=True)
        state.gift = read.integers("gift")
        state.card_used = read.integer("card_used", nullable=True)
        state.card_before = read.boolean("card_before")
        state.stack_on = read.boolean("stack_on")
        state.placements_left = read.integer("placements_left")
        state.must_place = read.boolean("must_place")
        state.kind = read.integer("kind", nullable=True)
        state.selected = read.integer("selected", nullable=True)
        state.lifted = read.integer("lifted", nullable=True)
        state.marked = read.integers("marked")
        state.picks = read.integer("picks")
        state.new_card = read.integer("new_card", nullable=True)
        state._validate()
        return state

    def _validate(self) -> None:
        """Raise ``InvalidStateError``, naming the field, unless this is a position play can
        continue from (snapshots and built positions): shapes and ranges, conservation of
        every component (spec §11.5), hand limits, the end of the game, and the context of
        the current decision (:meth:`_validate_context`)."""
        n, phase = self.num_players, self.phase

        def fail(field: str, message: str) -> NoReturn:
            raise InvalidStateError(f"invalid {self.rules.name} position: {field}: {message}")

        if phase not in _ALL_PHASES:
            fail("phase", f"unknown phase {phase!r}; known: {', '.join(_ALL_PHASES)}")
        shapes = {
            "stacks": (self.stacks, NUM_CELLS),
            "pantry": (self.pantry, NUM_KINDS),
            "kitchen": (self.kitchen, NUM_CARD_TYPES),
            "decks": (self.decks, len(LENGTHS)),
            "tiles": (self.tiles, n),
            "cards": (self.cards, n),
            "menus": (self.menus, n),
            "tokens": (self.tokens, n),
            "completed": (self.completed, n),
            "cubes": (self.cubes, n),
        }
        for name, (value, size) in shapes.items():
            if len(value) != size:
                fail(name, f"has {len(value)} entries; expected {size}")
        for name, rows, size in (
            ("tiles", self.tiles, NUM_KINDS),
            ("cards", self.cards, NUM_CARD_TYPES),
            ("menus", self.menus, MENU_SLOTS),
            ("tokens", self.tokens, len(LENGTHS)),
        ):
            if any(len(row) != size for row in rows):
                fail(name, f"every seat's entry must have {size} values")
        for name in ("active", "start_player", "winner"):
            seat = getattr(self, name)
            if seat is not None and not 0 <= seat < n:
                fail(name, f"is {seat}, not a seat 0..{n - 1}")
        start = self.config["start_player"]
        if start != "random" and start != self.start_player:
            fail("start_player", f"is {self.start_player}, but the option fixes seat {start}")
        ranges = (
            ("kind", self.kind, NUM_KINDS),
            ("lifted", self.lifted, NUM_KINDS),
            ("card_used", self.card_used, NUM_CARD_TYPES),
            ("new_card", self.new_card, NUM_CARD_TYPES),
            ("selected", self.selected, NUM_CELLS),
        )
        for name, value, size in ranges:
            if value is not None and not 0 <= value < size:
                fail(name, f"is {value}, not null or 0..{size - 1}")
        for name, values, size in (("gift", self.gift, NUM_KINDS), ("marked", self.marked, 3)):
            if any(not 0 <= v < size for v in values) or len(set(values)) != len(values):
                fail(name, f"{list(values)} must hold distinct values 0..{size - 1}")
        self._validate_components(fail)
        self._validate_end(fail)
        self._validate_context(fail)
        if phase != GAME_OVER and not self.legal_list():
            fail("phase", f"{phase} would have no legal action in this position")

    def _validate_components(self, fail: Callable[[str, str], NoReturn]) -> None:
        """Tiles, cards, recipes, tokens and cubes: in range, within the hand limits and
        conserved."""
        n, geo = self.num_players, self.geo
        for cell, stack in enumerate(self.stacks):
            if any(not 0 <= k < NUM_KINDS for k in stack):
                fail("stacks", f"cell {cell_name(cell)} holds a kind outside 0..{NUM_KINDS - 1}")
            if stack and not geo.is_active[cell]:
                fail("stacks", f"a tile lies outside the active area of {n} players")
        covered = [False] * NUM_CELLS
        for a in self.anchors:
            if a not in geo.anchors or any(covered[c] for c in geo.block[a]):
                fail("anchors", f"Wasabi! card at {cell_name(a)} is misplaced")
            for c in geo.block[a]:
                covered[c] = True
        if min(self.pantry) < 0:
            fail("pantry", f"a tile count is negative: {list(self.pantry)}")
        for seat, hand in enumerate(self.tiles):
            if min(hand) < 0 or sum(hand) > TILE_HAND_LIMIT:
                fail("tiles", f"seat {seat} holds {list(hand)}: 0..{TILE_HAND_LIMIT} tiles")
        kinds = [k for s in self.stacks for k in s]
        counts = [
            self.pantry[k] + kinds.count(k) + sum(t[k] for t in self.tiles) + (self.lifted == k)
            for k in range(NUM_KINDS)
        ]
        if counts != list(TILE_COUNTS):
            fail(
                "pantry",
                f"the {NUM_TILES} tiles are not conserved: counts per kind {counts}, "
                f"expected {list(TILE_COUNTS)}",
            )
        if min(self.kitchen) < 0:
            fail("kitchen", f"a card count is negative: {list(self.kitchen)}")
        for seat, hand in enumerate(self.cards):
            # A third card only between a pick and its discard (D13 -> D14).
            limit = CARD_HAND_LIMIT + (self.phase == REWARD_DISCARD and seat == self.active)
            if min(hand) < 0 or sum(hand) > limit:
                fail("cards", f"seat {seat} holds {list(hand)}: 0..{limit} action cards")
        cards = [
            self.kitchen[t]
            + sum(c[t] for c in self.cards)
            + (len(self.anchors) if t == WASABI else 0)
            for t in range(NUM_CARD_TYPES)
        ]
        if cards != list(CARDS_IN_PLAY[n]):
            fail(
                "kitchen",
                f"action cards are not conserved: {cards}, expected {list(CARDS_IN_PLAY[n])}",
            )
        recipes = [r for d in self.decks for r in d]
        recipes += [r for m in self.menus for r in m if r is not None]
        recipes += [r for done in self.completed for r, _ in done]
        if sorted(recipes) != list(range(NUM_RECIPES)):
            fail("decks", f"the {NUM_RECIPES} recipes are not each in one place")
        for i, deck in enumerate(self.decks):
            if any(RECIPE_LENGTH[r] != LENGTHS[i] for r in deck):
                fail("decks", f"the length-{LENGTHS[i]} deck holds another length")
        max_cubes = _MAX_STYLE_CUBES + self.config["max_turns"]  # one per Wasabi! play
        for seat in range(n):
            if min(self.tokens[seat]) < 0:
                fail("tokens", f"seat {seat} has a negative token count")
            for i, length in enumerate(LENGTHS):
                used = sum(RECIPE_LENGTH[r] == length for r, _ in self.completed[seat])
                if self.tokens[seat][i] + used != TOKENS[length].per_player:
                    fail(
                        "tokens",
                        f"seat {seat}: {self.tokens[seat][i]} unused length-{length} tokens "
                        f"and {used} completed recipes of that length do not make "
                        f"{TOKENS[length].per_player}",
                    )
            done = self.completed[seat]
            style = sum(TOKENS[RECIPE_LENGTH[r]].cubes for r, ideal in done if ideal)
            if not style <= self.cubes[seat] <= max_cubes:
                fail(
                    "cubes",
                    f"seat {seat} has {self.cubes[seat]}; its ideal dishes give {style}, "
                    f"and at most {max_cubes} are possible",
                )

    def _validate_end(self, fail: Callable[[str, str], NoReturn]) -> None:
        """The turn counter and how the game ended (spec §6)."""
        max_turns = self.config["max_turns"]
        done = [len(d) for d in self.completed]
        if not 0 <= self.turn <= max_turns:
            fail("turn", f"is {self.turn}, not 0..{max_turns} (max_turns)")
        if self.phase != GAME_OVER:
            if self.winner is not None:
                fail("winner", f"is {self.winner} while the game goes on")
            if self.turn == max_turns:
                fail("turn", f"{self.turn} turns played: the turn limit ended the game")
            if max(done) >= RECIPES_TO_WIN:
                fail("completed", f"a seat completed {RECIPES_TO_WIN} recipes: the game is over")
        elif self.winner is not None:
            if done[self.winner] != RECIPES_TO_WIN or done.count(RECIPES_TO_WIN) != 1:
                fail("winner", f"seat {self.winner} must be the one seat with 10 recipes done")
            if self.winner != self.active:
                fail("winner", f"is {self.winner}; only the active player completes recipes")
        else:
            if max(done) >= RECIPES_TO_WIN:
                fail("winner", f"a seat completed {RECIPES_TO_WIN} recipes, but none won")
            if not self.board_full() and self.turn != max_turns:
                fail(
                    "phase",
                    "GAME_OVER without a 10th recipe, a full board or the turn limit",
                )

    def _validate_context(self, fail: Callable[[str, str], NoReturn]) -> None:
        """The context of the current decision (spec §4.4): the fields it needs are set and
        consistent, the ones it forbids are not."""
        phase, p = self.phase, self.active
        for name, value, phases in (
            ("kind", self.kind, (PLACE_TARGET,)),
            ("lifted", self.lifted, (CHOPPED_TILE,)),
            ("selected", self.selected, (SWITCH_SECOND, CHOPPED_TILE)),
            ("new_card", self.new_card, (REWARD_DISCARD,)),
        ):
            if (value is not None) != (phase in phases):
                fail(name, f"is {value!r}; it is set exactly in {', '.join(phases)}")
        if bool(self.marked) != (phase == DISCARD_MORE):
            fail("marked", f"is {list(self.marked)}; slots are marked exactly in DISCARD_MORE")
        if self.gift and phase != GIFT_PICK:
            fail("gift", f"is {list(self.gift)} outside GIFT_PICK")
        context = (
            self.card_used,
            self.card_before,
            self.stack_on,
            self.placements_left,
            self.must_place,
        )
        if context not in _CONTEXTS[phase]:
            fail(
                "card_used, card_before, stack_on, placements_left, must_place",
                f"{context} is not a turn context of {phase}",
            )
        if self.picks not in _PICKS.get(phase, (0,)) or self.picks > len(self.completed[p]):
            fail("picks", f"{self.picks} pending picks are not possible in {phase}")
        if phase in _SETUP:
            self._validate_setup(fail)
        elif phase == STEP1_START and self.board_full():
            fail("stacks", "a turn starts with an empty uncovered cell (else the game is over)")
        elif phase == PLACE_TARGET and not self.tiles[p][self.kind]:
            fail("kind", f"seat {p} holds no {KIND_NAMES[self.kind]} to place")
        elif phase in (SWITCH_SECOND, CHOPPED_TILE):
            if not self.geo.is_active[self.selected] or covered_cells(self.anchors)[self.selected]:
                fail("selected", f"{cell_name(self.selected)} is not an active uncovered cell")
        elif phase == WASABI_ANCHOR and not self.cards[p][WASABI]:
            fail("cards", f"seat {p} lays a Wasabi! card it does not hold")
        elif phase == DISCARD_MORE and any(self.menus[p][i] is None for i in self.marked):
            fail("marked", f"{list(self.marked)} marks an empty menu slot")
        elif phase == REWARD_DISCARD and (
            sum(self.cards[p]) != CARD_HAND_LIMIT + 1 or not self.cards[p][self.new_card]
        ):
            fail("new_card", f"seat {p} must hold 3 cards, the new {self.new_card} among them")
        elif phase == REFILL_INGREDIENT and (
            sum(self.tiles[p]) >= TILE_HAND_LIMIT or not any(self.pantry)
        ):
            fail("tiles", f"seat {p} may not take tiles: a full hand or an empty pantry")
        elif phase == REFILL_RECIPE and (None not in self.menus[p] or not any(self.decks)):
            fail("menus", f"seat {p} may not draw: a full menu or no recipe left")

    def _validate_setup(self, fail: Callable[[str, str], NoReturn]) -> None:
        """The gifts and draws so far (spec §3.2, §3.3), in seat order from the start player:
        the givers before the current one have given 3 tiles of 3 different giftable kinds,
        the current receiver holds the gift in progress, the drafters before the current one
        hold 3 recipes and the current one fewer (lowest slots first); nothing else moved."""
        n, p, phase = self.num_players, self.active, self.phase
        if self.turn:
            fail("turn", f"is {self.turn} during the setup")
        if any(self.stacks) or self.anchors:
            fail("stacks", "the board is empty during the setup")
        if any(map(any, self.cards)) or any(self.completed) or any(self.cubes):
            fail("cards", "nobody holds cards, recipes done or cubes during the setup")
        giftable = set(self._gift_kinds())
        if not giftable.issuperset(self.gift):
            fail("gift", f"{list(self.gift)} holds a kind that may not be given")
        order = [(self.start_player + i) % n for i in range(n)]
        at = order.index(p)
        for i, seat in enumerate(order):
            receiver = (seat + 1) % n
            hand = self.tiles[receiver]
            if phase == DRAFT_PICK or i < at:
                ok = sum(hand) == GIFT_SIZE and max(hand) == 1
                ok = ok and giftable.issuperset(k for k in range(NUM_KINDS) if hand[k])
            elif i == at:
                ok = list(hand) == [self.gift.count(k) for k in range(NUM_KINDS)]
            else:
                ok = not any(hand)
            if not ok:
                fail("tiles", f"seat {receiver}'s tiles {list(hand)} are not its gift so far")
            held = sum(r is not None for r in self.menus[seat])
            if phase == GIFT_PICK or i > at:
                expected = 0
            elif i < at:
                expected = MENU_SLOTS
            else:
                expected = held if held < MENU_SLOTS else -1
            menu = self.menus[seat]
            if held != expected or any(r is None for r in menu[:held]):
                fail("menus", f"seat {seat}'s menu {list(menu)} is not its draft so far")

    def __repr__(self) -> str:
        return (
            f"<Wasabi n={self.num_players} turn {self.turn} {self.phase} "
            f"P{self.current_player} scores={[int(s) for s in self.scores()]}>"
        )


#: The fields of a snapshot, in :meth:`State.to_dict`'s order.
SNAPSHOT_FIELDS = (
    "game", "version", "num_players", "config", "stacks", "anchors", "pantry", "kitchen",
    "decks", "tiles", "cards", "menus", "tokens", "completed", "cubes", "start_player",
    "active", "phase", "turn", "winner", "gift", "card_used", "card_before", "stack_on",
    "placements_left", "must_place", "kind", "selected", "lifted", "marked", "picks",
    "new_card",
)  # fmt: skip
_ALL_PHASES = (*PHASES, GAME_OVER)
#: Style cubes of a seat that used every token on an ideal dish (spec §2.4): 20.
_MAX_STYLE_CUBES = sum(TOKENS[length].per_player * TOKENS[length].cubes for length in LENGTHS)

# The turn contexts (card_used, card_before, stack_on, placements_left, must_place) each
# decision point can have, from the transitions of spec §4.4 / §4.5.
_FRESH = (None, False, False, 1, True)  # a turn's start; also every setup and the end
_PLACED = (None, False, False, 0, False)  # placed, no card yet (D6)


def _before(card: int) -> tuple:
    return (card, True, False, 1, True)  # played before placing; the placement is due


def _after(card: int) -> tuple:
    return (card, False, False, 0, False)  # played after the placement


#: A placement still to come (D5, D4) after a card.
_PLACEMENT_DUE = frozenset(
    {
        (STACK, True, True, 1, True),
        (SPICY, True, False, 2, True),  # Spicy! before: the first, mandatory placement
        (SPICY, True, False, 1, False),  # ... the second, optional one
        (SPICY, False, False, 1, False),  # Spicy! after: one optional extra placement
        _before(SWITCH),
        _before(CHOP),
        _before(WASABI),
    }
)
#: Where Step 1 can end: a lapsed or declined placement, or after it (Stack! only before).
_STEP1_ENDS = (
    frozenset({_FRESH, _PLACED})
    | {c for c in _PLACEMENT_DUE if not c[2]}
    | {_after(card) for card in range(NUM_CARD_TYPES)}
    | {(card, True, False, 0, False) for card in range(NUM_CARD_TYPES)}
) - {_after(STACK)}
_CONTEXTS: dict[str, frozenset] = {
    GIFT_PICK: frozenset({_FRESH}),
    DRAFT_PICK: frozenset({_FRESH}),
    STEP1_START: frozenset({_FRESH}),
    PLACE_TARGET: _PLACEMENT_DUE | {_FRESH},
    PLACE_DUE: _PLACEMENT_DUE,
    AFTER_PLACEMENT: frozenset({_PLACED}),
    SWITCH_FIRST: frozenset({_before(SWITCH), _after(SWITCH)}),
    SWITCH_SECOND: frozenset({_before(SWITCH), _after(SWITCH)}),
    CHOP_TARGET: frozenset({_before(CHOP), _after(CHOP)}),
    CHOPPED_TILE: frozenset({_before(CHOP)}),
    WASABI_ANCHOR: frozenset({_before(WASABI), _after(WASABI)}),
    DISCARD_MORE: frozenset({_FRESH}),
    REWARD_PICK: _STEP1_ENDS,
    REWARD_DISCARD: _STEP1_ENDS,
    REFILL_INGREDIENT: _STEP1_ENDS,
    REFILL_RECIPE: _STEP1_ENDS,
    GAME_OVER: frozenset({_FRESH}),
}
_STEP1_PICKS = range(MENU_SLOTS + 1)  # one per completion, at most the 3 recipes of a menu
#: Pending picks per decision point (0 where not listed).
_PICKS = {
    PLACE_TARGET: _STEP1_PICKS,
    PLACE_DUE: _STEP1_PICKS,
    AFTER_PLACEMENT: _STEP1_PICKS,
    SWITCH_FIRST: _STEP1_PICKS,
    SWITCH_SECOND: _STEP1_PICKS,
    CHOP_TARGET: _STEP1_PICKS,
    CHOPPED_TILE: _STEP1_PICKS,
    WASABI_ANCHOR: _STEP1_PICKS,
    REWARD_PICK: range(1, MENU_SLOTS + 1),
    REWARD_DISCARD: range(MENU_SLOTS),  # the pick being completed is already counted off
}


class _Reader(SnapshotReader):
    """Reads the fields of a snapshot, each of exactly its JSON type (no coercion: ``8.7``
    or ``true`` where an int is due is refused). Ranges are :meth:`State._validate`'s."""

    def string(self, field: str) -> str:
        value = self.data[field]
        if not isinstance(value, str):
            self.fail(field, f"is {value!r}, not a string")
        return value

    def integers(self, field: str, length: int | None = None) -> tuple[int, ...]:
        return self._integers(field, self.data[field], length)

    def rows(
        self, field: str, length: int, inner: int | None = None, nullable: bool = False
    ) -> tuple[tuple[Any, ...], ...]:
        """A list of ``length`` integer lists (of ``inner`` entries each; ``nullable``:
        entries may be null)."""
        rows = self._list(field, self.data[field], length)
        return tuple(
            self._integers(f"{field}[{i}]", row, inner, nullable) for i, row in enumerate(rows)
        )

    def completed(self, field: str, length: int) -> tuple[tuple[tuple[int, bool], ...], ...]:
        """Per seat, a list of [recipe, ideal] pairs."""
        seats = []
        for i, done in enumerate(self._list(field, self.data[field], length)):
            pairs = []
            for pair in self._list(f"{field}[{i}]", done, None):
                if not (
                    isinstance(pair, list)
                    and len(pair) == 2
                    and is_integer(pair[0])
                    and isinstance(pair[1], bool)
                ):
                    self.fail(f"{field}[{i}]", f"{pair!r} is not a [recipe, ideal] pair")
                pairs.append((int(pair[0]), pair[1]))
            seats.append(tuple(pairs))
        return tuple(seats)

    def _integers(
        self, field: str, value: Any, length: int | None, nullable: bool = False
    ) -> tuple[Any, ...]:
        values = self._list(field, value, length)
        if not all(is_integer(v) or (nullable and v is None) for v in values):
            self.fail(field, f"{values!r} holds a value that is not an integer")
        return tuple(None if v is None else int(v) for v in values)
