"""Tahiti (大溪地): the rules engine.

Canoes on a growing archipelago of hex tiles, for 2-4 players, specified in
``shared/rules/tahiti.md`` (the "spec"; section numbers below refer to it). Component tables
and index conventions (goods, directions, tile ids, rotations) are in :mod:`.data`.

Board cells: axial ``(q, r)`` with ``q, r`` in ``[-9, 9]`` are stored row-major as
``cell = (q + 9) * 19 + (r + 9)`` (§11.3 proves every tile lies within distance 9 of home).

Actions (one ``Discrete(69)`` space, spec §11.2):

=======  ==================================================================  ==============
index    meaning                                                             phases
=======  ==================================================================  ==============
0-5      direction d: move Haumea to the neighbour tile in direction d;      HAUMEA_MOVE,
         PADDLE the canoe in direction d                                     HAUMEA_STEP,
                                                                             ACTION
6        PASS: Haumea stays; END the action step                             HAUMEA_MOVE,
                                                                             ACTION
7, 8     take the top tile of stack A / stack B                              STACK
9-44     place the tile in hand at Haumea + offset(d), rotation rho:         PLACE
         ``9 + 6 d + rho``
45-62    island I(k), k = 1..18, ``44 + k``: put the pending bounty cube on   BOUNTY_PLACE,
         its space / put the revealed depletion token on it                  DEPLETE
63-66    HARVEST coconut / banana / taro / spice                             ACTION
67       FISH                                                                ACTION
68       DELIVER                                                             ACTION
=======  ==================================================================  ==============

A turn (§4): Explore (HAUMEA_MOVE or HAUMEA_STEP, STACK, PLACE; only while Haumea is in
play), Haumea's bounty (BOUNTY_PLACE for each drawn cube with two or more legal spaces),
Actions (ACTION until END or until ``taken >= paddles``), Depletion (DEPLETE, only after
Haumea has left and when an empty island exists). Every decision the spec defines is
presented, even when it has a single legal action (a forced stack, a forced Haumea step, one
eligible island); what the rules make automatic (a bounty cube with 0 or 1 legal space, a
reef check, the fishing draw, the step ending when the paddles run out) is no decision.
Chance (bag draws, stack and token order, favourites, first player) comes from the state's
own seeded ``numpy`` generator.

Version history (``Rules.version``, the ``-vN`` of the env ids ``boardgame_envs/tahiti-vN``):

* v2: the ``"score"`` reward shaping reads the running scores as the rewarded seat may know
  them (``State.scores_known_to``): the other seats' secret favourite-tile bonus is left out
  until the game is over (v1's shaping leaked a little of it); snapshots carry
  ``version: 2``.
* v1: observation plane 23 (legal placement positions) is shown to every seat, not only to the
  one placing; a finished state keeps no actions taken; snapshots are fully validated and
  carry ``version: 1`` (a v0 snapshot is refused); ``max_rounds`` is at most 1,000,000.
* v0: first release.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.core.rules import (
    InvalidConfigError,
    InvalidStateError,
    Option,
    PlayerView,
    copy_rng,
    is_positive_int,
)
from boardgame_envs.core.rules import Rules as BaseRules
from boardgame_envs.core.rules import State as BaseState
from boardgame_envs.tahiti.data import (
    BOUNTY_WITH_HAUMEA,
    BOUNTY_WITHOUT_HAUMEA,
    CANOE_CAPACITY,
    CROPS,
    CUBES_PER_KIND,
    CUBES_REMOVED_PER_KIND,
    DIRECTION_NAMES,
    DIRECTIONS,
    FAVOURITE_FIRST,
    FAVOURITE_SECOND,
    FAVOURITE_SETS,
    FAVOURITES,
    FISH,
    FISH_DRAWS,
    FISH_DRAWS_WITH_BONUS,
    FISHING,
    GOODS_LETTERS,
    GOODS_NAMES,
    GRID_RADIUS,
    GRID_SIDE,
    HOME,
    ISLAND_SLOTS,
    ISLANDS,
    MAX_PADDLES,
    NUM_GOODS,
    NUM_ISLANDS,
    NUM_TILES,
    PLAIN,
    SET_BONUS,
    START_LAYOUT,
    TILE_IDS,
    TOKEN_COUNTS,
    TOKEN_NAMES,
    UNDEPLETED_AT_END,
    WATERS,
    home_side,
    paddles,
    reef_mask,
    tile_name,
    tile_text,
)

# -- action indices (spec §11.2) ------------------------------------------------------------
PASS = 6  # Haumea stays (HAUMEA_MOVE) / END the action step (ACTION)
END = PASS
STACK_A, STACK_B = 7, 8
PLACE_BASE = 9
ISLAND_BASE = 44  # island k (1..18) is action 44 + k
HARVEST_BASE = 63
FISH_ACTION = 67
DELIVER = 68
NUM_ACTIONS = 69


def place_action(direction: int, rotation: int) -> int:
    return PLACE_BASE + 6 * direction + rotation


# -- phases (decision types, spec §11.1), in the encoding's order ----------------------------
HAUMEA_MOVE = "HAUMEA_MOVE"
HAUMEA_STEP = "HAUMEA_STEP"
STACK = "STACK"
PLACE = "PLACE"
BOUNTY_PLACE = "BOUNTY_PLACE"
ACTION = "ACTION"
DEPLETE = "DEPLETE"
GAME_OVER = "GAME_OVER"
PHASES = (HAUMEA_MOVE, HAUMEA_STEP, STACK, PLACE, BOUNTY_PLACE, ACTION, DEPLETE, GAME_OVER)

#: The mask of a seat that is not to decide (views get a copy).
_NO_MASK = np.zeros(NUM_ACTIONS, dtype=bool)
#: Legal-action masks by their tuple of legal actions (see ``State._compute_mask``).
_MASKS: dict[tuple[int, ...], np.ndarray] = {}

#: Decisions one turn can take at most (see ``TahitiRules.max_decisions``).
MAX_DECISIONS_PER_TURN = 12


# -- the grid ------------------------------------------------------------------------------
def cell_of(q: int, r: int) -> int:
    """The cell index of axial (q, r), or -1 outside the radius-9 hexagon."""
    if max(abs(q), abs(r), abs(q + r)) > GRID_RADIUS:
        return -1
    return (q + GRID_RADIUS) * GRID_SIDE + (r + GRID_RADIUS)


NUM_CELLS = GRID_SIDE * GRID_SIDE
#: Axial (q, r) of every cell of the 19 x 19 array (also the cells outside the hexagon).
CELL_QR: tuple[tuple[int, int], ...] = tuple(
    (c // GRID_SIDE - GRID_RADIUS, c % GRID_SIDE - GRID_RADIUS) for c in range(NUM_CELLS)
)
#: ``NEIGHBOURS[cell][d]``: the cell in direction d, or -1 outside the hexagon.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell_of(q + dq, r + dr) for dq, dr in DIRECTIONS) for q, r in CELL_QR
)
HOME_CELL = cell_of(0, 0)
#: ``CROP_SPACES[g]``: (island, space bit) of every goods space of kind g (none for fish).
CROP_SPACES: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((k, 1 << s) for k in ISLANDS for s in (0, 1) if ISLAND_SLOTS[k][s] == g)
    for g in range(NUM_GOODS)
)


def placement_directions(cell_tile: Sequence[int], haumea: int) -> list[int]:
    """The directions d from Haumea's cell whose position is a legal place for a tile (§4.1
    D3): empty, with at least two placed neighbours. Public facts only (the board and
    Haumea), so the encoding shows them to every seat."""
    out = []
    for d, p in enumerate(NEIGHBOURS[haumea]):
        if p < 0 or cell_tile[p] >= 0:
            continue
        placed = sum(1 for nb in NEIGHBOURS[p] if nb >= 0 and cell_tile[nb] >= 0)
        if placed >= 2:
            out.append(d)
    return out


def cell_distance(a: int, b: int) -> int:
    (qa, ra), (qb, rb) = CELL_QR[a], CELL_QR[b]
    dq, dr = qa - qb, ra - rb
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


#: The largest ``max_rounds`` (far above the longest games, about 1,060 rounds, spec §6.6).
#: Nothing is allocated in proportion to it; it bounds ``max_decisions`` and so the env's
#: step limit.
MAX_ROUNDS_LIMIT = 1_000_000


def _is_round_limit(value: Any) -> bool:
    return is_positive_int(value) and value <= MAX_ROUNDS_LIMIT


class TahitiRules(BaseRules):
    """Tahiti for 2-4 players."""

    name = "tahiti"
    version = 2  # see the version history in the module docstring
    min_players = 2
    max_players = 4
    action_size = NUM_ACTIONS
    phases = tuple(p for p in PHASES if p != GAME_OVER)
    encoding_module = "boardgame_envs.tahiti.encoding"
    render_module = "boardgame_envs.tahiti.render"
    sample_module = "boardgame_envs.tahiti.sample"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 1 / 30  # spec §11.5
    options = {
        "max_rounds": Option(
            1000,
            "round limit (§6.6): after this many complete rounds the game stops, canoes are "
            "unloaded, the game is scored and the state records truncated=True",
            _is_round_limit,
            f"an integer from 1 to {MAX_ROUNDS_LIMIT:,}",
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        """12 decisions per turn at most, ``max_rounds`` rounds of ``num_players`` turns.

        While Haumea is in play a turn has Explore (at most 2 Haumea decisions, since a tile
        at distance 3 from every edge tile would need 37 tiles, then STACK and PLACE), at most
        3 bounty decisions and at most 5 action decisions (at most 4 actions, as
        ``taken < paddles <= 4`` before each, then END): 12. Without her: 2 bounty, 5 action
        and 1 depletion decision: 8.
        """
        return MAX_DECISIONS_PER_TURN * num_players * config["max_rounds"]

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        state = State(self, num_players, config, np.random.default_rng(seed))
        state._setup()
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A determinization of ``view`` (see :mod:`.sample`)."""
        return self.sampler(self, view, rng)


