// The determinizer (see sample.h).
#include "games/carcassonne_castle/sample.h"

#include <algorithm>

namespace bge::carcassonne_castle {

State sample_state(const State& s, int /*seat*/, Pcg64& rng) {
    State out = s;  // the public facts; the hidden ones are dealt again below
    const int size = s.stack_size();
    // the pool: the stack's tiles by type (its public composition), then the unseen
    // wall-tile kinds ascending
    int unseen_walls[NUM_WALL_KINDS + 1];
    for (int kind = 0; kind <= NUM_WALL_KINDS; ++kind) unseen_walls[kind] = kind ? WALL_COPIES : 0;
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        for (const HeldTile& tile : s.held[seat]) unseen_walls[tile.kind] -= 1;
    }
    for (const UsedTile& tile : s.used) unseen_walls[tile.kind] -= 1;
    int pool[NUM_CASTLE_TILES + NUM_WALL_TILES];
    int n = 0;
    for (int type = 0; type < NUM_TILE_TYPES; ++type) {
        for (int i = 0; i < s.unseen[type]; ++i) pool[n++] = type;
    }
    for (int kind = 1; kind <= NUM_WALL_KINDS; ++kind) {
        for (int i = 0; i < unseen_walls[kind]; ++i) pool[n++] = kind;
    }
    // keys = rng.random(len(pool)); keys[size:] += 1; dealt = pool[keys.argsort()]
    double keys[NUM_CASTLE_TILES + NUM_WALL_TILES];
    int order[NUM_CASTLE_TILES + NUM_WALL_TILES];
    for (int i = 0; i < n; ++i) {
        keys[i] = rng.random();
        if (i >= size) keys[i] += 1.0;
        order[i] = i;
    }
    // distinct keys sort one way only; equal keys (a chance of about n^2 / 2^53) are kept
    // in pool order, where numpy's unstable quicksort may not keep them
    std::stable_sort(order, order + n, [&](int a, int b) { return keys[a] < keys[b]; });
    out.stack_head = 0;
    out.stack_end = size;
    for (int i = 0; i < size; ++i) out.stack[i] = uint8_t(pool[order[i]]);
    int next = size;
    for (int corner = 0; corner < NUM_STOCKED; ++corner) {
        if (s.corners[corner] == 0) continue;
        if (next < n) out.corners[corner] = uint8_t(pool[order[next++]]);
    }
    out.boxed.clear();
    while (next < n) out.boxed.push_back(uint8_t(pool[order[next++]]));
    return out;
}

}  // namespace bge::carcassonne_castle
