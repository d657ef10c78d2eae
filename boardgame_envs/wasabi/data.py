"""The components of Wasabi! as tables (spec §2), checkable line by line against the spec.

Index conventions, used by every table, tensor and action index of the game:

* ingredient kind ``k`` = 0..16 in the order of spec §2.2 (Rice = 0 … Lobster = 16);
* recipe id ``r`` = 0..51 in the order of spec §2.3 (R2-01 = 0 … R5-10 = 51);
* recipe length ``L`` = 2..5; per-length lists are indexed ``L - 2``;
* action-card type ``t`` = 0 Stack!, 1 Spicy!, 2 Switch!, 3 Chop!, 4 Wasabi! (spec §2.5);
* board cell ``r * 7 + c`` on the 6 x 7 grid, row 0 at the top (spec conventions).

Much of this is **STAND-IN** (spec §2.8: ingredient kinds and counts, recipe contents, the
deck split, the cube numbers). It lives here and nowhere else, so that the printed data can
replace it in one place; the engine reads only these tables.
"""

from __future__ import annotations

from typing import NamedTuple

# -- board (spec §2.1): real -------------------------------------------------------------
ROWS = 6
GRID_COLUMNS = 7
NUM_CELLS = ROWS * GRID_COLUMNS
#: Active columns (0..C-1) by player count.
ACTIVE_COLUMNS = {2: 5, 3: 6, 4: 7}
#: Engine safety limit of spec §6.3 (not in the printed game): turns before the game ends.
DEFAULT_MAX_TURNS = 250

# -- hand limits (spec §1, §4.6): real ---------------------------------------------------
TILE_HAND_LIMIT = 3
MENU_SLOTS = 3
CARD_HAND_LIMIT = 2
GIFT_SIZE = 3
DRAFT_SIZE = 3
#: Completing this many recipes (all of a player's tokens) wins at once (spec §6.1).
RECIPES_TO_WIN = 10


class Ingredient(NamedTuple):
    name: str
    short: str  # two letters for the text board
    category: str
    tiles: int
    giftable: bool  # may be chosen for the setup gift (spec §3.2; Maki: see gift_excludes_maki)


# -- ingredient tiles (spec §2.2) --------------------------------------------------------
# STAND-IN: the 17 kinds and their counts. Real: 72 tiles, 6 categories, Rice / Maki /
# Unique as categories, Rice and Unique kinds excluded from the gift.
INGREDIENTS: tuple[Ingredient, ...] = (
    Ingredient("Rice", "Ri", "Rice", 10, False),
    Ingredient("Maki", "Mk", "Maki", 8, True),
    Ingredient("Salmon", "Sa", "Fish", 4, True),
    Ingredient("Tuna", "Tu", "Fish", 4, True),
    Ingredient("Snapper", "Sn", "Fish", 4, True),
    Ingredient("Eel", "Ee", "Fish", 4, True),
    Ingredient("Shrimp", "Sh", "Seafood", 4, True),
    Ingredient("Squid", "Sq", "Seafood", 4, True),
    Ingredient("Crab", "Cr", "Seafood", 4, True),
    Ingredient("Roe", "Ro", "Seafood", 4, True),
    Ingredient("Avocado", "Av", "Vegetable", 4, True),
    Ingredient("Cucumber", "Cu", "Vegetable", 4, True),
    Ingredient("Carrot", "Ca", "Vegetable", 4, True),
    Ingredient("Radish", "Ra", "Vegetable", 4, True),
    Ingredient("Fugu", "Fu", "Unique", 2, False),
    Ingredient("Uni", "Un", "Unique", 2, False),
    Ingredient("Lobster", "Lo", "Unique", 2, False),
)
NUM_KINDS = len(INGREDIENTS)
NUM_TILES = sum(i.tiles for i in INGREDIENTS)
KIND_NAMES = tuple(i.name for i in INGREDIENTS)
KIND_SHORT = tuple(i.short for i in INGREDIENTS)
TILE_COUNTS = tuple(i.tiles for i in INGREDIENTS)
MAKI = KIND_NAMES.index("Maki")


class Recipe(NamedTuple):
    code: str  # "R2-01"
    name: str
    kinds: tuple[int, ...]  # ingredient ids in the ideal (printed) order

    @property
    def length(self) -> int:
        return len(self.kinds)


