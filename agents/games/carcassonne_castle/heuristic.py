"""A rule-based player for Carcassonne: The Castle.

Strategy, from what the player's own view shows (the public castle, scores, supplies,
wall tiles; never the stack order or face-down wall tiles):

1. **Placement (DP1).** Every legal (cell, rotation) is tried (what laying the tile would
   make of the features it touches, worked out without laying it) and scored by
   * the points it completes now: + value of every completed feature the player wins
     (or could win by claiming it with this turn's follower), - value of every one the
     opponent wins, + 3 when the player's marker would stop on a stocked corner tower;
   * growth of unfinished features: + for towers, houses and paths the player holds
     (more when few ports stay open, so they are easy to finish), - for the opponent's;
   * what it offers to claim next: the best unclaimed feature on the new tile, valued by
     its size and how close it is to completion (only while followers remain);
   * a small penalty for leaving the player's own features with many open ports.
2. **Followers (DP2).** Claim a feature the placement completes (free points: the
   follower comes straight back). Otherwise claim the most promising unclaimed tower,
   house or path (value x closeness to completion), or a court with 2+ markets, but keep
   followers in reserve: with 2 or fewer left only a feature worth a lot is claimed, and
   late in the game (few tiles left) unfinished features are not worth a follower.
3. **Order (DP3).** Score own features in the order that lands the player's marker on the
   most stocked corner towers; the opponent's in the order that lands theirs on the fewest.
4. **Doubling (DP4) and extra turns (DP5):** always yes.
"""

from __future__ import annotations

from boardgame_envs.agents.base import Agent
from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_ROWS,
    CODE_SEGMENTS,
    CODE_SLOT_SEGMENT,
    EMPTY,
    MAX_SEGMENTS,
    NO_SEGMENT,
    NUM_GRID,
    NUM_TILE_CODES,
    SIDE_PORTS,
    Castle,
)
from boardgame_envs.carcassonne_castle.data import (
    CORNER_AT_SPACE,
    COURT,
    HOUSE,
    PATH,
    TOWER,
    TRACK_LENGTH,
)
from boardgame_envs.carcassonne_castle.rules import (
    DOUBLE,
    EXTRA,
    FOLLOWER,
    NUM_PLACEMENTS,
    ORDER,
    PASS,
    PLACE,
    SLOT_BASE,
    YES,
    View,
)

CORNER_BONUS = 3.0
GROWTH = 0.6
CLAIM_WEIGHT = 0.5
OPEN_PENALTY = 0.15


def _same_segments() -> tuple[int, ...]:
    """Per tile code, the lowest code of the same tile type whose rotated segments are the
    same (T01 in any rotation, T18 r0 and r2): such placements on a cell score alike."""
    return tuple(
        next(c for c in range(code - code % 4, code + 1) if CODE_SEGMENTS[c] == CODE_SEGMENTS[code])
        for code in range(NUM_TILE_CODES)
    )


SAME_SEGMENTS = _same_segments()


# What ``_lay`` says of a feature a placement would make or change, as a tuple (the
# castle's numbers for it, see ``Castle``): (kind, open ports, followers per seat, size,
# fountain, markets, location bits). Plain tuples: a decision builds thousands.
NO_FOLLOWERS = (0, 0)


def _new_segment_features() -> tuple[tuple[tuple[tuple, ...], ...], ...]:
    """Per tile code, per set of sides facing empty cells (bit d: side d): the features of
    the tile's segments when laid, each its own feature of size 1. Their location bits are
    left 0 (the cell is unknown here): ``_merge`` adds the cell, as every merge ``_lay``
    makes joins a feature holding one of the tile's segments."""
    table = []
    for code in range(NUM_TILE_CODES):
        kinds, fountains, markets, _, opens, _ = CODE_ROWS[code]
        table.append(
            tuple(
                tuple(
                    (
                        kind,
                        opens[empty][i],
                        NO_FOLLOWERS,
                        1,
                        fountains[i] if fountains is not None else 0,
                        markets[i] if markets is not None else 0,
                        0,
                    )
                    for i, kind in enumerate(kinds)
                )
                for empty in range(16)
            )
        )
    return tuple(table)


