// The castle's tables and changes (see castle.h).
#include "games/carcassonne_castle/castle.h"

#include <algorithm>
#include <cstring>

namespace bge::carcassonne_castle {

namespace {

int grid_of(int x, int y) { return (y + 1) * GRID_W + (x + 1); }

int rotate_slot(int slot, int r) { return slot < 8 ? (slot + 2 * r) % 8 : 8 + (slot - 8 + r) % 4; }

int kind_of_letter(char letter) { return letter == 'T' ? TOWER : letter == 'H' ? HOUSE : COURT; }

Tables build_tables() {
    Tables t;
    std::memset(&t, 0, sizeof t);
    for (int g = 0; g < NUM_GRID; ++g) t.grid_cell[g] = -1;
    for (int c = 0; c < NUM_CELLS; ++c) {
        t.cell_grid[c] = grid_of(PLAYABLE_CELLS[c].x, PLAYABLE_CELLS[c].y);
        t.grid_cell[t.cell_grid[c]] = c;
    }
    for (int i = 0; i < NUM_GATES; ++i) t.gate_grid[i] = grid_of(GATES[i].x, GATES[i].y);
    for (int c = 0; c < NUM_CELLS; ++c) {
        for (int d = 0; d < 4; ++d) {
            const int nx = PLAYABLE_CELLS[c].x + DX[d], ny = PLAYABLE_CELLS[c].y + DY[d];
            const int g = grid_of(nx, ny);
            int out = WALL;
            if (t.grid_cell[g] >= 0) {
                out = g;
            } else {
                for (const GateSpec& gate : GATES) {
                    if (gate.x == nx && gate.y == ny && gate.side == (d + 2) % 4) out = g;
                }
            }
            t.neighbor[c][d] = out;
        }
    }
    for (int k = 0; k < 8; ++k) {
        t.facing[k] = k % 2 == 0 ? (k + 5) % 8 : (k + 3) % 8;
        t.slot_side[k] = k / 2;
    }
    for (int d = 0; d < 4; ++d) {
        t.facing[8 + d] = 8 + (d + 2) % 4;
        t.slot_side[8 + d] = d;
    }
    // per code: segments (rotated), paths, area letters of the half-ports
    char halves[NUM_CODES][8];
    std::memset(halves, ' ', sizeof halves);
    for (int type = 0; type < NUM_TILE_TYPES; ++type) {
        const TileSpec& tile = TILE_TYPES[type];
        for (int r = 0; r < 4; ++r) {
            const int code = 4 * type + r;
            t.num_segments[code] = tile.num_segments;
            for (int i = 0; i < tile.num_segments; ++i) {
                SegmentSpec seg = tile.segments[i];
                uint16_t slots = 0;
                for (int s = 0; s < NUM_SLOTS; ++s) {
                    if ((seg.slots >> s) & 1) slots |= uint16_t(1u << rotate_slot(s, r));
                }
                seg.slots = slots;
                t.segments[code][i] = seg;
            }
            for (int d = 0; d < 4; ++d) {
                if (tile.paths[d] == 'P') t.paths[code] |= 1 << ((d + r) % 4);
            }
            for (int k = 0; k < 8; ++k) halves[code][(k + 2 * r) % 8] = tile.halves[k];
        }
    }
    for (int i = 0; i < NUM_GATES; ++i) {
        const GateSpec& gate = GATES[i];
        const int code = GATE_CODE + i;
        t.num_segments[code] = gate.num_segments;
        for (int j = 0; j < gate.num_segments; ++j) {
            const SegmentSpec& seg = gate.segments[j];
            t.segments[code][j] = seg;
            for (int k = 0; k < 8; ++k) {
                if (seg.kind != PATH && ((seg.slots >> k) & 1)) {
                    halves[code][k] = seg.kind == TOWER ? 'T' : seg.kind == HOUSE ? 'H' : 'C';
                }
            }
        }
        t.paths[code] = gate.path ? 1 << gate.side : 0;
    }
    for (int code = 0; code < NUM_CODES; ++code) {
        for (int s = 0; s < NUM_SLOTS; ++s) t.slot_segment[code][s] = -1;
        const int n = t.num_segments[code];
        for (int i = 0; i < n; ++i) {
            const uint16_t slots = t.segments[code][i].slots;
            t.lowest[code][i] = __builtin_ctz(slots);
            for (int s = 0; s < NUM_SLOTS; ++s) {
                if ((slots >> s) & 1) t.slot_segment[code][s] = i;
            }
        }
        std::sort(t.lowest[code], t.lowest[code] + n);
    }
    for (int type = 0; type < NUM_TILE_TYPES; ++type) {
        for (int must = 1; must < 16; ++must) {
            for (int req = 0; req < 16; ++req) {
                if (req & ~must) continue;
                int bits = 0;
                for (int r = 0; r < 4; ++r) {
                    if ((t.paths[4 * type + r] & must) == req) bits |= 1 << r;
                }
                t.fit[type][must << 4 | req] = uint8_t(bits);
            }
        }
    }
    for (int code = 0; code < NUM_TILE_CODES; ++code) {
        for (int d = 0; d < 4; ++d) {
            const int other = (d + 2) % 4;
            t.side_keys[code][d] = (1 << (4 + other)) | (((t.paths[code] >> d) & 1) << other);
        }
    }
    for (int space = 0; space < TRACK_LENGTH; ++space) {
        t.corner_at_space[space] = -1;
        for (int i = 0; i < NUM_STOCKED; ++i) {
            if (STOCKED_SPACES[i][0] == space || STOCKED_SPACES[i][1] == space) {
                t.corner_at_space[space] = i;
            }
        }
    }
    // channels 0-49 of a location holding each code (the Python engine's LOCATION_PLANES)
    static constexpr int LINK_PAIRS[6][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
    for (int code = 0; code < NUM_CODES; ++code) {
        float* row = t.location_planes[code];
        if (code == OUTSIDE) {
            row[P_NOT_PLAYABLE] = 1;
            continue;
        }
        if (code == EMPTY) {
            row[P_PLAYABLE] = 1;
            continue;
        }
        const bool gate = code >= GATE_CODE;
        row[gate ? P_NOT_PLAYABLE : P_PLAYABLE] = 1;
        row[P_GATE] = gate ? 1.0f : 0.0f;
        row[P_OCCUPIED] = 1;
        for (int k = 0; k < 8; ++k) {
            if (halves[code][k] != ' ') row[P_AREA + 3 * k + kind_of_letter(halves[code][k])] = 1;
        }
        for (int d = 0; d < 4; ++d) row[P_PATHS + d] = float((t.paths[code] >> d) & 1);
        for (int i = 0; i < t.num_segments[code]; ++i) {
            const SegmentSpec& seg = t.segments[code][i];
            if (seg.kind == PATH) {
                const int sides = seg.slots >> 8;
                for (int p = 0; p < 6; ++p) {
                    if (((sides >> LINK_PAIRS[p][0]) & 1) && ((sides >> LINK_PAIRS[p][1]) & 1)) {
                        row[P_PATH_LINKS + p] = 1;
                    }
                }
                for (int d = 0; d < 4; ++d) {
                    if ((sides >> d) & 1) row[P_FOUNTAIN + d] = seg.fountain ? 1.0f : 0.0f;
                }
            } else if (seg.kind == COURT) {
                for (int k = 0; k < 8; ++k) {
                    if ((seg.slots >> k) & 1) row[P_MARKETS + k] = float(seg.markets / 2.0);
                }
            }
        }
    }
    int n = 0;
    for (int type = 0; type < NUM_TILE_TYPES; ++type) {
        for (int i = 0; i < TILE_TYPES[type].count; ++i) t.tile_copies[n++] = type;
    }
    n = 0;
    for (int kind = 1; kind <= NUM_WALL_KINDS; ++kind) {
        for (int i = 0; i < WALL_COPIES; ++i) t.wall_tiles[n++] = kind;
    }
    return t;
}

}  // namespace

const Tables& tables() {
    static const Tables instance = [] {
        Tables t = build_tables();
        // the empty castle's codes: gates on their grid positions, cells empty, walls
        for (int g = 0; g < NUM_GRID; ++g) {
            int code = t.grid_cell[g] >= 0 ? EMPTY : OUTSIDE;
            for (int i = 0; i < NUM_GATES; ++i) {
                if (t.gate_grid[i] == g) code = GATE_CODE + i;
            }
            for (int ch = 0; ch < STATIC_PLANES; ++ch) {
                t.empty_planes[ch * NUM_GRID + g] = t.location_planes[code][ch];
            }
        }
        return t;
    }();
    return instance;
}

const Castle& Castle::empty() {
    static const Castle instance = build_empty();
    return instance;
}

Castle Castle::build_empty() {
    const Tables& t = tables();
    Castle c;
    std::memset(&c, 0, sizeof c);
    for (int s = 0; s < MAX_SEGMENTS; ++s) {
        c.parent[s] = c.next_seg[s] = int16_t(s);
        c.kind[s] = NO_KIND;
        c.size[s] = s == NO_SEGMENT ? 0 : 1;
    }
    for (int p = 0; p < NUM_PORTS; ++p) c.seg_at[p] = c.root_at[p] = NO_SEGMENT;
    for (int g = 0; g < NUM_GRID; ++g) {
        c.code[g] = uint8_t(t.grid_cell[g] >= 0 ? EMPTY : OUTSIDE);
        c.follower_seat[g] = c.follower_slot[g] = -1;
    }
    for (int i = 0; i < NUM_GATES; ++i) {
        c.code[t.gate_grid[i]] = uint8_t(GATE_CODE + i);
        c.add_segments(t.gate_grid[i], GATE_CODE + i, 0b1111);
    }
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        for (int d = 0; d < 4; ++d) {
            const int nb = t.neighbor[cell][d];
            if (nb >= 0 && t.grid_cell[nb] < 0) {  // a gate's active side
                const int path = (t.paths[c.code[nb]] >> ((d + 2) % 4)) & 1;
                c.key[cell] = uint8_t(c.key[cell] | (1 << (4 + d)) | (path << d));
            }
        }
    }
    return c;
}

int Castle::add_segments(int grid, int code, int empty_sides) {
    const Tables& t = tables();
    const int first = num_segments;
    const int n = t.num_segments[code];
    for (int i = 0; i < n; ++i) {
        const SegmentSpec& seg = t.segments[code][i];
        const int s = first + i;
        kind[s] = seg.kind;
        fountain[s] = seg.fountain;
        markets[s] = seg.markets;
        seg_slots[s] = seg.slots;
        seg_grid[s] = uint8_t(grid);
        locs[s] = Locs{{0, 0, 0}};
        locs[s].add(grid);
        int opened = 0;
        for (int slot = 0; slot < NUM_SLOTS; ++slot) {
            if ((seg.slots >> slot) & 1) {
                seg_at[slot * NUM_GRID + grid] = root_at[slot * NUM_GRID + grid] = int16_t(s);
                opened += (empty_sides >> t.slot_side[slot]) & 1;
            }
        }
        open[s] = int16_t(opened);
    }
    num_segments = first + n;
    return first;
}

int Castle::unite(int a, int b) {
    if (a > b) std::swap(a, b);  // the older segment stays the root
    int s = b;
    do {
        parent[s] = int16_t(a);
        const int g = seg_grid[s];
        for (uint16_t slots = seg_slots[s]; slots; slots &= uint16_t(slots - 1)) {
            root_at[__builtin_ctz(slots) * NUM_GRID + g] = int16_t(a);
        }
        s = next_seg[s];
    } while (s != b);
    std::swap(next_seg[a], next_seg[b]);  // splice the two circles
    open[a] = int16_t(open[a] + open[b]);
    count[0][a] = uint8_t(count[0][a] + count[0][b]);
    count[1][a] = uint8_t(count[1][a] + count[1][b]);
    fountain[a] |= fountain[b];
    markets[a] = uint8_t(markets[a] + markets[b]);
    for (int i = 0; i < 3; ++i) locs[a].w[i] |= locs[b].w[i];
    size[a] = int16_t(locs[a].count());
    return a;
}

bool Castle::has_placement(int tile) const {
    const uint8_t* fit = tables().fit[tile];
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (fit[key[cell]]) return true;
    }
    return false;
}