def _recipe(code: str, name: str, kinds: str) -> Recipe:
    return Recipe(code, name, tuple(KIND_NAMES.index(k.strip()) for k in kinds.split(">")))


# -- recipe strips (spec §2.3) -----------------------------------------------------------
# STAND-IN: contents, order and 49 of the 52 names; the deck split 16/14/12/10.
# Real: 52 strips of lengths 2-5, each of different ingredients, kept in decks by length;
# the names Squid Salad Sandwich, Snapper Crunch and Poison Pill.
RECIPES: tuple[Recipe, ...] = (
    _recipe("R2-01", "Salmon Nigiri", "Salmon > Rice"),
    _recipe("R2-02", "Tuna Nigiri", "Tuna > Rice"),
    _recipe("R2-03", "Snapper Nigiri", "Snapper > Rice"),
    _recipe("R2-04", "Unagi Nigiri", "Eel > Rice"),
    _recipe("R2-05", "Ebi Nigiri", "Shrimp > Rice"),
    _recipe("R2-06", "Ika Nigiri", "Squid > Rice"),
    _recipe("R2-07", "Ikura Gunkan", "Rice > Roe"),
    _recipe("R2-08", "Kappa Maki", "Maki > Cucumber"),
    _recipe("R2-09", "Tekka Maki", "Maki > Tuna"),
    _recipe("R2-10", "Avocado Maki", "Maki > Avocado"),
    _recipe("R2-11", "Kani Maki", "Maki > Crab"),
    _recipe("R2-12", "Oshinko Maki", "Maki > Radish"),
    _recipe("R2-13", "Sake Maki", "Maki > Salmon"),
    _recipe("R2-14", "Carrot Maki", "Maki > Carrot"),
    _recipe("R2-15", "Crab Salad", "Crab > Cucumber"),
    _recipe("R2-16", "Tuna Tartare", "Tuna > Avocado"),
    _recipe("R3-01", "Squid Salad Sandwich", "Cucumber > Squid > Rice"),
    _recipe("R3-02", "Snapper Crunch", "Maki > Snapper > Carrot"),
    _recipe("R3-03", "Poison Pill", "Rice > Fugu > Radish"),
    _recipe("R3-04", "California Roll", "Maki > Crab > Avocado"),
    _recipe("R3-05", "Spicy Tuna Roll", "Maki > Tuna > Cucumber"),
    _recipe("R3-06", "Eel Avocado Roll", "Maki > Eel > Avocado"),
    _recipe("R3-07", "Shrimp Tempura Roll", "Maki > Shrimp > Carrot"),
    _recipe("R3-08", "Ebi Ikura Boat", "Rice > Roe > Shrimp"),
    _recipe("R3-09", "Uni Spoon", "Uni > Roe > Radish"),
    _recipe("R3-10", "Sashimi Pair", "Salmon > Tuna > Radish"),
    _recipe("R3-11", "Crab Cake Bite", "Crab > Carrot > Rice"),
    _recipe("R3-12", "Unadon", "Rice > Eel > Cucumber"),
    _recipe("R3-13", "Lobster Roll", "Maki > Lobster > Avocado"),
    _recipe("R3-14", "Seafood Skewer", "Squid > Shrimp > Carrot"),
    _recipe("R4-01", "Dragon Roll", "Maki > Eel > Avocado > Cucumber"),
    _recipe("R4-02", "Rainbow Roll", "Maki > Tuna > Salmon > Avocado"),
    _recipe("R4-03", "Spider Roll", "Maki > Crab > Cucumber > Roe"),
    _recipe("R4-04", "Dynamite Roll", "Maki > Shrimp > Carrot > Radish"),
    _recipe("R4-05", "Chirashi Bowl", "Rice > Salmon > Tuna > Roe"),
    _recipe("R4-06", "Sashimi Trio", "Tuna > Salmon > Snapper > Radish"),
    _recipe("R4-07", "Seafood Salad", "Squid > Shrimp > Crab > Cucumber"),
    _recipe("R4-08", "Fugu Sashimi", "Fugu > Snapper > Radish > Carrot"),
    _recipe("R4-09", "Uni Donburi", "Rice > Uni > Squid > Roe"),
    _recipe("R4-10", "Lobster Tempura", "Lobster > Shrimp > Roe > Rice"),
    _recipe("R4-11", "Garden Roll", "Maki > Avocado > Carrot > Radish"),
    _recipe("R4-12", "Snapper Don", "Rice > Snapper > Eel > Cucumber"),
    _recipe("R5-01", "Ocean Platter", "Rice > Tuna > Shrimp > Squid > Eel"),
    _recipe("R5-02", "Sunset Roll", "Maki > Salmon > Avocado > Squid > Roe"),
    _recipe("R5-03", "Master's Plate", "Rice > Snapper > Eel > Crab > Radish"),
    _recipe("R5-04", "Emperor's Fugu", "Fugu > Rice > Salmon > Eel > Roe"),
    _recipe("R5-05", "Uni Supreme", "Maki > Uni > Crab > Avocado > Squid"),
    _recipe("R5-06", "Lobster Feast", "Lobster > Rice > Tuna > Snapper > Radish"),
    _recipe("R5-07", "Festival Roll", "Maki > Snapper > Eel > Carrot > Cucumber"),
    _recipe("R5-08", "Seafood Boat", "Rice > Shrimp > Crab > Roe > Salmon"),
    _recipe("R5-09", "Harbor Mix", "Salmon > Squid > Snapper > Eel > Carrot"),
    _recipe("R5-10", "Chef's Roll", "Maki > Snapper > Shrimp > Squid > Crab"),
)
NUM_RECIPES = len(RECIPES)
LENGTHS = (2, 3, 4, 5)
#: Recipe ids of each deck, in table order (the order before the setup shuffle).
DECK_RECIPES = tuple(tuple(i for i, r in enumerate(RECIPES) if r.length == L) for L in LENGTHS)
RECIPE_LENGTH = tuple(r.length for r in RECIPES)


