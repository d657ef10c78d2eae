// The castle: placed tiles, features, followers, and where a tile may go next; the same
// board as boardgame_envs/carcassonne_castle/castle.py, held as plain arrays (a Castle is a
// value: copying it clones it).
//
// Geometry (spec §2.2, §2.3). Locations are indices of the padded grid x = -1..10,
// y = -1..9 (12 columns, 11 rows, row-major): grid = (y + 1) * 12 + (x + 1); the 76
// playable cells and the 7 gates are locations, the rest is wall. Each location has 12
// ports (slots 0-11 of data.h); a port facing an empty playable cell is open. A port is
// addressed as slot * 132 + grid ("port index").
//
// Features (spec §6.1) are a union-find over segments: every segment of every placed tile
// and gate gets an id in order of placement (the gates first), and each root carries its
// feature's kind, open ports, followers per seat, locations, fountain and markets. Unions
// relabel eagerly (parent[s] is always the root, root_at[port] the root owning a port),
// the newer root joining the older one, exactly as the Python engine does: segment ids and
// roots are the same on both engines.
//
// Legal placements (spec §4 DP1): every empty cell carries a constraint key
// must << 4 | req (bit d of must: side d faces a tile or a gate's active side; bit d of
// req: a path is required there); FIT[tile][key] gives the rotations that fit.
#pragma once

#include <cstdint>

#include "games/carcassonne_castle/data.h"

namespace bge::carcassonne_castle {

constexpr int GRID_W = 12, GRID_H = 11;
constexpr int NUM_GRID = GRID_W * GRID_H;  // 132
constexpr int NUM_PORTS = NUM_SLOTS * NUM_GRID;  // 1584
constexpr int WALL = -1;

// Location codes: 0-183 a tile (4 * type + rotation), 184-190 a gate, EMPTY a playable
// cell, OUTSIDE a wall.
constexpr int NUM_TILE_CODES = 4 * NUM_TILE_TYPES;
constexpr int GATE_CODE = NUM_TILE_CODES;
constexpr int EMPTY = GATE_CODE + NUM_GATES;
constexpr int OUTSIDE = EMPTY + 1;
constexpr int NUM_CODES = OUTSIDE + 1;

constexpr int MAX_SEGMENTS = 512;  // 60 tiles x <= 8 segments + 15 gate segments < 511
constexpr int NO_SEGMENT = MAX_SEGMENTS - 1;  // no kind, no followers, size 0

// ORDER names of features (spec §11.1): 304 + slot of the just-placed tile, or 318 + the
// half-port of that tile facing the feature.
constexpr int SLOT_BASE = 304;
constexpr int PASS = 316;
constexpr int YES = 317;
constexpr int FACING_BASE = 318;
constexpr int NUM_ACTIONS = 326;
constexpr int NUM_PLACEMENTS = 4 * NUM_CELLS;  // 304
constexpr int MAX_COMPLETED = 20;

// Observation planes per location (channels 0-49, see encoding.cc).
constexpr int STATIC_PLANES = 50;
constexpr int P_PLAYABLE = 0, P_NOT_PLAYABLE = 1, P_GATE = 2, P_OCCUPIED = 3, P_AREA = 4,
              P_PATHS = 28, P_PATH_LINKS = 32, P_FOUNTAIN = 38, P_MARKETS = 42;

// The tables derived from data.h once (rotations, neighbours, fits, planes): immutable.
struct Tables {
    int cell_grid[NUM_CELLS];
    int grid_cell[NUM_GRID];  // -1 off the cells
    int gate_grid[NUM_GATES];
    int neighbor[NUM_CELLS][4];  // location across each side, or WALL
    int facing[NUM_SLOTS];  // the neighbour's slot a slot faces
    int slot_side[NUM_SLOTS];
    // per code (tiles rotated, then gates)
    int num_segments[NUM_CODES];
    SegmentSpec segments[NUM_CODES][8];
    int lowest[NUM_CODES][8];  // lowest slot of each segment, ascending
    int slot_segment[NUM_CODES][NUM_SLOTS];  // local segment owning a slot, -1 for none
    int paths[NUM_CODES];  // bit d: a path at side d
    uint8_t fit[NUM_TILE_TYPES][256];  // bit r: rotation r fits the constraint key
    int side_keys[NUM_TILE_CODES][4];  // key bits a tile gives the empty cell across side d
    int corner_at_space[TRACK_LENGTH];  // index into the 13 stocked corners, or -1
    float location_planes[NUM_CODES][STATIC_PLANES];
    // channels 0-49 of the empty castle (channel-major): an observation starts from it
    float empty_planes[STATIC_PLANES * NUM_GRID];
    int tile_copies[NUM_CASTLE_TILES];  // the 60 tiles as types, T01 first
    int wall_tiles[NUM_WALL_TILES];  // the 18 wall tiles as kinds
};

const Tables& tables();

struct Locs {  // a set of grid positions
    uint64_t w[3];
    bool has(int g) const { return (w[g >> 6] >> (g & 63)) & 1; }
    void add(int g) { w[g >> 6] |= uint64_t(1) << (g & 63); }
    int count() const {
        return __builtin_popcountll(w[0]) + __builtin_popcountll(w[1]) +
               __builtin_popcountll(w[2]);
    }
};

struct Placement {
    uint8_t cell, code, seat;
};

struct Castle {
    int16_t parent[MAX_SEGMENTS];
    int16_t next_seg[MAX_SEGMENTS];  // circular list of a feature's segments
    uint8_t seg_grid[MAX_SEGMENTS];  // location of each segment
    uint16_t seg_slots[MAX_SEGMENTS];  // its slots (bit set)
    uint8_t kind[MAX_SEGMENTS];
    int16_t open[MAX_SEGMENTS];  // open ports
    uint8_t count[NUM_PLAYERS][MAX_SEGMENTS];  // followers per seat
    int16_t size[MAX_SEGMENTS];  // distinct locations
    uint8_t fountain[MAX_SEGMENTS];
    uint8_t markets[MAX_SEGMENTS];
    Locs locs[MAX_SEGMENTS];
    int16_t seg_at[NUM_PORTS];  // port -> segment
    int16_t root_at[NUM_PORTS];  // port -> root
    uint8_t code[NUM_GRID];
    uint8_t key[NUM_CELLS];  // constraint key of each cell (0: not on the frontier)
    int num_segments;
    int8_t follower_seat[NUM_GRID];  // -1: no follower on the tile
    int8_t follower_slot[NUM_GRID];
    int num_placed;
    Placement history[NUM_CASTLE_TILES];

