"""A rule-based player for Cornucopia.

Everything it uses is in its own seat's view: the baskets, the deck's composition (public:
every other crop card is in sight, only the order is hidden), the bid stacks, the chips
and the bid cards won. Its one tool is an estimate of the turn's odds:

**Completion odds.** For a target basket and ``L`` placements still allowed, the chance
of completing it this turn is computed exactly under two simplifications: draws are
independent with the deck's current composition, and the player places every card that
fits the target into it, dumps any other placeable card elsewhere (a wasted placement)
and, holding a redraw, redraws a dead card (else the turn fails). The result is split by
completion type (SAME or DIFFERENT) so that it can be priced with the bid card's rewards.
The value of a position is the best target's expected reward, plus the combination
points the bid card would add to the cards already won, minus the failure penalty (one
yellow, or nothing when the player could not pay it) times the chance of failing.

1. **Declare** (variant): the number of red chips whose best bid value, net of the chips'
   cost, is highest.
2. **Bid**: the number with the highest value as above. Low numbers pay more but give
   fewer placements; the odds decide.
3. **Card**: each legal placement is valued by what it leads to: a completion pays its
   reward at once, the last placement without completion is a failure, anything else is
   the value of the resulting baskets with one placement fewer; the same-commit bonus is
   added. REDRAW is valued as the average over the next card (from the composition) of its
   best handling, minus the red chip's cost (left unvalued when a bound that needs no odds
   shows it cannot beat the best placement); FORFEIT as the penalty. The best is played,
   so red chips are spent when a card is dead (or nearly useless) and the turn is worth
   more than the chip.
4. **Red chip cost**: the change in the red-majority standing (own majority points minus
   the best opponent's) that losing one chip causes, from the public red counts; zero for
   chips already declared in the variant.
5. **Bet**: the turn player's odds for its bid (max over target baskets, its own redraw
   included), shaded towards failure because other players may not play as well; YES
   above one half, else NO. The stake grows with the confidence: 3 when the odds are far
   from even, 1 when they are close (every stake is a bet at even money).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence

from boardgame_envs.agents.base import Agent
from boardgame_envs.cornucopia.data import (
    BASKET_CAPACITY,
    BID_NUMBERS,
    BID_REWARDS,
    BLUE,
    BLUE_PER_YELLOW,
    MAX_RED_DECLARED,
    NUM_BASKETS,
    NUM_TYPES,
    RED,
    SAME,
    SAME_BASKET,
    SAME_COMMIT_BONUS,
    WILD,
    YELLOW,
)
from boardgame_envs.cornucopia.rules import (
    BET,
    BID,
    CARD,
    DECLARE,
    DECLARE_BASE,
    FORFEIT,
    NO,
    PLACE_BASE,
    REDRAW,
    YES,
    View,
    bet_action,
    bid_action,
    combination_points,
    completion_type,
    fitting_types,
    red_majority_points,
)

#: How much the bettor trusts the turn player to play its odds (others may play worse).
SKILL_DISCOUNT = 0.85
#: Confidence |2p - 1| from which the stake is raised to 2, and to 3.
STAKE_STEPS = (0.2, 0.4)


#: A basket as a target of :class:`_Odds`: (its node, the types the other baskets fit).
_Target = tuple[int, int]

#: What a drawn crop does to a target basket, per node (see :data:`_STEPS`): a grown
#: basket is its node (>= 0), any other outcome one of these negative codes.
_MISSES, _COMPLETES_SAME, _COMPLETES_DIFFERENT = -1, -2, -3


def _nodes() -> list[tuple[tuple[int, ...], bool]]:
    """Every target basket the odds can meet: (sorted cards, Same basket?), up to full."""
    return [
        (cards, same_only)
        for size in range(BASKET_CAPACITY + 1)
        for cards in itertools.combinations_with_replacement(range(NUM_TYPES), size)
        for same_only in (False, True)
    ]


#: The odds' recursion walks a small fixed graph of baskets, numbered once here so that
#: its memo keys are plain ints (hashing nested tuples was much of its cost): node ->
#: (sorted cards, Same basket?), and back.
_NODES = _nodes()
_NODE_IDS = {node: i for i, node in enumerate(_NODES)}
_SIZES = tuple(len(cards) for cards, _ in _NODES)


def _steps(cards: tuple[int, ...], same_only: bool) -> tuple[int, ...]:
    """Per crop type, what placing it in sorted ``cards`` does: the grown basket's node, or
    _MISSES, _COMPLETES_SAME or _COMPLETES_DIFFERENT."""
    fits = fitting_types(cards, same_only)
    steps = []
    for crop in range(NUM_TYPES):
        grown = tuple(sorted((*cards, crop)))
        if not fits >> crop & 1:
            steps.append(_MISSES)
        elif len(grown) < BASKET_CAPACITY:
            steps.append(_NODE_IDS[grown, same_only])
        elif completion_type(grown, same_only) == SAME:
            steps.append(_COMPLETES_SAME)
        else:
            steps.append(_COMPLETES_DIFFERENT)
    return tuple(steps)


#: Per node, :func:`_steps`.
_STEPS = tuple(_steps(cards, same_only) for cards, same_only in _NODES)

#: Widths of the fields packed into a memo key: placements left (at most the highest bid
#: number) and redraws (at most the red chips one may declare).
_LEFT_BITS = max(BID_NUMBERS).bit_length()
_REDRAW_BITS = MAX_RED_DECLARED.bit_length()
_TAIL_BITS = _LEFT_BITS + _REDRAW_BITS
#: What one placement fewer subtracts from a key; one redraw fewer subtracts 1.
_ONE_PLACEMENT = 1 << _REDRAW_BITS


def _memo_key(node: int, others: int, left: int, redraws: int) -> int:
    """The odds' four arguments packed into one int; as ``node`` and ``others`` head it,
    the keys of one target's recursion differ by small sums (see :meth:`_Odds._odds`)."""
    return (node << NUM_TYPES | others) << _TAIL_BITS | left << _REDRAW_BITS | redraws


