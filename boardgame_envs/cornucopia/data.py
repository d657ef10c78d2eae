"""The components of Cornucopia (spec §2) and its scoring tables (spec §6), as data.

Index conventions used everywhere in the game:

* crop type index: 0 = ``W`` (cornucopia, wild), 1 = ``C`` corn, 2 = ``P`` pumpkin,
  3 = ``T`` tomato, 4 = ``E`` eggplant, 5 = ``G`` grape (spec §0);
* baskets ``B0`` … ``B3`` are the Mixed/Same baskets, ``B4`` the Same basket;
* bid numbers are 1 … 6; per-number lists are indexed ``number - 1``;
* chips are ``(yellow, blue, red)`` values, in that order.

Everything here is from the spec except :data:`BID_REWARDS`, which is the spec's
**STAND-IN** reward table (§2.3): replace that one table when the printed values are known.
"""

from __future__ import annotations

# -- crop cards (§2.1) -----------------------------------------------------------------------
WILD = 0
CROP_LETTERS = ("W", "C", "P", "T", "E", "G")
CROP_NAMES = ("cornucopia", "corn", "pumpkin", "tomato", "eggplant", "grape")
NUM_TYPES = 6
COPIES_PER_TYPE = 11
NUM_CROP_CARDS = NUM_TYPES * COPIES_PER_TYPE  # 66, W* included
#: Cards that circulate between deck, baskets, hand and discard: all but ``W*``.
NUM_CIRCULATING = NUM_CROP_CARDS - 1  # 65

# -- baskets (§2.2) --------------------------------------------------------------------------
NUM_BASKETS = 5
SAME_BASKET = 4  # B4; B0..B3 are Mixed/Same baskets
BASKET_CAPACITY = 5  # a basket is complete at 5 cards (W* counts in B4)
SOWN_SIZE = 2  # a basket is sown (and seeded) back to 2 cards (W* counts in B4)
#: Setup deal order (§3 step 7): first row B0..B3, second row B0..B4.
SEEDING_ORDER = (0, 1, 2, 3, 0, 1, 2, 3, 4)

# -- completion types (§2.7) -----------------------------------------------------------------
DIFFERENT = 0
SAME = 1
COMPLETION_NAMES = ("DIFFERENT", "SAME")

# -- bid cards (§2.3) ------------------------------------------------------------------------
BID_NUMBERS = (1, 2, 3, 4, 5, 6)
#: Copies of each bid number (verified from the seed): 4+4+5+5+6+6 = 30.
BID_COPIES = (4, 4, 5, 5, 6, 6)
NUM_BID_CARDS = sum(BID_COPIES)

#: STAND-IN (spec §2.3): the reward printed on each bid card, as chips
#: ``(yellow, blue, red)`` per completion type: ``BID_REWARDS[number][DIFFERENT or SAME]``.
#: The project's values are DIFFERENT = 7 - N and SAME = 10 - N yellow. Replace this
#: table (only this one) when the printed values become known.
BID_REWARDS: dict[int, tuple[tuple[int, int, int], tuple[int, int, int]]] = {
    #  N: (DIFFERENT,   SAME)
    1: ((6, 0, 0), (9, 0, 0)),
    2: ((5, 0, 0), (8, 0, 0)),
    3: ((4, 0, 0), (7, 0, 0)),
    4: ((3, 0, 0), (6, 0, 0)),
    5: ((2, 0, 0), (5, 0, 0)),
    6: ((1, 0, 0), (4, 0, 0)),
}

# -- chips (§2.6, §3, §4.6) ------------------------------------------------------------------
YELLOW, BLUE, RED = 0, 1, 2
CHIP_NAMES = ("yellow", "blue", "red")
START_CHIPS = (0, 3, 2)  # per player, every player count
BLUE_PER_YELLOW = 3  # the exchange rate 3 blue = 1 yellow
SAME_COMMIT_BONUS = 1  # yellow, for turning an AMBIGUOUS Mixed/Same basket SAME (§4.3)
STAKES = (1, 2, 3)  # blue chips a bettor may stake
MAX_RED_DECLARED = 3  # variant 8.1: red chips one may declare per turn

# -- final scoring (§6.3, §6.4) --------------------------------------------------------------
#: Red-chip majority: a sole leader, a sole second, tied seconds, tied leaders.
RED_SOLE_FIRST = 6
RED_SOLE_SECOND = 3
RED_TIED_SECOND = 2
RED_TIED_FIRST = 4
#: Points of one same-number combination, by the number of equal cards in it.
SET_POINTS = {2: 3, 3: 4, 4: 5}
#: Points of one run, by its length (one card of each consecutive number).
RUN_POINTS = {3: 3, 4: 4, 5: 5}

# -- bound on a game's length (§6.1) ---------------------------------------------------------
#: Every turn draws at least one card and at most 56 + 65 cards are drawn before the second
#: deck exhaustion, after which the current turn is the last one.
DECK_AFTER_SETUP = NUM_CIRCULATING - len(SEEDING_ORDER)  # 56
MAX_TURNS = DECK_AFTER_SETUP + NUM_CIRCULATING  # 121


def crop_letter(crop: int) -> str:
    return CROP_LETTERS[crop]


def parse_crops(text: str) -> list[int]:
    """``"C T W"`` or ``"CTW"`` → crop type indices, in the order written (``W*`` = ``W``)."""
    crops = []
    for char in text.replace("*", "").replace(",", " ").split():
        for letter in char:
            if letter.upper() not in CROP_LETTERS:
                raise ValueError(f"not a crop: {letter!r} in {text!r}; write W, C, P, T, E or G")
            crops.append(CROP_LETTERS.index(letter.upper()))
    return crops