    // An empty castle: the gates stand, no tile is placed.
    static const Castle& empty();

    bool is_empty(int cell) const { return code[tables().cell_grid[cell]] == EMPTY; }
    int feature_at(int grid, int slot) const { return root_at[slot * NUM_GRID + grid]; }
    bool is_complete(int root) const {
        return (kind[root] == TOWER || kind[root] == HOUSE || kind[root] == PATH) &&
               open[root] == 0;
    }
    // Points of a tower, house or path if scored (spec §6.3).
    int value(int root) const {
        const int k = kind[root], s = size[root];
        if (k == TOWER || (k == PATH && fountain[root])) return 2 * s;
        return (k == HOUSE || k == PATH) ? s : 0;
    }
    bool placement_fits(int tile, int cell, int rotation) const {
        return (tables().fit[tile][key[cell]] >> rotation) & 1;
    }
    bool has_placement(int tile) const;
    // The feature an ORDER name names relative to the tile on cell (NO_SEGMENT if none).
    int feature_named(int cell, int name) const;
    // Lowest slots of the segments of the tile on cell whose feature has no follower.
    int open_segments(int cell, int out[8]) const;
    int largest_empty_region() const;
    // Grid positions of a feature's locations, ascending; returns how many.
    int locations(int root, uint8_t out[NUM_GRID]) const;

    // Lay a tile (legality is the caller's business); writes the ORDER names of the
    // features it completes, ascending, and returns how many.
    int place(int cell, int tile, int rotation, int seat, int names[MAX_COMPLETED]);
    void add_follower(int cell, int slot, int seat);
    // Take every follower off a feature; adds to supply per seat.
    void release(int root, int supply[NUM_PLAYERS]);

private:
    int add_segments(int grid, int code, int empty_sides);
    int unite(int a, int b);
    static Castle build_empty();
};

}  // namespace bge::carcassonne_castle