int Castle::feature_named(int cell, int name) const {
    const Tables& t = tables();
    if (cell < 0 || cell >= NUM_CELLS) return NO_SEGMENT;
    const int g = t.cell_grid[cell];
    if (name >= SLOT_BASE && name < PASS) return root_at[(name - SLOT_BASE) * NUM_GRID + g];
    if (name >= FACING_BASE && name < NUM_ACTIONS) {
        const int k = name - FACING_BASE;
        const int nb = t.neighbor[cell][t.slot_side[k]];
        return nb >= 0 ? root_at[t.facing[k] * NUM_GRID + nb] : NO_SEGMENT;
    }
    return NO_SEGMENT;
}

int Castle::open_segments(int cell, int out[8]) const {
    const Tables& t = tables();
    const int g = t.cell_grid[cell];
    const int c = code[g];
    int n = 0;
    for (int i = 0; i < t.num_segments[c]; ++i) {
        const int lowest = t.lowest[c][i];
        const int root = root_at[lowest * NUM_GRID + g];
        if (!count[0][root] && !count[1][root]) out[n++] = lowest;
    }
    return n;
}

int Castle::largest_empty_region() const {
    const Tables& t = tables();
    bool seen[NUM_CELLS] = {};
    int todo[NUM_CELLS];
    int best = 0;
    for (int start = 0; start < NUM_CELLS; ++start) {
        if (seen[start] || !is_empty(start)) continue;
        seen[start] = true;
        int n = 0, size_ = 0;
        todo[n++] = start;
        while (n) {
            const int cell = todo[--n];
            ++size_;
            for (int d = 0; d < 4; ++d) {
                const int nb = t.neighbor[cell][d];
                if (nb < 0 || t.grid_cell[nb] < 0) continue;
                const int other = t.grid_cell[nb];
                if (!seen[other] && is_empty(other)) {
                    seen[other] = true;
                    todo[n++] = other;
                }
            }
        }
        best = std::max(best, size_);
    }
    return best;
}

