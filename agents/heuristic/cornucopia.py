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

from collections.abc import Sequence

from agents.base import Agent
from boardgame_envs.cornucopia.data import (
    BID_REWARDS,
    BLUE,
    BLUE_PER_YELLOW,
    NUM_BASKETS,
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


class _Odds:
    """Completion odds in one position (one composition of the deck), memoised."""

    def __init__(self, view: View) -> None:
        counts = view.deck_counts
        total = sum(counts)
        if total == 0:  # the deck is about to be rebuilt from the discard pile
            counts, total = view.discard_counts, max(1, sum(view.discard_counts))
        self.probs = [(t, c / total) for t, c in enumerate(counts) if c]
        self.memo: dict[tuple, tuple[float, float]] = {}

    def target(
        self, baskets: Sequence[Sequence[int]], j: int, left: int, redraws: int
    ) -> tuple[float, float]:
        """(P complete as SAME, P complete as DIFFERENT) for basket ``j``, greedy play."""
        others = 0
        for i, basket in enumerate(baskets):
            if i != j:
                others |= fitting_types(basket, i == SAME_BASKET)
        return self._odds(tuple(sorted(baskets[j])), j == SAME_BASKET, others, left, redraws)

    def _odds(
        self, cards: tuple[int, ...], same_only: bool, others: int, left: int, redraws: int
    ) -> tuple[float, float]:
        if left == 0:
            return 0.0, 0.0
        key = (cards, same_only, others, left, redraws)
        if key in self.memo:
            return self.memo[key]
        fits = fitting_types(cards, same_only)
        p_same = p_diff = 0.0
        for crop, p in self.probs:
            if fits >> crop & 1:
                grown = tuple(sorted((*cards, crop)))
                if len(grown) == 5:
                    if completion_type(grown, same_only) == SAME:
                        p_same += p
                    else:
                        p_diff += p
                    continue
                s, d = self._odds(grown, same_only, others, left - 1, redraws)
            elif others >> crop & 1:
                s, d = self._odds(cards, same_only, others, left - 1, redraws)
            elif redraws:
                s, d = self._odds(cards, same_only, others, left, redraws - 1)
            else:
                continue
            p_same += p * s
            p_diff += p * d
        self.memo[key] = (p_same, p_diff)
        return p_same, p_diff

    def best(
        self, baskets: Sequence[Sequence[int]], left: int, redraws: int, prices: tuple
    ) -> tuple[float, float]:
        """(value, success probability) of the best target; ``prices`` = (same, diff, fail)."""
        same_price, diff_price, fail_price = prices
        best_value, best_p = -fail_price, 0.0
        for j in range(NUM_BASKETS):
            s, d = self.target(baskets, j, left, redraws)
            value = s * same_price + d * diff_price - (1 - s - d) * fail_price
            if value > best_value:
                best_value, best_p = value, s + d
        return best_value, best_p


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
            return self._bid(view, legal, _Odds(view), self._redraws(view))[0]
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

    # -- decisions ---------------------------------------------------------------------------
    def _bid(self, view: View, legal: list[int], odds: _Odds, redraws: int) -> tuple[int, float]:
        best_action, best_value = legal[0], float("-inf")
        for action in legal:
            number = action + 1
            value, _ = odds.best(view.baskets, number, redraws, self._prices(view, number))
            if value > best_value:
                best_action, best_value = action, value
        return best_action, best_value

    def _declare(self, view: View, legal: list[int]) -> int:
        odds = _Odds(view)
        bids = [bid_action(i + 1) for i, cards in enumerate(view.stacks) if cards]
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
        odds = _Odds(view)
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
        odds = _Odds(view)
        redraws = self._redraws(view)
        prices = self._prices(view, view.bid)
        red_cost = 0.0 if view.variant_red3 else self._red_cost(view)
        baskets = [list(b) for b in view.baskets]
        left = view.bid - view.placed

        def place_value(card: int, j: int, redraws_left: int) -> float:
            basket = baskets[j]
            bonus = (
                SAME_COMMIT_BONUS
                if j != SAME_BASKET and card != WILD and [c for c in basket if c != WILD] == [card]
                else 0
            )
            grown = basket + [card]
            if len(grown) == 5:
                kind = completion_type(grown, j == SAME_BASKET)
                return bonus + (prices[0] if kind == SAME else prices[1])
            if left == 1:
                return bonus - prices[2]
            after = [grown if i == j else b for i, b in enumerate(baskets)]
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