class _Odds:
    """Completion odds in one position (one composition of the deck), memoised.

    The odds depend on the composition alone, so one instance serves every decision made
    while the deck holds the same cards (a turn's DECLARE, BID and all its BETs): see
    :func:`_odds_for`. Targets are (node, others) pairs, as :func:`_targets` gives them.
    """

    def __init__(self, counts: tuple[int, ...]) -> None:
        total = max(1, sum(counts))
        self.probs = [(t, c / total) for t, c in enumerate(counts) if c]
        self.drawable = sum(1 << t for t, _ in self.probs)  # bitmask of the crops in the deck
        self.memo: dict[int, tuple[float, float]] = {}  # keyed by _memo_key

    def target(
        self, baskets: tuple[tuple[int, ...], ...], j: int, left: int, redraws: int
    ) -> tuple[float, float]:
        """(P complete as SAME, P complete as DIFFERENT) for basket ``j``, greedy play."""
        node, others = _targets(baskets)[j]
        return self._target(node, others, left, redraws)

    def _target(self, node: int, others: int, left: int, redraws: int) -> tuple[float, float]:
        if _SIZES[node] + left < BASKET_CAPACITY:
            # Too few placements left to fill the basket: every term of the sum in _odds
            # would be p * 0.0, so the result is exactly zero without the search.
            return 0.0, 0.0
        if not self.drawable & ~others:
            # Every card fits the other baskets if not the target, so none is ever
            # redrawn (``others`` is the same all down the tree): the odds are those
            # without redraws, and sharing their memo entries changes no arithmetic.
            redraws = 0
        key = _memo_key(node, others, left, redraws)
        odds = self.memo.get(key)
        return odds if odds is not None else self._odds(node, others, left, redraws, key)

    def _odds(
        self, node: int, others: int, left: int, redraws: int, key: int
    ) -> tuple[float, float]:
        """Compute and memoise the odds missing from the memo under ``key`` (their
        :func:`_memo_key`; the basket can still be filled: size + left >= capacity)."""
        memo = self.memo
        steps = _STEPS[node]
        # The keys of the continuations, by the layout of _memo_key.
        grown_tail = (left - 1) << _REDRAW_BITS | redraws
        dumped_key = key - _ONE_PLACEMENT
        redrawn_key = key - 1
        # A dumped card (a wasted placement) can still be followed by a completion only
        # with enough placements left; otherwise its term is p * 0.0, which adds nothing.
        dumps_can_complete = _SIZES[node] + left - 1 >= BASKET_CAPACITY
        p_same = p_diff = 0.0
        # A card dumped elsewhere, or redrawn, leaves the target as it is: those two
        # continuations are the same for every such crop, so each is looked up once.
        # Continuations are read from the memo directly, computed only when missing.
        dumped = redrawn = None
        for crop, p in self.probs:
            step = steps[crop]
            if step == _MISSES:  # the commonest outcome
                if others >> crop & 1:
                    if not dumps_can_complete:
                        continue
                    if dumped is None:
                        dumped = memo.get(dumped_key)
                        if dumped is None:
                            dumped = self._odds(node, others, left - 1, redraws, dumped_key)
                    s, d = dumped
                elif redraws:
                    if redrawn is None:
                        redrawn = memo.get(redrawn_key)
                        if redrawn is None:
                            redrawn = self._odds(node, others, left, redraws - 1, redrawn_key)
                    s, d = redrawn
                else:
                    continue
            elif step >= 0:
                # Grown: size + 1 cards and left - 1 placements, so it can still be filled.
                grown_key = (step << NUM_TYPES | others) << _TAIL_BITS | grown_tail
                grown = memo.get(grown_key)
                if grown is None:
                    grown = self._odds(step, others, left - 1, redraws, grown_key)
                s, d = grown
            elif step == _COMPLETES_SAME:
                p_same += p
                continue
            else:
                p_diff += p
                continue
            p_same += p * s
            p_diff += p * d
        memo[key] = (p_same, p_diff)
        return p_same, p_diff

    def best(
        self, baskets: tuple[tuple[int, ...], ...], left: int, redraws: int, prices: tuple
    ) -> tuple[float, float]:
        """(value, success probability) of the best target; ``prices`` = (same, diff, fail)."""
        return self.best_of(_targets(baskets), left, redraws, prices)

    def best_of(
        self, targets: Sequence[_Target], left: int, redraws: int, prices: tuple
    ) -> tuple[float, float]:
        """:meth:`best` among ``targets`` (as :func:`_targets` gives them)."""
        same_price, diff_price, fail_price = prices
        best_value, best_p = -fail_price, 0.0
        memo, drawable = self.memo, self.drawable
        for node, others in targets:
            if _SIZES[node] + left < BASKET_CAPACITY:
                # Odds exactly zero (see _target): the value, -fail_price, never wins.
                continue
            # What _target does, inlined: this is the odds' busiest caller.
            target_redraws = redraws if drawable & ~others else 0
            key = _memo_key(node, others, left, target_redraws)
            odds = memo.get(key)
            if odds is None:
                odds = self._odds(node, others, left, target_redraws, key)
            s, d = odds
            value = s * same_price + d * diff_price - (1 - s - d) * fail_price
            if value > best_value:
                best_value, best_p = value, s + d
        return best_value, best_p


