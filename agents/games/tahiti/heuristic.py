"""A rule-based player for Tahiti.

Strategy, from what the player's own view shows (the board, the cargo and charts of all
seats, the bag counts, its own favourite tile):

1. **What a cube is worth.** Every delivered cube scores 1. A crop on its own favourite tile
   is worth more while it can still reach (or keep) the highest count among the charts and
   canoes (+2), or the second highest (+1). A kind that holds back its next complete set
   (its count is the lowest of the five) is worth its share of the set bonus step
   ``SB(m + 1) - SB(m)``. Fish are needed for every set, and only come from fishing.
2. **Routes.** Shortest paths over the tiles (Dijkstra), where a step costs one action plus,
   when the canoe carries cargo, the expected value lost to the reef draws: for each reef,
   the chance that a drawn cube matches a cargo kind times that kind's worth. So a loaded
   canoe goes around reefs when the detour is cheap.
3. **Actions.** Deliver on the home tile. Harvest a worthwhile cube where the canoe stands.
   Head home with three or more cubes (they cover paddles), with any cargo once the season
   has ended, or with two when home is near; otherwise head for the island whose cubes are
   worth most per step of the route, and fish on a water tile or an island when nothing
   better is near (where a fishing-bonus token lies, gladly). End the step when nothing
   useful is left.
4. **Explore.** Haumea goes to (or stays on) the edge tile nearest to home and to its own
   canoe, so that new islands grow close to where it paddles; from the two stacks it takes
   the tile whose crops are worth more to it; it places the tile on the legal position
   nearest to home and its canoe, turned so that as few reefs as possible face the tiles
   around it.
5. **Bounty** cubes go to the legal island nearest its own canoe; **depletion** tokens go on
   the eligible island farthest from it (a fishing-bonus token on the nearest, to fish there).
"""

from __future__ import annotations

import heapq

from boardgame_envs.agents.base import Agent
from boardgame_envs.tahiti.data import (
    FAVOURITES,
    FISH,
    FISH_DRAWS,
    FISH_DRAWS_WITH_BONUS,
    FISHING,
    HOME,
    ISLAND_SLOTS,
    NUM_GOODS,
    NUM_ISLANDS,
    SET_BONUS,
    paddles,
    reef_mask,
)
from boardgame_envs.tahiti.rules import (
    ACTION,
    BOUNTY_PLACE,
    DELIVER,
    DEPLETE,
    END,
    FISH_ACTION,
    HARVEST_BASE,
    HAUMEA_MOVE,
    HAUMEA_STEP,
    ISLAND_BASE,
    NEIGHBOURS,
    PASS,
    PLACE,
    PLACE_BASE,
    STACK,
    STACK_A,
    View,
    cell_distance,
)

INF = float("inf")


