"""Cornucopia: the observation tensor of one seat, and the action table.

Actions: one ``Discrete(23)`` space, the same for every player count (spec §11.2); the
mask comes with the view and has exactly the legal indices of the current decision.

=======  ===========  ===========================================================
index    decision     meaning (legal when)
=======  ===========  ===========================================================
0-5      BID          bid number ``index + 1`` (that stack holds a card)
6-8      BET          YES with stake 1, 2, 3 blue (stake <= b + 3y)
9-11     BET          NO with stake 1, 2, 3 blue (stake <= b + 3y)
12-16    CARD         PLACE the drawn card in ``B0`` … ``B4`` (a legal placement)
17       CARD         REDRAW (base: no red spent this turn and >= 1 red held;
                      variant: >= 1 declared chip left)
18       CARD         FORFEIT (only for a dead card: no legal placement)
19-22    DECLARE      declare 0 … 3 red chips (``variant_red3``; <= red held)
=======  ===========  ===========================================================

The observation is ``float32[177]`` from the observing seat's point of view (spec §11.3):
*relative seat* 0 is the observer, 1 the next player clockwise, and so on; slots of absent
seats (fewer than 5 players) are zero. It is built from :class:`~.rules.View` only, so it
holds nothing the seat may not know (spec §7): never the deck order, and another seat's
bet side and stake only after REVEAL.

======  ====  ==============================================================  =============
offset  size  content                                                         scale
======  ====  ==============================================================  =============
0       4     player count one-hot: 2, 3, 4, 5                                0/1
4       1     ``variant_red3`` on                                             0/1
5       4     decision one-hot: DECLARE, BID, BET, CARD (zero once over)      0/1
9       5     turn player's relative seat one-hot                             0/1
14      5     acting player's relative seat one-hot (zero once over)          0/1
19      6     cards in bid stacks 1..6 (a pending bid card is out)            / copies
25      6     pending bid number ``N`` one-hot (zero before the bid)          0/1
31      1     ``k``: cards placed this turn                                   / 6
32      1     ``N - k``: placements still allowed (0 before the bid)          / 6
33      1     REDRAW legal now                                                0/1
34      1     declared red chips left (variant)                               / 3
35      6     drawn card one-hot by crop type W C P T E G (zero if none)      0/1
41      50    baskets ``B0`` … ``B4``, 10 each: cards per crop type (6)        / 5
              (``B4``'s include ``W*``), status one-hot AMBIGUOUS, SAME,      0/1
              DIFFERENT (3; ``B4`` is always SAME), size (1)                  / 5
91      1     deck size                                                       / 65
92      3     deck exhaustions one-hot: 0, 1, 2 or more                       0/1
95      6     deck composition by crop type (public; the order is not)        / 11
101     6     discard pile by crop type                                       / 11
107     70    relative seats 0-4, 14 each: present (1); yellow, blue, red     0/1; / 10,
              in hand (3); bid cards won per number 1..6 (6); bet committed   clipped at
              (1); bet YES (1); bet NO (1); stake (1)                         100; / copies;
                                                                              0/1; / 3
======  ====  ==============================================================  =============

Bet fields: the observer's own side and stake show from the moment it bets; another
seat's show only from REVEAL until settlement (before that only "committed"). Chips in
hand never reveal a stake: stakes leave the hand at REVEAL.
"""

from __future__ import annotations

import functools
import struct

import numpy as np

from boardgame_envs.cornucopia.data import BID_COPIES, DIFFERENT, SAME
from boardgame_envs.cornucopia.rules import AMBIGUOUS, BET, BID, CARD, DECLARE, NO, YES, View

MAX_SEATS = 5
PLAYER_COUNT = 0
VARIANT = 4
PHASE = 5
TURN_SEAT = 9
ACTING_SEAT = 14
STACKS = 19
BID_NUMBER = 25
PLACED = 31
PLACEMENTS_LEFT = 32
REDRAW_AVAILABLE = 33
DECLARED = 34
PENDING = 35
BASKETS = 41
BASKET_SIZE = 10  # per basket: 6 type counts, 3 status, 1 size
STATUS = 6  # offsets inside one basket's block
SIZE = 9
DECK_SIZE = 91
EXHAUSTIONS = 92
DECK_COUNTS = 95
DISCARD_COUNTS = 101
SEATS = 107
SEAT_SIZE = 14
# offsets inside one seat's block
PRESENT, YELLOW_CHIPS, BLUE_CHIPS, RED_CHIPS, WON, COMMITTED, BET_YES, BET_NO, STAKE = (
    0,
    1,
    2,
    3,
    4,
    10,
    11,
    12,
    13,
)
OBSERVATION_SIZE = 177
OBSERVATION_SHAPE = (OBSERVATION_SIZE,)
#: Chip counts are divided by 10 and clipped at 100 chips; every other slot is in [0, 1].
OBSERVATION_BOUNDS = (0.0, 10.0)
#: No spatial planes: the env's ``layout="planes"`` is refused for this game.
PLANES = None
CHIP_CLIP = 100

