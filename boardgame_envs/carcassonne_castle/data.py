"""Components of Carcassonne: The Castle, as tables copied from the spec (§2).

Much of this is STAND-IN (spec §2.3, §2.4, §2.6): the printed castle outline, the gate
artwork, the track positions of the corner towers, the 60 tile faces and two wall-tile
values could not be recovered, so the spec defines replacements that match every number
the sources give. They live here, and only here, so that the printed data can replace
them in one place. The tables below are the spec's own tables (markdown rows pasted as
they are) and are parsed at import, so a reader can check them line by line.

Conventions (spec §2.2), used by every module of this game:

* cells ``(x, y)``: ``x`` grows eastward, ``y`` southward; sides ``N=0, E=1, S=2, W=3``;
* 12 ports per tile, numbered clockwise from the north-west corner; these are also the
  *slot* numbers of the action encoding::

              slot 0   slot 8   slot 1
                Na       N        Nb
            +--------+-----+--------+
    slot 7  Wb                      Ea  slot 2
    slot 11 W                        E  slot 9
    slot 6  Wa                      Eb  slot 3
            +--------+-----+--------+
                Sb       S        Sa
              slot 5   slot 10  slot 4

  half-ports 0-7 (``Na Nb Ea Eb Sa Sb Wa Wb``) show an area type, path ports 8-11
  (``N E S W``) carry a path or not;
* rotation ``r`` = quarter turns clockwise: base half-port ``k`` moves to ``(k + 2r) % 8``,
  base path port ``d`` to ``(d + r) % 4``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# -- directions, ports, feature kinds -----------------------------------------------------
N, E, S, W = 0, 1, 2, 3
SIDE_NAMES = ("N", "E", "S", "W")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
HALF_PORT_NAMES = ("Na", "Nb", "Ea", "Eb", "Sa", "Sb", "Wa", "Wb")
SLOT_NAMES = HALF_PORT_NAMES + SIDE_NAMES  # slots 0-7 half-ports, 8-11 path ports
NUM_SLOTS = 12

TOWER, HOUSE, COURT, PATH = 0, 1, 2, 3
KIND_LETTERS = "THCP"
KIND_NAMES = ("tower", "house", "court", "path")

# -- players and constants (spec §2.1, §2.5) ----------------------------------------------
NUM_PLAYERS = 2
FOLLOWERS_PER_PLAYER = 6  # + 1 score marker + 1 keep each
NUM_CASTLE_TILES = 60
TRACK_LENGTH = 100
#: STAND-IN (spec §2.5): kind 8 enlarges the keep by this many tiles.
KEEP_BONUS_TILES = 5
#: STAND-IN (spec §2.5): kind 9 is worth this many points.
WALL9_POINTS = 5

# -- the castle frame [STAND-IN], spec §2.3, pasted as printed ----------------------------
# ``.`` playable cell, ``#`` wall / outside, ``kX`` gate Gk whose active side points X.
FRAME_MAP = """
 y\\x  -1   0   1   2   3   4   5   6   7   8   9  10
 -1    #   #   #   #   #  1v   #   #   #   #   #   #
  0    #   #   #   .   .   .   .   .   #   #   #   #
  1    #   #  7v   .   .   .   .   .   .   .   .   #
  2    #   .   .   .   .   .   .   .   .   .   .   #
  3    #   .   .   .   .   .   .   .   .   .   .  2<
  4    #   .   .   .   .   .   .   .   .   .   .   #
  5   6>   .   .   .   .   .   .   .   .   .   .   #
  6    #   .   .   .   .   .   .   .   .   .   #   #
  7    #   .   .   .   #  4^   .   .   .   .   #   #
  8    #   .   .   .   #   #   .   .   .   .   #   #
  9    #   #  5^   #   #   #   #   #  3^   #   #   #
