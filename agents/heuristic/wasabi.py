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

from agents.base import Agent
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
)

EMPTY, BLOCKED = -1, -2
#: Preference of action cards, best first (picks and discards).
CARD_PREFERENCE = (WASABI, SWITCH, CHOP, SPICY, STACK)
#: A card played for a completion must gain at least this much (a length-2 recipe: 2).
COMPLETION_GAIN = 1.5


class Recipe:
    """One live recipe of the player, with its windows' values on a board."""

    def __init__(self, recipe: int, geo: Geometry, either: bool, supply: list[float]) -> None:
        r = RECIPES[recipe]
        self.id = recipe
        self.kinds = r.kinds
        self.kind_set = frozenset(r.kinds)
        self.length = r.length
        token = TOKENS[r.length]
        self.points, self.cubes = token.points, token.cubes
        self.windows = geo.windows[r.length - 2]
        self.through = geo.through[r.length - 2]
        self.either = either
        self.supply = supply  # availability of each kind: 1 in hand, less in the pantry

    def window_value(self, seen: tuple[int, ...]) -> float:
        """Value of one window whose top tiles are ``seen`` (EMPTY / BLOCKED allowed)."""
        if BLOCKED in seen:
            return 0.0
        present = [k for k in seen if k >= 0]
        if len(set(present)) < len(present) or not self.kind_set.issuperset(present):
            return 0.0
        kinds = self.kinds
        aligned = sum(1 for i, k in enumerate(seen) if k == kinds[i])
        if self.either:
            backwards = sum(1 for i, k in enumerate(reversed(seen)) if k == kinds[i])
            aligned = max(aligned, backwards)
        if len(present) == self.length:
            return self.points + (self.cubes if aligned == self.length else 0)
        share = len(present) / self.length
        chance = 1.0
        for k in self.kind_set.difference(present):
            chance *= self.supply[k]
        style = self.cubes * aligned / max(len(present), 1)
        return (self.points + style) * (0.05 + 0.45 * share * share) * chance

    def values(self, tops: list[int]) -> list[float]:
        return [self.window_value(tuple(tops[c] for c in w)) for w in self.windows]


