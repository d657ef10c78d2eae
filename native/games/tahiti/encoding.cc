// Tahiti: the observation tensor of one seat, float for float as
// boardgame_envs/tahiti/encoding.py writes it (its docstring holds the layout tables):
// 28 board planes of 19 x 19 cells (plane * 361 + cell), then 399 vector features.
// Relative seat 0 is the observer, 1 the next seat, and so on.
#include <algorithm>

#include "games/tahiti/state.h"

namespace bge::tahiti {

namespace {

constexpr int VALID = 0, PRESENT = 1, HOME_PLANE = 2, WATER_PLANE = 3, ISLAND_PLANE = 4;
constexpr int SPACE_PLANES = 5, CUBE_PLANES = 9, TOKEN_PLANE = 13, FISHING_PLANE = 14;
constexpr int REEF_PLANES = 15, HAUMEA_PLANE = 21, EDGE_PLANE = 22, PLACEMENT_PLANE = 23;
constexpr int CANOE_PLANES = 24;

constexpr int PHASE = VECTOR + 0;
constexpr int PLAYER_COUNT = VECTOR + 8;
constexpr int FIRST_PLAYER = VECTOR + 11;
constexpr int ACTIVE_PLAYER = VECTOR + 15;
constexpr int HAUMEA_IN_PLAY = VECTOR + 19;
constexpr int STACK_SIZES = VECTOR + 20;
constexpr int STACK_TOPS = VECTOR + 22;
constexpr int HAND_TILE = VECTOR + 58;
constexpr int UNPLACED = VECTOR + 76;
constexpr int ISLAND_FEATURES = VECTOR + 94;
constexpr int ISLAND_STRIDE = 13;
constexpr int PENDING_CUBE = VECTOR + 328;
constexpr int BOUNTY_LEFT = VECTOR + 333;
constexpr int REVEALED_TOKEN = VECTOR + 338;
constexpr int TAKEN = VECTOR + 340;
constexpr int PADDLES = VECTOR + 341;
constexpr int CARGO = VECTOR + 342;
constexpr int CHARTS = VECTOR + 362;
constexpr int FAVOURITE = VECTOR + 382;
constexpr int BAG = VECTOR + 389;
constexpr int TOKENS_LEFT = VECTOR + 395;
constexpr int END_TRIGGERED = VECTOR + 397;
constexpr int TURNS_LEFT = VECTOR + 398;
constexpr int MAX_SEATS = 4;

constexpr int plane(int p, int cell) { return p * NUM_CELLS + cell; }

// A count scaled as the Python encoding scales it: the float32 scale 1 / divisor, the product
// taken in double precision (exact for small counts) and rounded once to float32.
float scaled(int count, int divisor) {
    const float scale = static_cast<float>(1.0 / divisor);
    return static_cast<float>(static_cast<double>(count) * static_cast<double>(scale));
}

}  // namespace

void encode_observation(const State& s, int seat, float* out) {
    std::fill(out, out + OBSERVATION_SIZE, 0.0f);
    const int n = s.num_players;
    const bool live = s.phase != Phase::GameOver;

    // -- the board planes ------------------------------------------------------------------
    for (int c = 0; c < NUM_CELLS; ++c) {
        if (GRID.valid[c]) out[plane(VALID, c)] = 1.0f;
    }
    for (int tile = 0; tile < NUM_TILES; ++tile) {
        const int cell = s.tile_cell[tile];
        if (cell < 0) continue;
        out[plane(PRESENT, cell)] = 1.0f;
        if (s.edge[tile]) out[plane(EDGE_PLANE, cell)] = 1.0f;
        for (int d = 0; d < 6; ++d) {
            if (s.reefs[tile] >> d & 1) out[plane(REEF_PLANES + d, cell)] = 1.0f;
        }
        if (tile == HOME) {
            out[plane(HOME_PLANE, cell)] = 1.0f;
        } else if (is_water(tile)) {
            out[plane(WATER_PLANE, cell)] = 1.0f;
        } else {
            out[plane(ISLAND_PLANE, cell)] = 1.0f;
            const int base = ISLAND_FEATURES + (tile - 1) * ISLAND_STRIDE;
            out[base] = 1.0f;
            out[base + 1] = static_cast<float>(cell_q(cell) / static_cast<double>(GRID_RADIUS));
            out[base + 2] = static_cast<float>(cell_r(cell) / static_cast<double>(GRID_RADIUS));
            for (int slot = 0; slot < 2; ++slot) {
                const int crop = ISLAND_SLOTS[tile][slot];
                out[plane(SPACE_PLANES + crop, cell)] = 1.0f;
                out[base + 3 + crop] = 1.0f;
                if (s.island_cubes[tile] >> slot & 1) {
                    out[plane(CUBE_PLANES + crop, cell)] = 1.0f;
                    out[base + 7 + crop] = 1.0f;
                }
            }
            const int token = s.tokens[tile];
            if (token) {
                out[plane(TOKEN_PLANE, cell)] = 1.0f;
                out[base + 11] = 1.0f;
                if (token == FISHING) {
                    out[plane(FISHING_PLANE, cell)] = 1.0f;
                    out[base + 12] = 1.0f;
                }
            }
        }
    }
    if (s.haumea >= 0) {
        out[plane(HAUMEA_PLANE, s.haumea)] = 1.0f;
        if (s.phase == Phase::Place) {  // public: the same for every seat
            int dirs[6];
            const int count = s.placement_directions(dirs);
            for (int i = 0; i < count; ++i) {
                out[plane(PLACEMENT_PLANE, GRID.neighbours[s.haumea][dirs[i]])] = 1.0f;
            }
        }
    }
    for (int rel = 0; rel < n; ++rel) {
        out[plane(CANOE_PLANES + rel, s.canoes[(seat + rel) % n])] = 1.0f;
    }

    // -- the vector --------------------------------------------------------------------------
    out[PHASE + static_cast<int>(s.phase)] = 1.0f;
    out[PLAYER_COUNT + n - 2] = 1.0f;
    out[FIRST_PLAYER + (s.first_player - seat + n) % n] = 1.0f;
    if (live) out[ACTIVE_PLAYER + (s.turn_player - seat + n) % n] = 1.0f;
    if (s.haumea >= 0) out[HAUMEA_IN_PLAY] = 1.0f;
    out[STACK_SIZES] = scaled(s.stack_size[0], 8);
    out[STACK_SIZES + 1] = scaled(s.stack_size[1], 8);
    if (s.stack_size[0]) out[STACK_TOPS + s.stacks[0][0] - 1] = 1.0f;
    if (s.stack_size[1]) out[STACK_TOPS + NUM_ISLANDS + s.stacks[1][0] - 1] = 1.0f;
    if (s.hand_tile) out[HAND_TILE + s.hand_tile - 1] = 1.0f;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < s.stack_size[i]; ++j) out[UNPLACED + s.stacks[i][j] - 1] = 1.0f;
    }
    if (s.bounty_size) {
        out[PENDING_CUBE + s.bounty[0]] = 1.0f;
        int left[NUM_GOODS] = {0, 0, 0, 0, 0};
        for (int i = 1; i < s.bounty_size; ++i) ++left[s.bounty[i]];
        for (int g = 0; g < NUM_GOODS; ++g) out[BOUNTY_LEFT + g] = scaled(left[g], 2);
    }
    if (s.revealed_token) out[REVEALED_TOKEN + s.revealed_token - 1] = 1.0f;
    out[TAKEN] = scaled(live ? s.taken : 0, 4);
    out[PADDLES] = scaled(live ? s.active_paddles() : 0, 4);
    for (int rel = 0; rel < n; ++rel) {
        const int other = (seat + rel) % n;
        for (int g = 0; g < NUM_GOODS; ++g) {
            out[CARGO + rel * NUM_GOODS + g] = scaled(s.cargo[other][g], CANOE_CAPACITY);
            out[CHARTS + rel * NUM_GOODS + g] = scaled(s.charts[other][g], CUBES_PER_KIND);
        }
    }
    const int favourite = s.favourites[seat];
    if (favourite >= 1 && favourite <= NUM_FAVOURITES) out[FAVOURITE + favourite - 1] = 1.0f;
    int total = 0;
    for (int g = 0; g < NUM_GOODS; ++g) {
        out[BAG + g] = scaled(s.bag[g], CUBES_PER_KIND);
        total += s.bag[g];
    }
    out[BAG + NUM_GOODS] = scaled(total, TOTAL_CUBES);
    out[TOKENS_LEFT] = scaled(s.tokens_left(PLAIN), TOKEN_COUNTS[PLAIN]);
    out[TOKENS_LEFT + 1] = scaled(s.tokens_left(FISHING), TOKEN_COUNTS[FISHING]);
    if (s.end_triggered) out[END_TRIGGERED] = 1.0f;
    out[TURNS_LEFT] = scaled(s.turns_left(), MAX_SEATS - 1);
}

}  // namespace bge::tahiti