"""

# Gates (start spaces) [STAND-IN contents], spec §2.3, pasted as printed.
GATE_TABLE = """
| G1 | (4,−1) | S | (4,0) idx 2, its N side | Sa=C, Sb=C | yes | C{Sa}, C{Sb}, path {S} | 0 |
| G2 | (10,3) | W | (9,3) idx 32, its E side | Wa=C, Wb=C | no | C{Wa,Wb} | 1 |
| G3 | (7,9) | N | (7,8) idx 74, its S side | Na=C, Nb=C | yes | C{Na}, C{Nb}, path {N} | 0 |
| G4 | (4,7) | N | (4,6) idx 57, its S side | Na=C, Nb=C | no | C{Na,Nb} | 0 |
| G5 | (1,9) | N | (1,8) idx 70, its S side | Na=C, Nb=C | yes | C{Na}, C{Nb}, path {N} | 0 |
| G6 | (−1,5) | E | (0,5) idx 43, its W side | Ea=C, Eb=C | yes | C{Ea}, C{Eb}, path {E} | 0 |
| G7 | (1,1) | S | (1,2) idx 14, its N side | Sa=C, Sb=C | no | C{Sa,Sb} | 0 |
"""

# -- score track: corner towers [STAND-IN positions], spec §2.4, pasted as printed --------
CORNER_TABLE = """
| C0 | 0, 1 | none | (2,0) |
| C1 | 11, 12 | yes | (7,0) |
| C2 | 15, 16 | yes | (7,1) |
| C3 | 22, 23 | yes | (10,1) |
| C4 | 33, 34 | yes | (10,6) |
| C5 | 37, 38 | yes | (9,6) |
| C6 | 44, 45 | yes | (9,9) |
| C7 | 53, 54 | yes | (5,9) |
| C8 | 58, 59 | yes | (5,7) |
| C9 | 63, 64 | yes | (3,7) |
| C10 | 68, 69 | yes | (3,9) |
| C11 | 75, 76 | yes | (0,9) |
| C12 | 89, 90 | yes | (0,2) |
| C13 | 95, 96 | yes | (2,2) |
"""

# -- wall tiles, spec §2.5 (kinds 1-9, two of each) -----------------------------------------
WALL_KINDS = tuple(range(1, 10))
WALL_COPIES = 2
NUM_WALL_TILES = len(WALL_KINDS) * WALL_COPIES  # 18
EXTRA_TURN, TOWER_X2, HOUSE_X2 = 1, 2, 3  # used during play
UNFINISHED_PATH, UNFINISHED_TOWER, UNFINISHED_HOUSE = 4, 5, 6  # final scoring
MARKET_X4, BIGGER_KEEP, BONUS_POINTS = 7, 8, 9  # final scoring
WALL_NAMES = {
    1: "extra turn",
    2: "tower x2",
    3: "house x2",
    4: "unfinished path",
    5: "unfinished tower",
    6: "unfinished house",
    7: "market x4",
    8: "bigger keep",
    9: "bonus points",
}

# -- castle tiles [STAND-IN list; totals REAL], spec §2.6, pasted as printed -----------------
# ID | Count | Halves (Na Nb Ea Eb Sa Sb Wa Wb) | Paths (N E S W) | Path segments |
# Area segments | Fountain | Markets
TILE_TABLE = """
| T01 | 1 | HHHHHHHH | ---- | — | H{0-7} | — | — |
| T02 | 1 | TTTTTTTT | ---- | — | T{0-7} | — | — |
| T03 | 2 | CCCCCCCC | ---- | — | C{0-7} | — | 1 in C{0-7} |
| T04 | 1 | CCCCCCCC | ---- | — | C{0-7} | — | — |
| T05 | 1 | CCCCCCCC | ---- | — | C{0-7} | — | 2 in C{0-7} |
| T06 | 2 | HHCCCCCC | ---- | — | H{0,1} C{2-7} | — | — |
| T07 | 2 | TTCCCCCC | ---- | — | T{0,1} C{2-7} | — | — |
| T08 | 2 | HHCCTTCC | ---- | — | H{0,1} C{2,3} T{4,5} C{6,7} | — | — |
| T09 | 2 | HCCCCCCH | ---- | — | H{7,0} C{1-6} | — | — |
| T10 | 2 | TCCHHCCT | ---- | — | T{7,0} C{1,2} H{3,4} C{5,6} | — | — |
| T11 | 1 | HHHHCCCC | ---- | — | H{0-3} C{4-7} | — | 1 in C{4-7} |
| T12 | 1 | HHHHCCCC | ---- | — | H{0-3} C{4-7} | — | — |
| T13 | 1 | TTTTCCCC | ---- | — | T{0-3} C{4-7} | — | — |
| T14 | 1 | HHHHCCHH | ---- | — | H{6,7,0,1,2,3} C{4,5} | — | — |
| T15 | 1 | HHHHTTTT | ---- | — | H{0-3} T{4-7} | — | — |
| T16 | 1 | CCTTCCHH | ---- | — | C{0,1} T{2,3} C{4,5} H{6,7} | — | — |
| T17 | 1 | CCCCCCTT | ---- | — | C{0-5} T{6,7} | — | 1 in C{0-5} |
| T18 | 2 | CCCCCCCC | P-P- | {N,S} | C{1,2,3,4} C{5,6,7,0} | — | — |
| T19 | 1 | CCCCCCCC | P-P- | {N,S} | C{1,2,3,4} C{5,6,7,0} | on {N,S} | — |
| T20 | 2 | HCCCCHHH | P-P- | {N,S} | C{1,2,3,4} H{5,6,7,0} | — | — |
| T21 | 2 | HTTTTHHH | P-P- | {N,S} | T{1,2,3,4} H{5,6,7,0} | — | — |
| T22 | 1 | TCCCCTTT | P-P- | {N,S} | C{1,2,3,4} T{5,6,7,0} | — | 1 in C{1,2,3,4} |
| T23 | 1 | HHHHHHHH | P-P- | {N,S} | H{1,2,3,4} H{5,6,7,0} | — | — |
| T24 | 1 | HCCCCHHH | P-P- | {N,S} | C{1,2,3,4} H{5,6,7,0} | on {N,S} | — |
| T25 | 1 | CHHHHCCC | P-P- | {N,S} | H{1,2,3,4} C{5,6,7,0} | — | 1 in C{5,6,7,0} |
| T26 | 1 | TTTTTTTT | P-P- | {N,S} | T{1,2,3,4} T{5,6,7,0} | — | — |
| T27 | 1 | CTTTTCCC | P-P- | {N,S} | T{1,2,3,4} C{5,6,7,0} | on {N,S} | — |
| T28 | 2 | CCCCCCCC | PP-- | {N,E} | C{1,2} C{3,4,5,6,7,0} | — | — |
| T29 | 1 | HCCHHHHH | PP-- | {N,E} | C{1,2} H{3,4,5,6,7,0} | — | — |
| T30 | 1 | TCCTTTTT | PP-- | {N,E} | C{1,2} T{3,4,5,6,7,0} | — | — |
| T31 | 1 | CCCCCCCC | PP-- | {N,E} | C{1,2} C{3,4,5,6,7,0} | on {N,E} | 1 in C{3,4,5,6,7,0} |
| T32 | 2 | CHHCCCCC | PP-- | {N,E} | H{1,2} C{3,4,5,6,7,0} | — | — |
| T33 | 1 | CTTCCCCC | PP-- | {N,E} | T{1,2} C{3,4,5,6,7,0} | — | 1 in C{3,4,5,6,7,0} |
| T34 | 1 | HCCHHHHH | PP-- | {N,E} | C{1,2} H{3,4,5,6,7,0} | — | 1 in C{1,2} |
| T35 | 2 | HHCCCCCC | --P- | {S} dead end | H{0,1} C{2,3,4} C{5,6,7} | — | — |
| T36 | 2 | TTCCCCCC | --P- | {S} dead end | T{0,1} C{2,3,4} C{5,6,7} | — | — |
| T37 | 1 | HHHHCCHH | --P- | {S} dead end | H{6,7,0,1,2,3} C{4} C{5} | — | — |
| T38 | 1 | TTCCCCCC | --P- | {S} dead end | T{0,1} C{2,3,4} C{5,6,7} | on {S} | — |
| T39 | 1 | HHCCCCHH | --P- | {S} dead end | H{6,7,0,1} C{2,3,4} C{5} | — | — |
| T40 | 1 | HHCCCCCC | --P- | {S} dead end | H{0,1} C{2,3,4} C{5,6,7} | on {S} | — |
| T41 | 2 | HHCCCCCC | -PPP | {E} {S} {W} (square) | H{0,1} C{2} C{3,4} C{5,6} C{7} | — | — |
| T42 | 1 | TTCCCCCC | -PPP | {E} {S} {W} (square) | T{0,1} C{2} C{3,4} C{5,6} C{7} | — | — |
| T43 | 1 | CCCCCCCC | PPPP | {N} {E} {S} {W} (square) | C{1,2} C{3,4} C{5,6} C{7,0} | — | — |
| T44 | 1 | HHCCCCCC | -PPP | {E,S,W} (junction, no square) | H{0,1} C{2} C{3,4} C{5,6} C{7} | — | — |
| T45 | 1 | CCCCCCCC | PPPP | {N,E,S,W} (crossing, no square) | C{1,2} C{3,4} C{5,6} C{7,0} | on {N,E,S,W} | — |
| T46 | 1 | CCCCCCCC | -PPP | {E,S,W} (junction, no square) | C{7,0,1,2} C{3,4} C{5,6} | — | 1 in C{7,0,1,2} |
"""  # noqa: E501  (the spec's rows, pasted as printed)


# -- parsed forms -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Segment:
    """One part of a tile or gate (spec §2.2): a kind and the slots (ports) it owns."""

    kind: int  # TOWER, HOUSE, COURT or PATH
    slots: tuple[int, ...]  # half-ports 0-7 for areas, path ports 8-11 for paths
    markets: int = 0
    fountain: bool = False

    @property
    def lowest(self) -> int:
        """The lowest slot: how the action encoding names this segment (spec §11.1)."""
        return min(self.slots)


@dataclass(frozen=True)
class TileType:
    """A castle tile type in base orientation (spec §2.6)."""

    index: int  # 0-45 (T01 is 0)
    name: str  # "T01"
    count: int
    halves: str  # area letter of half-ports 0-7
    paths: tuple[bool, bool, bool, bool]  # path flag at N, E, S, W
    segments: tuple[Segment, ...]  # area segments first, then path segments
    square: bool  # separate path arms meeting at a square


@dataclass(frozen=True)
class Gate:
    """A start space: a pseudo-tile with ports on its active side only (spec §2.3)."""

    index: int  # 0-6 (G1 is 0)
    name: str
    x: int
    y: int
    side: int  # its active side, pointing into the castle
    halves: dict[int, str]  # half-port -> area letter (active side only)
    path: bool
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Corner:
    """A corner tower of the wall: two track spaces; C0 never holds a wall tile (§2.4)."""

    index: int
    name: str
    spaces: tuple[int, int]
    stocked: bool
    vertex: tuple[int, int]  # grid-line intersection of the map, for drawing


def _ints(text: str) -> tuple[int, ...]:
    """``"0-3"`` or ``"6,7,0,1"`` -> port numbers, in the order written."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            lo, hi = part.split("-")
            out += range(int(lo), int(hi) + 1)
        else:
            out.append(int(part))
    return tuple(out)