@dataclass(eq=False, slots=True)  # slots: one is built every env step, at half the cost
class View(PlayerView):
    """What ``seat`` knows (spec §7). Seats are absolute here; encoding makes them relative.

    Per-tile tuples are indexed by tile id (0 home, 1-18 islands, 19-21 water); per-island
    tuples by island id (index 0 unused).
    """

    rules: TahitiRules
    seat: int
    num_players: int
    phase: str
    current_player: int  # -1 once the game is over
    turn_player: int
    first_player: int
    round: int  # complete rounds so far
    max_rounds: int
    side: str  # home side "A" (2/4 players) or "B" (3 players)
    tile_cell: tuple[int, ...]  # -1 when not on the table
    rotation: tuple[int, ...]
    reefs: tuple[int, ...]  # world reef edges per tile, as 6-bit masks
    cell_tile: tuple[int, ...]  # tile id per cell, -1 when empty
    edge_cells: frozenset[int]
    island_cubes: tuple[int, ...]  # bit s set: a cube on goods space s
    tokens: tuple[int, ...]  # 0 none, 1 plain, 2 fishing
    haumea: int  # Haumea's cell, -1 once she has left
    stack_sizes: tuple[int, int]
    stack_tops: tuple[int, int]  # island id of each top tile, 0 for an empty stack
    hand_tile: int  # the island being placed (PLACE), else 0
    unplaced: frozenset[int]  # islands neither on the table nor in hand
    bounty: tuple[int, ...]  # drawn bounty cubes still to process; the first is pending
    aside: tuple[int, ...]  # per kind, drawn bounty cubes set aside this turn (no space)
    revealed_token: int  # the token to place (DEPLETE), else 0
    taken: int  # actions taken by the active player this step
    canoes: tuple[int, ...]  # cell per seat
    cargo: tuple[tuple[int, ...], ...]  # per seat, cubes per goods kind
    charts: tuple[tuple[int, ...], ...]  # per seat, delivered cubes per goods kind
    favourite: int  # this seat's own favourite tile (1-7)
    bag: tuple[int, ...]  # cubes per kind in the bag (public by deduction)
    tokens_left: tuple[int, int]  # face-down tokens left: plain, fishing
    end_triggered: bool
    turns_left: int  # turns after the current one before the game ends (0 before the trigger)
    truncated: bool
    last_event: str  # the last public event, for the text rendering
    mask: np.ndarray

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()

    @property
    def paddles(self) -> int:
        """Uncovered paddles of the active player's canoe."""
        return paddles(sum(self.cargo[self.turn_player]))


