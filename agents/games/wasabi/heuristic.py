"""A rule-based player for Wasabi!.

It acts on its own view only (the board, its hand, cards and recipes, the public counts).
Everything it values is measured in points: a recipe it can still complete (it holds an
unused token of that length) is worth the token's points, plus the style cubes when the
dish would be ideal.

1. **Board value.** For each of its live recipes and each row or column window of the
   recipe's length: a window with a foreign or repeated kind, or a covered cell, is dead;
   a full window is the recipe's value (with the cubes if it reads in the ideal order);
   a partial one is a fraction of it that grows with the square of the tiles in place,
   counts tiles already in their ideal position, and shrinks when the missing kinds are
   neither in hand nor in the pantry. A recipe is worth its best window.
2. **Placement** (STEP1_START, PLACE_TARGET, PLACE_DUE): the kind and cell that raise the
   board value most (so completions first, ideal ones before plain ones, then progress),
   plus a **blocking** bonus: an empty cell that would finish a line for a recipe an
   opponent may hold (a length it holds, a kind it holds, weighted by the chance that the
   recipe is among its hidden ones) is worth filling with another kind, and never with
   the missing one. Tiles its recipes still need are kept when a junk tile will do.
3. **Action cards** are played when they finish a recipe: Stack!, Switch! or Chop! before
   placing when that completes something a plain placement does not; after placing,
   Switch!, Chop! or Spicy! when they complete (Spicy! also for good progress). A Wasabi!
   card is played after placing when nothing better is on: it is a sure cube, laid where
   it blocks the most opponent threats and covers the least of its own lines.
4. **Passing Step 1** only to throw away dead recipes (no token of their length left) or
   recipes needing a kind that is gone, and only when no placement completes anything.
5. **Picks**: Wasabi!, Switch!, Chop!, Spicy!, Stack!, in that order; with two cards in
   hand, a pick is taken only to replace a worse card.
6. **Refills**: ingredients its live recipes miss most (kinds it already holds count
   less); recipes of the shortest length for which it has more tokens than recipes.
7. **Setup**: gifts of fish, seafood and vegetables (Maki, useful to everybody, last);
   drafts as in the recipe refill.
"""

from __future__ import annotations

import functools
from operator import add, itemgetter

from boardgame_envs.agents.base import Agent
from boardgame_envs.wasabi.data import (
    CARD_HAND_LIMIT,
    CHOP,
    DECK_RECIPES,
    LENGTHS,
    MAKI,
    NUM_KINDS,
    RECIPE_LENGTH,
    RECIPES,
    SPICY,
    STACK,
    SWITCH,
    TOKENS,
    WASABI,
)
from boardgame_envs.wasabi.rules import (
    CARD_BASE,
    CELL_BASE,
    DONE,
    KIND_BASE,
    LENGTH_BASE,
    SLOT_BASE,
    Geometry,
    View,
    covered_cells,
    geometry,
)

EMPTY, BLOCKED = -1, -2
#: Preference of action cards, best first (picks and discards).
CARD_PREFERENCE = (WASABI, SWITCH, CHOP, SPICY, STACK)
#: A card played for a completion must gain at least this much (a length-2 recipe: 2).
COMPLETION_GAIN = 1.5
#: Bounds of the agent's memos (they only save time): recipes kept, windows per recipe.
RECIPES_KEPT, MEMO_SIZE = 512, 4096