def _odds_of(view: View) -> _Odds:
    """The completion odds for the cards ``view``'s next draws come from."""
    counts = view.deck_counts
    if sum(counts) == 0:  # the deck is about to be rebuilt from the discard pile
        counts = view.discard_counts
    return _odds_for(tuple(counts))


@functools.lru_cache(maxsize=1024)
def _odds_for(counts: tuple[int, ...]) -> _Odds:
    """One shared, memoised :class:`_Odds` per deck composition (the last 1,024 seen: search
    rollouts visit many compositions, and a forgotten one is recomputed at a cost)."""
    return _Odds(counts)


@functools.cache
def _basket_facts(cards: tuple[int, ...], same_only: bool) -> tuple[int, int]:
    """(node, the types that fit) of one basket; there are a few thousand."""
    return _NODE_IDS[tuple(sorted(cards)), same_only], fitting_types(cards, same_only)


@functools.lru_cache(maxsize=4096)
def _targets(baskets: tuple[tuple[int, ...], ...]) -> tuple[_Target, ...]:
    """Per basket as a target: (its node, the types the other baskets fit)."""
    facts = [_basket_facts(basket, i == SAME_BASKET) for i, basket in enumerate(baskets)]
    fits = [basket_fits for _, basket_fits in facts]
    return tuple((node, _others(j, fits)) for j, (node, _) in enumerate(facts))


