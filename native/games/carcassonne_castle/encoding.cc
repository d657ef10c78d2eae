// The observation of one seat: float32[14275], the layout of
// boardgame_envs/carcassonne_castle/encoding.py (its module docstring has the tables):
// 105 channels over the 132 grid positions (channel * 132 + grid), then a vector of 415.
// Channels 0-97 describe the board (what stands on each location; per port the numbers of
// the feature owning it), 98-104 the keeps, the drawn tile's fits and the just-placed
// tile; the vector the rest of the seat's view, ego-centric ("me" = the observing seat).
#include <algorithm>
#include <cstring>

#include "games/carcassonne_castle/state.h"

namespace bge::carcassonne_castle {

namespace {

constexpr int MY_FOLLOWERS = 50, OPP_FOLLOWERS = 62, COMPLETE = 74, SIZE = 86;
constexpr int MY_KEEP = 98, OPP_KEEP = 99, LEGAL = 100, JUST_PLACED = 104;
constexpr int VECTOR = SPATIAL_SIZE;
constexpr int V_TILE = VECTOR + 0, V_PHASE = VECTOR + 46, V_PENDING_MINE = VECTOR + 51,
              V_PENDING_OPP = VECTOR + 71, V_DOUBLING = VECTOR + 91, V_SCORES = VECTOR + 111,
              V_MY_TRACK = VECTOR + 113, V_OPP_TRACK = VECTOR + 213, V_STOCKED = VECTOR + 313,
              V_MY_WALL = VECTOR + 326, V_MY_USABLE = VECTOR + 335, V_OPP_WALL = VECTOR + 344,
              V_UNSEEN_WALL = VECTOR + 353, V_SUPPLY = VECTOR + 362, V_KEEP_SIZES = VECTOR + 364,
              V_STACK_SIZE = VECTOR + 366, V_STACK_COUNTS = VECTOR + 367,
              V_EXTRA_TURN = VECTOR + 413, V_DISCARDS = VECTOR + 414;
constexpr int SCORE_CAP = 1000;

// Position 0-19 of an ORDER name in the pending-feature blocks, -1 for none.
int pending_position(int name) {
    if (name >= SLOT_BASE && name < PASS) return name - SLOT_BASE;
    if (name >= FACING_BASE && name < NUM_ACTIONS) return name - FACING_BASE + 12;
    return -1;
}

// A small count over its scale, rounded as numpy's uint8 / float32 division.
float scaled(int count, float divisor) { return float(count) / divisor; }

}  // namespace

void State::observation(int seat, float* out) const {
    const Tables& t = tables();
    // channels 50-97 and 98 on start at zero (only the ports of tiles and gates are set)
    std::memset(out + STATIC_PLANES * NUM_GRID, 0,
                sizeof(float) * (OBSERVATION_SIZE - STATIC_PLANES * NUM_GRID));
    const int me = seat, opp = 1 - seat;
    // channels 0-49: what stands on each location: the empty castle's, then the tiles'
    std::memcpy(out, t.empty_planes, sizeof t.empty_planes);
    for (int i = 0; i < castle.num_placed; ++i) {
        const int g = t.cell_grid[castle.history[i].cell];
        const float* planes = t.location_planes[castle.code[g]];
        for (int ch = 0; ch < STATIC_PLANES; ++ch) out[ch * NUM_GRID + g] = planes[ch];
    }
    // channels 50-97: at every port (slot * 132 + grid) of a tile or gate, the numbers of
    // the feature owning it: seat's followers / 6, the other's / 6, complete, size / 16
    auto write_ports = [&](int g) {
        const int code = castle.code[g];
        for (int slot = 0; slot < NUM_SLOTS; ++slot) {
            if (t.slot_segment[code][slot] < 0) continue;
            const int port = slot * NUM_GRID + g;
            const int root = castle.root_at[port];
            if (root == NO_SEGMENT) continue;
            out[MY_FOLLOWERS * NUM_GRID + port] = float(castle.count[me][root] / 6.0);
            out[OPP_FOLLOWERS * NUM_GRID + port] = float(castle.count[opp][root] / 6.0);
            out[COMPLETE * NUM_GRID + port] = castle.is_complete(root) ? 1.0f : 0.0f;
            out[SIZE * NUM_GRID + port] = float(castle.size[root] / 16.0);
        }
    };
    for (int i = 0; i < NUM_GATES; ++i) write_ports(t.gate_grid[i]);
    for (int i = 0; i < castle.num_placed; ++i) write_ports(t.cell_grid[castle.history[i].cell]);
    // channels 98-104
    if (keeps[me].has) {
        for (int g : keeps[me].locations) out[MY_KEEP * NUM_GRID + g] = 1;
    }
    if (keeps[opp].has) {
        for (int g : keeps[opp].locations) out[OPP_KEEP * NUM_GRID + g] = 1;
    }
    if (phase == PLACE && tile >= 0) {  // public for both seats
        const uint8_t* fit = t.fit[tile];
        for (int cell = 0; cell < NUM_CELLS; ++cell) {
            const int bits = fit[castle.key[cell]];
            for (int r = 0; r < 4; ++r) {
                out[(LEGAL + r) * NUM_GRID + t.cell_grid[cell]] = float((bits >> r) & 1);
            }
        }
    }
    if (last_cell >= 0 && last_cell < NUM_CELLS) {
        out[JUST_PLACED * NUM_GRID + t.cell_grid[last_cell]] = 1;
    }
    // the vector
    if (tile >= 0) out[V_TILE + tile] = 1;
    if (phase < NUM_PHASES) out[V_PHASE + phase] = 1;
    if (!groups[0].empty() || !groups[1].empty()) {
        const int mine = active == me ? 0 : 1;
        for (int name : groups[mine]) {
            const int p = pending_position(name);
            if (p >= 0) out[V_PENDING_MINE + p] = 1;
        }
        for (int name : groups[1 - mine]) {
            const int p = pending_position(name);
            if (p >= 0) out[V_PENDING_OPP + p] = 1;
        }
    }
    if (pending_position(doubling) >= 0) out[V_DOUBLING + pending_position(doubling)] = 1;
    out[V_SCORES] = float(double(std::min<int64_t>(scores[me], SCORE_CAP)) / 100);
    out[V_SCORES + 1] = float(double(std::min<int64_t>(scores[opp], SCORE_CAP)) / 100);
    out[V_MY_TRACK + scores[me] % TRACK_LENGTH] = 1;
    out[V_OPP_TRACK + scores[opp] % TRACK_LENGTH] = 1;
    for (int i = 0; i < NUM_STOCKED; ++i) out[V_STOCKED + i] = corners[i] ? 1.0f : 0.0f;
    int mine_held[NUM_WALL_KINDS + 1] = {}, opp_held[NUM_WALL_KINDS + 1] = {};
    int unseen_walls[NUM_WALL_KINDS + 1];
    std::fill(unseen_walls, unseen_walls + NUM_WALL_KINDS + 1, WALL_COPIES);
    auto valid = [](int kind) { return kind >= 1 && kind <= NUM_WALL_KINDS; };
    for (const HeldTile& h : held[me]) {
        if (valid(h.kind)) mine_held[h.kind] += 1, unseen_walls[h.kind] -= 1;
    }
    for (const HeldTile& h : held[opp]) {
        if (valid(h.kind)) opp_held[h.kind] += 1, unseen_walls[h.kind] -= 1;
    }
    for (const UsedTile& u : used) {
        if (valid(u.kind)) unseen_walls[u.kind] -= 1;
    }
    const int usable = usable_kinds(me);
    for (int k = 1; k <= NUM_WALL_KINDS; ++k) {
        out[V_MY_WALL + k - 1] = scaled(mine_held[k], 2);
        out[V_MY_USABLE + k - 1] = (usable >> k & 1) ? scaled(1, 2) : 0.0f;
        out[V_OPP_WALL + k - 1] = scaled(opp_held[k], 2);
        out[V_UNSEEN_WALL + k - 1] = scaled(unseen_walls[k], 2);
    }
    out[V_SUPPLY] = scaled(supply[me], 6);
    out[V_SUPPLY + 1] = scaled(supply[opp], 6);
    out[V_KEEP_SIZES] = scaled(keeps[me].has ? keeps[me].size : 0, 16);
    out[V_KEEP_SIZES + 1] = scaled(keeps[opp].has ? keeps[opp].size : 0, 16);
    out[V_STACK_SIZE] = scaled(stack_size(), 60);
    for (int type = 0; type < NUM_TILE_TYPES; ++type) {
        out[V_STACK_COUNTS + type] = scaled(unseen[type], 2);
    }
    out[V_EXTRA_TURN] = extra_turn ? 1.0f : 0.0f;
    out[V_DISCARDS] = scaled(discards.size(), 60);
}

}  // namespace bge::carcassonne_castle