class State(BaseState):
    """One position of a game of Tahiti. Mutated in place by ``apply``."""

    #: What views show of the stacks and the token pile (``_view_piles``), made on first use
    #: and dropped whenever a stack or the pile changes; likewise the cargo and the charts as
    #: tuples. Views share them (immutable). Code that edits ``stacks``, ``token_pile``,
    #: ``cargo`` or ``charts`` by hand must set them to None, as it must ``_mask``.
    _piles: tuple | None = None
    _cargo_view: tuple[tuple[int, ...], ...] | None = None
    _charts_view: tuple[tuple[int, ...], ...] | None = None

    def __init__(
        self,
        rules: TahitiRules,
        num_players: int,
        config: dict[str, Any],
        rng: np.random.Generator,
    ) -> None:
        self.rules = rules
        self.num_players = num_players
        self.config = dict(config)
        self.rng = rng
        n = num_players
        self.side = home_side(n)
        self.removed = CUBES_REMOVED_PER_KIND[n]  # per kind, out of the game (§2.12)
        self.tile_cell = [-1] * NUM_TILES
        self.rotation = [0] * NUM_TILES
        # Per island id (index 0 unused). Tuples, replaced on every change: views share them,
        # and the encoding recognises an unchanged board by identity.
        self.island_cubes: tuple[int, ...] = (0,) * (NUM_ISLANDS + 1)  # bit s: cube on space s
        self.tokens: tuple[int, ...] = (0,) * (NUM_ISLANDS + 1)  # 0 none, 1 plain, 2 fishing
        self.stacks: list[list[int]] = [[], []]  # top first
        self.token_pile: list[int] = []  # top first
        self.favourites = [0] * n
        self.unused_favourites: list[int] = []
        self.haumea = HOME_CELL
        self.bag = [0] * NUM_GOODS
        self.canoes = [HOME_CELL] * n
        self.cargo = [[0] * NUM_GOODS for _ in range(n)]
        self.charts = [[0] * NUM_GOODS for _ in range(n)]
        self.first_player = 0
        self.turn_player = 0
        self.round = 0  # complete rounds
        self.phase = HAUMEA_MOVE
        self.taken = 0
        self.hand_tile = 0
        self.bounty: list[int] = []  # drawn, not yet processed; bounty[0] is pending
        self.aside = [0] * NUM_GOODS  # bounty cubes set aside this turn
        self.revealed_token = 0
        self.end_triggered = False
        self.truncated = False
        self.last_event = ""
        self._rng_shared = False  # True while a clone may share ``rng`` (see ``clone``)
        self._rebuild()

    # -- private caches (rebuilt from the facts above) ------------------------------------------
    def _rebuild(self) -> None:
        self.cell_tile = [-1] * NUM_CELLS
        for tile, cell in enumerate(self.tile_cell):
            if cell >= 0:
                self.cell_tile[cell] = tile
        self.reefs = [reef_mask(t, self.rotation[t], self.side) for t in range(NUM_TILES)]
        self._update_edges()
        self._mask: np.ndarray | None = None
        self._piles = None
        self._charts_view = None
        self._cargo_view = None

    def _update_edges(self) -> None:
        """Edge tiles and the board tuples views share; called whenever a tile is placed."""
        cell_tile = self.cell_tile
        self.edge_cells = frozenset(
            cell
            for cell in self.tile_cell
            if cell >= 0 and any(nb < 0 or cell_tile[nb] < 0 for nb in NEIGHBOURS[cell])
        )
        self._board = (tuple(self.tile_cell), tuple(self.rotation), tuple(self.reefs))
        self._cell_tile = tuple(cell_tile)
        #: per placed cell, the directions in which a tile lies (where a canoe may paddle)
        self._open_dirs = {
            cell: [d for d, nb in enumerate(NEIGHBOURS[cell]) if nb >= 0 and cell_tile[nb] >= 0]
            for cell in self.tile_cell
            if cell >= 0
        }

    # -- setup (§3) -----------------------------------------------------------------------------
    def _setup(self) -> None:
        n, rng = self.num_players, self.rng
        in_play = CUBES_PER_KIND - self.removed
        self.bag = [in_play] * NUM_GOODS
        self._put_tile(HOME, HOME_CELL, 0)
        start_islands = []
        for tile, (q, r), rotation in START_LAYOUT[self.side]:
            self._put_tile(tile, cell_of(q, r), rotation)
            if tile not in WATERS:
                start_islands.append(tile)
        for k in start_islands:  # fill the starting islands from the cubes in play (step 5)
            for crop in ISLAND_SLOTS[k]:
                self._put_cube(k, crop)
                self.bag[crop] -= 1
        rest = [k for k in ISLANDS if k not in start_islands]
        order = [rest[i] for i in rng.permutation(len(rest))]
        split = (len(order) + 1) // 2
        self.stacks = [order[:split], order[split:]]
        pile = [PLAIN] * TOKEN_COUNTS[PLAIN] + [FISHING] * TOKEN_COUNTS[FISHING]
        self.token_pile = [pile[i] for i in rng.permutation(len(pile))]
        favourites = [FAVOURITE_SETS[n][i] for i in rng.permutation(len(FAVOURITE_SETS[n]))]
        self.favourites = favourites[:n]
        self.unused_favourites = favourites[n:]
        self.first_player = int(rng.integers(n))
        self._rebuild()
        self._begin_turn(self.first_player)

    def _put_tile(self, tile: int, cell: int, rotation: int) -> None:
        self.tile_cell[tile] = cell
        self.rotation[tile] = rotation
        self.cell_tile[cell] = tile
        self.reefs[tile] = reef_mask(tile, rotation, self.side)

    # -- the contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.phase == GAME_OVER else self.turn_player

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _phase_name(self) -> str:
        return self.phase

    def _compute_mask(self) -> np.ndarray:
        phase = self.phase
        if phase == ACTION:
            legal = self._legal_actions_step()
        elif phase == BOUNTY_PLACE:
            legal = [ISLAND_BASE + k for k in self._bounty_spaces(self.bounty[0])]
        elif phase == HAUMEA_MOVE:
            legal = self._legal_haumea_moves()
        elif phase == HAUMEA_STEP:
            legal = self._legal_haumea_steps()
        elif phase == STACK:
            legal = self._legal_stacks()
        elif phase == PLACE:
            legal = self._legal_placements()
        elif phase == DEPLETE:
            legal = [ISLAND_BASE + k for k in self._eligible_islands()]
        else:
            legal = []
        key = tuple(legal)
        mask = _MASKS.get(key)
        if mask is None:  # masks are shared, read-only arrays: few distinct ones occur
            if len(_MASKS) >= 4096:
                _MASKS.clear()
            mask = np.zeros(NUM_ACTIONS, dtype=bool)
            mask[legal] = True
            mask.flags.writeable = False
            _MASKS[key] = mask
        return mask

    def scores(self) -> list[float]:
        """Totals of §6.4 on the harvest charts (after unloading once the game is over)."""
        return [float(s) for s in score_charts(self.charts, self.favourites)]

    def scores_known_to(self, seat: int) -> list[float]:
        """The totals as ``seat`` may know them: another seat's favourite tile is secret
        until the final scoring (§7), so its favourite bonus is left out while the game
        runs (goods and set bonus only); ``seat``'s own bonus is in. Once the game is over,
        :meth:`scores`. The env's ``"score"`` reward shaping reads these."""
        seat = self._check_seat(seat)
        if self.is_terminal():
            return self.scores()
        bonus = favourite_bonus(self.charts, self.favourites)
        totals = score_charts(self.charts, self.favourites)
        return [float(total if p == seat else total - bonus[p]) for p, total in enumerate(totals)]

    def clone(self) -> State:
        """An independent copy. The generator is shared until one of the two states draws:
        each copies it before its first draw (copying a generator costs more than the rest
        of the state, and most clones made by search and tests never draw)."""
        other = object.__new__(State)
        other.__dict__.update(self.__dict__)
        other.config = dict(self.config)
        self._rng_shared = other._rng_shared = True
        other.tile_cell = list(self.tile_cell)
        other.rotation = list(self.rotation)
        other.stacks = [list(self.stacks[0]), list(self.stacks[1])]
        other.token_pile = list(self.token_pile)
        other.favourites = list(self.favourites)
        other.unused_favourites = list(self.unused_favourites)
        other.bag = list(self.bag)
        other.canoes = list(self.canoes)
        other.cargo = [list(c) for c in self.cargo]
        other.charts = [list(c) for c in self.charts]
        other.bounty = list(self.bounty)
        other.aside = list(self.aside)
        other.cell_tile = list(self.cell_tile)
        other.reefs = list(self.reefs)
        return other

    def view(self, seat: int) -> View:
        if type(seat) is not int or not 0 <= seat < self.num_players:  # else: checked
            seat = self._check_seat(seat)
        phase = self.phase
        current = -1 if phase == GAME_OVER else self.turn_player
        mask = self._legal_mask() if seat == current else _NO_MASK.copy()
        stack_sizes, stack_tops, unplaced, tokens_left = self._piles or self._view_piles()
        charts = self._charts_view or self._view_charts()
        tile_cell, rotation, reefs = self._board
        # positional, in the field order of View (about half the cost of keywords)
        return View(
            self.rules,
            seat,
            self.num_players,
            phase,
            current,
            self.turn_player,
            self.first_player,
            self.round,
            self.config["max_rounds"],
            self.side,
            tile_cell,
            rotation,
            reefs,
            self._cell_tile,
            self.edge_cells,
            self.island_cubes,
            self.tokens,
            self.haumea,
            stack_sizes,
            stack_tops,
            self.hand_tile,
            unplaced,
            tuple(self.bounty),
            tuple(self.aside),
            self.revealed_token,
            self.taken,
            tuple(self.canoes),
            self._cargo_view or self._view_cargo(),
            charts,
            self.favourites[seat],
            tuple(self.bag),
            tokens_left,
            self.end_triggered,
            self.turns_left(),
            self.truncated,
            self.last_event,
            mask,
        )

    def _view_piles(self) -> tuple:
        """Stack sizes, stack tops, unplaced islands and tokens left, as views show them."""
        a, b = self.stacks
        pile = self.token_pile
        self._piles = piles = (
            (len(a), len(b)),
            (a[0] if a else 0, b[0] if b else 0),
            frozenset(a + b),
            (pile.count(PLAIN), pile.count(FISHING)),
        )
        return piles

    def _view_cargo(self) -> tuple[tuple[int, ...], ...]:
        self._cargo_view = cargo = tuple(map(tuple, self.cargo))
        return cargo

    def _view_charts(self) -> tuple[tuple[int, ...], ...]:
        self._charts_view = charts = tuple(map(tuple, self.charts))
        return charts

    def turns_left(self) -> int:
        """Turns still to be played after the current one once the season has ended (§6.2)."""
        if not self.end_triggered or self.phase == GAME_OVER:
            return 0
        return (self.first_player - self.turn_player - 1) % self.num_players

    def describe_action(self, action: int) -> str:
        phase = self.phase
        if 0 <= action < 6:
            name = DIRECTION_NAMES[action]
            if phase in (HAUMEA_MOVE, HAUMEA_STEP):
                return f"Haumea {name}{self._target_text(self.haumea, action)}"
            if phase == ACTION:
                return f"paddle {name}{self._target_text(self.canoes[self.turn_player], action)}"
            return f"direction {name}"
        if action == PASS:
            return "Haumea stays" if phase == HAUMEA_MOVE else "end the action step"
        if action in (STACK_A, STACK_B):
            stack = self.stacks[action - STACK_A]
            top = f": {tile_text(stack[0])}" if stack else " (empty)"
            return f"take stack {'AB'[action - STACK_A]}{top}"
        if PLACE_BASE <= action < ISLAND_BASE + 1:
            d, rho = divmod(action - PLACE_BASE, 6)
            where = ""
            if self.haumea >= 0 and NEIGHBOURS[self.haumea][d] >= 0:
                where = f" at {CELL_QR[NEIGHBOURS[self.haumea][d]]}"
            return f"place {DIRECTION_NAMES[d]} of Haumea{where}, rotation {rho}"
        if ISLAND_BASE < action < HARVEST_BASE:
            island = tile_name(action - ISLAND_BASE)
            if phase == BOUNTY_PLACE and self.bounty:
                return f"put the {GOODS_NAMES[self.bounty[0]]} on {island}"
            if phase == DEPLETE and self.revealed_token:
                return f"put the {TOKEN_NAMES[self.revealed_token]} token on {island}"
            return f"island {island}"
        if HARVEST_BASE <= action < FISH_ACTION:
            return f"harvest {GOODS_NAMES[action - HARVEST_BASE]}"
        if action == FISH_ACTION:
            return "fish"
        if action == DELIVER:
            return "deliver"
        return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"

    def _target_text(self, cell: int, d: int) -> str:
        if cell < 0:
            return ""
        target = NEIGHBOURS[cell][d]
        if target < 0 or self.cell_tile[target] < 0:
            return " (no tile)"
        text = f" to {tile_name(self.cell_tile[target])}"
        if self.phase == ACTION:
            reefs = self.reefs_between(cell, d)
            text += f", {reefs} reef{'' if reefs == 1 else 's'}"
        return text

    # -- geometry ---------------------------------------------------------------------------
    def reefs_between(self, cell: int, d: int) -> int:
        """Reefs crossed moving from ``cell`` in direction d (§2.4): 0, 1 or 2."""
        target = NEIGHBOURS[cell][d]
        leaving = self.reefs[self.cell_tile[cell]] >> d & 1
        entering = self.reefs[self.cell_tile[target]] >> ((d + 3) % 6) & 1
        return leaving + entering

    def _nearest_edge_distance(self, cell: int) -> int:
        return min(cell_distance(cell, edge) for edge in self.edge_cells)

    # -- legal-move generation, one function per decision type --------------------------------
    def _legal_haumea_moves(self) -> list[int]:
        """D1 (§4.1): stay on an edge tile, or step to an adjacent edge tile."""
        h = self.haumea
        edges = self.edge_cells
        legal = [d for d, nb in enumerate(NEIGHBOURS[h]) if nb in edges]
        if h in edges:
            legal.append(PASS)
        return legal

    def _legal_haumea_steps(self) -> list[int]:
        """D1, rare case: a step that brings her one closer to the nearest edge tile."""
        h = self.haumea
        here = self._nearest_edge_distance(h)
        return [
            d
            for d, nb in enumerate(NEIGHBOURS[h])
            if nb >= 0 and self.cell_tile[nb] >= 0 and self._nearest_edge_distance(nb) == here - 1
        ]

    def _legal_stacks(self) -> list[int]:
        """D2: the top tile of a non-empty stack."""
        return [STACK_A + i for i in (0, 1) if self.stacks[i]]

    def _placement_directions(self) -> list[int]:
        """D3 positions: empty, next to Haumea, with at least two placed neighbours."""
        return placement_directions(self.cell_tile, self.haumea)

    def _legal_placements(self) -> list[int]:
        return [place_action(d, rho) for d in self._placement_directions() for rho in range(6)]

    def _bounty_spaces(self, goods: int) -> list[int]:
        """Islands with an empty space of kind ``goods`` and no depletion token (§4.2)."""
        tile_cell, cubes, tokens = self.tile_cell, self.island_cubes, self.tokens
        return [
            k
            for k, bit in CROP_SPACES[goods]
            if tile_cell[k] >= 0 and not tokens[k] and not cubes[k] & bit
        ]

    def _legal_actions_step(self) -> list[int]:
        """D5 (§4.3): paddle, harvest, fish, deliver, end."""
        seat = self.turn_player
        cell = self.canoes[seat]
        legal = self._open_dirs[cell] + [END]
        tile = self.cell_tile[cell]
        n = sum(self.cargo[seat])
        if n < CANOE_CAPACITY:
            if 1 <= tile <= NUM_ISLANDS and self.island_cubes[tile]:
                cubes = self.island_cubes[tile]
                slots = ISLAND_SLOTS[tile]
                crops = [slots[s] for s in (0, 1) if cubes >> s & 1]
                legal += [HARVEST_BASE + g for g in sorted(crops)]
            if tile != HOME:
                legal.append(FISH_ACTION)
        if tile == HOME and n:
            legal.append(DELIVER)
        return legal

    def _eligible_islands(self) -> list[int]:
        """D6 (§4.4): placed islands with no token and no cube."""
        tile_cell, cubes, tokens = self.tile_cell, self.island_cubes, self.tokens
        return [k for k in ISLANDS if tile_cell[k] >= 0 and not tokens[k] and not cubes[k]]

    # -- transitions ----------------------------------------------------------------------------
    def _apply(self, action: int) -> None:
        phase = self.phase
        if phase == ACTION:
            self._apply_step_action(action)
        elif phase == BOUNTY_PLACE:
            self._put_cube(action - ISLAND_BASE, self.bounty.pop(0))
            self._process_bounty()
        elif phase in (HAUMEA_MOVE, HAUMEA_STEP):
            self._apply_haumea(action)
        elif phase == STACK:
            self.hand_tile = self.stacks[action - STACK_A].pop(0)
            self._piles = None
            self.last_event = f"took {tile_name(self.hand_tile)} from stack {'AB'[action - 7]}"
            self.phase = PLACE
        elif phase == PLACE:
            self._apply_place(action)
        elif phase == DEPLETE:
            self._apply_deplete(action - ISLAND_BASE)

    def _apply_haumea(self, action: int) -> None:
        if action != PASS:
            self.haumea = NEIGHBOURS[self.haumea][action]
        if self.haumea in self.edge_cells:
            self.phase = STACK
        else:  # rare case (§4.1 D1): keep stepping toward the nearest edge tile
            self.phase = HAUMEA_STEP

    def _apply_place(self, action: int) -> None:
        d, rho = divmod(action - PLACE_BASE, 6)
        tile = self.hand_tile
        self.hand_tile = 0
        self._put_tile(tile, NEIGHBOURS[self.haumea][d], rho)
        self._update_edges()
        self.last_event = f"placed {tile_name(tile)} at {CELL_QR[self.tile_cell[tile]]} rot {rho}"
        if not self.stacks[0] and not self.stacks[1]:
            self.haumea = -1  # Haumea leaves (§4.1)
        self._start_bounty()

    def _begin_turn(self, seat: int) -> None:
        self.turn_player = seat
        self.taken = 0
        self._mask = None
        if self.haumea < 0:
            self._start_bounty()
            return
        h = self.haumea
        edges = self.edge_cells
        if h in edges or any(nb in edges for nb in NEIGHBOURS[h]):
            self.phase = HAUMEA_MOVE
        else:
            self.phase = HAUMEA_STEP

    def _draw(self, count: int) -> list[int]:
        """Draw up to ``count`` cubes from the bag without replacement, in draw order."""
        if self._rng_shared:  # copy on first draw after a clone (see ``clone``)
            self.rng = copy_rng(self.rng)
            self._rng_shared = False
        bag = self.bag
        total = sum(bag)
        count = min(count, total)
        if count <= 0:
            return []
        drawn = []
        for u in self.rng.random(count).tolist():  # one call: draws are frequent
            x = int(u * total)
            g = 0
            while x >= bag[g]:
                x -= bag[g]
                g += 1
            bag[g] -= 1
            total -= 1
            drawn.append(g)
        return drawn

    def _start_bounty(self) -> None:
        """Haumea's bounty (§4.2): draw 3 cubes (2 once she has left), then place them."""
        count = BOUNTY_WITH_HAUMEA if self.haumea >= 0 else BOUNTY_WITHOUT_HAUMEA
        self.bounty = self._draw(count)
        self.last_event = "bounty drew " + _goods_text(tuple(self.bounty))
        self._process_bounty()

    def _process_bounty(self) -> None:
        """Place the drawn cubes in order until one has a choice of spaces (D4)."""
        bounty, aside = self.bounty, self.aside
        while bounty:
            goods = bounty[0]
            spaces = self._bounty_spaces(goods) if goods != FISH else ()
            if len(spaces) >= 2:
                self.phase = BOUNTY_PLACE  # D4
                return
            bounty.pop(0)
            if spaces:
                self._put_cube(spaces[0], goods)  # the only space: placed automatically
            else:
                aside[goods] += 1
        if any(aside):  # set-aside cubes go back into the bag
            bag = self.bag
            for g, c in enumerate(aside):
                bag[g] += c
            self.aside = [0] * NUM_GOODS
        self.taken = 0
        self.phase = ACTION

    def _put_cube(self, island: int, goods: int) -> None:
        slot = 0 if ISLAND_SLOTS[island][0] == goods else 1
        cubes = list(self.island_cubes)
        cubes[island] |= 1 << slot
        self.island_cubes = tuple(cubes)

    def _take_cube(self, island: int, goods: int) -> None:
        slot = 0 if ISLAND_SLOTS[island][0] == goods else 1
        cubes = list(self.island_cubes)
        cubes[island] &= ~(1 << slot)
        self.island_cubes = tuple(cubes)

    def _put_token(self, island: int, kind: int) -> None:
        tokens = list(self.tokens)
        tokens[island] = kind
        self.tokens = tuple(tokens)

    def _apply_step_action(self, action: int) -> None:
        seat = self.turn_player
        cargo = self.cargo[seat]
        if action == END:
            self._end_actions()
            return
        if action < 6:
            self._paddle(seat, action)
        elif action == DELIVER:
            chart = self.charts[seat]
            for g in range(NUM_GOODS):
                chart[g] += cargo[g]
                cargo[g] = 0
            self._charts_view = self._cargo_view = None
            self.last_event = "delivered"
        elif action == FISH_ACTION:
            self._fish(seat)
        else:
            goods = action - HARVEST_BASE
            self._take_cube(self.cell_tile[self.canoes[seat]], goods)
            cargo[goods] += 1
            self._cargo_view = None
            self.last_event = f"harvested {GOODS_NAMES[goods]}"
        self.taken += 1
        if self.taken >= paddles(sum(cargo)):
            self._end_actions()

    def _paddle(self, seat: int, d: int) -> None:
        """Move the canoe, then the reef check (§4.3.1)."""
        cell = self.canoes[seat]
        reefs = self.reefs_between(cell, d)
        self.canoes[seat] = NEIGHBOURS[cell][d]
        cargo = self.cargo[seat]
        self.last_event = _PADDLE_TEXT[d][reefs]
        if not reefs or not any(cargo):
            return
        drawn = self._draw(reefs)
        lost = []
        bag = self.bag
        for g in drawn:
            bag[g] += 1
            if cargo[g]:
                cargo[g] -= 1
                self._cargo_view = None
                bag[g] += 1
                lost.append(g)
        self.last_event += f": drew {_goods_text(tuple(drawn))}, lost {_goods_text(tuple(lost))}"

    def _fish(self, seat: int) -> None:
        """The fishing draw (§4.3.3): keep one fish if any is drawn."""
        island = self.cell_tile[self.canoes[seat]]
        bonus = 1 <= island <= NUM_ISLANDS and self.tokens[island] == FISHING
        drawn = self._draw(FISH_DRAWS_WITH_BONUS if bonus else FISH_DRAWS)
        for g in drawn:
            self.bag[g] += 1
        caught = FISH in drawn
        if caught:
            self.bag[FISH] -= 1
            self.cargo[seat][FISH] += 1
            self._cargo_view = None
        self.last_event = f"fished: drew {_goods_text(tuple(drawn))}" + (
            ", kept a fish" if caught else ""
        )

    def _end_actions(self) -> None:
        """After the action step: the Depletion step (§4.4) once Haumea has left."""
        if self.haumea < 0 and self._eligible_islands():
            self.revealed_token = self.token_pile.pop(0)
            self._piles = None
            self.phase = DEPLETE
            return
        self._end_turn()

    def _apply_deplete(self, island: int) -> None:
        self._put_token(island, self.revealed_token)
        self.last_event = f"{TOKEN_NAMES[self.revealed_token]} token on {tile_name(island)}"
        self.revealed_token = 0
        undepleted = sum(1 for k in ISLANDS if self.tile_cell[k] >= 0 and not self.tokens[k])
        if undepleted == UNDEPLETED_AT_END and not self.end_triggered:
            self.end_triggered = True  # the season ends (§6.1); fires only once
        self._end_turn()

    def _end_turn(self) -> None:
        """Pass to the next seat; finish the round and the game where due (§6.2, §6.6)."""
        nxt = (self.turn_player + 1) % self.num_players
        if nxt == self.first_player:
            self.round += 1
            if self.end_triggered:
                self._finish(truncated=False)
                return
            if self.round >= self.config["max_rounds"]:
                self._finish(truncated=True)
                return
        self._begin_turn(nxt)

    def _finish(self, truncated: bool) -> None:
        """Unload every canoe onto its chart (§6.3); the game is over."""
        for seat in range(self.num_players):
            for g in range(NUM_GOODS):
                self.charts[seat][g] += self.cargo[seat][g]
                self.cargo[seat][g] = 0
        self._charts_view = self._cargo_view = None
        self.truncated = truncated
        self.taken = 0  # no turn context survives the end (a finished state is clean)
        self.phase = GAME_OVER
        self._mask = None

    # -- bookkeeping for tests and snapshots ------------------------------------------------
    def cube_count(self) -> int:
        """All cubes in some place: bag, islands, canoes, charts, drawn, removed (§5)."""
        on_islands = sum(bin(c).count("1") for c in self.island_cubes)
        return (
            sum(self.bag)
            + on_islands
            + sum(map(sum, self.cargo))
            + sum(map(sum, self.charts))
            + len(self.bounty)
            + sum(self.aside)
            + self.removed * NUM_GOODS
        )

    def cubes_by_kind(self) -> list[int]:
        """Cubes of each kind outside the box's removed ones (each must be 16 - removed)."""
        counts = list(self.bag)
        for k, cubes in enumerate(self.island_cubes):
            if cubes:
                slots = ISLAND_SLOTS[k]
                if cubes & 1:
                    counts[slots[0]] += 1
                if cubes & 2:
                    counts[slots[1]] += 1
        for group in (self.cargo, self.charts, [self.aside]):
            for seat_counts in group:
                for g, c in enumerate(seat_counts):
                    counts[g] += c
        for g in self.bounty:
            counts[g] += 1
        return counts

    def tile_places(self) -> dict[str, list[int]]:
        """Where every island and water tile is: board, stacks, hand, box (unused)."""
        board = [t for t in range(1, NUM_TILES) if self.tile_cell[t] >= 0]
        stacks = self.stacks[0] + self.stacks[1]
        hand = [self.hand_tile] if self.hand_tile else []
        box = [t for t in range(1, NUM_TILES) if t not in board and t not in stacks + hand]
        return {"board": board, "stacks": stacks, "hand": hand, "box": box}

    # -- snapshots ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def goods_text(island: int) -> str:
            return "".join(
                GOODS_LETTERS[ISLAND_SLOTS[island][s]]
                for s in (0, 1)
                if self.island_cubes[island] >> s & 1
            )

        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "rng": self.rng.bit_generator.state,
            "board": [
                [tile_name(t), *CELL_QR[cell], self.rotation[t]]
                for t, cell in enumerate(self.tile_cell)
                if cell >= 0
            ],
            "haumea": list(CELL_QR[self.haumea]) if self.haumea >= 0 else None,
            "island_cubes": {tile_name(k): goods_text(k) for k in ISLANDS if self.island_cubes[k]},
            "tokens": {tile_name(k): TOKEN_NAMES[t] for k, t in enumerate(self.tokens) if t},
            "stacks": [[tile_name(t) for t in stack] for stack in self.stacks],
            "token_pile": [TOKEN_NAMES[t] for t in self.token_pile],
            "favourites": [f"F{f}" for f in self.favourites],
            "unused_favourites": [f"F{f}" for f in self.unused_favourites],
            "bag": list(self.bag),
            "canoes": [list(CELL_QR[c]) for c in self.canoes],
            "cargo": [list(c) for c in self.cargo],
            "charts": [list(c) for c in self.charts],
            "first_player": self.first_player,
            "turn_player": self.turn_player,
            "round": self.round,
            "phase": self.phase,
            "taken": self.taken,
            "hand_tile": tile_name(self.hand_tile) if self.hand_tile else None,
            "bounty": [GOODS_NAMES[g] for g in self.bounty],
            "aside": list(self.aside),
            "revealed_token": TOKEN_NAMES[self.revealed_token] if self.revealed_token else None,
            "end_triggered": self.end_triggered,
            "truncated": self.truncated,
            "last_event": self.last_event,
        }

    @classmethod
    def from_dict(cls, rules: TahitiRules, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`to_dict`. Every field is checked for its type (no
        coercion: ``true`` or ``8.7`` where an integer is due is refused), its range and its
        place in the position (:meth:`_validate`); anything else raises InvalidStateError
        naming the field."""
        try:
            state = cls._read(rules, data)
        except InvalidStateError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
            raise InvalidStateError(f"not a {rules.name} snapshot: {error!r}") from error
        state._rebuild()
        state._validate()
        return state

    @classmethod
    def _read(cls, rules: TahitiRules, data: Any) -> State:
        """The facts of a snapshot, each of the right type and range (not yet cross-checked)."""
        if not isinstance(data, dict):
            raise InvalidStateError(f"a snapshot is a JSON object, not {type(data).__name__}")
        missing = [name for name in SNAPSHOT_FIELDS if name not in data]
        if missing:
            raise InvalidStateError(
                f"not a {rules.name} snapshot: missing field {', '.join(map(repr, missing))}"
            )
        unknown = [name for name in data if name not in SNAPSHOT_FIELDS]
        if unknown:
            raise InvalidStateError(
                f"unknown snapshot field {', '.join(map(repr, unknown))}; "
                f"known: {', '.join(SNAPSHOT_FIELDS)}"
            )
        if data["game"] != rules.name:
            raise InvalidStateError(f"snapshot is of game {data['game']!r}, not {rules.name!r}")
        version = _int(data["version"], "version")
        if version != rules.version:
            raise InvalidStateError(
                f"version={version}: this is version {rules.version} of {rules.name}, which "
                f"reads snapshots of its own version only"
            )
        try:
            n = rules.check_num_players(data["num_players"])
        except InvalidConfigError as error:
            raise InvalidStateError(str(error)) from None
        options = _dict(data["config"], "config")
        if set(options) != set(rules.options):
            raise InvalidStateError(
                f"config names {', '.join(map(repr, options)) or 'no option'}; a snapshot names "
                f"every option: {', '.join(map(repr, rules.options))}"
            )
        try:
            config = rules.make_config(options)
        except InvalidConfigError as error:
            raise InvalidStateError(f"config: {error}") from None
        state = cls(rules, n, config, _read_rng(data["rng"]))

        for i, entry in enumerate(_list(data["board"], "board")):
            field = f"board[{i}]"
            name, q, r, rotation = _list(entry, field, 4)
            tile = _lookup(TILE_IDS, name, "tile", field)
            cell = _cell(q, r, f"{field}: tile {name}")
            rotation = _int(rotation, f"{field}: tile {name} rotation", 0, 5)
            if state.tile_cell[tile] >= 0 or cell in state.tile_cell:
                raise InvalidStateError(f"{field}: tile {name} at ({q}, {r}) is placed twice")
            state.tile_cell[tile] = cell
            state.rotation[tile] = rotation
        haumea = data["haumea"]
        state.haumea = -1 if haumea is None else _cell(*_list(haumea, "haumea", 2), "haumea")
        crop_letters = {GOODS_LETTERS[g]: g for g in CROPS}
        for name, text in _dict(data["island_cubes"], "island_cubes").items():
            k = _island(name, "island_cubes")
            field = f"island_cubes[{name!r}]"
            text = _str(text, field)
            if not text:
                raise InvalidStateError(f"{field}='': an island without cubes is not listed")
            if len(set(text)) != len(text):
                raise InvalidStateError(f"{field}={text!r}: a goods space holds one cube")
            for letter in text:
                goods = _lookup(crop_letters, letter, "goods", field)
                if goods not in ISLAND_SLOTS[k]:
                    raise InvalidStateError(f"{name} has no {GOODS_NAMES[goods]} space")
                state._put_cube(k, goods)
        token_ids = {v: k for k, v in TOKEN_NAMES.items()}
        for name, kind in _dict(data["tokens"], "tokens").items():
            k = _island(name, "tokens")
            state._put_token(k, _lookup(token_ids, kind, "token kind", f"tokens[{name!r}]"))
        stacks = _list(data["stacks"], "stacks", 2)
        state.stacks = [
            [_island(name, f"stacks[{i}]") for name in _list(stack, f"stacks[{i}]")]
            for i, stack in enumerate(stacks)
        ]
        state.token_pile = [
            _lookup(token_ids, kind, "token kind", "token_pile")
            for kind in _list(data["token_pile"], "token_pile")
        ]
        favourite_ids = {f"F{f}": f for f in FAVOURITES}
        state.favourites = [
            _lookup(favourite_ids, f, "favourite", "favourites")
            for f in _list(data["favourites"], "favourites", n)
        ]
        state.unused_favourites = [
            _lookup(favourite_ids, f, "favourite", "unused_favourites")
            for f in _list(data["unused_favourites"], "unused_favourites")
        ]
        state.bag = _counts(data["bag"], "bag")
        state.canoes = [
            _cell(*_list(c, f"canoes[{s}]", 2), f"canoes[{s}]")
            for s, c in enumerate(_list(data["canoes"], "canoes", n))
        ]
        state.cargo = [
            _counts(c, f"cargo[{s}]") for s, c in enumerate(_list(data["cargo"], "cargo", n))
        ]
        state.charts = [
            _counts(c, f"charts[{s}]") for s, c in enumerate(_list(data["charts"], "charts", n))
        ]
        state.first_player = _int(data["first_player"], "first_player", 0, n - 1)
        state.turn_player = _int(data["turn_player"], "turn_player", 0, n - 1)
        state.round = _int(data["round"], "round", 0, config["max_rounds"])
        phase = data["phase"]
        if not isinstance(phase, str) or phase not in PHASES:
            raise InvalidStateError(f"unknown phase {phase!r}; known: {', '.join(PHASES)}")
        state.phase = phase
        state.taken = _int(data["taken"], "taken", 0, MAX_PADDLES)
        hand = data["hand_tile"]
        state.hand_tile = 0 if hand is None else _island(hand, "hand_tile")
        goods_ids = {name: g for g, name in enumerate(GOODS_NAMES)}
        state.bounty = [
            _lookup(goods_ids, g, "bounty cube", "bounty") for g in _list(data["bounty"], "bounty")
        ]
        state.aside = _counts(data["aside"], "aside")
        token = data["revealed_token"]
        state.revealed_token = (
            0 if token is None else _lookup(token_ids, token, "token", "revealed_token")
        )
        state.end_triggered = _bool(data["end_triggered"], "end_triggered")
        state.truncated = _bool(data["truncated"], "truncated")
        state.last_event = _str(data["last_event"], "last_event")
        return state

    def _validate(self) -> None:
        """Raise InvalidStateError unless the facts make a position play can continue from:
        components conserved, the board laid by the rules, and the current phase's context
        (the fields it needs are set, the ones it forbids are not)."""
        n = self.num_players
        if self.phase not in PHASES:
            raise InvalidStateError(f"unknown phase {self.phase!r}; known: {', '.join(PHASES)}")
        if self.tile_cell[HOME] != HOME_CELL or self.rotation[HOME] != 0:
            raise InvalidStateError("the home tile must be at (0, 0) with rotation 0")
        self._validate_board()
        places = self.tile_places()
        everywhere = places["board"] + places["stacks"] + places["hand"]
        if len(everywhere) != len(set(everywhere)):
            raise InvalidStateError("a tile is in two places (board, stacks, hand)")
        missing = [tile_name(t) for t in places["box"] if t not in WATERS]
        if missing:
            raise InvalidStateError(f"island tiles {', '.join(missing)} are nowhere")
        for seat_list, name in ((self.canoes, "canoes"), (self.cargo, "cargo")):
            if len(seat_list) != n:
                raise InvalidStateError(f"{name} must have one entry per seat ({n})")
        if len(self.charts) != n or len(self.favourites) != n:
            raise InvalidStateError(f"charts and favourites need one entry per seat ({n})")
        for cell in [*self.canoes, self.haumea]:
            if cell >= 0 and self.cell_tile[cell] < 0:
                raise InvalidStateError(f"a canoe or Haumea stands on {CELL_QR[cell]}, no tile")
        for seat in range(n):
            cargo, chart = self.cargo[seat], self.charts[seat]
            if len(cargo) != NUM_GOODS or len(chart) != NUM_GOODS or min(cargo + chart) < 0:
                raise InvalidStateError(f"seat {seat}: cargo and chart are 5 counts >= 0")
            if sum(cargo) > CANOE_CAPACITY:
                raise InvalidStateError(f"seat {seat}: {sum(cargo)} cubes on a canoe of 5")
        for k in ISLANDS:
            if (self.island_cubes[k] or self.tokens[k]) and self.tile_cell[k] < 0:
                raise InvalidStateError(f"{tile_name(k)} holds cubes or a token off the table")
            if self.island_cubes[k] and self.tokens[k]:
                raise InvalidStateError(f"{tile_name(k)} holds both cubes and a token")
        if len(self.bag) != NUM_GOODS or min(self.bag) < 0 or len(self.aside) != NUM_GOODS:
            raise InvalidStateError("bag and aside are 5 counts >= 0")
        in_play = CUBES_PER_KIND - self.removed
        if self.cubes_by_kind() != [in_play] * NUM_GOODS:
            raise InvalidStateError(
                f"cubes per kind are {self.cubes_by_kind()}; with {n} players each must be "
                f"{in_play}"
            )
        placed_tokens = [t for t in self.tokens if t]
        all_tokens = (
            placed_tokens + self.token_pile + ([self.revealed_token] * bool(self.revealed_token))
        )
        for kind, count in TOKEN_COUNTS.items():
            if all_tokens.count(kind) != count:
                raise InvalidStateError(
                    f"{TOKEN_NAMES[kind]} tokens: {all_tokens.count(kind)}, must be {count}"
                )
        favourites = sorted(self.favourites + self.unused_favourites)
        if favourites != sorted(FAVOURITE_SETS[n]):
            raise InvalidStateError(
                f"favourite tiles {favourites} are not the set for {n} players "
                f"{list(FAVOURITE_SETS[n])}"
            )
        for name, seat in (("first_player", self.first_player), ("turn_player", self.turn_player)):
            if seat not in range(n):
                raise InvalidStateError(f"{name}={seat} is not a seat 0..{n - 1}")
        if len(self.stacks) != 2:
            raise InvalidStateError("there are exactly two stacks")
        dealt = NUM_ISLANDS - sum(1 for t, *_ in START_LAYOUT[self.side] if t not in WATERS)
        for i, most in enumerate(((dealt + 1) // 2, dealt // 2)):  # §3 step 7
            if len(self.stacks[i]) > most:
                raise InvalidStateError(
                    f"stacks[{i}]: {len(self.stacks[i])} tiles; stack {'AB'[i]} starts with "
                    f"{most} with {n} players and only shrinks"
                )
        if self.haumea < 0 and (self.stacks[0] or self.stacks[1] or self.hand_tile):
            raise InvalidStateError("Haumea has left while island tiles remain to place")
        if self.haumea >= 0 and not (self.stacks[0] or self.stacks[1] or self.hand_tile):
            raise InvalidStateError("Haumea is on the board, but every island tile is placed")
        if self.end_triggered and self.haumea >= 0:
            raise InvalidStateError("the season cannot end while Haumea is in play")
        if self.haumea < 0:
            undepleted = sum(1 for k in ISLANDS if not self.tokens[k])
            if self.end_triggered != (undepleted <= UNDEPLETED_AT_END):
                raise InvalidStateError(
                    f"end_triggered={self.end_triggered} with {undepleted} undepleted islands: "
                    f"the season ends as soon as only {UNDEPLETED_AT_END} remain (§6.1)"
                )
        self._validate_phase_context()
        if self.phase != GAME_OVER and not self._legal_mask().any():
            raise InvalidStateError(f"phase {self.phase} has no legal action in this position")

    def _validate_board(self) -> None:
        """The §3 starting layout, and every other tile connected to it (§4.1 D3)."""
        start = {HOME}
        for tile, (q, r), rotation in START_LAYOUT[self.side]:
            start.add(tile)
            if self.tile_cell[tile] != cell_of(q, r) or self.rotation[tile] != rotation:
                raise InvalidStateError(
                    f"board: the starting tile {tile_name(tile)} stands at ({q}, {r}) with "
                    f"rotation {rotation} for {self.num_players} players (§3)"
                )
        for tile in WATERS:
            if tile not in start and self.tile_cell[tile] >= 0:
                raise InvalidStateError(
                    f"board: water tile {tile_name(tile)} is not used with "
                    f"{self.num_players} players"
                )
        # Every tile is laid next to placed tiles (§4.1 D3), so the board is connected. (The
        # stricter "laid touching two tiles, in some order" is not required: test positions
        # park tiles freely, and play continues from any connected board.)
        reached = {HOME_CELL}
        frontier = [HOME_CELL]
        while frontier:
            cell = frontier.pop()
            for nb in NEIGHBOURS[cell]:
                if nb >= 0 and nb not in reached and self.cell_tile[nb] >= 0:
                    reached.add(nb)
                    frontier.append(nb)
        stray = [tile_name(t) for t, c in enumerate(self.tile_cell) if c >= 0 and c not in reached]
        if stray:
            raise InvalidStateError(
                f"board: tiles {', '.join(stray)} are not connected to the home tile (each "
                f"tile is laid next to placed tiles, §4.1 D3)"
            )

    def _validate_phase_context(self) -> None:
        """What the current phase needs, and what it forbids."""
        phase, n = self.phase, self.num_players
        needs = {
            PLACE: self.hand_tile != 0,
            BOUNTY_PLACE: bool(self.bounty),
            DEPLETE: self.revealed_token != 0,
        }
        if not needs.get(phase, True):
            raise InvalidStateError(f"phase {phase} lacks its tile, cube or token")
        for name, value, only in (
            ("hand_tile", self.hand_tile, PLACE),
            ("bounty", self.bounty, BOUNTY_PLACE),
            ("aside", any(self.aside), BOUNTY_PLACE),
            ("revealed_token", self.revealed_token, DEPLETE),
        ):
            if value and phase != only:
                raise InvalidStateError(f"{name} is set in phase {phase}; only {only} has one")
        if phase in (HAUMEA_MOVE, HAUMEA_STEP, STACK, PLACE) and self.haumea < 0:
            raise InvalidStateError(f"phase {phase} needs Haumea on the board")
        if phase in (STACK, PLACE) and self.haumea not in self.edge_cells:
            raise InvalidStateError(f"phase {phase}: Haumea must stand on an edge tile")
        if phase == DEPLETE and self.haumea >= 0:
            raise InvalidStateError("phase DEPLETE: depletion begins only after Haumea has left")
        if phase == ACTION:
            limit = paddles(sum(self.cargo[self.turn_player]))
            if not 0 <= self.taken < limit:
                raise InvalidStateError(
                    f"taken={self.taken}: in the ACTION phase it is 0..{limit - 1} "
                    f"(uncovered paddles - 1)"
                )
        elif phase != DEPLETE and self.taken:
            raise InvalidStateError(f"taken={self.taken}: actions are counted in ACTION only")
        if phase == BOUNTY_PLACE:
            drawn = BOUNTY_WITH_HAUMEA if self.haumea >= 0 else BOUNTY_WITHOUT_HAUMEA
            if len(self.bounty) + sum(self.aside) > drawn:
                raise InvalidStateError(
                    f"bounty and aside hold {len(self.bounty) + sum(self.aside)} cubes; the "
                    f"bounty draws {drawn} (§4.2)"
                )
            pending = self.bounty[0]
            if pending == FISH or len(self._bounty_spaces(pending)) < 2:
                raise InvalidStateError(
                    f"bounty: the pending {GOODS_NAMES[pending]} cube has no choice of spaces "
                    f"(a cube with one space or none is placed or set aside without a decision)"
                )
        max_rounds = self.config["max_rounds"]
        if phase != GAME_OVER:
            if self.truncated or self.round >= max_rounds:
                raise InvalidStateError(
                    f"round={self.round}, truncated={self.truncated}: a live game has played "
                    f"fewer than max_rounds={max_rounds} rounds and is not truncated"
                )
            return
        if any(map(any, self.cargo)):
            raise InvalidStateError("cargo: canoes are unloaded when the game ends (§6.3)")
        if self.turn_player != (self.first_player - 1) % n:
            raise InvalidStateError(
                f"turn_player={self.turn_player}: a game ends after the last seat of a round "
                f"({(self.first_player - 1) % n})"
            )
        if self.truncated == self.end_triggered:
            raise InvalidStateError(
                "a finished game ended either by the season (end_triggered) or at the round "
                "limit (truncated), not both or neither"
            )
        if self.round < 1 or (self.truncated and self.round != max_rounds):
            raise InvalidStateError(
                f"round={self.round}: a game ends after a complete round, at the round limit "
                f"{max_rounds} when truncated"
            )

    def __repr__(self) -> str:
        return (
            f"<Tahiti round {self.round} {self.phase} P{self.current_player} "
            f"bag={self.bag} charts={self.charts}>"
        )


#: The fields of a snapshot (:meth:`State.to_dict`), in its order.
SNAPSHOT_FIELDS = (
    "game",
    "version",
    "num_players",
    "config",
    "rng",
    "board",
    "haumea",
    "island_cubes",
    "tokens",
    "stacks",
    "token_pile",
    "favourites",
    "unused_favourites",
    "bag",
    "canoes",
    "cargo",
    "charts",
    "first_player",
    "turn_player",
    "round",
    "phase",
    "taken",
    "hand_tile",
    "bounty",
    "aside",
    "revealed_token",
    "end_triggered",
    "truncated",
    "last_event",
)


def _int(value: Any, field: str, low: int | None = None, high: int | None = None) -> int:
    """An integer (bool, float, str and None are refused), within ``low..high`` if given."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise InvalidStateError(f"{field}={value!r} is not an integer")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidStateError(f"{field}={value} is out of range {bounds}")
    return value


def _bool(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidStateError(f"{field}={value!r} is not true or false")
    return value


def _str(value: Any, field: str) -> str:
    if not isinstance(value, str):
        raise InvalidStateError(f"{field}={value!r} is not a string")
    return value


def _list(value: Any, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise InvalidStateError(f"{field}={value!r} is not a list")
    if length is not None and len(value) != length:
        raise InvalidStateError(f"{field} has {len(value)} entries, not {length}")
    return list(value)


def _dict(value: Any, field: str) -> dict[Any, Any]:
    if not isinstance(value, dict):
        raise InvalidStateError(f"{field}={value!r} is not an object (a dict)")
    return value


def _counts(value: Any, field: str) -> list[int]:
    """One count >= 0 per goods kind."""
    return [_int(x, f"{field}[{g}]", 0) for g, x in enumerate(_list(value, field, NUM_GOODS))]


def _read_rng(value: Any) -> np.random.Generator:
    """The generator of a snapshot: a PCG64 state exactly as numpy writes it (numpy itself
    would truncate a float or wrap a bool silently)."""
    value = _dict(value, "rng")
    if set(value) != {"bit_generator", "state", "has_uint32", "uinteger"}:
        raise InvalidStateError(
            "rng: a PCG64 state has the fields bit_generator, state, has_uint32, uinteger"
        )
    if value["bit_generator"] != "PCG64":
        raise InvalidStateError(f"rng: bit_generator={value['bit_generator']!r}, not 'PCG64'")
    inner = _dict(value["state"], "rng.state")
    if set(inner) != {"state", "inc"}:
        raise InvalidStateError("rng.state: a PCG64 state has the fields state and inc")
    state = _int(inner["state"], "rng.state.state", 0, 2**128 - 1)
    inc = _int(inner["inc"], "rng.state.inc", 0, 2**128 - 1)
    if inc % 2 == 0:
        raise InvalidStateError(f"rng.state.inc={inc}: a PCG64 increment is odd")
    bit_generator = np.random.PCG64(0)
    bit_generator.state = {
        "bit_generator": "PCG64",
        "state": {"state": state, "inc": inc},
        "has_uint32": _int(value["has_uint32"], "rng.has_uint32", 0, 1),
        "uinteger": _int(value["uinteger"], "rng.uinteger", 0, 2**32 - 1),
    }
    return np.random.Generator(bit_generator)


def _lookup(table: dict[str, int], name: Any, what: str, field: str = "") -> int:
    if not isinstance(name, str) or name not in table:
        where = f"{field}: " if field else ""
        raise InvalidStateError(f"{where}unknown {what} {name!r}; known: {', '.join(table)}")
    return table[name]


def _island(name: Any, field: str = "island") -> int:
    k = _lookup(TILE_IDS, name, "island", field)
    if k not in ISLANDS:
        raise InvalidStateError(f"{field}: {name!r} is not an island tile (I01-I18)")
    return k


def _cell(q: Any, r: Any, what: str) -> int:
    q = _int(q, f"{what}: q")
    r = _int(r, f"{what}: r")
    if cell_of(q, r) < 0:
        raise InvalidStateError(
            f"{what}: position ({q!r}, {r!r}) is not within hex distance {GRID_RADIUS} of home"
        )
    return cell_of(q, r)


#: "paddled E (1 reef)" for each direction and reef count.
_PADDLE_TEXT = [
    [f"paddled {name} ({k} reef{'' if k == 1 else 's'})" for k in range(3)]
    for name in DIRECTION_NAMES
]


@functools.lru_cache(maxsize=256)
@functools.lru_cache(maxsize=1024)
def _goods_text(goods: tuple[int, ...]) -> str:
    return ", ".join(GOODS_NAMES[g] for g in goods) or "nothing"


# -- scoring (§6.4) ---------------------------------------------------------------------------
def favourite_bonus(charts: list[list[int]] | tuple, favourites: list[int] | tuple) -> list[int]:
    """+5 for a favourite good at the highest positive count, +3 at the second highest."""
    bonus = [0] * len(charts)
    for seat, favourite in enumerate(favourites):
        for g in FAVOURITES[favourite]:
            mine = charts[seat][g]
            if not mine:
                continue  # a count of 0 never scores
            higher = {chart[g] for chart in charts if chart[g] > mine}
            if not higher:
                bonus[seat] += FAVOURITE_FIRST
            elif len(higher) == 1:
                bonus[seat] += FAVOURITE_SECOND
    return bonus


def score_charts(charts: list[list[int]] | tuple, favourites: list[int] | tuple) -> list[int]:
    """Goods + favourite bonus + set bonus per seat (§6.4)."""
    bonus = favourite_bonus(charts, favourites)
    return [sum(chart) + bonus[seat] + SET_BONUS[min(chart)] for seat, chart in enumerate(charts)]
