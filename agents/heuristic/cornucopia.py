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
   best handling, minus the red chip's cost; FORFEIT as the penalty. The best is played,
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
from collections.abc import Sequence

from agents.base import Agent
from boardgame_envs.cornucopia.data import (
    BASKET_CAPACITY,
    BID_REWARDS,
    BLUE,
    BLUE_PER_YELLOW,
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


#: A basket as a target of :class:`_Odds`: (its cards sorted, Same basket?, the types the
#: other baskets fit).
_Target = tuple[tuple[int, ...], bool, int]


class _Odds:
    """Completion odds in one position (one composition of the deck), memoised.

    The odds depend on the composition alone, so one instance serves every decision made
    while the deck holds the same cards (a turn's DECLARE, BID and all its BETs): see
    :func:`_odds_for`.
    """

    def __init__(self, counts: tuple[int, ...]) -> None:
        total = max(1, sum(counts))
        self.probs = [(t, c / total) for t, c in enumerate(counts) if c]
        self.drawable = sum(1 << t for t, _ in self.probs)  # bitmask of the crops in the deck
        self.memo: dict[tuple, tuple[float, float]] = {}

    def target(
        self, baskets: tuple[tuple[int, ...], ...], j: int, left: int, redraws: int
    ) -> tuple[float, float]:
        """(P complete as SAME, P complete as DIFFERENT) for basket ``j``, greedy play."""
        return self._target(_targets(baskets)[j], left, redraws)

    def _target(self, target: _Target, left: int, redraws: int) -> tuple[float, float]:
        cards, same_only, others = target
        if not self.drawable & ~others:
            # Every card fits the other baskets if not the target, so none is ever
            # redrawn (``others`` is the same all down the tree): the odds are those
            # without redraws, and sharing their memo entries changes no arithmetic.
            redraws = 0
        return self._odds(cards, same_only, others, left, redraws)

    def _odds(
        self, cards: tuple[int, ...], same_only: bool, others: int, left: int, redraws: int
    ) -> tuple[float, float]:
        if len(cards) + left < BASKET_CAPACITY:
            # Too few placements left to fill the basket: every term of the sum below
            # would be p * 0.0, so the result is exactly zero without the search.
            return 0.0, 0.0
        key = (cards, same_only, others, left, redraws)
        known = self.memo.get(key)
        if known is not None:
            return known
        outcomes = _draw_outcomes(cards, same_only)
        p_same = p_diff = 0.0
        # A card dumped elsewhere, or redrawn, leaves the target as it is: those two
        # continuations are the same for every such crop, so each is looked up once.
        dumped = redrawn = None
        for crop, p in self.probs:
            kind, grown = outcomes[crop]
            if kind == _COMPLETES_SAME:
                p_same += p
                continue
            if kind == _COMPLETES_DIFFERENT:
                p_diff += p
                continue
            if kind == _GROWS:
                s, d = self._odds(grown, same_only, others, left - 1, redraws)
            elif others >> crop & 1:
                if left == 1:  # a dumped last card fails the turn: adds exactly 0.0
                    continue
                if dumped is None:
                    dumped = self._odds(cards, same_only, others, left - 1, redraws)
                s, d = dumped
            elif redraws:
                if redrawn is None:
                    redrawn = self._odds(cards, same_only, others, left, redraws - 1)
                s, d = redrawn
            else:
                continue
            p_same += p * s
            p_diff += p * d
        self.memo[key] = (p_same, p_diff)
        return p_same, p_diff

    def best(
        self, baskets: tuple[tuple[int, ...], ...], left: int, redraws: int, prices: tuple
    ) -> tuple[float, float]:
        """(value, success probability) of the best target; ``prices`` = (same, diff, fail)."""
        same_price, diff_price, fail_price = prices
        best_value, best_p = -fail_price, 0.0
        for target in _targets(baskets):
            s, d = self._target(target, left, redraws)
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


#: What a drawn crop does to a target basket (see :func:`_draw_outcomes`).
_MISSES, _GROWS, _COMPLETES_SAME, _COMPLETES_DIFFERENT = range(4)


@functools.cache
def _draw_outcomes(cards: tuple[int, ...], same_only: bool) -> tuple[tuple[int, tuple], ...]:
    """Per crop type, (what placing it in sorted ``cards`` does, the grown sorted basket)."""
    fits = fitting_types(cards, same_only)
    outcomes = []
    for crop in range(NUM_TYPES):
        grown = tuple(sorted((*cards, crop)))
        if not fits >> crop & 1:
            outcomes.append((_MISSES, ()))
        elif len(grown) < BASKET_CAPACITY:
            outcomes.append((_GROWS, grown))
        elif completion_type(grown, same_only) == SAME:
            outcomes.append((_COMPLETES_SAME, grown))
        else:
            outcomes.append((_COMPLETES_DIFFERENT, grown))
    return tuple(outcomes)


@functools.cache
def _basket_facts(cards: tuple[int, ...], same_only: bool) -> tuple[tuple[int, ...], int]:
    """(``cards`` sorted, the types that fit) of one basket; there are a few thousand."""
    return tuple(sorted(cards)), fitting_types(cards, same_only)


@functools.lru_cache(maxsize=4096)
def _targets(baskets: tuple[tuple[int, ...], ...]) -> tuple[_Target, ...]:
    """Per basket as a target: (its cards sorted, Same basket?, the types the others fit)."""
    facts = [_basket_facts(basket, i == SAME_BASKET) for i, basket in enumerate(baskets)]
    targets = []
    for j, (cards, _) in enumerate(facts):
        others = 0
        for i, (_, fits) in enumerate(facts):
            if i != j:
                others |= fits
        targets.append((cards, j == SAME_BASKET, others))
    return tuple(targets)


def _open_bids(view: View) -> list[int]:
    """The bid actions whose stack holds a card (the bids of a turn, before it starts)."""
    return [bid_action(i + 1) for i, cards in enumerate(view.stacks) if cards]


def _points(chips: Sequence[int]) -> float:
    """A reward's worth in points (yellow 1, blue 1/3; red is valued by majority)."""
    return chips[YELLOW] + chips[BLUE] / BLUE_PER_YELLOW


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
        won = list(view.won[seat])
        before = combination_points(tuple(won))
        won[number - 1] += 1
        combo = combination_points(tuple(won)) - before
        different, same = BID_REWARDS[number]
        y, b, _ = view.chips[seat]
        fail = 1.0 if y >= 1 or b >= BLUE_PER_YELLOW else 0.0
        return _points(same) + combo, _points(different) + combo, fail

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
        odds = _odds_of(view)
        redraws = self._redraws(view)
        prices = self._prices(view, view.bid)
        red_cost = 0.0 if view.variant_red3 else self._red_cost(view)
        baskets = view.baskets
        left = view.bid - view.placed

        def place_value(card: int, j: int, redraws_left: int) -> float:
            basket = baskets[j]
            bonus = (
                SAME_COMMIT_BONUS
                if j != SAME_BASKET and card != WILD and [c for c in basket if c != WILD] == [card]
                else 0
            )
            grown = (*basket, card)
            if len(grown) == 5:
                kind = completion_type(grown, j == SAME_BASKET)
                return bonus + (prices[0] if kind == SAME else prices[1])
            if left == 1:
                return bonus - prices[2]
            after = tuple(grown if i == j else b for i, b in enumerate(baskets))
            return bonus + odds.best(after, left - 1, redraws_left, prices)[0]

        def card_value(card: int, redraws_left: int) -> float:
            """Best handling of a freshly drawn ``card`` with ``redraws_left``."""
            values = [
                place_value(card, j, redraws_left)
                for j in range(NUM_BASKETS)
                if fitting_types(baskets[j], j == SAME_BASKET) >> card & 1
            ]
            if redraws_left:
                values.append(redraw_value(redraws_left))
            return max(values) if values else -prices[2]

        memo: dict[int, float] = {}

        def redraw_value(redraws_now: int) -> float:
            if redraws_now not in memo:
                memo[redraws_now] = -red_cost + sum(
                    p * card_value(crop, redraws_now - 1) for crop, p in odds.probs
                )
            return memo[redraws_now]

        card = view.pending
        best_action, best_value = legal[0], float("-inf")
        for action in legal:
            if action == FORFEIT:
                value = -prices[2]
            elif action == REDRAW:
                value = redraw_value(redraws)
            else:
                value = place_value(card, action - PLACE_BASE, redraws)
            if value > best_value + 1e-9:
                best_action, best_value = action, value
        return best_action