def _rows(table: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in table.strip().splitlines()
    ]


def _parse_tile(index: int, row: list[str]) -> TileType:
    name, count, halves, paths, path_text, area_text, fountain_text, market_text = row
    areas = re.findall(r"([THC])\{([^}]*)\}", area_text)
    market_count, market_segment = 0, None
    if market_text != "—":
        number, segment_text = market_text.split(" in ")
        market_count, market_segment = int(number), segment_text.strip()
    segments = [
        Segment(
            "THC".index(letter),
            _ints(ports),
            markets=market_count if f"{letter}{{{ports}}}" == market_segment else 0,
        )
        for letter, ports in areas
    ]
    fountain_on = fountain_text[len("on ") :] if fountain_text != "—" else None
    for arm in re.findall(r"\{([^}]*)\}", path_text):
        slots = tuple(8 + SIDE_NAMES.index(side.strip()) for side in arm.split(","))
        segments.append(Segment(PATH, slots, fountain=f"{{{arm}}}" == fountain_on))
    return TileType(
        index=index,
        name=name,
        count=int(count),
        halves=halves,
        paths=tuple(flag == "P" for flag in paths),
        segments=tuple(segments),
        square="(square)" in path_text,
    )


def _parse_gate(index: int, row: list[str]) -> Gate:
    name, at, side, _touches, contents, path, segment_text, markets = row
    x, y = (int(v.replace("−", "-")) for v in at.strip("()").split(","))
    halves = {}
    for item in contents.split(","):
        port, letter = item.strip().split("=")
        halves[HALF_PORT_NAMES.index(port)] = letter
    segments = []
    for letter, ports in re.findall(r"([CTH])\{([^}]*)\}", segment_text):
        slots = tuple(HALF_PORT_NAMES.index(p.strip()) for p in ports.split(","))
        segments.append(Segment("THC".index(letter), slots))
    for ports in re.findall(r"path \{([^}]*)\}", segment_text):
        segments.append(Segment(PATH, (8 + SIDE_NAMES.index(ports.strip()),)))
    # the markets lie in the gate's (single) court segment that has them
    if int(markets):
        first = next(i for i, seg in enumerate(segments) if seg.kind == COURT)
        seg = segments[first]
        segments[first] = Segment(seg.kind, seg.slots, markets=int(markets))
    return Gate(
        index=index,
        name=name,
        x=x,
        y=y,
        side=SIDE_NAMES.index(side),
        halves=halves,
        path=path == "yes",
        segments=tuple(segments),
    )


