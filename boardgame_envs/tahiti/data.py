"""Tahiti's components as tables, checked line by line against the spec (§2, §3).

Conventions used everywhere in the game:

* **goods** ``g``: coconut=0, banana=1, taro=2, spice=3, fish=4 (§2.2); the four crops are 0-3;
* **hex positions** in axial coordinates ``(q, r)``, pointy-topped, home at ``(0, 0)`` (§2.3);
  direction ``d`` = 0..5 is E, NE, NW, W, SW, SE (counter-clockwise), opposite ``(d + 3) % 6``::

                  NW (0,-1)   NE (+1,-1)
                        \\     /
              W (-1,0) -- (q,r) -- E (+1,0)
                        /     \\
                  SW (-1,+1)  SE (0,+1)

* **tile ids**: 0 = home, 1-18 = islands I01-I18, 19-21 = water W1-W3 (island ``k`` has id
  ``k``, so an island id is also its index in the bounty / depletion actions);
* **rotation** ``rho``: a tile's base edge ``e`` faces world direction ``(e + rho) % 6``.

Values marked STAND-IN are the spec's own replacements for printed data that could not be
recovered; they are normative for this project and live here only.
"""

from __future__ import annotations

# -- goods (§2.2) -----------------------------------------------------------------------
COCONUT, BANANA, TARO, SPICE, FISH = range(5)
NUM_GOODS = 5
CROPS = (COCONUT, BANANA, TARO, SPICE)
GOODS_NAMES = ("coconut", "banana", "taro", "spice", "fish")
GOODS_LETTERS = ("C", "B", "T", "S", "F")
#: Cubes per kind in the box (§2.1): 80 = 16 x 5.
CUBES_PER_KIND = 16
TOTAL_CUBES = CUBES_PER_KIND * NUM_GOODS
#: Cubes of each kind removed before setup, by player count (§2.12) [REAL].
CUBES_REMOVED_PER_KIND = {2: 4, 3: 2, 4: 0}

# -- hex geometry (§2.3) ----------------------------------------------------------------
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
#: Every tile lies within this hex distance of home (§11.3); the grid covers it.
GRID_RADIUS = 9
GRID_SIDE = 2 * GRID_RADIUS + 1  # 19: axial q, r in [-9, 9], cell index (q+9)*19 + (r+9)


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# -- tiles ------------------------------------------------------------------------------
HOME = 0
NUM_ISLANDS = 18
ISLANDS = tuple(range(1, NUM_ISLANDS + 1))  # tile ids 1..18 = I01..I18
WATERS = (19, 20, 21)  # W1, W2, W3
NUM_TILES = 22

#: Island tiles (§2.5) [STAND-IN list]: (slot 0 crop, slot 1 crop, base reef edges, start mark).
#: Start mark: "A" = monarch butterfly (2/4 players), "B" = other butterfly (3 players).
C, B, T, S = COCONUT, BANANA, TARO, SPICE
ISLAND_TABLE: dict[int, tuple[int, int, tuple[int, int], str]] = {
    1: (C, B, (0, 1), "A"),
    2: (T, S, (0, 2), "A"),
    3: (C, T, (0, 3), "A"),
    4: (B, S, (0, 1), "A"),
    5: (C, S, (0, 2), "B"),
    6: (B, T, (0, 3), "B"),
    7: (C, B, (0, 2), "B"),
    8: (C, B, (0, 3), ""),
    9: (T, S, (0, 1), ""),
    10: (T, S, (0, 3), ""),
    11: (C, T, (0, 1), ""),
    12: (C, T, (0, 2), ""),
    13: (B, S, (0, 2), ""),
    14: (B, S, (0, 3), ""),
    15: (C, S, (0, 1), ""),
    16: (C, S, (0, 3), ""),
    17: (B, T, (0, 1), ""),
    18: (B, T, (0, 2), ""),
}
del C, B, T, S

#: Crop of each goods space: ``ISLAND_SLOTS[k] = (slot 0 crop, slot 1 crop)``; index 0 unused.
ISLAND_SLOTS: tuple[tuple[int, int], ...] = ((-1, -1),) + tuple(
    ISLAND_TABLE[k][:2] for k in ISLANDS
)

#: Home tile reef edges in world directions (§2.4) [STAND-IN edges]: side A (2/4 players)
#: and side B (3 players).
HOME_REEFS = {"A": (1, 2, 4, 5), "B": (1, 3, 5)}


