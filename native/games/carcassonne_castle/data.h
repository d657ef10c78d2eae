// Components of Carcassonne: The Castle (spec §2), the same tables as
// boardgame_envs/carcassonne_castle/data.py (which pastes the spec's rows). Much of it is
// STAND-IN (spec §2.3, §2.4, §2.6): the castle outline, the gates, the corner towers and the
// 60 tile faces; the Python module says which and why.
//
// Conventions (spec §2.2): cells (x, y), x eastward, y southward; sides N=0 E=1 S=2 W=3;
// 12 ports ("slots") per tile, clockwise from the north-west corner: half-ports 0-7
// (Na Nb Ea Eb Sa Sb Wa Wb) show an area kind, path ports 8-11 (N E S W) a path or not.
// A segment's slots are a 12-bit set (bit s = slot s). Rotation r (quarter turns
// clockwise) moves half-port k to (k + 2r) % 8 and path port 8 + d to 8 + (d + r) % 4.
#pragma once

#include <cstdint>

namespace bge::carcassonne_castle {

enum Side : int { N = 0, E = 1, S = 2, W = 3 };
constexpr int DX[4] = {0, 1, 0, -1};
constexpr int DY[4] = {-1, 0, 1, 0};
constexpr int NUM_SLOTS = 12;

enum Kind : uint8_t { TOWER = 0, HOUSE = 1, COURT = 2, PATH = 3, NO_KIND = 4 };
constexpr const char* KIND_NAMES[4] = {"tower", "house", "court", "path"};
constexpr const char* SLOT_NAMES[12] = {"Na", "Nb", "Ea", "Eb", "Sa", "Sb",
                                        "Wa", "Wb", "N",  "E",  "S",  "W"};

// -- players and constants (spec §2.1, §2.5) ------------------------------------------------
constexpr int NUM_PLAYERS = 2;
constexpr int FOLLOWERS_PER_PLAYER = 6;
constexpr int NUM_CASTLE_TILES = 60;
constexpr int TRACK_LENGTH = 100;
constexpr int KEEP_BONUS_TILES = 5;  // STAND-IN default of option keep_bonus_tiles
constexpr int WALL9_POINTS = 5;      // STAND-IN default of option wall9_points
constexpr int KEEP_BONUS_MAX = 76;   // option ranges (rules.py: KEEP_BONUS_RANGE, ...)
constexpr int WALL9_POINTS_MAX = 100;

// -- wall tiles (spec §2.5): kinds 1-9, two of each ------------------------------------------
constexpr int NUM_WALL_KINDS = 9;
constexpr int WALL_COPIES = 2;
constexpr int NUM_WALL_TILES = NUM_WALL_KINDS * WALL_COPIES;  // 18
enum WallKind : int {
    EXTRA_TURN = 1, TOWER_X2 = 2, HOUSE_X2 = 3,
    UNFINISHED_PATH = 4, UNFINISHED_TOWER = 5, UNFINISHED_HOUSE = 6,
    MARKET_X4 = 7, BIGGER_KEEP = 8, BONUS_POINTS = 9,
};
constexpr const char* WALL_NAMES[10] = {
    "",           "extra turn",       "tower x2",         "house x2",  "unfinished path",
    "unfinished tower", "unfinished house", "market x4", "bigger keep", "bonus points"};

// -- segments, tile types, gates -------------------------------------------------------------
struct SegmentSpec {
    Kind kind;
    uint16_t slots;  // bit s: slot s belongs to the segment
    uint8_t markets;
    uint8_t fountain;
};

// A castle tile type in base orientation (spec §2.6 [STAND-IN list; totals REAL]):
// name, copies, area letters of half-ports 0-7, paths at N E S W ('P' or '-'), whether its
// separate path arms meet at a square, then its segments (areas first, then paths).
struct TileSpec {
    const char* name;
    int count;
    const char* halves;
    const char* paths;
    bool square;
    int num_segments;
    SegmentSpec segments[8];
};

constexpr Kind T = TOWER, H = HOUSE, C = COURT, P = PATH;

// One row per tile type, as the spec's table rows (long lines kept, to check line by line):
// name, copies, halves, paths, square, segments {kind, slots, markets, fountain}.
constexpr int NUM_TILE_TYPES = 46;
constexpr TileSpec TILE_TYPES[NUM_TILE_TYPES] = {
    {"T01", 1, "HHHHHHHH", "----", false, 1, {{H, 0x0ff, 0, 0}}},
    {"T02", 1, "TTTTTTTT", "----", false, 1, {{T, 0x0ff, 0, 0}}},
    {"T03", 2, "CCCCCCCC", "----", false, 1, {{C, 0x0ff, 1, 0}}},
    {"T04", 1, "CCCCCCCC", "----", false, 1, {{C, 0x0ff, 0, 0}}},
    {"T05", 1, "CCCCCCCC", "----", false, 1, {{C, 0x0ff, 2, 0}}},
    {"T06", 2, "HHCCCCCC", "----", false, 2, {{H, 0x003, 0, 0}, {C, 0x0fc, 0, 0}}},
    {"T07", 2, "TTCCCCCC", "----", false, 2, {{T, 0x003, 0, 0}, {C, 0x0fc, 0, 0}}},
    {"T08", 2, "HHCCTTCC", "----", false, 4, {{H, 0x003, 0, 0}, {C, 0x00c, 0, 0}, {T, 0x030, 0, 0}, {C, 0x0c0, 0, 0}}},
    {"T09", 2, "HCCCCCCH", "----", false, 2, {{H, 0x081, 0, 0}, {C, 0x07e, 0, 0}}},
    {"T10", 2, "TCCHHCCT", "----", false, 4, {{T, 0x081, 0, 0}, {C, 0x006, 0, 0}, {H, 0x018, 0, 0}, {C, 0x060, 0, 0}}},
    {"T11", 1, "HHHHCCCC", "----", false, 2, {{H, 0x00f, 0, 0}, {C, 0x0f0, 1, 0}}},
    {"T12", 1, "HHHHCCCC", "----", false, 2, {{H, 0x00f, 0, 0}, {C, 0x0f0, 0, 0}}},
    {"T13", 1, "TTTTCCCC", "----", false, 2, {{T, 0x00f, 0, 0}, {C, 0x0f0, 0, 0}}},
    {"T14", 1, "HHHHCCHH", "----", false, 2, {{H, 0x0cf, 0, 0}, {C, 0x030, 0, 0}}},
    {"T15", 1, "HHHHTTTT", "----", false, 2, {{H, 0x00f, 0, 0}, {T, 0x0f0, 0, 0}}},
    {"T16", 1, "CCTTCCHH", "----", false, 4, {{C, 0x003, 0, 0}, {T, 0x00c, 0, 0}, {C, 0x030, 0, 0}, {H, 0x0c0, 0, 0}}},
    {"T17", 1, "CCCCCCTT", "----", false, 2, {{C, 0x03f, 1, 0}, {T, 0x0c0, 0, 0}}},
    {"T18", 2, "CCCCCCCC", "P-P-", false, 3, {{C, 0x01e, 0, 0}, {C, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T19", 1, "CCCCCCCC", "P-P-", false, 3, {{C, 0x01e, 0, 0}, {C, 0x0e1, 0, 0}, {P, 0x500, 0, 1}}},
    {"T20", 2, "HCCCCHHH", "P-P-", false, 3, {{C, 0x01e, 0, 0}, {H, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T21", 2, "HTTTTHHH", "P-P-", false, 3, {{T, 0x01e, 0, 0}, {H, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T22", 1, "TCCCCTTT", "P-P-", false, 3, {{C, 0x01e, 1, 0}, {T, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T23", 1, "HHHHHHHH", "P-P-", false, 3, {{H, 0x01e, 0, 0}, {H, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T24", 1, "HCCCCHHH", "P-P-", false, 3, {{C, 0x01e, 0, 0}, {H, 0x0e1, 0, 0}, {P, 0x500, 0, 1}}},
    {"T25", 1, "CHHHHCCC", "P-P-", false, 3, {{H, 0x01e, 0, 0}, {C, 0x0e1, 1, 0}, {P, 0x500, 0, 0}}},
    {"T26", 1, "TTTTTTTT", "P-P-", false, 3, {{T, 0x01e, 0, 0}, {T, 0x0e1, 0, 0}, {P, 0x500, 0, 0}}},
    {"T27", 1, "CTTTTCCC", "P-P-", false, 3, {{T, 0x01e, 0, 0}, {C, 0x0e1, 0, 0}, {P, 0x500, 0, 1}}},
    {"T28", 2, "CCCCCCCC", "PP--", false, 3, {{C, 0x006, 0, 0}, {C, 0x0f9, 0, 0}, {P, 0x300, 0, 0}}},
    {"T29", 1, "HCCHHHHH", "PP--", false, 3, {{C, 0x006, 0, 0}, {H, 0x0f9, 0, 0}, {P, 0x300, 0, 0}}},
    {"T30", 1, "TCCTTTTT", "PP--", false, 3, {{C, 0x006, 0, 0}, {T, 0x0f9, 0, 0}, {P, 0x300, 0, 0}}},
    {"T31", 1, "CCCCCCCC", "PP--", false, 3, {{C, 0x006, 0, 0}, {C, 0x0f9, 1, 0}, {P, 0x300, 0, 1}}},
    {"T32", 2, "CHHCCCCC", "PP--", false, 3, {{H, 0x006, 0, 0}, {C, 0x0f9, 0, 0}, {P, 0x300, 0, 0}}},
    {"T33", 1, "CTTCCCCC", "PP--", false, 3, {{T, 0x006, 0, 0}, {C, 0x0f9, 1, 0}, {P, 0x300, 0, 0}}},
    {"T34", 1, "HCCHHHHH", "PP--", false, 3, {{C, 0x006, 1, 0}, {H, 0x0f9, 0, 0}, {P, 0x300, 0, 0}}},
    {"T35", 2, "HHCCCCCC", "--P-", false, 4, {{H, 0x003, 0, 0}, {C, 0x01c, 0, 0}, {C, 0x0e0, 0, 0}, {P, 0x400, 0, 0}}},
    {"T36", 2, "TTCCCCCC", "--P-", false, 4, {{T, 0x003, 0, 0}, {C, 0x01c, 0, 0}, {C, 0x0e0, 0, 0}, {P, 0x400, 0, 0}}},
    {"T37", 1, "HHHHCCHH", "--P-", false, 4, {{H, 0x0cf, 0, 0}, {C, 0x010, 0, 0}, {C, 0x020, 0, 0}, {P, 0x400, 0, 0}}},
    {"T38", 1, "TTCCCCCC", "--P-", false, 4, {{T, 0x003, 0, 0}, {C, 0x01c, 0, 0}, {C, 0x0e0, 0, 0}, {P, 0x400, 0, 1}}},
    {"T39", 1, "HHCCCCHH", "--P-", false, 4, {{H, 0x0c3, 0, 0}, {C, 0x01c, 0, 0}, {C, 0x020, 0, 0}, {P, 0x400, 0, 0}}},
    {"T40", 1, "HHCCCCCC", "--P-", false, 4, {{H, 0x003, 0, 0}, {C, 0x01c, 0, 0}, {C, 0x0e0, 0, 0}, {P, 0x400, 0, 1}}},
    {"T41", 2, "HHCCCCCC", "-PPP", true, 8, {{H, 0x003, 0, 0}, {C, 0x004, 0, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {C, 0x080, 0, 0}, {P, 0x200, 0, 0}, {P, 0x400, 0, 0}, {P, 0x800, 0, 0}}},
    {"T42", 1, "TTCCCCCC", "-PPP", true, 8, {{T, 0x003, 0, 0}, {C, 0x004, 0, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {C, 0x080, 0, 0}, {P, 0x200, 0, 0}, {P, 0x400, 0, 0}, {P, 0x800, 0, 0}}},
    {"T43", 1, "CCCCCCCC", "PPPP", true, 8, {{C, 0x006, 0, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {C, 0x081, 0, 0}, {P, 0x100, 0, 0}, {P, 0x200, 0, 0}, {P, 0x400, 0, 0}, {P, 0x800, 0, 0}}},
    {"T44", 1, "HHCCCCCC", "-PPP", false, 6, {{H, 0x003, 0, 0}, {C, 0x004, 0, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {C, 0x080, 0, 0}, {P, 0xe00, 0, 0}}},
    {"T45", 1, "CCCCCCCC", "PPPP", false, 5, {{C, 0x006, 0, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {C, 0x081, 0, 0}, {P, 0xf00, 0, 1}}},
    {"T46", 1, "CCCCCCCC", "-PPP", false, 4, {{C, 0x087, 1, 0}, {C, 0x018, 0, 0}, {C, 0x060, 0, 0}, {P, 0xe00, 0, 0}}},
};

// A start space (spec §2.3 [STAND-IN contents]): a pseudo-tile at (x, y) with ports on its
// active side only, that side pointing into the castle.
struct GateSpec {
    const char* name;
    int x, y;
    int side;
    bool path;
    int num_segments;
    SegmentSpec segments[3];
};

constexpr int NUM_GATES = 7;
constexpr GateSpec GATES[NUM_GATES] = {
    {"G1", 4, -1, 2, true, 3, {{C, 0x010, 0, 0}, {C, 0x020, 0, 0}, {P, 0x400, 0, 0}}},
    {"G2", 10, 3, 3, false, 1, {{C, 0x0c0, 1, 0}}},
    {"G3", 7, 9, 0, true, 3, {{C, 0x001, 0, 0}, {C, 0x002, 0, 0}, {P, 0x100, 0, 0}}},
    {"G4", 4, 7, 0, false, 1, {{C, 0x003, 0, 0}}},
    {"G5", 1, 9, 0, true, 3, {{C, 0x001, 0, 0}, {C, 0x002, 0, 0}, {P, 0x100, 0, 0}}},
    {"G6", -1, 5, 1, true, 3, {{C, 0x004, 0, 0}, {C, 0x008, 0, 0}, {P, 0x200, 0, 0}}},
    {"G7", 1, 1, 2, false, 1, {{C, 0x030, 0, 0}}},
};

// -- the castle frame (spec §2.3 [STAND-IN]): the 76 playable cells, row-major ---------------
constexpr int NUM_CELLS = 76;
struct XY {
    int x, y;
};
constexpr XY PLAYABLE_CELLS[NUM_CELLS] = {
    {2, 0}, {3, 0}, {4, 0}, {5, 0}, {6, 0},
    {2, 1}, {3, 1}, {4, 1}, {5, 1}, {6, 1}, {7, 1}, {8, 1}, {9, 1},
    {0, 2}, {1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}, {8, 2}, {9, 2},
    {0, 3}, {1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 3}, {8, 3}, {9, 3},
    {0, 4}, {1, 4}, {2, 4}, {3, 4}, {4, 4}, {5, 4}, {6, 4}, {7, 4}, {8, 4}, {9, 4},
    {0, 5}, {1, 5}, {2, 5}, {3, 5}, {4, 5}, {5, 5}, {6, 5}, {7, 5}, {8, 5}, {9, 5},
    {0, 6}, {1, 6}, {2, 6}, {3, 6}, {4, 6}, {5, 6}, {6, 6}, {7, 6}, {8, 6},
    {0, 7}, {1, 7}, {2, 7}, {5, 7}, {6, 7}, {7, 7}, {8, 7},
    {0, 8}, {1, 8}, {2, 8}, {5, 8}, {6, 8}, {7, 8}, {8, 8},
};

// -- the score track's corner towers (spec §2.4 [STAND-IN positions]) ------------------------
// The 13 stocked corners C1..C13, each two track spaces (C0 at 0, 1 never holds a tile).
constexpr int NUM_STOCKED = 13;
constexpr int STOCKED_SPACES[NUM_STOCKED][2] = {
    {11, 12}, {15, 16}, {22, 23}, {33, 34}, {37, 38}, {44, 45}, {53, 54},
    {58, 59}, {63, 64}, {68, 69}, {75, 76}, {89, 90}, {95, 96}};

}  // namespace bge::carcassonne_castle