class HeuristicAgent(Agent):
    """Harvests what it scores most on, paddles around reefs with cargo, delivers in time."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        phase = view.phase
        if phase == ACTION:
            return self._action(view, legal)
        if phase == BOUNTY_PLACE:
            return self._bounty(view, legal)
        if phase in (HAUMEA_MOVE, HAUMEA_STEP):
            return self._haumea(view, legal)
        if phase == STACK:
            return self._stack(view, legal)
        if phase == PLACE:
            return self._place(view, legal)
        if phase == DEPLETE:
            return self._deplete(view, legal)
        return legal[0]

    # -- what things are worth -------------------------------------------------------------
    def _worth(self, view: View) -> list[float]:
        """The worth of one more cube of each kind for this seat."""
        seat = view.seat
        mine = [view.charts[seat][g] + view.cargo[seat][g] for g in range(NUM_GOODS)]
        worth = [1.0] * NUM_GOODS
        for g in FAVOURITES[view.favourite]:
            others = sorted(
                {
                    view.charts[s][g] + view.cargo[s][g]
                    for s in range(view.num_players)
                    if s != seat
                },
                reverse=True,
            )
            best = others[0] if others else 0
            if mine[g] + 1 >= best:
                worth[g] += 2.0
            elif len(others) < 2 or mine[g] + 1 >= others[1]:
                worth[g] += 1.0
        low = min(mine)
        short = [g for g in range(NUM_GOODS) if mine[g] == low]
        step = SET_BONUS[min(low + 1, len(SET_BONUS) - 1)] - SET_BONUS[low]
        for g in short:
            worth[g] += step / len(short)
        return worth

    def _fish_chance(self, view: View, draws: int) -> float:
        total = sum(view.bag)
        if total == 0:
            return 0.0
        miss = 1.0
        others = total - view.bag[FISH]
        for i in range(min(draws, total)):
            miss *= max(others - i, 0) / (total - i)
        return 1.0 - miss

    # -- routes -----------------------------------------------------------------------------
    def _reefs(self, view: View, cell: int, d: int) -> int:
        target = NEIGHBOURS[cell][d]
        leaving = view.reefs[view.cell_tile[cell]] >> d & 1
        entering = view.reefs[view.cell_tile[target]] >> ((d + 3) % 6) & 1
        return leaving + entering

    def _costs(self, view: View, start: int, worth: list[float]) -> tuple[dict, dict]:
        """Dijkstra from ``start``: cost per reachable cell and the first direction there."""
        cargo = view.cargo[view.seat]
        total = sum(view.bag)
        risk = 0.0
        if sum(cargo) and total:
            risk = sum(view.bag[g] / total * worth[g] for g in range(NUM_GOODS) if cargo[g])
        cost = {start: 0.0}
        first: dict[int, int] = {}
        queue = [(0.0, start, -1)]
        while queue:
            c, cell, d0 = heapq.heappop(queue)
            if c > cost.get(cell, INF):
                continue
            for d, nb in enumerate(NEIGHBOURS[cell]):
                if nb < 0 or view.cell_tile[nb] < 0:
                    continue
                step = 1.0 + 1.5 * risk * self._reefs(view, cell, d)
                if c + step < cost.get(nb, INF):
                    cost[nb] = c + step
                    first[nb] = d if d0 < 0 else d0
                    heapq.heappush(queue, (c + step, nb, first[nb]))
        return cost, first

    # -- the action step -------------------------------------------------------------------
    def _action(self, view: View, legal: list[int]) -> int:
        seat = view.seat
        cell = view.canoes[seat]
        tile = view.cell_tile[cell]
        cargo = view.cargo[seat]
        n = sum(cargo)
        left = paddles(n) - view.taken
        worth = self._worth(view)
        if DELIVER in legal:
            return DELIVER
        harvest = [a for a in legal if HARVEST_BASE <= a < HARVEST_BASE + 4]
        if harvest:
            return max(harvest, key=lambda a: worth[a - HARVEST_BASE])
        cost, first = self._costs(view, cell, worth)
        home = view.tile_cell[HOME]
        go_home = n >= 3 or (n and view.end_triggered) or (n >= 2 and cost[home] <= left - 1)
        if n and go_home and cell != home:
            return first[home]
        # the best island to harvest: worth of its cubes per step of the route
        best, best_value = None, 0.0
        room = 5 - n
        for k in range(1, NUM_ISLANDS + 1):
            where = view.tile_cell[k]
            cubes = view.island_cubes[k]
            if where < 0 or not cubes or where == cell or where not in cost:
                continue
            values = sorted(
                (worth[ISLAND_SLOTS[k][s]] for s in (0, 1) if cubes >> s & 1), reverse=True
            )
            value = sum(values[:room]) / (1.0 + cost[where])
            if value > best_value:
                best, best_value = where, value
        fish_here = FISH_ACTION in legal
        if fish_here:
            bonus = 1 <= tile <= NUM_ISLANDS and view.tokens[tile] == FISHING
            draws = FISH_DRAWS_WITH_BONUS if bonus else FISH_DRAWS
            fish_value = self._fish_chance(view, draws) * worth[FISH]
            if fish_value >= best_value:
                return FISH_ACTION
        if best is not None:
            return first[best]
        if n and cell != home:
            return first[home]
        if cell == home:  # an empty canoe at home with nothing to harvest: go fishing
            moves = [a for a in legal if a < 6]
            safe = [a for a in moves if self._reefs(view, cell, a) == 0]
            if safe or moves:
                return (safe or moves)[0]
        return END if END in legal else legal[0]

    # -- explore ----------------------------------------------------------------------------
    def _closeness(self, view: View, cell: int) -> float:
        home = view.tile_cell[HOME]
        return cell_distance(cell, home) + 0.5 * cell_distance(cell, view.canoes[view.seat])

    def _haumea(self, view: View, legal: list[int]) -> int:
        def target(a: int) -> int:
            return view.haumea if a == PASS else NEIGHBOURS[view.haumea][a]

        return min(legal, key=lambda a: (self._closeness(view, target(a)), a))

    def _stack(self, view: View, legal: list[int]) -> int:
        worth = self._worth(view)

        def value(a: int) -> float:
            k = view.stack_tops[a - STACK_A]
            return sum(worth[g] for g in ISLAND_SLOTS[k])

        return max(legal, key=value)

    def _place(self, view: View, legal: list[int]) -> int:
        def merit(a: int) -> tuple[float, int]:
            d, rho = divmod(a - PLACE_BASE, 6)
            cell = NEIGHBOURS[view.haumea][d]
            reefs = reef_mask(view.hand_tile, rho, view.side)
            facing = sum(
                1
                for e, nb in enumerate(NEIGHBOURS[cell])
                if reefs >> e & 1 and nb >= 0 and view.cell_tile[nb] >= 0
            )
            return self._closeness(view, cell) + 0.7 * facing, a

        return min(legal, key=merit)

    # -- bounty and depletion ---------------------------------------------------------------
    def _bounty(self, view: View, legal: list[int]) -> int:
        cost, _ = self._costs(view, view.canoes[view.seat], [1.0] * NUM_GOODS)
        return min(legal, key=lambda a: (cost.get(view.tile_cell[a - ISLAND_BASE], INF), a))

    def _deplete(self, view: View, legal: list[int]) -> int:
        cost, _ = self._costs(view, view.canoes[view.seat], [1.0] * NUM_GOODS)

        def distance(a: int) -> float:
            return cost.get(view.tile_cell[a - ISLAND_BASE], INF)

        if view.revealed_token == FISHING:
            return min(legal, key=lambda a: (distance(a), a))
        return max(legal, key=lambda a: (distance(a), -a))