@functools.cache
def _window_tables(
    columns: int, length: int
) -> tuple[tuple[itemgetter, ...], tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """For the windows of ``length`` on a board of ``columns``: a reader of each window's
    top tiles (``reader(tops)`` is the window's tuple), each window's cells as a bit mask,
    and per cell the windows through it."""
    geo = geometry(columns)
    windows = geo.windows[length - 2]
    readers = tuple(itemgetter(*w) for w in windows)
    masks = tuple(sum(1 << c for c in w) for w in windows)
    return readers, masks, geo.through[length - 2]


class Recipe:
    """One live recipe of the player, with its windows' values on a board.

    A window's value depends on its tiles, the rules variant (``either``) and the supply of
    the recipe's kinds only: the agent keeps one Recipe per such (recipe, board width,
    variant, supply), and each memoises its window values and its last board's valuation.
    A cell "fits" the recipe when its top is empty or one of the recipe's kinds; a window
    with a cell that does not fit is dead, so a change between two unfitting tops changes
    no value."""

    def __init__(self, recipe: int, geo: Geometry, either: bool, supply: list[float]) -> None:
        r = RECIPES[recipe]
        self.id = recipe
        self.kinds = r.kinds
        self.kind_set = frozenset(r.kinds)
        self.fits = self.kind_set | {EMPTY}
        self.slot = {k: i for i, k in enumerate(r.kinds)}  # the recipe's kinds are distinct
        self.length = r.length
        self.all_kinds = (1 << r.length) - 1  # bit i: kinds[i] is in the window
        token = TOKENS[r.length]
        self.points, self.cubes = token.points, token.cubes
        self.readers, self.window_cells, self.through = _window_tables(geo.columns, r.length)
        self.either = either
        # availability of each of its kinds: 1 in hand, less in the pantry
        self.supply = {k: supply[k] for k in r.kinds}
        self._memo: dict[tuple[int, ...], float] = {}
        self._partial: dict[tuple[int, int], float] = {}
        self._board: list[int] | None = None

    def value_board(self, tops: list[int]) -> None:
        """Values the windows on the board now (``tops``): ``values``, the nonzero ones best
        first (``ranked``), and the ``best``; nothing to do if it is the last board."""
        if tops == self._board:
            return
        self._board = list(tops)
        fits = self.fits
        self.unfit = sum(1 << c for c, k in enumerate(tops) if k not in fits)
        unfit, readers = self.unfit, self.readers
        self.values = [
            0.0 if cells & unfit else self.window_value(readers[w](tops))
            for w, cells in enumerate(self.window_cells)
        ]
        live = [w for w, v in enumerate(self.values) if v]
        self.ranked = sorted(live, key=self.values.__getitem__, reverse=True)
        self.best = self.values[self.ranked[0]] if self.ranked else 0.0
        self.best_cells = self.window_cells[self.ranked[0]] if self.ranked else 0

    def window_value(self, seen: tuple[int, ...]) -> float:
        """Value of one window whose top tiles are ``seen`` (EMPTY / BLOCKED allowed)."""
        value = self._memo.get(seen)
        if value is None:
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            value = self._memo[seen] = self._window_value(seen)
        return value

    def _window_value(self, seen: tuple[int, ...]) -> float:
        """``window_value`` without the memo: a window with a covered cell, a foreign or a
        repeated kind is dead; a full one is the recipe's value (with the cubes if it reads
        in the ideal order); a partial one, see ``_partial_value``."""
        slot, last = self.slot, self.length - 1
        present = aligned = backwards = 0  # present: bit i for kinds[i]
        for i, k in enumerate(seen):
            if k == EMPTY:
                continue
            j = slot.get(k)
            if j is None or present >> j & 1:  # covered, a foreign kind, or a repeated one
                return 0.0
            present |= 1 << j
            aligned += j == i
            backwards += j == last - i
        if self.either and backwards > aligned:
            aligned = backwards
        if present == self.all_kinds:
            return self.points + (self.cubes if aligned == self.length else 0)
        value = self._partial.get((present, aligned))
        if value is None:
            value = self._partial[present, aligned] = self._partial_value(present, aligned)
        return value

    def _partial_value(self, present_bits: int, aligned: int) -> float:
        """A partial window: a share of the value for the kinds present, ``aligned`` of
        them in their ideal position, less likely when the missing ones are scarce."""
        present = [k for i, k in enumerate(self.kinds) if present_bits >> i & 1]
        share = len(present) / self.length
        chance = 1.0
        for k in self.kind_set.difference(present):
            chance *= self.supply[k]
        style = self.cubes * aligned / max(len(present), 1)
        return (self.points + style) * (0.05 + 0.45 * share * share) * chance

    def best_outside(self, cells: int) -> float:
        """The best value now of a window through none of ``cells`` (a bit mask)."""
        if not self.best_cells & cells:
            return self.best
        window_cells, values = self.window_cells, self.values
        for w in self.ranked:
            if not window_cells[w] & cells:
                return values[w]
        return 0.0

    def best_after(self, tops: list[int], changed: tuple[int, ...]) -> float:
        """The best window value on ``tops``, which differs from the board now in
        ``changed`` only. Only the windows through a changed cell that fits before or after
        can change value, and only those through one that fits after can be live."""
        fits, unfit = self.fits, self.unfit
        moved = 0  # bit mask of the changed cells that fit before or after
        for c in changed:
            bit = 1 << c
            if tops[c] in fits:
                moved |= bit
                unfit &= ~bit
            elif not unfit & bit:
                moved |= bit
                unfit |= bit
        if not moved:
            return self.best
        best = self.best_outside(moved)
        window_cells, readers = self.window_cells, self.readers
        for c in changed:
            if tops[c] in fits:
                for w in self.through[c]:
                    if not window_cells[w] & unfit:
                        value = self.window_value(readers[w](tops))
                        if value > best:
                            best = value
        return best

    def best_covering(self, cells: int) -> float:
        """The best window value with ``cells`` (a bit mask) covered: only the windows
        through a covered cell that fits now lose their value."""
        moved = cells & ~self.unfit
        return self.best_outside(moved) if moved else self.best

    def bests_placing(self, tops: list[int], cells: list[int], kinds: list[int]) -> list[float]:
        """The best window value after each placement of a kind of ``kinds`` on a cell of
        ``cells`` (a new top there, the rest of the board as now), kinds varying fastest.
        ``tops`` is scratch: left as it was."""
        fits, unfit, best, best_cells = self.fits, self.unfit, self.best, self.best_cells
        bests: list[float] = []
        if fits.isdisjoint(kinds):  # each placement kills the windows through its cell
            for cell in cells:
                bit = 1 << cell
                idle = best if unfit & bit or not best_cells & bit else self.best_outside(bit)
                bests += [idle] * len(kinds)
            return bests
        window_cells, readers, window_value = self.window_cells, self.readers, self.window_value
        for cell in cells:
            bit = 1 << cell
            outside = self.best_outside(bit)  # the windows through the cell die
            idle = best if unfit & bit else outside  # the value with an unfitting kind
            others_unfit = unfit & ~bit
            through = [w for w in self.through[cell] if not window_cells[w] & others_unfit]
            old = tops[cell]
            for kind in kinds:
                if kind not in fits:
                    bests.append(idle)
                    continue
                tops[cell] = kind
                value = outside
                for w in through:
                    seen = window_value(readers[w](tops))
                    if seen > value:
                        value = seen
                bests.append(value)
            tops[cell] = old
        return bests


class HeuristicAgent(Agent):
    """Completes its recipes greedily, blocks likely opponent lines, plays cards to finish."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._recipes: dict[tuple[int, int, bool, tuple[float, ...]], Recipe] = {}
        self._last_threats: tuple[tuple | None, dict[int, dict[int, float]]] = (None, {})

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return getattr(self, "_" + view.phase.lower())(view, legal)

    # -- what the view shows, as the planner needs it ------------------------------------
    def _setup(self, view: View) -> None:
        self.view = view
        self.geo = view.geo
        seat = view.seat
        self.hand = list(view.tiles[seat] or [0] * NUM_KINDS)
        covered = covered_cells(view.anchors)
        self.tops = [
            BLOCKED if covered[c] else (s[-1] if s else EMPTY) for c, s in enumerate(view.stacks)
        ]
        self.supply = [
            1.0 if self.hand[k] else (0.7 if view.pantry[k] else 0.15) for k in range(NUM_KINDS)
        ]
        tokens = view.tokens[seat]
        self.live = [
            self._recipe(r, view.style_either_direction)
            for r in view.menu
            if r is not None and tokens[RECIPE_LENGTH[r] - 2]
        ]
        self._valued = False
        self._threat_cache: dict[int, dict[int, float]] | None = None
        self._need_cache: dict[int, float] = {}
        self._placement_cache: dict[bool, tuple[float, int, int] | None] = {}

    def _recipe(self, recipe: int, either: bool) -> Recipe:
        """The Recipe for ``recipe`` on this board width, variant and supply."""
        key = (
            recipe,
            self.geo.columns,
            either,
            tuple(self.supply[k] for k in RECIPES[recipe].kinds),
        )
        found = self._recipes.get(key)
        if found is None:
            if len(self._recipes) >= RECIPES_KEPT:
                self._recipes.clear()
            found = self._recipes[key] = Recipe(recipe, self.geo, either, self.supply)
        return found

    def _valued_live(self) -> list[Recipe]:
        """The live recipes, their windows valued on the board now (once per decision)."""
        if not self._valued:
            for recipe in self.live:
                recipe.value_board(self.tops)
            self._valued = True
        return self.live

    def value_now(self) -> float:
        """Board value: the sum of the live recipes' best windows."""
        return sum(recipe.best for recipe in self._valued_live())

    def value_after(self, tops: list[int], changed: tuple[int, ...]) -> float:
        """Board value of ``tops``, which differs from the board now in ``changed`` only."""
        total = 0.0
        for recipe in self._valued_live():
            total += recipe.best_after(tops, changed)
        return total

    def value_covering(self, cells: int) -> float:
        """Board value with ``cells`` (a bit mask) covered by a Wasabi! card."""
        total = 0.0
        for recipe in self._valued_live():
            total += recipe.best_covering(cells)
        return total

    def values_placing(self, tops: list[int], cells: list[int], kinds: list[int]) -> list[float]:
        """``value_after`` of each placement of a kind of ``kinds`` on a cell of ``cells``,
        kinds varying fastest."""
        totals = [0.0] * (len(cells) * len(kinds))
        for recipe in self._valued_live():
            totals = list(map(add, totals, recipe.bests_placing(tops, cells, kinds)))
        return totals

    def _need(self, kind: int) -> float:
        """How much the live recipes want one more tile of ``kind``."""
        need = self._need_cache.get(kind)
        if need is None:
            need = self._need_cache[kind] = sum(
                (r.points + r.cubes) / r.length for r in self.live if kind in r.kind_set
            ) / (1 + self.hand[kind])
        return need

    # -- opponents' likely lines -----------------------------------------------------------
    def _threats(self) -> dict[int, dict[int, float]]:
        """Per empty cell: the kinds that would finish a line an opponent may hold, with
        the expected points: the chance that the opponent holds such a recipe (its
        recipes of that length among the recipes this player cannot see) x the chance it
        has the kind (in hand, or at least in the pantry) x the recipe's value.
        Computed when a decision first needs them, unless the last ones computed were made
        of the same facts (the key below)."""
        if self._threat_cache is None:
            view = self.view
            opponents = tuple(t for s, t in enumerate(view.tiles) if s != view.seat)
            key = (
                *(view.num_players, view.columns, view.seat, view.menu, view.completed),
                *(view.menu_lengths, view.tokens, opponents, view.pantry, tuple(self.tops)),
            )
            if self._last_threats[0] != key:
                threats: dict[int, dict[int, float]] = {}
                for length in LENGTHS:
                    unknown, holders = self._holders(length)
                    if holders:
                        self._add_threats(length, unknown, holders, threats)
                self._last_threats = (key, threats)
            self._threat_cache = self._last_threats[1]
        return self._threat_cache

    def _holders(self, length: int) -> tuple[list[int], list[tuple[float, tuple[int, ...] | None]]]:
        """The recipes of ``length`` this player cannot see, and (weight, hand) of the
        opponents that may hold one: the weight is the chance that a given one of those
        recipes is among theirs."""
        view = self.view
        n, seat = view.num_players, view.seat
        mine = {r for r in view.menu if r is not None}
        done = {r for seat_done in view.completed for r, _ in seat_done}
        unknown = [r for r in DECK_RECIPES[length - 2] if r not in mine and r not in done]
        holders = []
        for rel in range(1, n):
            s = (seat + rel) % n
            held = sum(1 for L in view.menu_lengths[s] if L == length)
            if held and view.tokens[s][length - 2] and unknown:
                weight = (1.0 if rel == 1 else 0.5) * held / len(unknown)
                holders.append((weight, view.tiles[s]))
        return unknown, holders

    def _add_threats(
        self,
        length: int,
        unknown: list[int],
        holders: list[tuple[float, tuple[int, ...] | None]],
        threats: dict[int, dict[int, float]],
    ) -> None:
        """The threats of the opponents' recipes of ``length``: the windows with one empty
        cell, no covered one and ``length - 1`` distinct kinds that a recipe completes."""
        sets = {frozenset(RECIPES[r].kinds) for r in unknown}
        value = TOKENS[length].points + TOKENS[length].cubes / 2
        finishing: dict[frozenset[int], list[int]] = {}  # present kinds -> the kinds finishing
        chances: dict[int, float] = {}
        tops = self.tops
        empty = sum(1 << c for c, k in enumerate(tops) if k == EMPTY)
        covered = sum(1 << c for c, k in enumerate(tops) if k == BLOCKED)
        readers, window_cells, _ = _window_tables(self.geo.columns, length)
        for w, cells in enumerate(window_cells):
            hole = cells & empty
            if not hole or hole & (hole - 1) or cells & covered:  # not exactly one empty cell
                continue
            present = frozenset(k for k in readers[w](tops) if k >= 0)
            if len(present) != length - 1:
                continue
            kinds = finishing.get(present)
            if kinds is None:
                # present has length - 1 kinds: each recipe set above it adds exactly one
                kinds = finishing[present] = sorted(
                    {k for s in sets if present < s for k in s - present}
                )
            hole_cell = hole.bit_length() - 1
            for kind in kinds:
                chance = chances.get(kind)
                if chance is None:
                    chance = chances[kind] = self._holding_chance(holders, kind)
                if chance:
                    cell = threats.setdefault(hole_cell, {})
                    cell[kind] = cell.get(kind, 0.0) + chance * value

    def _holding_chance(
        self, holders: list[tuple[float, tuple[int, ...] | None]], kind: int
    ) -> float:
        """The weighted chance that the ``holders`` have (or may get) a tile of ``kind``."""
        chance = 0.0
        for weight, hand in holders:
            has = 0.6 if hand is None else (1.0 if hand[kind] else 0.0)
            if not has and self.view.pantry[kind]:
                has = 0.3  # it may take one in its refill
            chance += weight * has
        return chance

    @staticmethod
    def _block(threat: dict[int, float], kind: int) -> float:
        """The blocking value of ``kind`` on a cell with these threats (kind: points)."""
        return sum(v for k, v in threat.items() if k != kind) - 2 * threat.get(kind, 0.0)

    # -- placements ------------------------------------------------------------------------
    def _placements(self, kinds: list[int], cells: list[int]) -> list[tuple[float, int, int]]:
        """(score, kind, cell) of each placement of a kind on a cell (its new top)."""
        tops = list(self.tops)  # a scratch board: the lazy facts read self.tops
        before = self.value_now()
        threats = self._threats()
        needs = [self._need(kind) for kind in kinds]
        values = iter(self.values_placing(tops, cells, kinds))
        results = []
        for cell in cells:
            threat = threats.get(cell)
            for kind, need in zip(kinds, needs):
                gain = next(values) - before
                if gain < 0.5:  # not an advance: prefer a tile the recipes do not need
                    gain -= 0.3 * need
                results.append((gain + (self._block(threat, kind) if threat else 0.0), kind, cell))
        return results

    def _best_placement(self, stack: bool = False) -> tuple[float, int, int] | None:
        if stack not in self._placement_cache:
            self._placement_cache[stack] = self._find_best_placement(stack)
        return self._placement_cache[stack]

    def _find_best_placement(self, stack: bool) -> tuple[float, int, int] | None:
        kinds = [k for k in range(NUM_KINDS) if self.hand[k]]
        if stack:
            cells = [c for c in self.geo.active if self.tops[c] != BLOCKED]
        else:
            cells = [c for c in self.geo.active if self.tops[c] == EMPTY]
        if not kinds or not cells:
            return None
        return max(self._placements(kinds, cells))

    # -- card effects ----------------------------------------------------------------------
    def _swaps(self) -> list[tuple[float, int, int]]:
        view, tops = self.view, self.tops
        before = self.value_now()
        new = list(tops)  # scratch: each swap is undone after it is valued
        results = []
        for a in self.geo.active:
            for b in self.geo.neighbours[a]:
                if b < a or BLOCKED in (tops[a], tops[b]):
                    continue
                if not view.stacks[a] and not view.stacks[b]:
                    continue
                sa, sb = view.stacks[a], view.stacks[b]
                new[a] = sb[-1] if sb else EMPTY
                new[b] = sa[-1] if sa else EMPTY
                results.append((self.value_after(new, (a, b)) - before, a, b))
                new[a], new[b] = tops[a], tops[b]
        return results

    def _chops(self) -> list[tuple[float, int]]:
        view, tops = self.view, self.tops
        before = self.value_now()
        results = []
        for c in self.geo.active:
            if tops[c] < 0:
                continue
            new = list(tops)
            stack = view.stacks[c]
            new[c] = stack[-2] if len(stack) > 1 else EMPTY
            results.append((self.value_after(new, (c,)) - before, c))
        return results

    def _anchors(self) -> list[tuple[float, int]]:
        covered = covered_cells(self.view.anchors)
        free = [a for a in self.geo.anchors if not any(covered[c] for c in self.geo.block[a])]
        before = self.value_now()
        threats = self._threats()
        results = []
        for a in free:
            block = 0.0
            for c in self.geo.block[a]:
                block += sum(threats.get(c, {}).values())
            covered_value = self.value_covering(sum(1 << c for c in self.geo.block[a]))
            results.append((covered_value - before + block, a))
        return results

    def _card_plays(self, legal: list[int], before: bool) -> list[tuple[float, int]]:
        """(gain, action) of the playable cards worth playing now."""
        plays = []
        card = set(legal)
        if before and CARD_BASE + STACK in card:
            plain = self._best_placement()
            stacked = self._best_placement(stack=True)
            if stacked and plain and stacked[0] - plain[0] >= COMPLETION_GAIN:
                plays.append((stacked[0] - plain[0], CARD_BASE + STACK))
        if CARD_BASE + SWITCH in card:
            best = max(self._swaps(), default=(0.0, 0, 0))
            if best[0] >= COMPLETION_GAIN:
                plays.append((best[0], CARD_BASE + SWITCH))
        if CARD_BASE + CHOP in card:
            best = max(self._chops(), default=(0.0, 0))
            if best[0] >= COMPLETION_GAIN:
                plays.append((best[0], CARD_BASE + CHOP))
        if not before and CARD_BASE + SPICY in card:
            extra = self._best_placement()
            if extra and extra[0] >= 0.8:
                plays.append((extra[0], CARD_BASE + SPICY))
        if not before and CARD_BASE + WASABI in card:
            best = max(self._anchors(), default=(-9.0, 0))
            plays.append((1.0 + best[0], CARD_BASE + WASABI))
        return [p for p in plays if p[0] > 0.5]

    # -- decisions -------------------------------------------------------------------------
    def _step1_start(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        plays = self._card_plays(legal, before=True)
        if plays:
            return max(plays)[1]
        best = self._best_placement()
        discard = self._dead_slots()
        if discard and (best is None or best[0] < COMPLETION_GAIN):
            return SLOT_BASE + discard[0]
        if best is not None:
            return KIND_BASE + best[1]
        return DONE if DONE in legal else legal[-1]

    def _place_target(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        assert view.kind is not None
        cells = [a - CELL_BASE for a in legal]
        return CELL_BASE + max(self._placements([view.kind], cells))[2]

    def _place_due(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        best = self._best_placement(stack=view.stack_on)
        if best is None or (DONE in legal and best[0] < 0.3):
            return DONE
        return KIND_BASE + best[1]

    def _after_placement(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        plays = self._card_plays(legal, before=False)
        return max(plays)[1] if plays else DONE

    def _switch_first(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        allowed = set(legal)
        best = max((s for s in self._swaps() if CELL_BASE + s[1] in allowed), default=None)
        return CELL_BASE + best[1] if best else legal[0]

    def _switch_second(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        a = view.selected
        options = [s for s in self._swaps() if a in (s[1], s[2])]
        allowed = set(legal)
        best = max(
            (
                (g, y if x == a else x)
                for g, x, y in options
                if CELL_BASE + (y if x == a else x) in allowed
            ),
            default=None,
        )
        return CELL_BASE + best[1] if best else legal[0]

    def _chop_target(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        allowed = set(legal)
        best = max((c for c in self._chops() if CELL_BASE + c[1] in allowed), default=None)
        return CELL_BASE + best[1] if best else legal[0]

    def _chopped_tile(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        assert view.lifted is not None
        cells = [a - CELL_BASE for a in legal if a != DONE]
        from_hand = self._best_placement()
        if not cells:
            return DONE
        best = max(self._placements([view.lifted], cells))
        if from_hand is not None and from_hand[0] > best[0]:
            return DONE
        return CELL_BASE + best[2]

    def _wasabi_anchor(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        allowed = set(legal)
        best = max((a for a in self._anchors() if CELL_BASE + a[1] in allowed), default=None)
        return CELL_BASE + best[1] if best else legal[0]

    def _discard_more(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        for slot in self._dead_slots():
            if SLOT_BASE + slot in legal:
                return SLOT_BASE + slot
        return DONE

    def _dead_slots(self) -> list[int]:
        """Menu slots whose recipe cannot score: no token of its length, or a kind that is
        neither in hand, nor in the pantry, nor a top tile on the board."""
        view = self.view
        tokens = view.tokens[view.seat]
        on_board = {k for k in self.tops if k >= 0}
        dead = []
        for slot, r in enumerate(view.menu):
            if r is None:
                continue
            gone = any(
                not self.hand[k] and not view.pantry[k] and k not in on_board
                for k in RECIPES[r].kinds
            )
            if not tokens[RECIPE_LENGTH[r] - 2] or gone:
                dead.append(slot)
        return dead

    def _reward_pick(self, view: View, legal: list[int]) -> int:
        held = [t for t in range(5) for _ in range((view.cards[view.seat] or [0] * 5)[t])]
        options = {a - CARD_BASE: a for a in legal if CARD_BASE <= a < LENGTH_BASE}
        for a in legal:
            if a < KIND_BASE:
                options.setdefault(WASABI, a)  # a Wasabi! card from the board
        for card in CARD_PREFERENCE:
            if card in options:
                worst = max((CARD_PREFERENCE.index(t) for t in held), default=-1)
                if len(held) < CARD_HAND_LIMIT or CARD_PREFERENCE.index(card) < worst:
                    return options[card]
                return DONE
        return DONE

    def _reward_discard(self, view: View, legal: list[int]) -> int:
        return max(legal, key=lambda a: CARD_PREFERENCE.index(a - CARD_BASE))

    def _refill_ingredient(self, view: View, legal: list[int]) -> int:
        self._setup(view)
        kinds = [a - KIND_BASE for a in legal if a != DONE]
        if not kinds:
            return DONE
        return KIND_BASE + max(kinds, key=lambda k: (self._need(k), view.pantry[k]))

    def _refill_recipe(self, view: View, legal: list[int]) -> int:
        choice = self._length_choice(view, legal)
        return choice if choice is not None else DONE

    def _length_choice(self, view: View, legal: list[int]) -> int | None:
        tokens = view.tokens[view.seat]
        held = [0, 0, 0, 0]
        for r in view.menu:
            if r is not None:
                held[RECIPE_LENGTH[r] - 2] += 1
        for i in range(len(LENGTHS)):
            if LENGTH_BASE + i in legal and tokens[i] > held[i]:
                return LENGTH_BASE + i
        return None

    def _gift_pick(self, view: View, legal: list[int]) -> int:
        kinds = [a - KIND_BASE for a in legal]
        return KIND_BASE + max(kinds, key=lambda k: (k != MAKI, view.pantry[k], -k))

    def _draft_pick(self, view: View, legal: list[int]) -> int:
        choice = self._length_choice(view, legal)
        return choice if choice is not None else legal[0]