def _others(j: int, fits: Sequence[int]) -> int:
    """The types that fit some basket other than basket ``j``, given each basket's."""
    others = 0
    for i, basket_fits in enumerate(fits):
        if i != j:
            others |= basket_fits
    return others


def _fit_twice_besides(j: int, fits: Sequence[int]) -> int:
    """The types that at least two baskets other than basket ``j`` fit."""
    once = twice = 0
    for i, basket_fits in enumerate(fits):
        if i != j:
            twice |= once & basket_fits
            once |= basket_fits
    return twice


@functools.cache
def _lone_crop(basket: tuple[int, ...]) -> int | None:
    """The crop of a basket holding exactly one besides wilds, else None (a card of that
    crop would earn the same-commit bonus); there are a few thousand baskets."""
    crops = [c for c in basket if c != WILD]
    return crops[0] if len(crops) == 1 else None


def _open_bids(view: View) -> list[int]:
    """The bid actions whose stack holds a card (the bids of a turn, before it starts)."""
    return [bid_action(i + 1) for i, cards in enumerate(view.stacks) if cards]


def _points(chips: Sequence[int]) -> float:
    """A reward's worth in points (yellow 1, blue 1/3; red is valued by majority)."""
    return chips[YELLOW] + chips[BLUE] / BLUE_PER_YELLOW


@functools.lru_cache(maxsize=4096)
def _bid_prices(won: tuple[int, ...], number: int, can_pay: bool) -> tuple[float, float, float]:
    """:meth:`HeuristicAgent._prices` for a player who has won the bid cards ``won`` and can
    (or cannot) pay a failure's yellow."""
    before = combination_points(won)
    after = list(won)
    after[number - 1] += 1
    combo = combination_points(tuple(after)) - before
    different, same = BID_REWARDS[number]
    fail = 1.0 if can_pay else 0.0
    return _points(same) + combo, _points(different) + combo, fail


