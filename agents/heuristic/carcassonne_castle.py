"""A rule-based player for Carcassonne: The Castle.

Strategy, from what the player's own view shows (the public castle, scores, supplies,
wall tiles; never the stack order or face-down wall tiles):

1. **Placement (DP1).** Every legal (cell, rotation) is tried on a copy of the castle and
   scored by
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

from agents.base import Agent
from boardgame_envs.carcassonne_castle.castle import (
    CELL_GRID,
    CODE_SEGMENTS,
    FACING,
    NEIGHBOR,
    NO_SEGMENT,
    SIDE_SLOTS,
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
        best, best_value = legal[0], float("-inf")
        seen: dict[tuple[int, tuple], float] = {}
        for action in legal:
            if action >= NUM_PLACEMENTS:
                continue
            cell, rotation = divmod(action, 4)
            # rotations that give the same placed tile (T01 in any r, T18 r0/r2) score alike
            key = (cell, CODE_SEGMENTS[4 * view.tile + rotation])
            if key not in seen:
                seen[key] = self._placement_value(view, cell, rotation)
            value = seen[key]
            value += float(self.rng.random()) * 1e-3  # break ties at random
            if value > best_value:
                best, best_value = action, value
        return best

    def placement_values(self, view: View) -> dict[int, float]:
        """Every legal placement with the value ``_place`` gives it (without the random
        tie-break), for search agents that try the heuristic's best few placements."""
        values: dict[int, float] = {}
        seen: dict[tuple[int, tuple], float] = {}
        for action in view.legal_actions():
            if action >= NUM_PLACEMENTS:
                continue
            cell, rotation = divmod(action, 4)
            key = (cell, CODE_SEGMENTS[4 * view.tile + rotation])
            if key not in seen:
                seen[key] = self._placement_value(view, cell, rotation)
            values[action] = seen[key]
        return values

    def _placement_value(self, view: View, cell: int, rotation: int) -> float:
        me, opp = view.seat, 1 - view.seat
        touched = _neighbour_segments(view.castle, cell)
        castle = view.castle.clone()
        completed = castle.place(cell, view.tile, rotation, me)
        g = CELL_GRID[cell]
        score = view.scores[me]
        value = 0.0
        claim_now = 0.0
        mine_now = 0.0
        completed_roots = set()
        for name in completed:
            root = castle.feature_named(cell, name)
            completed_roots.add(root)
            counts = castle.followers_on(root)
            points = castle.value(root)
            if counts[me] > counts[opp]:
                mine_now += points
            elif counts[opp] > counts[me]:
                value -= points
            elif counts[me] == 0 and name < PASS and view.supply[me] > 0:
                claim_now = max(claim_now, points)  # claim it with this turn's follower
        value += mine_now + claim_now
        if _lands_on_corner(view, score + mine_now + claim_now):
            value += CORNER_BONUS
        # unfinished features on the new tile or touched by it
        roots = {castle.feature_at(g, seg.lowest) for seg in CODE_SEGMENTS[castle.code[g]]}
        roots |= {castle.find(s) for s in touched}
        best_claim = 0.0
        for root in roots:
            if root in completed_roots or root == NO_SEGMENT:
                continue
            kind = castle.kind[root]
            counts = castle.followers_on(root)
            open_ports = castle.open[root]
            potential = _potential(castle, root)
            if counts[me] > counts[opp]:
                value += GROWTH * potential - OPEN_PENALTY * open_ports
            elif counts[opp] > counts[me]:
                value -= GROWTH * potential
            elif counts[me] == 0 and kind != COURT:
                best_claim = max(best_claim, potential)
            elif counts[me] == 0 and kind == COURT and castle.markets[root] >= 2:
                best_claim = max(best_claim, 1.5 * castle.markets[root])
        if view.supply[me] >= 2 and claim_now == 0:
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
            else:
                value = 0.0 if late else _potential(castle, root)
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


def _potential(castle: Castle, root: int) -> float:
    """What an unfinished tower, house or path might bring: its value now, discounted by
    the ports still open (each one more tile to lay)."""
    kind = castle.kind[root]
    size = castle.size[root]
    per_tile = 2.0 if kind == TOWER or (kind == PATH and castle.fountain[root]) else 1.0
    if kind not in (TOWER, HOUSE, PATH):
        return 0.0
    open_ports = castle.open[root]
    return per_tile * (size + 1) / (1.0 + 0.5 * open_ports)


def _neighbour_segments(castle: Castle, cell: int) -> list[int]:
    """Segments on the locations around ``cell`` whose ports face it."""
    out = []
    for d, nb in enumerate(NEIGHBOR[cell]):
        if nb < 0:
            continue
        for slot in SIDE_SLOTS[d]:
            seg = castle.segment_at(nb, FACING[slot])
            if seg != NO_SEGMENT:
                out.append(seg)
    return out


__all__ = ["HeuristicAgent"]