int Castle::locations(int root, uint8_t out[NUM_GRID]) const {
    int n = 0;
    for (int g = 0; g < NUM_GRID; ++g) {
        if (locs[root].has(g)) out[n++] = uint8_t(g);
    }
    return n;
}

int Castle::place(int cell, int tile, int rotation, int seat, int names[MAX_COMPLETED]) {
    const Tables& t = tables();
    const int g = t.cell_grid[cell];
    const int c = 4 * tile + rotation;
    bool faces_empty[4];
    int empty_sides = 0;
    for (int d = 0; d < 4; ++d) {
        const int nb = t.neighbor[cell][d];
        faces_empty[d] = nb >= 0 && code[nb] == EMPTY;
        empty_sides |= int(faces_empty[d]) << d;
    }
    const int first = add_segments(g, c, empty_sides);
    code[g] = uint8_t(c);
    if (num_placed < NUM_CASTLE_TILES) {
        history[num_placed++] = Placement{uint8_t(cell), uint8_t(c), uint8_t(seat)};
    }
    int touched[12];  // the neighbours' ports that faced this cell
    int num_touched = 0;
    key[cell] = 0;  // the frontier: this cell is taken, its empty neighbours face it
    for (int d = 0; d < 4; ++d) {
        const int nb = t.neighbor[cell][d];
        if (nb < 0) continue;
        if (faces_empty[d]) {
            const int other = t.grid_cell[nb];
            key[other] = uint8_t(key[other] | t.side_keys[c][d]);
            continue;
        }
        const int slots[3] = {2 * d, 2 * d + 1, 8 + d};
        for (int slot : slots) {
            const int mine = slot * NUM_GRID + g;
            const int theirs = t.facing[slot] * NUM_GRID + nb;
            const int other = root_at[theirs];
            if (other == NO_SEGMENT) continue;
            open[other] = int16_t(open[other] - 1);  // that port faced this empty cell
            touched[num_touched++] = theirs;
            const int own = root_at[mine];
            if (own != NO_SEGMENT && own != other && kind[own] == kind[other]) unite(own, other);
        }
    }
    // the features this placement touched, each once: its own, then the neighbours'
    int roots[20];
    int num_own = 0, num_roots = 0;
    auto add_root = [&](int root) {
        for (int i = 0; i < num_roots; ++i) {
            if (roots[i] == root) return;
        }
        roots[num_roots++] = root;
    };
    for (int s = first; s < num_segments; ++s) add_root(parent[s]);
    num_own = num_roots;
    for (int i = 0; i < num_touched; ++i) add_root(root_at[touched[i]]);
    int n = 0;
    for (int i = 0; i < num_roots; ++i) {
        const int root = roots[i];
        if (open[root] != 0 || kind[root] == COURT) continue;
        if (i < num_own) {
            for (int s = 0; s < NUM_SLOTS; ++s) {
                if (root_at[s * NUM_GRID + g] == root) {
                    names[n++] = SLOT_BASE + s;
                    break;
                }
            }
        } else {
            for (int k = 0; k < 8; ++k) {
                if (feature_named(cell, FACING_BASE + k) == root) {
                    names[n++] = FACING_BASE + k;
                    break;
                }
            }
        }
        if (n == MAX_COMPLETED) break;
    }
    std::sort(names, names + n);
    return n;
}

void Castle::add_follower(int cell, int slot, int seat) {
    const int g = tables().cell_grid[cell];
    const int root = root_at[slot * NUM_GRID + g];
    count[seat][root] = uint8_t(count[seat][root] + 1);
    follower_seat[g] = int8_t(seat);
    follower_slot[g] = int8_t(slot);
}

void Castle::release(int root, int supply[NUM_PLAYERS]) {
    for (int g = 0; g < NUM_GRID; ++g) {
        const int seat = follower_seat[g];
        if (seat < 0 || root_at[follower_slot[g] * NUM_GRID + g] != root) continue;
        supply[seat] += 1;
        count[seat][root] = 0;
        follower_seat[g] = follower_slot[g] = -1;
    }
}

}  // namespace bge::carcassonne_castle