def _parse_frame(text: str) -> tuple[list[tuple[int, int]], dict[int, tuple[int, int, int]]]:
    """Playable cells (row-major) and gates {number: (x, y, side)} from the map."""
    lines = [line for line in text.strip("\n").splitlines()[1:]]
    arrows = {"^": N, ">": E, "v": S, "<": W}
    cells = []
    gates = {}
    for line in lines:
        y, *marks = line.split()
        for x, mark in enumerate(marks, start=-1):
            if mark == ".":
                cells.append((x, int(y)))
            elif mark != "#":
                gates[int(mark[0])] = (x, int(y), arrows[mark[1]])
    return cells, gates


TILE_TYPES: tuple[TileType, ...] = tuple(
    _parse_tile(i, row) for i, row in enumerate(_rows(TILE_TABLE))
)
NUM_TILE_TYPES = len(TILE_TYPES)  # 46
GATES: tuple[Gate, ...] = tuple(_parse_gate(i, row) for i, row in enumerate(_rows(GATE_TABLE)))
NUM_GATES = len(GATES)  # 7
CORNERS: tuple[Corner, ...] = tuple(
    Corner(
        index=i,
        name=row[0],
        spaces=_ints(row[1]),
        stocked=row[2] == "yes",
        vertex=tuple(int(v) for v in row[3].strip("()").split(",")),
    )
    for i, row in enumerate(_rows(CORNER_TABLE))
)
#: The 13 stocked corners C1-C13 (index 0 is C1).
STOCKED_CORNERS: tuple[Corner, ...] = tuple(c for c in CORNERS if c.stocked)
NUM_STOCKED = len(STOCKED_CORNERS)  # 13
#: Track space -> index into STOCKED_CORNERS (C1 -> 0), or -1 for plain spaces and C0.
CORNER_AT_SPACE: tuple[int, ...] = tuple(
    next((i for i, c in enumerate(STOCKED_CORNERS) if space in c.spaces), -1)
    for space in range(TRACK_LENGTH)
)

PLAYABLE_CELLS, MAP_GATES = _parse_frame(FRAME_MAP)  # MAP_GATES: {k: (x, y, side)} of Gk
NUM_CELLS = len(PLAYABLE_CELLS)  # 76
CELL_INDEX = {xy: i for i, xy in enumerate(PLAYABLE_CELLS)}

#: The 60 tiles as type indices, T01 first (the shuffled draw stack is a permutation).
TILE_COPIES: tuple[int, ...] = tuple(t.index for t in TILE_TYPES for _ in range(t.count))
#: The 18 wall tiles as kinds.
WALL_TILES: tuple[int, ...] = tuple(k for k in WALL_KINDS for _ in range(WALL_COPIES))


def tile_index(name: str) -> int:
    """``"T18"`` -> 17."""
    for t in TILE_TYPES:
        if t.name == name:
            return t.index
    raise ValueError(f"unknown tile {name!r}; tiles are T01..T{NUM_TILE_TYPES:02d}")