class HeuristicAgent(Agent):
    """Completes its recipes greedily, blocks likely opponent lines, plays cards to finish."""

    name = "heuristic"

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
            Recipe(r, self.geo, view.style_either_direction, self.supply)
            for r in view.menu
            if r is not None and tokens[RECIPE_LENGTH[r] - 2]
        ]
        self.threats = self._threats()
        self._base_cache: list[tuple[Recipe, list[float], list[int]]] | None = None

    def _base(self) -> list[tuple[Recipe, list[float], list[int]]]:
        """Per live recipe: its window values on the board now, windows best first."""
        if self._base_cache is None:
            self._base_cache = []
            for recipe in self.live:
                values = recipe.values(self.tops)
                ranked = sorted(range(len(values)), key=values.__getitem__, reverse=True)
                self._base_cache.append((recipe, values, ranked))
        return self._base_cache

    def value_now(self) -> float:
        return sum(values[ranked[0]] if ranked else 0.0 for _, values, ranked in self._base())

    def value_after(self, tops: list[int], changed: tuple[int, ...]) -> float:
        """Board value of ``tops``, which differs from the board now in ``changed`` only:
        only the windows through those cells are valued again."""
        total = 0.0
        for recipe, values, ranked in self._base():
            touched = set()
            for cell in changed:
                touched.update(recipe.through[cell])
            best = next((values[w] for w in ranked if w not in touched), 0.0)
            for w in touched:
                best = max(best, recipe.window_value(tuple(tops[c] for c in recipe.windows[w])))
            total += best
        return total

    def _need(self, kind: int) -> float:
        """How much the live recipes want one more tile of ``kind``."""
        return sum((r.points + r.cubes) / r.length for r in self.live if kind in r.kind_set) / (
            1 + self.hand[kind]
        )

    # -- opponents' likely lines -----------------------------------------------------------
    def _threats(self) -> dict[int, dict[int, float]]:
        """Per empty cell: the kinds that would finish a line an opponent may hold, with
        the expected points: the chance that the opponent holds such a recipe (its
        recipes of that length among the recipes this player cannot see) x the chance it
        has the kind (in hand, or at least in the pantry) x the recipe's value."""
        view = self.view
        n, seat = view.num_players, view.seat
        mine = {r for r in view.menu if r is not None}
        done = {r for seat_done in view.completed for r, _ in seat_done}
        threats: dict[int, dict[int, float]] = {}
        for length in LENGTHS:
            unknown = [r for r in DECK_RECIPES[length - 2] if r not in mine and r not in done]
            holders = []  # (weight, hand) of the opponents that may hold such a recipe
            for rel in range(1, n):
                s = (seat + rel) % n
                held = sum(1 for L in view.menu_lengths[s] if L == length)
                if held and view.tokens[s][length - 2] and unknown:
                    weight = (1.0 if rel == 1 else 0.5) * held / len(unknown)
                    holders.append((weight, view.tiles[s]))
            if not holders:
                continue
            sets = {frozenset(RECIPES[r].kinds) for r in unknown}
            value = TOKENS[length].points + TOKENS[length].cubes / 2
            for window in self.geo.windows[length - 2]:
                seen = [self.tops[c] for c in window]
                if seen.count(EMPTY) != 1 or BLOCKED in seen:
                    continue
                present = frozenset(k for k in seen if k >= 0)
                if len(present) != length - 1:
                    continue
                hole = window[seen.index(EMPTY)]
                for kind in range(NUM_KINDS):
                    if kind in present or present | {kind} not in sets:
                        continue
                    chance = 0.0
                    for weight, hand in holders:
                        has = 0.6 if hand is None else (1.0 if hand[kind] else 0.0)
                        if not has and view.pantry[kind]:
                            has = 0.3  # it may take one in its refill
                        chance += weight * has
                    if chance:
                        cell = threats.setdefault(hole, {})
                        cell[kind] = cell.get(kind, 0.0) + chance * value
        return threats

    def _block(self, cell: int, kind: int) -> float:
        threat = self.threats.get(cell)
        if not threat:
            return 0.0
        return sum(v for k, v in threat.items() if k != kind) - 2 * threat.get(kind, 0.0)

    # -- placements ------------------------------------------------------------------------
    def _placements(self, kinds: list[int], cells: list[int]) -> list[tuple[float, int, int]]:
        """(score, kind, cell) of each placement of a kind on a cell (its new top)."""
        tops = self.tops
        before = self.value_now()
        results = []
        for cell in cells:
            old = tops[cell]
            for kind in kinds:
                tops[cell] = kind
                gain = self.value_after(tops, (cell,)) - before
                if gain < 0.5:  # not an advance: prefer a tile the recipes do not need
                    gain -= 0.3 * self._need(kind)
                results.append((gain + self._block(cell, kind), kind, cell))
            tops[cell] = old
        return results

    def _best_placement(self, stack: bool = False) -> tuple[float, int, int] | None:
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
        results = []
        for a in self.geo.active:
            for b in self.geo.neighbours[a]:
                if b < a or BLOCKED in (tops[a], tops[b]):
                    continue
                if not view.stacks[a] and not view.stacks[b]:
                    continue
                new = list(tops)
                sa, sb = view.stacks[a], view.stacks[b]
                new[a] = sb[-1] if sb else EMPTY
                new[b] = sa[-1] if sa else EMPTY
                results.append((self.value_after(new, (a, b)) - before, a, b))
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
        results = []
        for a in free:
            new = list(self.tops)
            block = 0.0
            for c in self.geo.block[a]:
                new[c] = BLOCKED
                block += sum(self.threats.get(c, {}).values())
            changed = self.geo.block[a]
            results.append((self.value_after(new, changed) - before + block, a))
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
