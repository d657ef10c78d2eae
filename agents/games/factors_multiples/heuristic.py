"""A rule-based player for Factors and Multiples.

Strategy, from what the player's own view shows (its hand, its total, the value):

1. **Forced decisions** (one legal action) are taken as they come.
2. **Never strand a special card.** A, 7, J and K can never be one's last card, so once
   the cards left (hand + pile) are few compared with the specials held
   (``total <= specials + 2``) a legal special is played at once.
3. **Otherwise shed normal cards first**, keeping specials as a way out when nothing
   follows. Among playable normal cards prefer the one whose value lets the most of the
   remaining hand follow, and, between equals, the one that is hardest to place later
   (5 and 9 follow only two values; 2 and Q follow five or six).
4. **With only specials playable**: A first (it sheds two cards), then K (the next player
   must hold an A or lose a turn), then 7, then J.
5. **7 and J**: choose the value that the most of one's own normal cards follow; between
   equals, the value that the fewest ranks follow, to block the others. With nothing to
   follow, that is a dead value (7 or 11) on which no normal card may be played.
6. **Discards** (after an A, or as the K player): a special card other than the A when
   it risks being stranded, otherwise the normal card hardest to place (5, 9, 8, 10, …);
   a hand of specials only gives up J, then 7, then K, then A.
"""

from __future__ import annotations

from boardgame_envs.agents.base import Agent
from boardgame_envs.factors_multiples.data import (
    ACE,
    JACK,
    KING,
    NORMAL_RANKS,
    SEVEN,
    SPECIAL_RANKS,
    VALUES,
    follows,
    j_step,
    nominal,
    rank_of,
)
from boardgame_envs.factors_multiples.rules import (
    A_DISCARD,
    DISCARD_BASE,
    J_DIRECTION,
    J_DOWN,
    J_UP,
    K_DISCARD,
    PLAY,
    PLAY_BASE,
    SEVEN_NAME,
    View,
    name_action,
)

#: How many values each normal rank follows: fewer means harder to place.
FOLLOW_COUNT = {rank: sum(follows(rank, v) for v in VALUES) for rank in NORMAL_RANKS}
#: How many normal ranks follow each value: fewer means harder for everybody.
FOLLOWERS = {value: sum(follows(rank, value) for rank in NORMAL_RANKS) for value in VALUES}
SPECIAL_PLAY_ORDER = (ACE, KING, SEVEN, JACK)
SPECIAL_KEEP_ORDER = (JACK, SEVEN, KING, ACE)  # discarded first to last


class HeuristicAgent(Agent):
    """Sheds normal cards, dumps specials before they strand, steers the value to its hand."""

    name = "heuristic"

    def act(self, view: View) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        if view.phase == PLAY:
            return self._play(view, legal)
        if view.phase in (A_DISCARD, K_DISCARD):
            return self._discard(view, legal)
        if view.phase in (SEVEN_NAME, J_DIRECTION):
            return self._choose_value(view, legal)
        return legal[0]

    # -- decisions --------------------------------------------------------------------------
    def _play(self, view: View, legal: list[int]) -> int:
        ranks = [a - PLAY_BASE for a in legal]
        specials = [r for r in SPECIAL_PLAY_ORDER if r in ranks]
        normals = [r for r in ranks if r not in SPECIAL_RANKS]
        specials_held = sum(rank_of(c) in SPECIAL_RANKS for c in view.hand)
        if specials and (view.total <= specials_held + 2 or not normals):
            return PLAY_BASE + specials[0]
        hand_ranks = [rank_of(c) for c in view.hand]

        def after_play(rank: int) -> tuple[int, int]:
            rest = list(hand_ranks)
            rest.remove(rank)
            followers = sum(r in NORMAL_RANKS and follows(r, nominal(rank)) for r in rest)
            return followers, -FOLLOW_COUNT[rank]

        return PLAY_BASE + max(normals, key=after_play)

    def _choose_value(self, view: View, legal: list[int]) -> int:
        own_normals = [rank_of(c) for c in view.hand if rank_of(c) not in SPECIAL_RANKS]

        def merit(value: int) -> tuple[int, int]:
            return sum(follows(r, value) for r in own_normals), -FOLLOWERS[value]

        if view.phase == SEVEN_NAME:
            return name_action(max(VALUES, key=merit))
        value = view.value  # a J_DIRECTION decision only comes on a determined value
        return max((J_DOWN, J_UP), key=lambda a: merit(j_step(value, -1 if a == J_DOWN else 1)))

    def _discard(self, view: View, legal: list[int]) -> int:
        ranks = [a - DISCARD_BASE for a in legal if a >= DISCARD_BASE]  # not DECLINE
        specials_held = sum(rank_of(c) in SPECIAL_RANKS for c in view.hand)
        risky = [r for r in (JACK, SEVEN, KING) if r in ranks]
        if risky and view.total <= specials_held + 3:
            return DISCARD_BASE + risky[0]
        normals = [r for r in ranks if r not in SPECIAL_RANKS]
        if normals:
            return DISCARD_BASE + min(normals, key=lambda r: (FOLLOW_COUNT[r], -r))
        return DISCARD_BASE + next(r for r in SPECIAL_KEEP_ORDER if r in ranks)