class HeuristicAgent(Agent):
    """Bids, places and bets by the completion odds of the baskets (see module docstring)."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == CARD:
            return self._card(view, legal)
        if view.phase == BET:
            return self._bet(view, legal)
        if view.phase == BID:
            return self._bid(view, legal, _odds_of(view), self._redraws(view))[0]
        if view.phase == DECLARE:
            return self._declare(view, legal)
        return legal[0]

    # -- values ------------------------------------------------------------------------------
    def _prices(self, view: View, number: int) -> tuple[float, float, float]:
        """(SAME reward, DIFFERENT reward, failure cost) of bid ``number`` in points."""
        seat = view.seat
        y, b, _ = view.chips[seat]
        return _bid_prices(view.won[seat], number, y >= 1 or b >= BLUE_PER_YELLOW)

    def _red_cost(self, view: View, chips: int = 1) -> float:
        """What losing ``chips`` red chips costs in red-majority standing."""
        reds = [c[RED] for c in view.chips]
        seat = view.seat

        def standing(counts: list[int]) -> float:
            points = red_majority_points(counts)
            return points[seat] - max(p for s, p in enumerate(points) if s != seat)

        after = list(reds)
        after[seat] -= chips
        return standing(reds) - standing(after)

    def _redraws(self, view: View) -> int:
        if view.variant_red3:
            return view.declared
        return int(view.chips[view.seat][RED] >= 1 and not view.red_used)

    def turn_outlook(self, view: View) -> tuple[float, float]:
        """(value, success probability) of the turn about to start, for its player, as this
        player reckons it: its best bid's value in points (expected reward and combination
        points less the expected penalty) and that bid's chance of completing a basket.
        For search's static evaluation; plays nothing."""
        _, value, p = self._bid(view, _open_bids(view), _odds_of(view), self._redraws(view))
        return value, p

    # -- decisions ---------------------------------------------------------------------------
    def _bid(
        self, view: View, legal: list[int], odds: _Odds, redraws: int
    ) -> tuple[int, float, float]:
        """(best bid action, its value, its success probability) among ``legal`` bids."""
        best_action, best_value, best_p = legal[0], float("-inf"), 0.0
        for action in legal:
            number = action + 1
            value, p = odds.best(view.baskets, number, redraws, self._prices(view, number))
            if value > best_value:
                best_action, best_value, best_p = action, value, p
        return best_action, best_value, best_p

    def _declare(self, view: View, legal: list[int]) -> int:
        odds = _odds_of(view)
        bids = _open_bids(view)
        best_action, best_value = legal[0], float("-inf")
        for action in legal:
            count = action - DECLARE_BASE
            value = self._bid(view, bids, odds, count)[1] - self._red_cost(view, count)
            if value > best_value:
                best_action, best_value = action, value
        return best_action

    def _bet(self, view: View, legal: list[int]) -> int:
        turn = view.turn_player
        if view.variant_red3:
            redraws = view.declared
        else:
            redraws = int(view.chips[turn][RED] >= 1 and not view.red_used)
        odds = _odds_of(view)
        p = max(
            sum(odds.target(view.baskets, j, view.bid - view.placed, redraws))
            for j in range(NUM_BASKETS)
        )
        p *= SKILL_DISCOUNT
        side = YES if p >= 0.5 else NO
        confidence = abs(2 * p - 1)
        stake = 1 + sum(confidence >= step for step in STAKE_STEPS)
        while bet_action(side, stake) not in legal:
            stake -= 1
        return bet_action(side, stake)

    def _card(self, view: View, legal: list[int]) -> int:
        prices = self._prices(view, view.bid)
        red_cost = 0.0 if view.variant_red3 else self._red_cost(view)
        values = _CardValues(_odds_of(view), view.baskets, view.bid - view.placed, prices, red_cost)
        redraws = self._redraws(view)
        best_action, best_value = legal[0], float("-inf")
        for action in legal:
            if action == FORFEIT:
                value = -prices[2]
            elif action == REDRAW:
                if values.redraw_bound(redraws) + _BOUND_MARGIN <= best_value:
                    continue  # REDRAW cannot beat the best placement: spare its valuation
                value = values.redraw_value(redraws)
            else:
                value = values.place_value(view.pending, action - PLACE_BASE, redraws)
            if value > best_value + 1e-9:
                best_action, best_value = action, value
        return best_action


#: More than float rounding could ever put :meth:`_CardValues.redraw_value` above
#: :meth:`_CardValues.redraw_bound` (some 1e-14 on values of ten or so). REDRAW is left
#: unvalued only when bound + margin <= the best placement's value: it would then be at
#: most that value, never above it by the 1e-9 needed to be played.
_BOUND_MARGIN = 1e-6


