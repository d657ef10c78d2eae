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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_SEGMENTS,
    GRID_CELL,
    NO_SEGMENT,
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
    NUM_STOCKED,
    NUM_TILE_TYPES,
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
    WALL_NAMES,
    WALL_TILES,
    tile_index,
)
from boardgame_envs.carcassonne_castle.sample import sample_state as _sample_state
from boardgame_envs.core.rules import (
    InvalidStateError,
    Option,
    PlayerView,
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


def keep_bonus_ok(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class CarcassonneCastleRules(BaseRules):
    """Carcassonne: The Castle for exactly 2 players."""

    name = "carcassonne_castle"
    version = 0
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS
    action_size = NUM_ACTIONS
    encoding_module = "boardgame_envs.carcassonne_castle.encoding"
    render_module = "boardgame_envs.carcassonne_castle.render"
    render_modes = ("ansi", "human", "rgb_array")
    score_reward_scale = 1 / 100  # spec §11.3: score differences / 100
    options = {
        "keep_bonus_tiles": Option(
            KEEP_BONUS_TILES,
            "STAND-IN: tiles a kind-8 wall tile adds to the keep (spec §2.5)",
            keep_bonus_ok,
            "an integer >= 0",
        ),
        "wall9_points": Option(
            WALL9_POINTS,
            "STAND-IN: points of a kind-9 wall tile (spec §2.5)",
            keep_bonus_ok,
            "an integer >= 0",
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
        return _sample_state(self, view, rng)

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
        self.tile = None
        self.groups = [[], []]
        self._changed_public()  # the view's record holds the final scoring

    def _feature_text_plain(self, root: int) -> str:
        return f"{KIND_NAMES[int(self.castle.kind[root])]} of {int(self.castle.size[root])}"

    # -- snapshots ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        castle = self.castle
        return {
            "game": self.rules.name,
            "version": self.rules.version,
            "num_players": self.num_players,
            "config": self.config,
            "placements": [
                [cell, code // 4, code % 4, seat] for cell, code, seat in castle.history
            ],
            "followers": sorted(
                [GRID_CELL[g], seat, slot] for g, (seat, slot) in castle.followers.items()
            ),
            "stack": self.stack,
            "tile": self.tile,
            "discards": self.discards,
            "corners": self.corners,
            "boxed": self.boxed,
            "held": self.held,
            "used": self.used,
            "scores": self.scores_,
            "supply": self.supply,
            "keeps": self.keeps,
            "start_player": self.start_player,
            "active": self.active,
            "turn": self.turn,
            "extra_turn": self.extra_turn,
            "phase": self.phase,
            "last_cell": self.last_cell,
            "completed": self.completed,
            "groups": self.groups,
            "doubling": self.doubling,
            "final": self.final,
            "events": self.events,
        }

    @classmethod
    def from_dict(cls, rules: CarcassonneCastleRules, data: dict[str, Any]) -> State:
        try:
            if data["game"] != rules.name:
                raise InvalidStateError(f"snapshot is of game {data['game']!r}, not {rules.name!r}")
            rules.check_num_players(data["num_players"])
            state = cls(rules, rules.make_config(data["config"]))
            history = []
            for cell, tile, rotation, seat in data["placements"]:
                cell, tile, rotation, seat = int(cell), int(tile), int(rotation), int(seat)
                _check_range("placement cell", cell, NUM_CELLS)
                _check_range("placement tile", tile, NUM_TILE_TYPES)
                _check_range("placement rotation", rotation, 4)
                _check_range("placement seat", seat, NUM_PLAYERS)
                history.append((cell, 4 * tile + rotation, seat))
            followers = {}
            for cell, seat, slot in data["followers"]:
                _check_range("follower cell", int(cell), NUM_CELLS)
                _check_range("follower seat", int(seat), NUM_PLAYERS)
                _check_range("follower slot", int(slot), 12)
                followers[CELL_GRID[int(cell)]] = (int(seat), int(slot))
            state.castle = _replay(history, followers)
            state.stack = [int(t) for t in data["stack"]]
            state.unseen = [state.stack.count(t) for t in range(NUM_TILE_TYPES)]
            state.tile = None if data["tile"] is None else int(data["tile"])
            state.discards = [int(t) for t in data["discards"]]
            state.corners = [int(k) for k in data["corners"]]
            state.boxed = [int(k) for k in data["boxed"]]
            state.held = [[[int(k), int(t)] for k, t in seat] for seat in data["held"]]
            state.used = [[int(k), int(s)] for k, s in data["used"]]
            state.scores_ = [int(s) for s in data["scores"]]
            state.supply = [int(s) for s in data["supply"]]
            state.keeps = [
                None if k is None else [int(k[0]), [int(g) for g in k[1]]] for k in data["keeps"]
            ]
            state.start_player = int(data["start_player"])
            state.active = int(data["active"])
            state.turn = int(data["turn"])
            state.extra_turn = bool(data["extra_turn"])
            state.phase = str(data["phase"])
            state.last_cell = None if data["last_cell"] is None else int(data["last_cell"])
            state.completed = [int(n) for n in data["completed"]]
            state.groups = [[int(n) for n in g] for g in data["groups"]]
            state.doubling = None if data["doubling"] is None else int(data["doubling"])
            state.final = [[[str(label), int(p)] for label, p in seat] for seat in data["final"]]
            state.events = [str(e) for e in data["events"]]
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, InvalidStateError):
                raise
            raise InvalidStateError(f"not a {rules.name} snapshot: {error!r}") from error
        state._changed_public()
        state._check()
        return state

    def _check(self) -> None:
        """Conservation and consistency of a snapshot (InvalidStateError otherwise)."""
        if self.phase not in (*PHASES, GAME_OVER):
            known = ", ".join((*PHASES, GAME_OVER))
            raise InvalidStateError(f"unknown phase {self.phase!r}; known: {known}")
        if sorted(self.tile_zones()) != sorted(TILE_COPIES):
            raise InvalidStateError(
                "the 60 castle tiles are not each in exactly one zone (stack, drawn tile, "
                "castle, discards)"
            )
        if sorted(self.wall_tile_zones()) != sorted(WALL_TILES):
            raise InvalidStateError(
                "the 18 wall tiles are not each in exactly one zone (corners, box, held, used)"
            )
        if len(self.corners) != NUM_STOCKED or len(self.held) != 2 or len(self.scores_) != 2:
            raise InvalidStateError("corners must list 13 kinds; held and scores 2 seats each")
        for seat in range(NUM_PLAYERS):
            on_board = sum(s == seat for s, _ in self.castle.followers.values())
            if self.supply[seat] + on_board != FOLLOWERS_PER_PLAYER:
                raise InvalidStateError(
                    f"seat {seat} has {self.supply[seat]} followers in supply and {on_board} "
                    f"on the board; the two must add up to {FOLLOWERS_PER_PLAYER}"
                )
        if self.active not in (0, 1):
            raise InvalidStateError(f"active seat {self.active} is not 0 or 1")
        if self.phase == PLACE and (self.tile is None or not self.castle.has_placement(self.tile)):
            raise InvalidStateError("phase PLACE needs a drawn tile with a legal placement")
        if self.phase in (FOLLOWER, ORDER, DOUBLE) and self.last_cell is None:
            raise InvalidStateError(f"phase {self.phase} needs the just-placed tile's cell")
        if self.last_cell is not None and (
            not 0 <= self.last_cell < NUM_CELLS or self.castle.is_empty(self.last_cell)
        ):
            raise InvalidStateError(f"last_cell {self.last_cell} holds no placed tile")
        names = self.completed + self.groups[0] + self.groups[1]
        names += [] if self.doubling is None else [self.doubling]
        bad = [n for n in names if not (SLOT_BASE <= n < PASS or FACING_BASE <= n < NUM_ACTIONS)]
        if bad:
            raise InvalidStateError(
                f"pending feature names {bad} are not ORDER names (304-315, 318-325)"
            )
        if self.phase == ORDER and not (self.groups[0] or self.groups[1]):
            raise InvalidStateError("phase ORDER needs pending features")
        if self.phase == DOUBLE and self.doubling is None:
            raise InvalidStateError("phase DOUBLE needs the feature under the decision")

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


def _check_range(what: str, value: int, size: int) -> None:
    if not 0 <= value < size:
        raise InvalidStateError(f"{what} {value} is out of range 0..{size - 1}")


def _replay(history: list[tuple[int, int, int]], followers: dict[int, tuple[int, int]]) -> Castle:
    """Rebuild the castle, refusing a placement on a taken cell or a follower on no segment."""
    seen: set[int] = set()
    for cell, code, _ in history:
        if cell in seen:
            raise InvalidStateError(f"two tiles on cell {cell}")
        seen.add(cell)
        if code >= NUM_TILE_CODES:
            raise InvalidStateError(f"tile code {code} is not a tile")
    castle = Castle()
    for cell, code, seat in history:
        tile, rotation = divmod(code, 4)
        if not castle.placement_mask(tile)[4 * cell + rotation]:
            x, y = PLAYABLE_CELLS[cell]
            raise InvalidStateError(
                f"{TILE_TYPES[tile].name} r{rotation} on ({x},{y}) was not a legal placement"
            )
        castle.place(cell, tile, rotation, seat)
    for g, (seat, slot) in sorted(followers.items()):
        cell = GRID_CELL[g]
        if cell not in seen:
            raise InvalidStateError(f"a follower on empty cell {cell}")
        segments = CODE_SEGMENTS[int(castle.code[g])]
        if slot not in [seg.lowest for seg in segments]:
            x, y = xy_of(g)
            raise InvalidStateError(f"slot {slot} names no segment of the tile on ({x},{y})")
        castle.add_follower(cell, slot, seat)
    return castle