class Token(NamedTuple):
    per_player: int  # real
    points: int  # probable (spec §2.8): points = length
    cubes: int  # STAND-IN: cubes for an ideal dish = length - 1


# -- challenge tokens (spec §2.4), by length 2..5 ----------------------------------------
TOKENS: dict[int, Token] = {
    2: Token(4, 2, 1),
    3: Token(3, 3, 2),
    4: Token(2, 4, 3),
    5: Token(1, 5, 4),
}
TOKENS_PER_PLAYER = sum(t.per_player for t in TOKENS.values())

# -- action cards (spec §2.5): real ------------------------------------------------------
CARD_NAMES = ("Stack!", "Spicy!", "Switch!", "Chop!", "Wasabi!")
NUM_CARD_TYPES = len(CARD_NAMES)
STACK, SPICY, SWITCH, CHOP, WASABI = range(NUM_CARD_TYPES)
#: Cards of each type used in a game, by player count (the rest stay in the box).
CARDS_IN_PLAY = {
    2: (1, 1, 1, 1, 1),
    3: (1, 2, 1, 1, 2),
    4: (2, 2, 2, 2, 2),
}


# -- names ↔ ids -------------------------------------------------------------------------
def kind_id(name: str) -> int:
    """``"Salmon"`` (or its two letters ``"Sa"``, any case) → ingredient id."""
    key = name.strip().lower()
    for k, ingredient in enumerate(INGREDIENTS):
        if key in (ingredient.name.lower(), ingredient.short.lower()):
            return k
    raise ValueError(f"unknown ingredient {name!r}; known: {', '.join(KIND_NAMES)}")


def recipe_id(name: str) -> int:
    """``"R2-01"`` or ``"Salmon Nigiri"`` (any case) → recipe id."""
    key = name.strip().lower()
    for r, recipe in enumerate(RECIPES):
        if key in (recipe.code.lower(), recipe.name.lower()):
            return r
    raise ValueError(f"unknown recipe {name!r}; write a code R2-01..R5-10 or a recipe name")


def card_type(name: str) -> int:
    """``"Chop!"`` or ``"chop"`` → action-card type."""
    key = name.strip().lower().rstrip("!")
    for t, card in enumerate(CARD_NAMES):
        if key == card.lower().rstrip("!"):
            return t
    raise ValueError(f"unknown action card {name!r}; known: {', '.join(CARD_NAMES)}")


def recipe_text(r: int) -> str:
    recipe = RECIPES[r]
    return f"{recipe.name} ({' > '.join(KIND_NAMES[k] for k in recipe.kinds)})"
