// Tahiti's components as tables (spec §2, §3), the twin of boardgame_envs/tahiti/data.py, and
// the grid and action constants of rules.py.
//
// Conventions (as in data.py):
//   goods g: coconut 0, banana 1, taro 2, spice 3, fish 4; crops are 0-3;
//   hex positions in axial (q, r), home at (0, 0); direction d = 0..5 is E, NE, NW, W, SW, SE,
//   opposite (d + 3) % 6; cell = (q + 9) * 19 + (r + 9) for |q|, |r|, |q + r| <= 9;
//   tile ids: 0 home, 1-18 islands I01-I18, 19-21 water W1-W3;
//   rotation rho: a tile's base edge e faces world direction (e + rho) % 6.
// Values marked STAND-IN are the spec's own replacements for printed data.
#pragma once

#include <cstdint>

namespace bge::tahiti {

// -- goods (§2.2) --------------------------------------------------------------------------
constexpr int COCONUT = 0, BANANA = 1, TARO = 2, SPICE = 3, FISH = 4;
constexpr int NUM_GOODS = 5;
constexpr const char* GOODS_NAMES[NUM_GOODS] = {"coconut", "banana", "taro", "spice", "fish"};
constexpr char GOODS_LETTERS[NUM_GOODS] = {'C', 'B', 'T', 'S', 'F'};
constexpr int CUBES_PER_KIND = 16;
constexpr int TOTAL_CUBES = CUBES_PER_KIND * NUM_GOODS;

// Cubes of each kind removed before setup, by player count (§2.12).
constexpr int cubes_removed_per_kind(int num_players) {
    return num_players == 2 ? 4 : num_players == 3 ? 2 : 0;
}

// -- hex geometry (§2.3) -------------------------------------------------------------------
constexpr int DIRECTION_DQ[6] = {1, 1, 0, -1, -1, 0};
constexpr int DIRECTION_DR[6] = {0, -1, -1, 0, 1, 1};
constexpr const char* DIRECTION_NAMES[6] = {"E", "NE", "NW", "W", "SW", "SE"};
constexpr int GRID_RADIUS = 9;
constexpr int GRID_SIDE = 2 * GRID_RADIUS + 1;  // 19
constexpr int NUM_CELLS = GRID_SIDE * GRID_SIDE;  // 361

// -- tiles ---------------------------------------------------------------------------------
constexpr int HOME = 0;
constexpr int NUM_ISLANDS = 18;  // ids 1..18
constexpr int FIRST_WATER = 19;  // W1, W2, W3 = 19, 20, 21
constexpr int NUM_TILES = 22;

constexpr bool is_island(int tile) { return tile >= 1 && tile <= NUM_ISLANDS; }
constexpr bool is_water(int tile) { return tile >= FIRST_WATER && tile < NUM_TILES; }

// Island tiles (§2.5) [STAND-IN list]: the crops of goods spaces 0 and 1, and the two base reef
// edges; index 0 (home) unused.
constexpr int ISLAND_SLOTS[NUM_ISLANDS + 1][2] = {
    {-1, -1},
    {COCONUT, BANANA}, {TARO, SPICE}, {COCONUT, TARO}, {BANANA, SPICE},    // I01-I04 (A)
    {COCONUT, SPICE},  {BANANA, TARO}, {COCONUT, BANANA},                  // I05-I07 (B)
    {COCONUT, BANANA}, {TARO, SPICE},  {TARO, SPICE},  {COCONUT, TARO},    // I08-I11
    {COCONUT, TARO},   {BANANA, SPICE}, {BANANA, SPICE}, {COCONUT, SPICE},  // I12-I15
    {COCONUT, SPICE},  {BANANA, TARO}, {BANANA, TARO},                     // I16-I18
};
constexpr int ISLAND_REEF_EDGES[NUM_ISLANDS + 1][2] = {
    {-1, -1}, {0, 1}, {0, 2}, {0, 3}, {0, 1}, {0, 2}, {0, 3}, {0, 2}, {0, 3}, {0, 1},
    {0, 3},   {0, 1}, {0, 2}, {0, 2}, {0, 3}, {0, 1}, {0, 3}, {0, 1}, {0, 2},
};

// Home side: "A" (2 and 4 players) or "B" (3 players), as an index 0 / 1.
constexpr int home_side(int num_players) { return num_players == 3 ? 1 : 0; }
constexpr const char* SIDE_NAMES[2] = {"A", "B"};
// Home tile reef edges in world directions (§2.4) [STAND-IN]: A {1, 2, 4, 5}, B {1, 3, 5}.
constexpr int HOME_REEFS[2] = {(1 << 1) | (1 << 2) | (1 << 4) | (1 << 5),
                               (1 << 1) | (1 << 3) | (1 << 5)};

// The fixed starting layout (§3 step 3) [STAND-IN]: tile id, q, r, rotation, by side.
struct StartTile {
    int tile, q, r, rotation;
};
constexpr int START_TILES = 6;
constexpr StartTile START_LAYOUT[2][START_TILES] = {
    {{19, 1, 0, 0}, {20, -1, 0, 0}, {1, 1, -1, 4}, {2, 0, -1, 5}, {3, -1, 1, 1}, {4, 0, 1, 2}},
    {{19, 1, 0, 0}, {20, 0, -1, 0}, {21, -1, 1, 0}, {5, 1, -1, 4}, {6, -1, 0, 0}, {7, 0, 1, 2}},
};
// Islands of the starting layout of a side (side A: 4, side B: 3); the rest are dealt.
constexpr int count_start_islands(int side) {
    int count = 0;
    for (const StartTile& t : START_LAYOUT[side]) count += is_island(t.tile) ? 1 : 0;
    return count;
}

constexpr const char* TILE_NAMES[NUM_TILES] = {
    "HOME", "I01", "I02", "I03", "I04", "I05", "I06", "I07", "I08", "I09", "I10",
    "I11",  "I12", "I13", "I14", "I15", "I16", "I17", "I18", "W1",  "W2",  "W3",
};

// World reef edges of a placed tile as a 6-bit mask (bit d: a reef on world edge d).
constexpr int reef_mask(int tile, int rotation, int side) {
    if (tile == HOME) return HOME_REEFS[side];
    if (!is_island(tile)) return 0;
    int mask = 0;
    for (int e : ISLAND_REEF_EDGES[tile]) mask |= 1 << ((e + rotation) % 6);
    return mask;
}

// -- canoe (§2.8) --------------------------------------------------------------------------
constexpr int CANOE_CAPACITY = 5;
constexpr int MAX_PADDLES = 4;
// Uncovered paddles with `cubes` on the canoe: 4, 4, 4, 3, 2, 1.
constexpr int paddles(int cubes) { return MAX_PADDLES - (cubes > 2 ? cubes - 2 : 0); }

// -- harvest chart (§2.9) [STAND-IN]: SB(c) = c (c + 5) / 2 -----------------------------------
constexpr int set_bonus(int c) { return c * (c + 5) / 2; }

// -- favourite-crop tiles (§2.10) [STAND-IN pairs]; index 0 unused -------------------------
constexpr int NUM_FAVOURITES = 7;
constexpr int FAVOURITES[NUM_FAVOURITES + 1][2] = {
    {-1, -1},       {COCONUT, BANANA}, {BANANA, TARO},  {TARO, SPICE},
    {SPICE, COCONUT}, {COCONUT, TARO}, {BANANA, SPICE}, {COCONUT, SPICE},
};
// The favourite tiles in play by player count: 2-3 players F5-F7, 4 players F1-F4.
constexpr int favourite_set_size(int num_players) { return num_players == 4 ? 4 : 3; }
constexpr int favourite_set_first(int num_players) { return num_players == 4 ? 1 : 5; }
constexpr int FAVOURITE_FIRST = 5;
constexpr int FAVOURITE_SECOND = 3;

// -- depletion tokens (§2.11) [STAND-IN mix] ------------------------------------------------
constexpr int PLAIN = 1, FISHING = 2;  // 0: no token
constexpr const char* TOKEN_NAMES[3] = {"", "plain", "fishing"};
constexpr int TOKEN_COUNTS[3] = {0, 12, 6};
constexpr int NUM_TOKENS = 18;
constexpr int FISH_DRAWS = 2;
constexpr int FISH_DRAWS_WITH_BONUS = 3;

// -- turn structure (§4, §6) ------------------------------------------------------------------
constexpr int BOUNTY_WITH_HAUMEA = 3;
constexpr int BOUNTY_WITHOUT_HAUMEA = 2;
constexpr int UNDEPLETED_AT_END = 4;

// -- action indices (spec §11.2, rules.py) -----------------------------------------------------
constexpr int PASS = 6;  // Haumea stays / END the action step
constexpr int END = PASS;
constexpr int STACK_A = 7, STACK_B = 8;
constexpr int PLACE_BASE = 9;  // 9 + 6 d + rho
constexpr int ISLAND_BASE = 44;  // island k is action 44 + k
constexpr int HARVEST_BASE = 63;
constexpr int FISH_ACTION = 67;
constexpr int DELIVER = 68;
constexpr int NUM_ACTIONS = 69;

// -- phases (decision types, §11.1), in the encoding's order ------------------------------------
enum class Phase : uint8_t {
    HaumeaMove, HaumeaStep, Stack, Place, BountyPlace, Action, Deplete, GameOver
};
constexpr int NUM_PHASES = 8;
constexpr const char* PHASE_NAMES[NUM_PHASES] = {"HAUMEA_MOVE",  "HAUMEA_STEP", "STACK",
                                                 "PLACE",        "BOUNTY_PLACE", "ACTION",
                                                 "DEPLETE",      "GAME_OVER"};

// -- the grid --------------------------------------------------------------------------------
// The cell of axial (q, r), or -1 outside the radius-9 hexagon.
constexpr int cell_of(int q, int r) {
    const int s = q + r;
    if (q < -GRID_RADIUS || q > GRID_RADIUS || r < -GRID_RADIUS || r > GRID_RADIUS ||
        s < -GRID_RADIUS || s > GRID_RADIUS) {
        return -1;
    }
    return (q + GRID_RADIUS) * GRID_SIDE + (r + GRID_RADIUS);
}
constexpr int cell_q(int cell) { return cell / GRID_SIDE - GRID_RADIUS; }
constexpr int cell_r(int cell) { return cell % GRID_SIDE - GRID_RADIUS; }
constexpr int HOME_CELL = cell_of(0, 0);

struct Grid {
    int16_t neighbours[NUM_CELLS][6];  // the cell in direction d, or -1 outside the hexagon
    bool valid[NUM_CELLS];              // within hex distance 9 of home
};

constexpr Grid make_grid() {
    Grid grid{};
    for (int c = 0; c < NUM_CELLS; ++c) {
        const int q = cell_q(c), r = cell_r(c);
        grid.valid[c] = cell_of(q, r) >= 0;
        for (int d = 0; d < 6; ++d) {
            grid.neighbours[c][d] = static_cast<int16_t>(cell_of(q + DIRECTION_DQ[d],
                                                                 r + DIRECTION_DR[d]));
        }
    }
    return grid;
}
inline constexpr Grid GRID = make_grid();

constexpr int abs_int(int x) { return x < 0 ? -x : x; }
constexpr int cell_distance(int a, int b) {
    const int dq = cell_q(a) - cell_q(b), dr = cell_r(a) - cell_r(b);
    return (abs_int(dq) + abs_int(dr) + abs_int(dq + dr)) / 2;
}

}  // namespace bge::tahiti