def home_side(num_players: int) -> str:
    return "B" if num_players == 3 else "A"


#: The fixed starting layout (§3 step 3) [STAND-IN]: (tile id, (q, r), rotation), by home side.
#: Every starting island stands in home direction d with rotation (d + 3) % 6.
START_LAYOUT: dict[str, tuple[tuple[int, tuple[int, int], int], ...]] = {
    "A": (
        (19, (1, 0), 0),  # W1, dir 0
        (20, (-1, 0), 0),  # W2, dir 3
        (1, (1, -1), 4),  # I01, dir 1
        (2, (0, -1), 5),  # I02, dir 2
        (3, (-1, 1), 1),  # I03, dir 4
        (4, (0, 1), 2),  # I04, dir 5
    ),
    "B": (
        (19, (1, 0), 0),  # W1, dir 0
        (20, (0, -1), 0),  # W2, dir 2
        (21, (-1, 1), 0),  # W3, dir 4
        (5, (1, -1), 4),  # I05, dir 1
        (6, (-1, 0), 0),  # I06, dir 3
        (7, (0, 1), 2),  # I07, dir 5
    ),
}


TILE_NAMES = ("HOME",) + tuple(f"I{k:02d}" for k in ISLANDS) + ("W1", "W2", "W3")
TILE_IDS = {name: t for t, name in enumerate(TILE_NAMES)}


def tile_name(tile: int) -> str:
    """HOME, I01-I18, W1-W3."""
    return TILE_NAMES[tile]


def tile_text(tile: int) -> str:
    """A tile's name with its goods spaces, for people: ``I01 (coconut, banana)``; home and
    water tiles have none (``W1``)."""
    if tile not in ISLAND_TABLE:
        return tile_name(tile)
    return f"{tile_name(tile)} ({', '.join(GOODS_NAMES[g] for g in ISLAND_SLOTS[tile])})"


def reef_mask(tile: int, rotation: int, side: str) -> int:
    """World reef edges of a placed tile as a 6-bit mask (bit d = reef on world edge d)."""
    if tile == HOME:
        edges = HOME_REEFS[side]
    elif tile in WATERS:
        edges = ()
    else:
        edges = tuple((e + rotation) % 6 for e in ISLAND_TABLE[tile][2])
    return sum(1 << d for d in edges)


# -- canoe (§2.8) -----------------------------------------------------------------------
CANOE_CAPACITY = 5
MAX_PADDLES = 4


def paddles(cubes: int) -> int:
    """Uncovered paddles with ``cubes`` on the canoe: 4, 4, 4, 3, 2, 1."""
    return MAX_PADDLES - max(0, cubes - 2)


# -- harvest chart (§2.9) ---------------------------------------------------------------
#: Set bonus above column c [STAND-IN]: SB(c) = c (c + 5) / 2, SB(0) = 0.
SET_BONUS = tuple(c * (c + 5) // 2 for c in range(CUBES_PER_KIND + 1))

# -- favourite-crop tiles (§2.10) [STAND-IN pairs] --------------------------------------
FAVOURITES = {
    1: (COCONUT, BANANA),
    2: (BANANA, TARO),
    3: (TARO, SPICE),
    4: (SPICE, COCONUT),
    5: (COCONUT, TARO),
    6: (BANANA, SPICE),
    7: (COCONUT, SPICE),
}
NUM_FAVOURITES = 7
FAVOURITE_SETS = {2: (5, 6, 7), 3: (5, 6, 7), 4: (1, 2, 3, 4)}
FAVOURITE_FIRST = 5
FAVOURITE_SECOND = 3

# -- depletion tokens (§2.11) [STAND-IN mix] --------------------------------------------
PLAIN, FISHING = 1, 2  # token kinds; 0 means "no token" on an island
TOKEN_NAMES = {PLAIN: "plain", FISHING: "fishing"}
TOKEN_COUNTS = {PLAIN: 12, FISHING: 6}
NUM_TOKENS = 18
FISH_DRAWS = 2
FISH_DRAWS_WITH_BONUS = 3

# -- turn structure (§4, §6) ------------------------------------------------------------
BOUNTY_WITH_HAUMEA = 3
BOUNTY_WITHOUT_HAUMEA = 2
#: The season ends when this many islands remain without a depletion token (§6.1).
UNDEPLETED_AT_END = 4
