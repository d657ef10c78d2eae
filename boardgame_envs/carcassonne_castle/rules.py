"""Carcassonne: The Castle (卡卡頌-城堡): the rules engine.

Two players lay 60 castle tiles inside a walled castle, put followers on towers, houses,
paths and courts, score completed features for the majority, pick up wall tiles by
landing on corner towers of the score track, and finish with the keep bonus, the courts
and the end-game wall tiles. Specified in ``shared/rules/carcassonne_castle.md`` (the
"spec"; section numbers below refer to it). The board and its features live in
:mod:`.castle`; the component tables in :mod:`.data`.

Actions (one ``Discrete(326)`` space, spec §11.1; cells, slots and rotations as in
:mod:`.data`):

=========  ==============================================================  ===============
index      meaning                                                          phases
=========  ==============================================================  ===============
0-303      PLACE the drawn tile on cell ``c`` in rotation ``r``:            PLACE
           index ``4c + r``
304-315    FOLLOWER: put a follower on the segment of the just-placed       FOLLOWER
           tile whose lowest slot is ``s = index - 304``
304-315    ORDER: score next the pending feature owning slot ``s`` of the   ORDER
           just-placed tile
316        PASS: no follower / do not double / no extra turn                FOLLOWER,
                                                                            DOUBLE, EXTRA
317        YES: use the x2 wall tile / use the extra-turn wall tile         DOUBLE, EXTRA
318-325    ORDER: score next the pending tower or house that holds no       ORDER
           segment of the just-placed tile, named by the lowest half-port
           ``k = index - 318`` of that tile facing it
=========  ==============================================================  ===============

Every decision the spec defines is presented, even a forced one (a FOLLOWER decision with
an empty supply offers only PASS); chance (the shuffles, the start player, drawing and
discarding unplaceable tiles) happens inside ``apply``. The state keeps no generator:
the seed shuffles the stack and the wall tiles once, at setup, and nothing is random after.

Version history (``Rules.version``; env ids ``carcassonne_castle-vN``,
``CarcassonneCastle-vN``):

* v1: a finished game keeps no turn context (the just-placed tile, the extra-turn flag,
  pending features), so at the end observation channel 104 and the extra-turn entry are 0;
  snapshots are validated strictly and carry version 1; option ranges
  ``keep_bonus_tiles`` 0-76 and ``wall9_points`` 0-100.
* v0: first release.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_SEGMENTS,
    GRID_CELL,
    NO_SEGMENT,
    NUM_GRID,
    NUM_TILE_CODES,
    Castle,
    cell_of,
    grid_of,
    xy_of,
)
from boardgame_envs.carcassonne_castle.castle import NUM_ACTIONS as CASTLE_NUM_ACTIONS
from boardgame_envs.carcassonne_castle.data import (
    BIGGER_KEEP,
    BONUS_POINTS,
    CORNER_AT_SPACE,
    COURT,
    EXTRA_TURN,
    FOLLOWERS_PER_PLAYER,
    HOUSE,
    HOUSE_X2,
    KEEP_BONUS_TILES,
    KIND_NAMES,
    MARKET_X4,
    NUM_CASTLE_TILES,
    NUM_CELLS,
    NUM_PLAYERS,
    NUM_SLOTS,
    NUM_STOCKED,
    NUM_TILE_TYPES,
    NUM_WALL_TILES,
    PATH,
    PLAYABLE_CELLS,
    SLOT_NAMES,
    STOCKED_CORNERS,
    TILE_COPIES,
    TILE_TYPES,
    TOWER,
    TOWER_X2,
    TRACK_LENGTH,
    UNFINISHED_HOUSE,
    UNFINISHED_PATH,
    UNFINISHED_TOWER,
    WALL9_POINTS,
    WALL_KINDS,
    WALL_NAMES,
    WALL_TILES,
    tile_index,
)
from boardgame_envs.core.rules import (
    InvalidConfigError,
    InvalidStateError,
    Option,
    PlayerView,
    is_integer,
)
from boardgame_envs.core.rules import Rules as BaseRules
from boardgame_envs.core.rules import State as BaseState

# -- action indices ---------------------------------------------------------------------------
PLACE_BASE = 0
NUM_PLACEMENTS = 4 * NUM_CELLS  # 304
SLOT_BASE = 304  # FOLLOWER and ORDER (case a): 304 + slot
PASS = 316
YES = 317
FACING_BASE = 318  # ORDER (case b): 318 + half-port
NUM_ACTIONS = 326
assert NUM_ACTIONS == CASTLE_NUM_ACTIONS  # the castle builds PLACE masks


#: the mask of a seat not to decide: read-only, shared by every view
NO_ACTIONS = np.zeros(NUM_ACTIONS, dtype=bool)
NO_ACTIONS.flags.writeable = False
NO_FITS = bytes(NUM_ACTIONS)  # the bytes of a PLACE mask with no legal placement


def place_action(cell: int, rotation: int) -> int:
    return PLACE_BASE + 4 * cell + rotation


# -- phases (decision points, spec §4) ----------------------------------------------------------
PLACE = "PLACE"  # DP1
FOLLOWER = "FOLLOWER"  # DP2
ORDER = "ORDER"  # DP3
DOUBLE = "DOUBLE"  # DP4
EXTRA = "EXTRA"  # DP5
GAME_OVER = "GAME_OVER"
PHASES = (PLACE, FOLLOWER, ORDER, DOUBLE, EXTRA)

#: Features one placement can complete: each has its own ORDER name (304-315, 318-325).
MAX_COMPLETED = 20
#: Decisions per turn at most: PLACE, FOLLOWER, EXTRA, and per completed feature one ORDER
#: choice and one DOUBLE choice.
MAX_DECISIONS_PER_TURN = 3 + 2 * MAX_COMPLETED
#: Events kept from earlier turns (a rolling log for people; no rule reads it).
MAX_EVENTS = 12


#: Names of the tile types and "(x,y)" of the cells, for the event log (made once).
TILE_NAMES = tuple(t.name for t in TILE_TYPES)
CELL_TEXT = tuple(f"({x},{y})" for x, y in PLAYABLE_CELLS)


#: Documented ranges of the numeric options (spec §2.5 leaves both values open): a kind-8
#: wall tile can add at most the castle's 76 cells to a keep; a kind-9 tile at most one lap
#: of the score track. Nothing is allocated in proportion to either.
KEEP_BONUS_RANGE = (0, NUM_CELLS)
WALL9_POINTS_RANGE = (0, TRACK_LENGTH)


def _in_range(low: int, high: int) -> Callable[[Any], bool]:
    def ok(value: Any) -> bool:
        return is_integer(value) and low <= value <= high

    return ok


class CarcassonneCastleRules(BaseRules):
    """Carcassonne: The Castle for exactly 2 players."""

    name = "carcassonne_castle"
    version = 1  # see the version history in the module docstring
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS
    action_size = NUM_ACTIONS
    phases = PHASES
    encoding_module = "boardgame_envs.carcassonne_castle.encoding"
    render_module = "boardgame_envs.carcassonne_castle.render"
    sample_module = "boardgame_envs.carcassonne_castle.sample"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 1 / 100  # spec §11.3: score differences / 100
    options = {
        "keep_bonus_tiles": Option(
            KEEP_BONUS_TILES,
            "STAND-IN: tiles a kind-8 wall tile adds to the keep (spec §2.5)",
            _in_range(*KEEP_BONUS_RANGE),
            f"an integer 0 to {KEEP_BONUS_RANGE[1]}",
        ),
        "wall9_points": Option(
            WALL9_POINTS,
            "STAND-IN: points of a kind-9 wall tile (spec §2.5)",
            _in_range(*WALL9_POINTS_RANGE),
            f"an integer 0 to {WALL9_POINTS_RANGE[1]}",
        ),
    }

    def max_decisions(self, num_players: int, config: dict[str, Any]) -> int:
        # Every turn with a decision places one of the 60 tiles (a turn whose draw finds
        # no placeable tile ends the game without a decision).
        return NUM_CASTLE_TILES * MAX_DECISIONS_PER_TURN

    def _new_state(self, num_players: int, seed: int | None, config: dict[str, Any]) -> State:
        rng = np.random.default_rng(seed)
        stack = [TILE_COPIES[i] for i in rng.permutation(NUM_CASTLE_TILES)]
        walls = [WALL_TILES[i] for i in rng.permutation(len(WALL_TILES))]
        start = int(rng.integers(NUM_PLAYERS))
        state = State(self, config)
        state.stack = stack
        state.corners = walls[:NUM_STOCKED]
        state.boxed = walls[NUM_STOCKED:]
        state.start_player = start
        state._start_turn(start, extra=False)
        return state

    def from_dict(self, data: dict[str, Any]) -> State:
        return State.from_dict(self, data)

    def sample_state(self, view: PlayerView, rng: np.random.Generator) -> State:
        """A state consistent with ``view``: the stack order and the face-down wall tiles
        drawn from ``rng`` (see :mod:`.sample`)."""
        if not isinstance(view, View):
            raise TypeError(f"not a {self.name} view: {type(view).__name__}")
        return self.sampler(self, view, rng)

    def position(
        self,
        placements: Sequence[tuple[str, int, tuple[int, int]]] = (),
        followers: Mapping[tuple[int, int], tuple[int, int]] | None = None,
        tile: str | None = None,
        stack: Sequence[str] = (),
        rest: str = "stack",
        active: int = 0,
        scores: tuple[int, int] = (0, 0),
        corners: Mapping[int, int] | None = None,
        held: Sequence[Sequence[int | tuple[int, int]]] = ((), ()),
        keeps: Sequence[tuple[int, Sequence[tuple[int, int]]] | None] = (None, None),
        turn: int = 10,
        **options: Any,
    ) -> State:
        """A position for tests and notebooks, written the way the spec writes them.

        ``placements``: ``("T18", 0, (4, 0))`` = T18 r0 → (4,0), in order, each legal when
        made. ``followers``: ``{(x, y): (seat, slot)}`` on placed tiles (slot = the segment's
        lowest slot); a tile with a follower counts as placed by that seat. ``tile``: the
        tile ``active`` has drawn (phase PLACE), or None for an empty-handed turn start.
        ``stack``: the next draws, top first; the tiles mentioned nowhere go after them
        (``rest="stack"``) or face up among the discards (``rest="discards"``).
        ``corners``: {corner number 1-13: wall-tile kind} still stocked; every other wall
        tile is in the box unless ``held`` (per seat: a kind, taken before this turn, or
        ``(kind, turn taken)``). ``keeps``: per seat ``(size, [(x, y), ...])`` or None.

        The position is checked for conservation, not for being reachable: a keep of any
        size anywhere, or a wall tile taken "this turn" before the placement, is allowed
        here, but such a position's snapshot does not load back (``from_dict`` checks
        more, see ``State._check_snapshot``).
        """
        config = self.make_config(options)
        state = State(self, config)
        followers = dict(followers or {})
        castle = state.castle
        names: list[int] = []
        for name, rotation, (x, y) in placements:
            t, cell = tile_index(name), cell_of(x, y)
            if not castle.placement_mask(t)[4 * cell + rotation]:
                raise ValueError(f"{name} r{rotation} on ({x},{y}) is not a legal placement")
            castle.place(cell, t, rotation, followers.get((x, y), (0, 0))[0])
            names.append(t)
        for (x, y), (seat, slot) in followers.items():
            cell = cell_of(x, y)
            code = castle.code[CELL_GRID[cell]]
            if code >= NUM_TILE_CODES or slot not in [s.lowest for s in CODE_SEGMENTS[code]]:
                raise ValueError(f"no segment with lowest slot {slot} on ({x},{y})")
            castle.add_follower(cell, slot, seat)
            state.supply[seat] -= 1
        drawn = None if tile is None else tile_index(tile)
        upcoming = [tile_index(name) for name in stack]
        pool = list(TILE_COPIES)
        for t in names + upcoming + ([] if drawn is None else [drawn]):
            if t not in pool:
                raise ValueError(f"more copies of {TILE_TYPES[t].name} than the game has")
            pool.remove(t)
        if rest == "stack":
            state.stack = upcoming + pool
        else:
            state.stack = upcoming
            state.discards = pool
        state.unseen = [state.stack.count(t) for t in range(NUM_TILE_TYPES)]
        box = list(WALL_TILES)
        state.corners = [0] * NUM_STOCKED
        for number, kind in (corners or {}).items():
            state.corners[number - 1] = kind
            box.remove(kind)
        state.held = [[], []]
        for seat in range(NUM_PLAYERS):
            for item in held[seat]:
                kind, taken = (item, 0) if isinstance(item, int) else item
                state.held[seat].append([kind, taken])
                box.remove(kind)
        state.boxed = box
        state.scores_ = list(scores)
        state.keeps = [
            None if k is None else [k[0], [grid_of(x, y) for x, y in k[1]]] for k in keeps
        ]
        state.active = state.start_player = active
        state.turn = turn
        state.tile = drawn
        if drawn is None:
            state.turn -= 1
            state._start_turn(active, extra=False)
        elif not castle.has_placement(drawn):
            raise ValueError(f"{TILE_TYPES[drawn].name} has no legal placement here")
        state._changed_public()
        state._check()
        return state


@dataclass(frozen=True)
class Record:
    """Public facts of a view that the observation leaves out and a full state needs
    (:mod:`.sample` rebuilds one from a view); they change a few times a game."""

    config: tuple[tuple[str, Any], ...]  # the game's options, (name, value)
    start_player: int
    taken: tuple[tuple[tuple[int, int], ...], ...]  # per seat: (kind, turn taken), in order
    used_by: tuple[tuple[int, int], ...]  # (kind, seat) of each used wall tile, in order
    final: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (label, points), at the end


@dataclass(eq=False)
class View(PlayerView):
    """What ``seat`` knows (spec §7): everything but the stack order and the face-down
    wall tiles. Seats are absolute here; the encoding makes them relative.

    ``castle`` is the state's own board object, not a copy (building a view is on the hot
    path of every environment step): read it before the next ``apply``, never change it,
    and ``castle.clone()`` it to keep it. ``mask`` is the state's cached mask, read-only
    (``legal_action_mask()`` returns a copy). Every other field is a snapshot.

    The fields after ``mask`` are public facts the observation does not encode but a
    determinization (:mod:`.sample`) needs to rebuild the full state: ``record`` (facts
    that change a few times a game), the features the just-placed tile completed (before
    the FOLLOWER decision groups them) and the event log. (Few fields on purpose: past 29,
    CPython stops sharing the instances' attribute-dict keys and a view costs twice as
    much to build.)
    """

    #: :mod:`.sample`'s cache for this view (its facts laid out as a state, made on the
    #: first ``sample_state``); a plain class attribute, not a field: holds no hidden fact
    _sample_cache = None

    rules: CarcassonneCastleRules
    seat: int
    phase: str
    current_player: int
    active: int
    turn: int
    extra_turn: bool
    tile: int | None  # the drawn tile's type
    last_cell: int | None  # the just-placed tile's cell (FOLLOWER … EXTRA)
    castle: Castle  # the live board, shared with the state (see the class docstring)
    scores: tuple[int, int]
    supply: tuple[int, int]
    keeps: tuple[tuple[int, tuple[int, ...]] | None, ...]  # (size, grid positions) per seat
    held: tuple[tuple[int, ...], tuple[int, ...]]  # wall-tile kinds held, per seat
    usable: tuple[int, ...]  # kinds the seat could use now (its own turn, taken earlier)
    stocked: tuple[bool, ...]  # C1..C13 still hold a face-down wall tile
    used: tuple[int, ...]  # kinds used (discarded)
    stack_counts: tuple[int, ...]  # unseen tiles per type (the stack, drawn tile excluded)
    stack_size: int
    discards: tuple[int, ...]
    groups: tuple[tuple[int, ...], tuple[int, ...]]  # pending ORDER names: active's, other's
    doubling: int | None  # the ORDER name of the feature under the DOUBLE decision
    mask: np.ndarray
    record: Record
    completed: tuple[int, ...]  # ORDER names completed by the last placement (FOLLOWER)
    events: tuple[str, ...]  # the state's rolling event log

    def legal_action_mask(self) -> np.ndarray:
        return self.mask.copy()


class State(BaseState):
    """One position of a game. Mutated in place by ``apply``."""

    def __init__(self, rules: CarcassonneCastleRules, config: dict[str, Any]) -> None:
        self.rules = rules
        self.num_players = NUM_PLAYERS
        self.config = dict(config)
        self.castle = Castle()
        self._castle_shared = False  # copy on write: another state or a view holds it
        self.stack: list[int] = []  # tile types, top first (hidden order)
        self.unseen: list[int] = [t.count for t in TILE_TYPES]  # per type: still in the stack
        self.tile: int | None = None  # the drawn tile (public)
        self.discards: list[int] = []  # unplaceable tiles, face up
        self.corners: list[int] = [0] * NUM_STOCKED  # wall-tile kind on C1..C13, 0 = taken
        self.boxed: list[int] = []  # the 5 wall tiles returned to the box unseen
        self.held: list[list[list[int]]] = [[], []]  # per seat: [kind, turn taken]
        self.used: list[list[int]] = []  # [kind, seat] of each wall tile used
        self.scores_: list[int] = [0, 0]
        self.supply: list[int] = [FOLLOWERS_PER_PLAYER] * NUM_PLAYERS
        self.keeps: list[list | None] = [None, None]  # [size, [grid positions]] per seat
        self.start_player = 0
        self.active = 0
        self.turn = 0  # turns started so far (extra turns included)
        self.extra_turn = False
        self.phase = PLACE
        self.last_cell: int | None = None
        self.completed: list[int] = []  # ORDER names completed by the last placement
        self.groups: list[list[int]] = [[], []]  # pending names: active's group, other's
        self.doubling: int | None = None
        self.final: list[list[list]] = [[], []]  # per seat: [label, points] of final scoring
        self.events: list[str] = []  # what happened lately, for people
        self._mask: np.ndarray | None = None
        #: the view's tuples of fields that change a few times a game (see _public_fields),
        #: built lazily; ``_changed_public`` drops them whenever one of those lists changes
        self._public: tuple | None = None

    # -- the contract ---------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        return -1 if self.phase == GAME_OVER else self.active

    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def stack_size(self) -> int:
        """Tiles still in the stack (public: every view's ``stack_size``)."""
        return len(self.stack)

    def _phase_name(self) -> str:
        return self.phase

    def scores(self) -> list[float]:
        return [float(s) for s in self.scores_]

    def _compute_mask(self) -> np.ndarray:
        if self.phase == PLACE:  # DP1: _legal_placements, then no other action
            assert self.tile is not None
            return self.castle.placement_actions(self.tile)
        # written as bytes (cheap scalar writes), seen as bool without a copy
        mask = bytearray(NUM_ACTIONS)
        if self.phase == FOLLOWER:
            mask[PASS] = True
            for s in self._legal_followers():
                mask[SLOT_BASE + s] = True
        elif self.phase == ORDER:
            for name in self._legal_orders():
                mask[name] = True
        elif self.phase in (DOUBLE, EXTRA):
            mask[PASS] = mask[YES] = True
        return np.frombuffer(mask, bool)

    def clone(self) -> State:
        other = State.__new__(State)
        other.__dict__.update(self.__dict__)
        self._castle_shared = other._castle_shared = True
        other.config = dict(self.config)
        other.stack = list(self.stack)
        other.unseen = list(self.unseen)
        other.discards = list(self.discards)
        other.corners = list(self.corners)
        other.boxed = list(self.boxed)
        other.held = [[list(h) for h in seat] for seat in self.held]
        other.used = [list(u) for u in self.used]
        other.scores_ = list(self.scores_)
        other.supply = list(self.supply)
        other.keeps = [None if k is None else [k[0], list(k[1])] for k in self.keeps]
        other.completed = list(self.completed)
        other.groups = [list(g) for g in self.groups]
        other.final = [[list(item) for item in seat] for seat in self.final]
        other.events = list(self.events)
        return other

    def _changed_public(self) -> None:
        """Call after changing ``keeps``, ``held``, ``corners``, ``used``, ``discards`` or
        ``final`` (or ``config`` or ``start_player``)."""
        self._public = None

    def _public_fields(self) -> tuple:
        """The view's ``keeps``, ``held``, ``stocked``, ``used``, ``discards`` and
        ``record``: immutable, so built once until one of them changes (building them is
        most of a view's cost)."""
        if self._public is None:
            held, keeps = self.held, self.keeps
            self._public = (
                (
                    None if keeps[0] is None else (keeps[0][0], tuple(keeps[0][1])),
                    None if keeps[1] is None else (keeps[1][0], tuple(keeps[1][1])),
                ),
                (
                    tuple(sorted(k for k, _ in held[0])) if held[0] else (),
                    tuple(sorted(k for k, _ in held[1])) if held[1] else (),
                ),
                tuple(map(bool, self.corners)),
                tuple(sorted(k for k, _ in self.used)) if self.used else (),
                tuple(self.discards),
                Record(
                    tuple(self.config.items()),
                    self.start_player,
                    tuple(tuple((k, t) for k, t in seat) for seat in held),
                    tuple((k, s) for k, s in self.used),
                    tuple(tuple((label, p) for label, p in seat) for seat in self.final),
                ),
            )
        return self._public

    def view(self, seat: int) -> View:
        if type(seat) is not int or not 0 <= seat < self.num_players:  # else: checked
            seat = self._check_seat(seat)
        current = -1 if self.phase == GAME_OVER else self.active
        # the state's read-only cached mask itself, not a copy: View.legal_action_mask copies
        mask = self._legal_mask() if seat == current else NO_ACTIONS
        keeps, held, stocked, used, discards, record = self._public_fields()
        return View(
            self.rules,
            seat,
            self.phase,
            current,
            self.active,
            self.turn,
            self.extra_turn,
            self.tile,
            self.last_cell,
            self.castle,
            (self.scores_[0], self.scores_[1]),
            (self.supply[0], self.supply[1]),
            keeps,
            held,
            tuple(self._usable_kinds(seat)) if held[seat] else (),
            stocked,
            used,
            tuple(self.unseen),
            len(self.stack),
            discards,
            (tuple(self.groups[0]), tuple(self.groups[1])),
            self.doubling,
            mask,
            record,
            tuple(self.completed) if self.completed else (),
            tuple(self.events),
        )

    def unseen_counts(self) -> list[int]:
        """Tiles per type not yet seen (the stack's composition, drawn tile excluded),
        counted from what is public: 60 minus the castle, the discards, the drawn tile."""
        counts = [t.count for t in TILE_TYPES]
        for _, code, _ in self.castle.history:
            counts[code // 4] -= 1
        for t in self.discards:
            counts[t] -= 1
        if self.tile is not None:
            counts[self.tile] -= 1
        return counts

    def describe_action(self, action: int) -> str:
        if PLACE_BASE <= action < NUM_PLACEMENTS:
            cell, r = divmod(action - PLACE_BASE, 4)
            x, y = PLAYABLE_CELLS[cell]
            tile = TILE_TYPES[self.tile].name if self.tile is not None else "the tile"
            return f"place {tile} r{r} on ({x},{y}) [cell {cell}]"
        if SLOT_BASE <= action < PASS:
            slot = action - SLOT_BASE
            what = self._slot_feature_text(slot)
            if self.phase == ORDER:
                return f"score next the {what}"
            return f"follower on the {what}"
        if action == PASS:
            return {FOLLOWER: "no follower", DOUBLE: "do not double", EXTRA: "no extra turn"}.get(
                self.phase, "pass"
            )
        if action == YES:
            return {DOUBLE: "double with the wall tile", EXTRA: "take the extra turn"}.get(
                self.phase, "yes"
            )
        if FACING_BASE <= action < NUM_ACTIONS:
            k = action - FACING_BASE
            if self.last_cell is None:
                return f"score next the feature facing half-port {SLOT_NAMES[k]}"
            root = self.castle.feature_named(self.last_cell, action)
            return f"score next the {self._feature_text(root)} facing {SLOT_NAMES[k]}"
        return f"action {action} (out of range 0..{NUM_ACTIONS - 1})"

    def _slot_feature_text(self, slot: int) -> str:
        if self.last_cell is None:
            return f"segment at slot {slot} ({SLOT_NAMES[slot]})"
        root = self.castle.feature_at(CELL_GRID[self.last_cell], slot)
        return f"{self._feature_text(root)} at slot {slot} ({SLOT_NAMES[slot]})"

    def _feature_text(self, root: int) -> str:
        castle = self.castle
        if root == NO_SEGMENT:
            return "nothing"
        kind = int(castle.kind[root])
        a, b = castle.followers_on(root)
        return f"{KIND_NAMES[kind]} (size {int(castle.size[root])}, followers {a}-{b})"

    # -- legal-move generation, one function per decision type -----------------------------------
    def _legal_placements(self) -> np.ndarray:
        """DP1: bool[304], cell-major (spec §4)."""
        assert self.tile is not None
        return self.castle.placement_mask(self.tile)

    def _legal_followers(self) -> list[int]:
        """DP2: lowest slots of the just-placed tile's segments on unclaimed features."""
        if self.supply[self.active] == 0 or self.last_cell is None:
            return []
        return self.castle.open_segments(self.last_cell)

    def _legal_orders(self) -> list[int]:
        """DP3: the pending features of the group being resolved."""
        return list(self.groups[0] or self.groups[1])

    def _usable_kinds(self, seat: int) -> list[int]:
        """Wall-tile kinds 1-3 that ``seat`` may use now: its own turn, taken before it."""
        if seat != self.active or self.phase == GAME_OVER or not self.held[seat]:
            return []
        return sorted({k for k, taken in self.held[seat] if k <= 3 and taken < self.turn})

    # -- transitions ----------------------------------------------------------------------------
    def _own_castle(self) -> Castle:
        if self._castle_shared:
            self.castle = self.castle.clone()
            self._castle_shared = False
        return self.castle

    def _apply(self, action: int) -> None:
        if self.phase == PLACE:
            self._apply_place(action)
        elif self.phase == FOLLOWER:
            if action != PASS:
                self._own_castle().add_follower(self.last_cell, action - SLOT_BASE, self.active)
                self.supply[self.active] -= 1
            self._resolve_ties_and_group()
            self._continue_scoring()
        elif self.phase == ORDER:
            group = self.groups[0] if self.groups[0] else self.groups[1]
            group.remove(action)
            self._take(action, 0 if group is self.groups[0] else 1)
            if self.phase == ORDER:  # not waiting for a DOUBLE decision
                self._continue_scoring()
        elif self.phase == DOUBLE:
            name, self.doubling = self.doubling, None
            self._score(name, 0, doubled=action == YES)
            self._continue_scoring()
        elif self.phase == EXTRA:
            if action == YES:
                self._use_wall_tile(EXTRA_TURN)
                self.events.append(f"P{self.active} takes an extra turn")
                self._start_turn(self.active, extra=True)
            else:
                self._end_turn()

    def _apply_place(self, action: int) -> None:
        cell, rotation = divmod(action - PLACE_BASE, 4)
        tile = self.tile
        assert tile is not None
        self.completed = self._own_castle().place(cell, tile, rotation, self.active)
        self.events.append(
            f"P{self.active} places {TILE_NAMES[tile]} r{rotation} on {CELL_TEXT[cell]}"
        )
        self.tile = None
        self.last_cell = cell
        self.phase = FOLLOWER

    def _resolve_ties_and_group(self) -> None:
        """Scoring resolution steps 1-2 (spec §4): ties return their followers at once;
        group 1 is what the active player won, group 2 what the opponent won."""
        self.groups = [[], []]
        for name in self.completed:
            root = self.castle.feature_named(self.last_cell, name)
            counts = self.castle.followers_on(root)
            if counts[0] == counts[1]:
                if counts[0]:
                    self._release(root)
                    self.events.append(f"{self._feature_text_plain(root)} completed: tie")
                continue
            winner = 0 if counts[0] > counts[1] else 1
            self.groups[0 if winner == self.active else 1].append(name)
        self.completed = []

    def _continue_scoring(self) -> None:
        """Score pending features until a decision is needed (DP3, DP4), then DP5."""
        self.phase = ORDER
        while self.groups[0] or self.groups[1]:
            index = 0 if self.groups[0] else 1
            group = self.groups[index]
            if len(group) >= 2:
                return  # DP3: the active player chooses
            self._take(group.pop(), index)
            if self.phase == DOUBLE:
                return
        self._after_scoring()

    def _take(self, name: int, group: int) -> None:
        """The feature ``name`` is scored next: offer DP4 if allowed, else score it."""
        root = self.castle.feature_named(self.last_cell, name)
        kind = int(self.castle.kind[root])
        usable = self._usable_kinds(self.active)
        if group == 0 and (
            (kind == TOWER and TOWER_X2 in usable) or (kind == HOUSE and HOUSE_X2 in usable)
        ):
            self.phase = DOUBLE
            self.doubling = name
            return
        self._score(name, group, doubled=False)

    def _score(self, name: int, group: int, doubled: bool) -> None:
        """Spec §4 step 5: move the winner's marker, maybe take a wall tile, update the keep,
        return the followers."""
        castle = self.castle
        root = castle.feature_named(self.last_cell, name)
        winner = self.active if group == 0 else 1 - self.active
        points = castle.value(root)
        kind = int(castle.kind[root])
        if doubled:
            self._use_wall_tile(TOWER_X2 if kind == TOWER else HOUSE_X2)
            points *= 2
        text = self._feature_text_plain(root)
        self.events.append(
            f"P{winner} scores {points} for the {text}" + (" (x2)" if doubled else "")
        )
        self._advance(winner, points)
        if kind == HOUSE:
            size = int(castle.size[root])
            keep = self.keeps[winner]
            if keep is None or size > keep[0]:
                self.keeps[winner] = [size, castle.locations(root)]
                self._changed_public()
                self.events.append(f"P{winner}'s keep moves to a house of {size}")
        self._release(root)

    def _release(self, root: int) -> None:
        for seat in self._own_castle().release(root):
            self.supply[seat] += 1

    def _advance(self, seat: int, points: int) -> None:
        """Move the marker (spec §6.5): landing on a stocked corner tower takes its tile."""
        self.scores_[seat] += points
        corner = CORNER_AT_SPACE[self.scores_[seat] % TRACK_LENGTH]
        if corner >= 0 and self.corners[corner]:
            kind = self.corners[corner]
            self.held[seat].append([kind, self.turn])
            self.corners[corner] = 0
            self._changed_public()
            self.events.append(
                f"P{seat} takes the wall tile of {STOCKED_CORNERS[corner].name}: "
                f"{kind} ({WALL_NAMES[kind]})"
            )

    def _use_wall_tile(self, kind: int) -> None:
        """Discard the earliest-taken usable copy of ``kind`` held by the active player."""
        held = self.held[self.active]
        index = next(i for i, (k, taken) in enumerate(held) if k == kind and taken < self.turn)
        held.pop(index)
        self.used.append([kind, self.active])
        self._changed_public()

    def _after_scoring(self) -> None:
        """DP5 if the active player may take an extra turn, else the end of the turn."""
        if EXTRA_TURN in self._usable_kinds(self.active) and self.stack:
            self.phase = EXTRA
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        if not self.stack:
            self._final_scoring()
        else:
            self._start_turn(1 - self.active, extra=False)

    def _start_turn(self, seat: int, extra: bool) -> None:
        """DP0 (spec §4): draw; an unplaceable tile is set aside face up; an empty stack ends
        the game."""
        self.turn += 1
        self.active = seat
        self.extra_turn = extra
        self.last_cell = None
        self.groups = [[], []]
        self.doubling = None
        events = self.events  # in place: a clone copies the list
        if len(events) > MAX_EVENTS:
            del events[:-MAX_EVENTS]
        events.append(f"turn {self.turn}: P{seat}")
        self._mask = None
        while self.stack:
            tile = self.stack.pop(0)
            self.unseen[tile] -= 1
            fits = self.castle.placement_actions(tile)
            if fits.tobytes() != NO_FITS:  # cheaper than fits.any() on 326 entries
                self.tile = tile
                self.phase = PLACE
                self._mask = fits  # DP1's mask, already at hand
                self._mask.setflags(write=False)
                return
            self.discards.append(tile)
            self._changed_public()
            self.events.append(f"{TILE_TYPES[tile].name} has no legal placement: set aside")
        self.tile = None
        self._final_scoring()

    # -- final scoring (spec §6.8) ------------------------------------------------------------
    def _final_scoring(self) -> None:
        castle = self.castle
        final: list[list[list]] = [[], []]
        held = [[k for k, _ in self.held[seat]] for seat in range(NUM_PLAYERS)]
        # F1: the keep bonus
        region = castle.largest_empty_region()
        values = []
        for seat in range(NUM_PLAYERS):
            keep = self.keeps[seat]
            if keep is None:
                values.append(0)
            else:
                bonus = self.config["keep_bonus_tiles"] * held[seat].count(BIGGER_KEEP)
                values.append(keep[0] + bonus)
        if values[0] != values[1]:
            final[0 if values[0] > values[1] else 1].append(["keep", region])
        # F2: courts; F3: unfinished features through kinds 4-6
        won: list[dict[int, list[int]]] = [{}, {}]  # seat -> kind -> values of won features
        courts: list[list[int]] = [[], []]
        for root in castle.roots():
            a, b = castle.followers_on(root)
            if a == b:
                continue
            seat = 0 if a > b else 1
            kind = int(castle.kind[root])
            if kind == COURT:
                courts[seat].append(int(castle.markets[root]))
            elif not castle.is_complete(root):
                won[seat].setdefault(kind, []).append(castle.value(root))
        for seat in range(NUM_PLAYERS):
            markets = sorted(courts[seat], reverse=True)
            upgraded = held[seat].count(MARKET_X4)
            for i, count in enumerate(markets):
                if count:
                    per = 4 if i < upgraded else 3
                    final[seat].append([f"court ({count} markets x {per})", per * count])
            for wall, kind in (
                (UNFINISHED_PATH, PATH),
                (UNFINISHED_TOWER, TOWER),
                (UNFINISHED_HOUSE, HOUSE),
            ):
                targets = sorted(won[seat].get(kind, []), reverse=True)[: held[seat].count(wall)]
                for points in targets:
                    final[seat].append([f"unfinished {KIND_NAMES[kind]}", points])
            # F4: bonus points
            for _ in range(held[seat].count(BONUS_POINTS)):
                final[seat].append(["bonus wall tile", self.config["wall9_points"]])
        for seat in range(NUM_PLAYERS):
            for label, points in final[seat]:
                self.scores_[seat] += points  # no wall tiles are taken now (§6.5)
                self.events.append(f"final: P{seat} scores {points} ({label})")
        self.final = final
        self.phase = GAME_OVER
        # a finished game keeps no turn context (the just-placed tile, the pending
        # features, the extra-turn flag): the spec shows them only during a turn
        self.tile = None
        self.last_cell = None
        self.extra_turn = False
        self.completed = []
        self.groups = [[], []]
        self.doubling = None
        self._changed_public()  # the view's record holds the final scoring

    def _feature_text_plain(self, root: int) -> str:
        return f"{KIND_NAMES[int(self.castle.kind[root])]} of {int(self.castle.size[root])}"

    # -- snapshots ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A full snapshot, JSON-compatible; every list and dict in it is a fresh copy, so
        editing it never reaches the state."""
        castle = self.castle
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": dict(self.config),
            "placements": [
                [cell, code // 4, code % 4, seat] for cell, code, seat in castle.history
            ],
            "followers": sorted(
                [GRID_CELL[g], seat, slot] for g, (seat, slot) in castle.followers.items()
            ),
            "stack": list(self.stack),
            "tile": self.tile,
            "discards": list(self.discards),
            "corners": list(self.corners),
            "boxed": list(self.boxed),
            "held": [[list(item) for item in seat] for seat in self.held],
            "used": [list(item) for item in self.used],
            "scores": list(self.scores_),
            "supply": list(self.supply),
            "keeps": [None if k is None else [k[0], list(k[1])] for k in self.keeps],
            "start_player": self.start_player,
            "active": self.active,
            "turn": self.turn,
            "extra_turn": self.extra_turn,
            "phase": self.phase,
            "last_cell": self.last_cell,
            "completed": list(self.completed),
            "groups": [list(group) for group in self.groups],
            "doubling": self.doubling,
            "final": [[list(item) for item in seat] for seat in self.final],
            "events": list(self.events),
        }

    @classmethod
    def from_dict(cls, rules: CarcassonneCastleRules, data: dict[str, Any]) -> State:
        """The state of a :meth:`to_dict` snapshot. Refused with ``InvalidStateError``
        naming the field: a missing or unknown field, another game or version, a value of
        the wrong type (no coercion: ``8.7`` or ``true`` is not an integer), out of range,
        components not conserved, or a phase context play cannot continue from (see
        :meth:`_check` and :meth:`_check_snapshot`)."""
        if not isinstance(data, dict):
            raise InvalidStateError(
                f"a {rules.name} snapshot is a JSON object, not {type(data).__name__}"
            )
        if data.get("game") != rules.name:
            raise InvalidStateError(f"snapshot is of game {data.get('game')!r}, not {rules.name!r}")
        missing = [name for name in SNAPSHOT_FIELDS if name not in data]
        unknown = sorted(repr(name) for name in data if name not in SNAPSHOT_FIELDS)
        if missing or unknown:
            raise InvalidStateError(
                f"not a {rules.name} snapshot: "
                + "; ".join(
                    ([f"missing field(s) {', '.join(map(repr, missing))}"] if missing else [])
                    + ([f"unknown field(s) {', '.join(unknown)}"] if unknown else [])
                )
            )
        version = data["version"]
        if not is_integer(version) or version != rules.version:
            raise InvalidStateError(
                f"version: {version!r} is not this engine's snapshot version {rules.version}"
            )
        _int("num_players", data["num_players"], (NUM_PLAYERS, NUM_PLAYERS))
        config = data["config"]
        if not isinstance(config, dict):
            raise InvalidStateError(f"config: {config!r} is not an object of options")
        try:
            state = cls(rules, rules.make_config(config))
        except InvalidConfigError as error:
            raise InvalidStateError(f"config: {error}") from None
        cell_range, seat_range = (0, NUM_CELLS - 1), (0, NUM_PLAYERS - 1)
        tile_range, kind_range = (0, NUM_TILE_TYPES - 1), (WALL_KINDS[0], WALL_KINDS[-1])
        history = [
            (cell, 4 * tile + rotation, seat)
            for cell, tile, rotation, seat in _rows(
                "placements",
                data["placements"],
                (cell_range, tile_range, (0, 3), seat_range),
                NUM_CASTLE_TILES,
            )
        ]
        followers: dict[int, tuple[int, int]] = {}
        for cell, seat, slot in _rows(
            "followers", data["followers"], (cell_range, seat_range, (0, NUM_SLOTS - 1)), NUM_CELLS
        ):
            if CELL_GRID[cell] in followers:
                raise InvalidStateError(f"followers: two followers on cell {cell}")
            followers[CELL_GRID[cell]] = (seat, slot)
        state.castle, last_names = _replay(history, followers)
        state.stack = _ints("stack", data["stack"], tile_range, max_length=NUM_CASTLE_TILES)
        state.unseen = [state.stack.count(t) for t in range(NUM_TILE_TYPES)]
        state.tile = _optional_int("tile", data["tile"], tile_range)
        state.discards = _ints("discards", data["discards"], tile_range, NUM_CASTLE_TILES)
        state.corners = _ints("corners", data["corners"], (0, kind_range[1]), length=NUM_STOCKED)
        state.boxed = _ints("boxed", data["boxed"], kind_range, NUM_WALL_TILES)
        held = _list("held", data["held"], length=NUM_PLAYERS)
        state.held = [
            [
                list(row)
                for row in _rows(
                    f"held[{seat}]", held[seat], (kind_range, (0, None)), NUM_WALL_TILES
                )
            ]
            for seat in range(NUM_PLAYERS)
        ]
        # only kinds 1-3 are ever used (discarded) during play; kinds 4-9 act at the end
        state.used = [
            list(row)
            for row in _rows(
                "used", data["used"], ((EXTRA_TURN, HOUSE_X2), seat_range), NUM_WALL_TILES
            )
        ]
        state.scores_ = _ints("scores", data["scores"], (0, None), length=NUM_PLAYERS)
        state.supply = _ints(
            "supply", data["supply"], (0, FOLLOWERS_PER_PLAYER), length=NUM_PLAYERS
        )
        keeps = _list("keeps", data["keeps"], length=NUM_PLAYERS)
        state.keeps = []
        for seat, keep in enumerate(keeps):
            if keep is None:
                state.keeps.append(None)
                continue
            size, locations = _list(f"keeps[{seat}]", keep, length=2)
            state.keeps.append(
                [
                    _int(f"keeps[{seat}][0]", size, (1, NUM_CELLS)),
                    _ints(f"keeps[{seat}][1]", locations, (0, NUM_GRID - 1), NUM_CELLS),
                ]
            )
        state.start_player = _int("start_player", data["start_player"], seat_range)
        state.active = _int("active", data["active"], seat_range)
        state.turn = _int("turn", data["turn"], (1, None))
        state.extra_turn = data["extra_turn"]
        if not isinstance(state.extra_turn, bool):
            raise InvalidStateError(f"extra_turn: {state.extra_turn!r} is not true or false")
        state.phase = data["phase"]
        if state.phase not in (*PHASES, GAME_OVER):
            known = ", ".join((*PHASES, GAME_OVER))
            raise InvalidStateError(f"phase: unknown phase {state.phase!r}; known: {known}")
        state.last_cell = _optional_int("last_cell", data["last_cell"], cell_range)
        state.completed = _names("completed", data["completed"])
        groups = _list("groups", data["groups"], length=2)
        state.groups = [_names(f"groups[{i}]", groups[i]) for i in range(2)]
        state.doubling = None if data["doubling"] is None else _name("doubling", data["doubling"])
        final = _list("final", data["final"], length=NUM_PLAYERS)
        state.final = []
        for seat in range(NUM_PLAYERS):
            items = []
            for i, item in enumerate(_list(f"final[{seat}]", final[seat])):
                label, points = _list(f"final[{seat}][{i}]", item, length=2)
                if not isinstance(label, str):
                    raise InvalidStateError(f"final[{seat}][{i}][0]: {label!r} is not a text")
                items.append([label, _int(f"final[{seat}][{i}][1]", points, (0, None))])
            state.final.append(items)
        events = _list("events", data["events"])
        for event in events:  # None too: every entry of the log is a text
            if not isinstance(event, str):
                raise InvalidStateError(f"events: {event!r} is not a text")
        state.events = list(events)
        state._changed_public()
        state._check()
        state._check_snapshot(last_names)
        return state

    def _check(self) -> None:
        """Conservation and consistency (InvalidStateError otherwise): what every position,
        also one built by :meth:`CarcassonneCastleRules.position`, satisfies."""
        if self.phase not in (*PHASES, GAME_OVER):
            known = ", ".join((*PHASES, GAME_OVER))
            raise InvalidStateError(f"phase: unknown phase {self.phase!r}; known: {known}")
        if sorted(self.tile_zones()) != sorted(TILE_COPIES):
            raise InvalidStateError(
                "stack, tile, placements, discards: the 60 castle tiles are not each in "
                "exactly one zone (stack, drawn tile, castle, discards)"
            )
        if sorted(self.wall_tile_zones()) != sorted(WALL_TILES):
            raise InvalidStateError(
                "corners, boxed, held, used: the 18 wall tiles are not each in exactly one "
                "zone (corners, box, held, used)"
            )
        if len(self.corners) != NUM_STOCKED or len(self.held) != 2 or len(self.scores_) != 2:
            raise InvalidStateError("corners must list 13 kinds; held and scores 2 seats each")
        for seat in range(NUM_PLAYERS):
            on_board = sum(s == seat for s, _ in self.castle.followers.values())
            if self.supply[seat] + on_board != FOLLOWERS_PER_PLAYER:
                raise InvalidStateError(
                    f"supply: seat {seat} has {self.supply[seat]} followers in supply and "
                    f"{on_board} on the board; the two must add up to {FOLLOWERS_PER_PLAYER}"
                )
        if self.active not in (0, 1):
            raise InvalidStateError(f"active: seat {self.active} is not 0 or 1")
        if self.phase == PLACE and (self.tile is None or not self.castle.has_placement(self.tile)):
            raise InvalidStateError("tile: phase PLACE needs a drawn tile with a legal placement")
        if self.phase in (FOLLOWER, ORDER, DOUBLE, EXTRA) and self.last_cell is None:
            raise InvalidStateError(
                f"last_cell: phase {self.phase} needs the just-placed tile's cell"
            )
        if self.last_cell is not None and (
            not 0 <= self.last_cell < NUM_CELLS or self.castle.is_empty(self.last_cell)
        ):
            raise InvalidStateError(f"last_cell: cell {self.last_cell} holds no placed tile")
        names = self.completed + self.groups[0] + self.groups[1]
        names += [] if self.doubling is None else [self.doubling]
        bad = [n for n in names if not (SLOT_BASE <= n < PASS or FACING_BASE <= n < NUM_ACTIONS)]
        if bad:
            raise InvalidStateError(
                f"groups: pending feature names {bad} are not ORDER names (304-315, 318-325)"
            )
        if self.phase == ORDER and not (self.groups[0] or self.groups[1]):
            raise InvalidStateError("groups: phase ORDER needs pending features")
        if self.phase == DOUBLE and self.doubling is None:
            raise InvalidStateError("doubling: phase DOUBLE needs the feature under the decision")
        for seat in range(NUM_PLAYERS):
            for kind, taken in self.held[seat]:
                if taken > self.turn:
                    raise InvalidStateError(
                        f"held[{seat}]: a kind-{kind} wall tile taken in turn {taken}, after "
                        f"the current turn {self.turn}"
                    )

    def _check_snapshot(self, last_names: list[int]) -> None:
        """What a loaded snapshot must also satisfy to be a position of a real game (the
        phase context, the keeps, the followers); ``last_names`` are the ORDER names of the
        features the last placement completed. :meth:`CarcassonneCastleRules.position` may
        build positions outside these (a keep of any size anywhere, a wall tile taken
        "this turn" before the placement), which then do not load back."""
        castle, phase = self.castle, self.phase
        history = castle.history
        # the turn context each phase needs, and nothing the phase forbids
        in_turn = phase in (FOLLOWER, ORDER, DOUBLE, EXTRA)
        if phase != PLACE and self.tile is not None:
            raise InvalidStateError(f"tile: phase {phase} has no drawn tile")
        if in_turn and self.last_cell != history[-1][0]:
            raise InvalidStateError(
                f"last_cell: {self.last_cell} is not the cell of the last placement "
                f"({history[-1][0]})"
            )
        if in_turn and history[-1][2] != self.active:
            raise InvalidStateError(
                f"active: seat {self.active} is deciding on a tile seat {history[-1][2]} laid"
            )
        if not in_turn and self.last_cell is not None:
            raise InvalidStateError(f"last_cell: phase {phase} has no just-placed tile")
        if phase == FOLLOWER:
            if self.completed != last_names:
                raise InvalidStateError(
                    f"completed: {self.completed} are not the features the last placement "
                    f"completed ({last_names})"
                )
            if CELL_GRID[self.last_cell] in castle.followers:  # type: ignore[index]
                raise InvalidStateError("followers: a follower on the tile still to claim")
        elif self.completed:
            raise InvalidStateError(f"completed: phase {phase} has no unresolved completions")
        pending = self.groups[0] + self.groups[1]
        if phase not in (ORDER, DOUBLE) and (pending or self.doubling is not None):
            raise InvalidStateError(f"groups, doubling: phase {phase} has no pending features")
        if phase != DOUBLE and self.doubling is not None:
            raise InvalidStateError(f"doubling: phase {phase} has no doubling decision")
        if self.doubling is not None:
            pending = pending + [self.doubling]
        if len(set(pending)) != len(pending) or not set(pending) <= set(last_names):
            raise InvalidStateError(
                f"groups, doubling: pending features {pending} are not distinct features the "
                f"last placement completed ({last_names})"
            )
        if phase == ORDER and len(self.groups[0] or self.groups[1]) < 2:
            raise InvalidStateError("groups: phase ORDER needs 2+ features in the group scored")
        usable = self._usable_kinds(self.active)
        pending_roots = set()
        for group, names in enumerate((self.groups[0], self.groups[1], [self.doubling])):
            for name in names:
                if name is None:
                    continue
                root = castle.feature_named(self.last_cell, name)  # type: ignore[arg-type]
                pending_roots.add(root)
                mine, theirs = castle.followers_on(root)
                if self.active == 1:
                    mine, theirs = theirs, mine
                if not (mine > theirs if group != 1 else theirs > mine):
                    raise InvalidStateError(
                        f"groups: feature {name} is pending for a seat without the majority"
                    )
        if self.doubling is not None:
            kind = int(castle.kind[castle.feature_named(self.last_cell, self.doubling)])
            if (TOWER_X2 if kind == TOWER else HOUSE_X2 if kind == HOUSE else 0) not in usable:
                raise InvalidStateError(
                    "doubling: the active player holds no usable x2 wall tile for it"
                )
        if phase == EXTRA and (EXTRA_TURN not in usable or not self.stack):
            raise InvalidStateError(
                "phase: EXTRA needs a usable extra-turn wall tile and a non-empty stack"
            )
        if phase == GAME_OVER and (self.stack or self.extra_turn):
            raise InvalidStateError("stack, extra_turn: a finished game has neither")
        if phase != GAME_OVER and (self.final[0] or self.final[1]):
            raise InvalidStateError(f"final: phase {phase} comes before the final scoring")
        if self.extra_turn and [EXTRA_TURN, self.active] not in self.used:
            raise InvalidStateError("extra_turn: the active player has used no extra-turn tile")
        for seat in range(NUM_PLAYERS):
            if sum(points for _, points in self.final[seat]) > self.scores_[seat]:
                raise InvalidStateError(f"final: seat {seat} scored more than its score")
            # a marker that stops on a stocked corner takes its tile (none at the end, §6.5)
            corner = CORNER_AT_SPACE[self.scores_[seat] % TRACK_LENGTH]
            if phase != GAME_OVER and corner >= 0 and self.corners[corner]:
                raise InvalidStateError(
                    f"scores: seat {seat}'s marker stands on corner C{corner + 1}, which "
                    "still holds its wall tile"
                )
            if phase in (PLACE, FOLLOWER):  # no scoring yet this turn
                for kind, taken in self.held[seat]:
                    if taken >= self.turn:
                        raise InvalidStateError(
                            f"held[{seat}]: a kind-{kind} wall tile taken in turn {taken}, "
                            f"before any scoring of the current turn {self.turn}"
                        )
        # followers: on tiles their owner laid; on a complete tower, house or path only
        # while it waits to be scored
        placer = {CELL_GRID[cell]: seat for cell, _, seat in history}
        for g, (seat, slot) in castle.followers.items():
            if placer[g] != seat:
                x, y = xy_of(g)
                raise InvalidStateError(
                    f"followers: seat {seat}'s follower on ({x},{y}), a tile seat {placer[g]} laid"
                )
            root = castle.feature_at(g, slot)
            waiting = (
                phase == FOLLOWER
                and any(castle.feature_named(self.last_cell, n) == root for n in last_names)
            ) or root in pending_roots
            if castle.is_complete(root) and not waiting:
                x, y = xy_of(g)
                raise InvalidStateError(
                    f"followers: a follower on the complete {KIND_NAMES[int(castle.kind[root])]}"
                    f" at ({x},{y}), which is not waiting to be scored"
                )
        # keeps: each on a different complete house, of its size, with nobody on it
        roots = []
        for seat, keep in enumerate(self.keeps):
            if keep is None:
                continue
            size, locations = keep
            root = NO_SEGMENT
            for k in range(8) if locations else ():
                candidate = castle.feature_at(locations[0], k)  # a tile may hold 2+ houses
                if (
                    castle.kind[candidate] == HOUSE
                    and castle.is_complete(candidate)
                    and not any(castle.followers_on(candidate))
                    and candidate not in roots
                    and castle.locations(candidate) == locations
                ):
                    root = candidate
                    break
            if root == NO_SEGMENT or size != len(locations):
                raise InvalidStateError(
                    f"keeps[{seat}]: {keep} is not the size and locations of a complete house "
                    "with no follower on it (and not the other keep's house)"
                )
            roots.append(root)

    def tile_zones(self) -> list[int]:
        """Every castle tile's type in some zone (tests check the 60 are each there once)."""
        placed = [code // 4 for _, code, _ in self.castle.history]
        drawn = [] if self.tile is None else [self.tile]
        return list(self.stack) + drawn + placed + list(self.discards)

    def wall_tile_zones(self) -> list[int]:
        """Every wall tile's kind in some zone: corners, box, players, used."""
        return (
            [k for k in self.corners if k]
            + list(self.boxed)
            + [k for seat in self.held for k, _ in seat]
            + [k for k, _ in self.used]
        )

    def __repr__(self) -> str:
        tile = TILE_TYPES[self.tile].name if self.tile is not None else "-"
        return (
            f"<CarcassonneCastle turn {self.turn} {self.phase} P{self.current_player} "
            f"tile {tile} scores {self.scores_[0]}-{self.scores_[1]} stack {len(self.stack)}>"
        )


#: The fields of a snapshot (``State.to_dict``), each required.
SNAPSHOT_FIELDS = (
    "game",
    "version",
    "num_players",
    "config",
    "placements",
    "followers",
    "stack",
    "tile",
    "discards",
    "corners",
    "boxed",
    "held",
    "used",
    "scores",
    "supply",
    "keeps",
    "start_player",
    "active",
    "turn",
    "extra_turn",
    "phase",
    "last_cell",
    "completed",
    "groups",
    "doubling",
    "final",
    "events",
)


def _int(field: str, value: Any, bounds: tuple[int, int | None]) -> int:
    """``value`` as an int if it is an integer within ``bounds`` (``None``: no upper bound),
    else InvalidStateError naming ``field``; bools and floats are not integers."""
    if type(value) is not int and not is_integer(value):  # the common case first: cheaper
        raise InvalidStateError(f"{field}: {value!r} is not an integer")
    low, high = bounds
    if value < low or (high is not None and value > high):
        allowed = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidStateError(f"{field}: {value} is out of range {allowed}")
    return int(value)


def _optional_int(field: str, value: Any, bounds: tuple[int, int | None]) -> int | None:
    return None if value is None else _int(field, value, bounds)


def _list(
    field: str, value: Any, max_length: int | None = None, *, length: int | None = None
) -> list:
    if not isinstance(value, (list, tuple)):
        raise InvalidStateError(f"{field}: {value!r} is not a list")
    if length is not None and len(value) != length:
        raise InvalidStateError(f"{field}: {len(value)} entries, not {length}")
    if max_length is not None and len(value) > max_length:
        raise InvalidStateError(f"{field}: {len(value)} entries, more than {max_length}")
    return list(value)


def _ints(
    field: str,
    value: Any,
    bounds: tuple[int, int | None],
    max_length: int | None = None,
    *,
    length: int | None = None,
) -> list[int]:
    items = _list(field, value, max_length, length=length)
    return [_int(f"{field}[{i}]", item, bounds) for i, item in enumerate(items)]


def _rows(
    field: str,
    value: Any,
    bounds: tuple[tuple[int, int | None], ...],
    max_length: int | None = None,
) -> list[tuple[int, ...]]:
    """A list of fixed-length rows of integers, each column within its bounds."""
    rows = []
    for i, row in enumerate(_list(field, value, max_length)):
        row = _list(f"{field}[{i}]", row, length=len(bounds))
        rows.append(
            tuple(_int(f"{field}[{i}][{j}]", row[j], bounds[j]) for j in range(len(bounds)))
        )
    return rows


def _name(field: str, value: Any) -> int:
    """An ORDER name of a pending feature: 304-315 or 318-325 (spec §11.1)."""
    if not is_integer(value) or not (
        SLOT_BASE <= value < PASS or FACING_BASE <= value < NUM_ACTIONS
    ):
        raise InvalidStateError(
            f"{field}: {value!r} is not the ORDER name of a feature (304-315, 318-325)"
        )
    return int(value)


def _names(field: str, value: Any) -> list[int]:
    items = _list(field, value, MAX_COMPLETED)
    return [_name(f"{field}[{i}]", item) for i, item in enumerate(items)]


def _replay(
    history: list[tuple[int, int, int]], followers: dict[int, tuple[int, int]]
) -> tuple[Castle, list[int]]:
    """Rebuild the castle, refusing a placement on a taken cell or one that was not legal,
    and a follower on no segment; also return the ORDER names of the features the last
    placement completed."""
    seen: set[int] = set()
    for cell, code, _ in history:
        if cell in seen:
            raise InvalidStateError(f"placements: two tiles on cell {cell}")
        seen.add(cell)
        if code >= NUM_TILE_CODES:
            raise InvalidStateError(f"placements: tile code {code} is not a tile")
    castle = Castle()
    names: list[int] = []
    for cell, code, seat in history:
        tile, rotation = divmod(code, 4)
        if not castle.placement_mask(tile)[4 * cell + rotation]:
            x, y = PLAYABLE_CELLS[cell]
            raise InvalidStateError(
                f"placements: {TILE_TYPES[tile].name} r{rotation} on ({x},{y}) was not a "
                "legal placement"
            )
        names = castle.place(cell, tile, rotation, seat)
    for g, (seat, slot) in sorted(followers.items()):
        cell = GRID_CELL[g]
        if cell not in seen:
            raise InvalidStateError(f"followers: a follower on empty cell {cell}")
        segments = CODE_SEGMENTS[int(castle.code[g])]
        if slot not in [seg.lowest for seg in segments]:
            x, y = xy_of(g)
            raise InvalidStateError(
                f"followers: slot {slot} names no segment of the tile on ({x},{y})"
            )
        castle.add_follower(cell, slot, seat)
    return castle, names