class _CardValues:
    """The values of one CARD decision's actions (module docstring, 3.), for the pending
    card or, valuing REDRAW, for each card that could be drawn instead."""

    def __init__(
        self,
        odds: _Odds,
        baskets: tuple[tuple[int, ...], ...],
        left: int,
        prices: tuple[float, float, float],
        red_cost: float,
    ) -> None:
        self.odds, self.baskets, self.left = odds, baskets, left
        self.prices, self.red_cost = prices, red_cost
        # Per basket, what the valuations ask of it again and again: the types that fit,
        # the one crop it holds besides wilds (or None) and its target.
        self.fits = [_basket_facts(basket, j == SAME_BASKET)[1] for j, basket in enumerate(baskets)]
        self.lone = [_lone_crop(basket) for basket in baskets]
        self.targets = _targets(baskets)
        self.rest_best: dict[tuple[int, int], float] = {}
        self.redraw_values: dict[int, float] = {}
        self.redraw_bounds: dict[int, float] = {}

    def place_value(self, card: int, j: int, redraws: int) -> float:
        """Placing ``card`` in basket ``j``, ``redraws`` left."""
        settled = self._settled(card, j)
        if settled is not None:
            return settled
        return self._bonus(card, j) + self._after_value(j, (*self.baskets[j], card), redraws)

    def card_value(self, card: int, redraws: int) -> float:
        """Best handling of a freshly drawn ``card`` with ``redraws`` left."""
        values = [
            self.place_value(card, j, redraws)
            for j in range(NUM_BASKETS)
            if self.fits[j] >> card & 1
        ]
        if redraws:
            values.append(self.redraw_value(redraws))
        return max(values) if values else -self.prices[2]

    def redraw_value(self, redraws: int) -> float:
        """REDRAW with ``redraws`` left (this one included): the average next card's value."""
        if redraws not in self.redraw_values:
            self.redraw_values[redraws] = -self.red_cost + sum(
                p * self.card_value(crop, redraws - 1) for crop, p in self.odds.probs
            )
        return self.redraw_values[redraws]

    def redraw_bound(self, redraws: int) -> float:
        """An upper bound of :meth:`redraw_value` that computes no odds: as that, but every
        placement that neither completes a basket nor ends the turn is valued at the best
        price a target can be worth, ``max(same, different, -fail)`` (its odds at 1)."""
        if redraws not in self.redraw_bounds:
            self.redraw_bounds[redraws] = -self.red_cost + sum(
                p * self._card_bound(crop, redraws - 1) for crop, p in self.odds.probs
            )
        return self.redraw_bounds[redraws]

    def _card_bound(self, card: int, redraws: int) -> float:
        """:meth:`card_value`'s counterpart in :meth:`redraw_bound`."""
        top = max(self.prices[0], self.prices[1], -self.prices[2])
        values = []
        for j in range(NUM_BASKETS):
            if self.fits[j] >> card & 1:
                settled = self._settled(card, j)
                values.append(settled if settled is not None else self._bonus(card, j) + top)
        if redraws:
            values.append(self.redraw_bound(redraws))
        return max(values) if values else -self.prices[2]

    def _bonus(self, card: int, j: int) -> int:
        """The same-commit bonus of placing ``card`` in basket ``j``."""
        lone = j != SAME_BASKET and card != WILD and self.lone[j] == card
        return SAME_COMMIT_BONUS if lone else 0

    def _settled(self, card: int, j: int) -> float | None:
        """Placing ``card`` in basket ``j`` when that settles the turn: a completion pays its
        reward, a last placement without one fails; None when the turn goes on."""
        grown = (*self.baskets[j], card)
        if len(grown) == 5:
            kind = completion_type(grown, j == SAME_BASKET)
            return self._bonus(card, j) + (self.prices[0] if kind == SAME else self.prices[1])
        if self.left == 1:
            return self._bonus(card, j) - self.prices[2]
        return None

    def _after_value(self, j: int, grown: tuple[int, ...], redraws: int) -> float:
        """``odds.best(...)[0]`` of the baskets with basket ``j`` grown to ``grown`` and one
        placement fewer, derived from ``targets`` (a fresh ``_targets`` would hash every
        basket, for a position seen once)."""
        odds, targets, fits = self.odds, self.targets, self.fits
        left, prices = self.left - 1, self.prices
        node, grown_fits = _basket_facts(grown, j == SAME_BASKET)
        grown_target = (node, targets[j][1])  # the other baskets are unchanged
        if (fits[j] ^ grown_fits) & ~_fit_twice_besides(j, fits):
            # A type that basket j stops (or starts) fitting is fitted by just one other
            # basket i, if any: i's ``others`` changes, so every target is valued afresh.
            fits_after = fits.copy()
            fits_after[j] = grown_fits
            after = [
                grown_target if i == j else (target[0], _others(i, fits_after))
                for i, target in enumerate(targets)
            ]
            return odds.best_of(after, left, redraws, prices)[0]
        # Every other basket is the same target as now, whichever card grows basket j: the
        # best of them is valued once per (j, redraws), and the best of all is the better
        # of it and the grown basket (a max: no value is rounded differently).
        if (j, redraws) not in self.rest_best:
            rest = targets[:j] + targets[j + 1 :]
            self.rest_best[j, redraws] = odds.best_of(rest, left, redraws, prices)[0]
        grown_value = odds.best_of((grown_target,), left, redraws, prices)[0]
        return max(self.rest_best[j, redraws], grown_value)