_PHASE_INDEX = {DECLARE: 0, BID: 1, BET: 2, CARD: 3}
_INV_COPIES = [1.0 / c for c in BID_COPIES]
# Packers of float32 runs in native byte order, as np.float32 reads them.
_PACK_HEAD = struct.Struct(f"={BASKETS}f").pack
_PACK_BASKET = struct.Struct(f"={BASKET_SIZE}f").pack
_PACK_MIDDLE = struct.Struct(f"={SEATS - DECK_SIZE}f").pack
_PACK_HOLDINGS = struct.Struct(f"={COMMITTED}f").pack
_PACK_BET = struct.Struct(f"={SEAT_SIZE - COMMITTED}f").pack
_ABSENT_SEAT = bytes(4 * SEAT_SIZE)
#: Table order of the basket status slots: AMBIGUOUS, SAME, DIFFERENT.
_STATUS_SLOT = {AMBIGUOUS: 0, SAME: 1, DIFFERENT: 2}


def encode(view: View) -> np.ndarray:
    """The observation of ``view.seat`` (see the module table).

    Built as bytes: the head (offsets 0-40) and the middle (91-106) are packed from Python
    floats, the baskets and the seats are joined from cached packed blocks (the same
    baskets, chip counts, bid cards and bets recur all the time). This is several times
    faster than numpy scalar or fancy-index writes. The result is a writable float32 array
    that owns a fresh buffer.
    """
    n = view.num_players
    me = view.seat
    head = [0.0] * BASKETS
    head[PLAYER_COUNT + n - 2] = 1.0
    head[TURN_SEAT + (view.turn_player - me) % n] = 1.0
    if view.variant_red3:
        head[VARIANT] = 1.0
    phase = _PHASE_INDEX.get(view.phase)
    if phase is not None:
        head[PHASE + phase] = 1.0
        head[ACTING_SEAT + (view.current_player - me) % n] = 1.0
    head[STACKS : STACKS + 6] = [c * k for c, k in zip(view.stacks, _INV_COPIES)]
    bid = view.bid
    if bid is not None:
        head[BID_NUMBER + bid - 1] = 1.0
        head[PLACEMENTS_LEFT] = (bid - view.placed) / 6
    head[PLACED] = view.placed / 6
    head[REDRAW_AVAILABLE] = 1.0 if view.redraw_available else 0.0
    head[DECLARED] = view.declared / 3
    if view.pending is not None:
        head[PENDING + view.pending] = 1.0
    parts = [_PACK_HEAD(*head)]
    parts += map(_basket_bytes, view.baskets, view.statuses)
    exhausted = [0.0, 0.0, 0.0]
    exhausted[min(view.exhaustions, 2)] = 1.0
    parts.append(
        _PACK_MIDDLE(
            view.deck_size / 65,
            *exhausted,
            *[c / 11 for c in view.deck_counts],
            *[c / 11 for c in view.discard_counts],
        )
    )
    chips, won, committed, bets = view.chips, view.won, view.committed, view.bets
    for relative in range(n):
        seat = (me + relative) % n
        parts.append(_holdings_bytes(chips[seat], won[seat]))
        bet = bets[seat]
        parts.append(_BET_BYTES[bet if bet is not None else committed[seat]])
    parts.append(_ABSENT_SEAT * (MAX_SEATS - n))
    return np.frombuffer(bytearray(b"".join(parts)), dtype=np.float32)


@functools.lru_cache(maxsize=1 << 16)
def _basket_bytes(basket: tuple[int, ...], status: int) -> bytes:
    """One basket's 10 slots, packed: cards per crop / 5, status one-hot, size / 5."""
    block = [0.0] * BASKET_SIZE
    for card in basket:
        block[card] += 0.2
    block[STATUS + _STATUS_SLOT[status]] = 1.0
    block[SIZE] = len(basket) / 5
    return _PACK_BASKET(*block)


@functools.lru_cache(maxsize=1 << 16)
def _holdings_bytes(chips: tuple[int, int, int], won: tuple[int, ...]) -> bytes:
    """A seat's first 10 slots, packed: present, chips in hand, bid cards won."""
    return _PACK_HOLDINGS(
        1.0,
        *(min(c, CHIP_CLIP) / 10 for c in chips),
        *(c * k for c, k in zip(won, _INV_COPIES)),
    )


def _bet_bytes(committed: float, yes: float, no: float, stake: int) -> bytes:
    return _PACK_BET(committed, yes, no, stake / 3)


#: A seat's 4 bet slots by what the observer may see: False (no bet), True (committed,
#: side and stake hidden), or (side, stake).
_BET_BYTES: dict[object, bytes] = {False: _bet_bytes(0, 0, 0, 0), True: _bet_bytes(1, 0, 0, 0)}
for _stake in (1, 2, 3):
    _BET_BYTES[(YES, _stake)] = _bet_bytes(1, 1, 0, _stake)
    _BET_BYTES[(NO, _stake)] = _bet_bytes(1, 0, 1, _stake)