NEW_SEGMENT_FEATURES = _new_segment_features()
#: Per tile code, per slot: the kind of the tile's segment owning that port, -1 for none.
SLOT_KIND: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if local < 0 else CODE_SEGMENTS[code][local].kind for local in slots)
    for code, slots in enumerate(CODE_SLOT_SEGMENT[:NUM_TILE_CODES])
)
#: Per cell, its sides that face a location (not the wall): (side, the location across
#: it, the side's three port pairs (this cell's slot, position of the port facing it in
#: ``Castle.root_at``)), from ``SIDE_PORTS``.
CELL_SIDES: tuple[tuple[tuple[int, int, tuple[tuple[int, int], ...]], ...], ...] = tuple(
    tuple(
        (d, side[0], tuple((mine // NUM_GRID, theirs) for mine, theirs in side[1]))
        for d, side in enumerate(sides)
        if side is not None
    )
    for sides in SIDE_PORTS
)


class HeuristicAgent(Agent):
    """Greedy on points now, builds and claims features it can finish, keeps followers."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == PLACE:
            return self._place(view, legal)
        if view.phase == FOLLOWER:
            return self._follower(view, legal)
        if view.phase == ORDER:
            return self._order(view, legal)
        if view.phase in (DOUBLE, EXTRA):
            return YES
        return legal[0]

    # -- DP1 --------------------------------------------------------------------------------
    def _place(self, view: View, legal: list[int]) -> int:
        assert view.tile is not None
        placements = [action for action in legal if action < NUM_PLACEMENTS]
        if not placements:
            return legal[0]
        values = self._values(view, placements)
        # break ties at random: one draw per placement, in order (a batch draws the same
        # numbers as one call each)
        noise = (self.rng.random(len(placements)) * 1e-3).tolist()
        best, best_value = legal[0], float("-inf")
        for action, value, tie_break in zip(placements, values, noise):
            value += tie_break
            if value > best_value:
                best, best_value = action, value
        return best

    def placement_values(self, view: View) -> dict[int, float]:
        """Every legal placement with the value ``_place`` gives it (without the random
        tie-break), for search agents that try the heuristic's best few placements."""
        placements = [action for action in view.legal_actions() if action < NUM_PLACEMENTS]
        return dict(zip(placements, self._values(view, placements)))

    def _values(self, view: View, placements: list[int]) -> list[float]:
        """The value of each placement (action ``4 * cell + rotation``), in order."""
        if not placements:
            return []
        castle = view.castle
        first = castle.num_segments  # the id the placed tile's first segment would get
        base = 4 * view.tile
        values: list[float] = []
        around, around_cell = (), -1  # the surroundings of the cell being tried
        seen: dict[int, float] = {}  # values on that cell by SAME_SEGMENTS code
        for action in placements:
            cell, code = action >> 2, base + (action & 3)
            if cell != around_cell:  # placements come cell by cell, rotations in order
                around, around_cell = _surroundings(castle, cell), cell
                seen = {}
            # rotations that give the same placed tile (T01 in any r, T18 r0/r2) score alike
            value = seen.get(SAME_SEGMENTS[code])
            if value is None:
                laid = _lay(first, code, around)
                value = seen[SAME_SEGMENTS[code]] = self._placement_value(view, *laid)
            values.append(value)
        return values

    def _placement_value(
        self,
        view: View,
        new_roots: list[int],
        touched_roots: list[int],
        features: dict[int, tuple],
    ) -> float:
        """The value of a placement, from the features it would make (see ``_lay``)."""
        me = view.seat
        opp = 1 - me
        supply = view.supply[me]
        value = 0.0
        claim_now = 0.0
        mine_now = 0.0
        # Features on the new tile or touched by it. This set is built as it always was:
        # its order is the order of the float sums over the unfinished ones below.
        roots = set(new_roots)
        roots |= set(touched_roots)
        unfinished = []
        for root in roots:
            feature = features[root]
            kind, open_ports, followers, size, fountain, _, _ = feature
            if open_ports or kind == COURT:
                unfinished.append(feature)
                continue
            # completed: points are whole numbers, so the order of these sums is moot
            points = _points(kind, size, fountain)
            if followers[me] > followers[opp]:
                mine_now += points
            elif followers[opp] > followers[me]:
                value -= points
            elif followers[me] == 0 and supply > 0 and root in new_roots:
                claim_now = max(claim_now, points)  # claim it with this turn's follower
        value += mine_now + claim_now
        if _lands_on_corner(view, view.scores[me] + mine_now + claim_now):
            value += CORNER_BONUS
        best_claim = 0.0
        for kind, open_ports, followers, size, fountain, markets, _ in unfinished:
            if followers[me] > followers[opp]:
                potential = _potential(kind, size, fountain, open_ports)
                value += GROWTH * potential - OPEN_PENALTY * open_ports
            elif followers[opp] > followers[me]:
                value -= GROWTH * _potential(kind, size, fountain, open_ports)
            elif followers[me] == 0 and kind != COURT:
                best_claim = max(best_claim, _potential(kind, size, fountain, open_ports))
            elif followers[me] == 0 and kind == COURT and markets >= 2:
                best_claim = max(best_claim, 1.5 * markets)
        if supply >= 2 and claim_now == 0:
            value += CLAIM_WEIGHT * best_claim
        return value

    # -- DP2 --------------------------------------------------------------------------------
    def _follower(self, view: View, legal: list[int]) -> int:
        me = view.seat
        castle = view.castle
        assert view.last_cell is not None
        g = CELL_GRID[view.last_cell]
        supply = view.supply[me]
        late = view.stack_size < 8
        best, best_value = PASS, 0.0
        for action in legal:
            if action == PASS:
                continue
            root = castle.feature_at(g, action - SLOT_BASE)
            kind = castle.kind[root]
            if castle.is_complete(root):
                value = 100.0 + castle.value(root)  # points now, follower back at once
            elif kind == COURT:
                markets = castle.markets[root]
                value = 3.0 * markets if markets >= 2 or (markets and late) else 0.0
                if supply <= 3:
                    value *= 0.5
            elif late:
                value = 0.0  # too late to finish it
            else:
                size, fountain, open_ports = castle.size, castle.fountain, castle.open
                value = _potential(kind, size[root], fountain[root], open_ports[root])
                threshold = 4.0 if supply <= 2 else 1.5
                if value < threshold:
                    value = 0.0
            if value > best_value:
                best, best_value = action, value
        return best

    # -- DP3 --------------------------------------------------------------------------------
    def _order(self, view: View, legal: list[int]) -> int:
        me = view.seat
        mine = view.active == me and bool(view.groups[0])
        winner = me if mine else 1 - me
        castle = view.castle
        assert view.last_cell is not None

        def landing(action: int) -> float:
            points = castle.value(castle.feature_named(view.last_cell, action))
            lands = _lands_on_corner(view, view.scores[winner] + points)
            return (1.0 if lands else 0.0) * (1 if mine else -1) + 1e-3 * points

        return max(legal, key=landing)


def _lands_on_corner(view: View, score: float) -> bool:
    corner = CORNER_AT_SPACE[int(score) % TRACK_LENGTH]
    return corner >= 0 and view.stocked[corner]


def _feature_now(castle: Castle, root: int) -> tuple:
    """The castle's feature ``root`` as it stands."""
    return (
        castle.kind[root],
        castle.open[root],
        (castle.count[root], castle.count[MAX_SEGMENTS + root]),
        castle.size[root],
        castle.fountain[root],
        castle.markets[root],
        castle.locs[root],
    )


def _points(kind: int, size: int, fountain: int) -> int:
    """Points of a feature if scored now, as ``Castle.value``."""
    if kind == TOWER or (kind == PATH and fountain):
        return 2 * size
    return size if kind in (HOUSE, PATH) else 0


def _potential(kind: int, size: int, fountain: int, open_ports: int) -> float:
    """What an unfinished tower, house or path might bring: its value now, discounted by
    the ports still open (each one more tile to lay)."""
    per_tile = 2.0 if kind == TOWER or (kind == PATH and fountain) else 1.0
    if kind not in (TOWER, HOUSE, PATH):
        return 0.0
    return per_tile * (size + 1) / (1.0 + 0.5 * open_ports)


def _surroundings(castle: Castle, cell: int) -> tuple:
    """What a tile laid on the empty ``cell`` finds there, whatever its rotation: the sides
    facing empty cells (bit d: side d); each port pair where a neighbour's port faces the
    cell, as (the tile's slot, the root owning the neighbour's port, its kind), in
    ``Castle.place``'s order; those roots in that order; their features with those ports
    closed; and the cell's location bit."""
    code_at, root_at, kinds = castle.code, castle.root_at, castle.kind
    empty = 0
    links = []
    for d, location, ports in CELL_SIDES[cell]:
        if code_at[location] == EMPTY:
            empty |= 1 << d
            continue
        for slot, theirs in ports:
            old = root_at[theirs]
            if old != NO_SEGMENT:
                links.append((slot, old, kinds[old]))
    touched = [old for _, old, _ in links]
    olds = {}
    for old in touched:
        if old not in olds:
            kind, open_ports, *rest = _feature_now(castle, old)
            olds[old] = (kind, open_ports - touched.count(old), *rest)
    return empty, links, touched, olds, 1 << CELL_GRID[cell]


def _lay(first: int, code: int, around: tuple) -> tuple[list[int], list[int], dict[int, tuple]]:
    """What laying the tile ``code`` on a cell would make of the features it touches,
    without laying it (``around``: the cell's ``_surroundings``; ``first``: the castle's
    next segment id). The features' roots are the segment ids a laid copy of the castle
    would have: the tile's segments get the next ids, and a merge keeps the older root, as
    in ``Castle.place``. Returns the root of each of the tile's segments (in segment
    order), the root of each neighbour's port facing the cell (in ``Castle.place``'s
    order), and the features of those roots."""
    empty, links, touched, olds, location = around
    new = NEW_SEGMENT_FEATURES[code][empty]
    new_roots = list(range(first, first + len(new)))
    features = dict(olds)
    features.update(zip(new_roots, new))
    root_of: dict[int, int] = {}  # segment id or old root -> the root it was merged into
    slot_kind, slot_segment = SLOT_KIND[code], CODE_SLOT_SEGMENT[code]
    for slot, old, kind in links:
        if slot_kind[slot] != kind:  # no port there, or one of another kind
            continue
        own = first + slot_segment[slot]
        own = root_of.get(own, own)
        other = root_of.get(old, old)
        if own != other:
            _merge(features, root_of, own, other, location)
    if root_of:
        new_roots = list(map(root_of.get, new_roots, new_roots))
        touched = list(map(root_of.get, touched, touched))
    return new_roots, touched, features


def _merge(
    features: dict[int, tuple], root_of: dict[int, int], a: int, b: int, location: int
) -> None:
    """Merge the features of two roots as ``Castle._union`` does: the newer joins the older.
    One of them holds a segment of the tile laid on ``location`` (bit of its grid position)."""
    if a > b:
        a, b = b, a
    kind, open_a, (a0, a1), _, fountain_a, markets_a, locs_a = features[a]
    _, open_b, (b0, b1), _, fountain_b, markets_b, locs_b = features.pop(b)
    locs = locs_a | locs_b | location
    features[a] = (
        kind,
        open_a + open_b,
        (a0 + b0, a1 + b1),
        locs.bit_count(),
        fountain_a | fountain_b,
        markets_a + markets_b,
        locs,
    )
    for label, root in root_of.items():
        if root == b:
            root_of[label] = a
    root_of[b] = a


__all__ = ["HeuristicAgent"]
