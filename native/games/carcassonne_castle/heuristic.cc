// The heuristic player, its playouts and the leaf evaluation (see heuristic.h); the steps of
// agents/heuristic/carcassonne_castle.py and agents/leaf_values.py, in their order.
#include "games/carcassonne_castle/heuristic.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace bge::carcassonne_castle {

namespace {

constexpr double CORNER_BONUS = 3.0;
constexpr double GROWTH = 0.6;
constexpr double CLAIM_WEIGHT = 0.5;
constexpr double OPEN_PENALTY = 0.15;

// -- CPython's set of small ints ------------------------------------------------------------------
// The reference sums the values of the unfinished features a placement touches in the
// iteration order of `roots = set(new_roots); roots |= set(touched_roots)`: the order of
// CPython 3.11's open-addressing table (setobject.c: set_add_entry, set_merge,
// set_table_resize, set_insert_clean; 8 slots to start, 9 linear probes, perturbation by
// 5 bits). A feature root is an int in 0..511, whose hash is itself. Sets here hold at most
// 20 roots (8 segments of the new tile, 12 neighbouring ports), far below the capacity.
class PySetOrder {
public:
    PySetOrder() { std::fill(table_, table_ + 8, int16_t(-1)); }

    // set.add(key) (set_add_entry)
    void add(int key) {
        const size_t mask = size_t(mask_);
        size_t i = size_t(key) & mask;
        size_t perturb = size_t(key);
        while (true) {
            int probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
            size_t e = i;
            while (true) {
                if (table_[e] < 0) {
                    table_[e] = int16_t(key);
                    ++fill_;
                    ++used_;
                    if (size_t(fill_) * 5 < mask * 3) return;
                    resize(used_ * 4);
                    return;
                }
                if (table_[e] == key) return;
                ++e;
                if (probes-- == 0) break;
            }
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
        }
    }

    // self |= other (set_merge; no set here ever holds a deleted entry)
    void merge(const PySetOrder& other) {
        if (other.used_ == 0) return;
        if ((fill_ + other.used_) * 5 >= mask_ * 3) resize((used_ + other.used_) * 2);
        if (fill_ == 0 && mask_ == other.mask_) {
            std::copy(other.table_, other.table_ + other.mask_ + 1, table_);
            fill_ = other.fill_;
            used_ = other.used_;
            return;
        }
        if (fill_ == 0) {
            fill_ = used_ = other.used_;
            for (int i = 0; i <= other.mask_; ++i) {
                if (other.table_[i] >= 0) insert_clean(table_, mask_, other.table_[i]);
            }
            return;
        }
        for (int i = 0; i <= other.mask_; ++i) {
            if (other.table_[i] >= 0) add(other.table_[i]);
        }
    }

    // The keys in iteration order; returns how many.
    int items(int* out) const {
        int n = 0;
        for (int i = 0; i <= mask_; ++i) {
            if (table_[i] >= 0) out[n++] = table_[i];
        }
        return n;
    }

private:
    static constexpr int kCapacity = 256;
    static constexpr size_t kLinearProbes = 9;

    static void insert_clean(int16_t* table, int mask_int, int key) {
        const size_t mask = size_t(mask_int);
        size_t i = size_t(key) & mask;
        size_t perturb = size_t(key);
        while (true) {
            if (table[i] < 0) {
                table[i] = int16_t(key);
                return;
            }
            if (i + kLinearProbes <= mask) {
                for (size_t j = 1; j <= kLinearProbes; ++j) {
                    if (table[i + j] < 0) {
                        table[i + j] = int16_t(key);
                        return;
                    }
                }
            }
            perturb >>= 5;
            i = (i * 5 + 1 + perturb) & mask;
        }
    }

    // set_table_resize: the smallest power of two above minused (at least 8), the entries
    // reinserted in the old table's order.
    void resize(int minused) {
        int size = 8;
        while (size <= minused && size < kCapacity) size <<= 1;
        int16_t old[kCapacity];
        const int old_size = mask_ + 1;
        std::copy(table_, table_ + old_size, old);
        std::fill(table_, table_ + size, int16_t(-1));
        mask_ = size - 1;
        for (int i = 0; i < old_size; ++i) {
            if (old[i] >= 0) insert_clean(table_, mask_, old[i]);
        }
    }

    int16_t table_[kCapacity];
    int mask_ = 7;
    int fill_ = 0, used_ = 0;
};

// -- tables ---------------------------------------------------------------------------------------
struct Port {
    int slot;    // the slot of a tile on the cell
    int theirs;  // the port facing it (slot * 132 + grid of the neighbour)
};

struct CellSide {  // a side of a cell that faces a location (CELL_SIDES)
    int d, location;
    Port ports[3];
};

struct HeuristicTables {
    // SAME_SEGMENTS: the lowest code of the same type whose rotated segments are the same
    int same_segments[NUM_TILE_CODES];
    // SLOT_KIND: the kind of the segment owning a slot, -1 for none
    int slot_kind[NUM_TILE_CODES][NUM_SLOTS];
    // open ports of each segment when the sides in the bit set `empty` face empty cells
    int8_t open_ports[NUM_TILE_CODES][16][8];
    int num_sides[NUM_CELLS];
    CellSide sides[NUM_CELLS][4];
};

bool same_segment(const SegmentSpec& a, const SegmentSpec& b) {
    return a.kind == b.kind && a.slots == b.slots && a.markets == b.markets &&
           a.fountain == b.fountain;
}

HeuristicTables build_heuristic_tables() {
    const Tables& t = tables();
    HeuristicTables h{};
    for (int code = 0; code < NUM_TILE_CODES; ++code) {
        const int n = t.num_segments[code];
        h.same_segments[code] = code;
        for (int c = code - code % 4; c < code; ++c) {
            bool same = t.num_segments[c] == n;
            for (int i = 0; same && i < n; ++i) {
                same = same_segment(t.segments[c][i], t.segments[code][i]);
            }
            if (same) {
                h.same_segments[code] = c;
                break;
            }
        }
        for (int s = 0; s < NUM_SLOTS; ++s) {
            const int local = t.slot_segment[code][s];
            h.slot_kind[code][s] = local < 0 ? -1 : int(t.segments[code][local].kind);
        }
        for (int empty = 0; empty < 16; ++empty) {
            for (int i = 0; i < n; ++i) {
                int open = 0;
                for (int s = 0; s < NUM_SLOTS; ++s) {
                    if ((t.segments[code][i].slots >> s) & 1) open += (empty >> t.slot_side[s]) & 1;
                }
                h.open_ports[code][empty][i] = int8_t(open);
            }
        }
    }
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        int n = 0;
        for (int d = 0; d < 4; ++d) {
            const int nb = t.neighbor[cell][d];
            if (nb < 0) continue;
            CellSide& side = h.sides[cell][n++];
            side.d = d;
            side.location = nb;
            const int slots[3] = {2 * d, 2 * d + 1, 8 + d};
            for (int j = 0; j < 3; ++j) {
                side.ports[j] = Port{slots[j], t.facing[slots[j]] * NUM_GRID + nb};
            }
        }
        h.num_sides[cell] = n;
    }
    return h;
}

const HeuristicTables& heuristic_tables() {
    static const HeuristicTables instance = build_heuristic_tables();
    return instance;
}

// -- features as _lay sees them -------------------------------------------------------------------
// (kind, open ports, followers per seat, size, fountain, markets, location bits)
struct Feature {
    int kind, open, followers[NUM_PLAYERS], size, fountain, markets;
    Locs locs;
};

Feature feature_now(const Castle& castle, int root) {
    Feature f;
    f.kind = castle.kind[root];
    f.open = castle.open[root];
    f.followers[0] = castle.count[0][root];
    f.followers[1] = castle.count[1][root];
    f.size = castle.size[root];
    f.fountain = castle.fountain[root];
    f.markets = castle.markets[root];
    f.locs = castle.locs[root];
    return f;
}

// Points of a feature if scored now (Castle.value).
int points_of(int kind, int size, int fountain) {
    if (kind == TOWER || (kind == PATH && fountain)) return 2 * size;
    return (kind == HOUSE || kind == PATH) ? size : 0;
}

// What an unfinished tower, house or path might bring (_potential).
double potential(int kind, int size, int fountain, int open_ports) {
    const double per_tile = kind == TOWER || (kind == PATH && fountain) ? 2.0 : 1.0;
    if (kind != TOWER && kind != HOUSE && kind != PATH) return 0.0;
    return per_tile * double(size + 1) / (1.0 + 0.5 * double(open_ports));
}

bool lands_on_corner(const State& s, int64_t score) {
    const int corner = tables().corner_at_space[score % TRACK_LENGTH];
    return corner >= 0 && s.corners[corner] != 0;
}

constexpr int MAX_LINKS = 12;  // 4 sides x 3 ports
constexpr int MAX_FEATURES = 8 + MAX_LINKS;

struct Link {
    int slot, old, kind;
};

// _surroundings: what a tile laid on an empty cell finds there, whatever its rotation.
struct Around {
    int empty = 0;  // bit d: side d faces an empty cell
    int num_links = 0;
    Link links[MAX_LINKS];  // in Castle.place's order; their `old` roots are `touched`
    int num_olds = 0;
    int old_roots[MAX_LINKS];  // each touched root once, in order of first appearance
    Feature olds[MAX_LINKS];   // their features with the ports facing the cell closed
    int location = 0;          // the cell's grid position
};

void surroundings(const Castle& castle, int cell, Around& out) {
    const HeuristicTables& h = heuristic_tables();
    out = Around{};
    out.location = tables().cell_grid[cell];
    for (int i = 0; i < h.num_sides[cell]; ++i) {
        const CellSide& side = h.sides[cell][i];
        if (castle.code[side.location] == EMPTY) {
            out.empty |= 1 << side.d;
            continue;
        }
        for (const Port& port : side.ports) {
            const int old = castle.root_at[port.theirs];
            if (old == NO_SEGMENT) continue;
            out.links[out.num_links++] = Link{port.slot, old, castle.kind[old]};
        }
    }
    for (int i = 0; i < out.num_links; ++i) {
        const int old = out.links[i].old;
        bool seen = false;
        int count = 0;
        for (int j = 0; j < out.num_links; ++j) {
            if (out.links[j].old == old) {
                ++count;
                seen = seen || j < i;
            }
        }
        if (seen) continue;
        Feature f = feature_now(castle, old);
        f.open -= count;
        out.old_roots[out.num_olds] = old;
        out.olds[out.num_olds++] = f;
    }
}

// _lay's result: the roots of the tile's segments and of the touched ports after the
// merges, and the features of the roots.
struct Laid {
    int num_new = 0;
    int new_roots[8];
    int num_touched = 0;
    int touched[MAX_LINKS];
    int num_features = 0;
    int feature_root[MAX_FEATURES];  // -1: merged away (features.pop)
    Feature features[MAX_FEATURES];

    Feature* find(int root) {
        for (int i = 0; i < num_features; ++i) {
            if (feature_root[i] == root) return &features[i];
        }
        return nullptr;
    }
};

// root_of: a segment id or old root -> the root it was merged into
struct RootOf {
    int n = 0;
    int label[2 * MAX_FEATURES], root[2 * MAX_FEATURES];

    int get(int x) const {
        for (int i = 0; i < n; ++i) {
            if (label[i] == x) return root[i];
        }
        return x;
    }
    void set(int x, int r) {
        for (int i = 0; i < n; ++i) {
            if (label[i] == x) {
                root[i] = r;
                return;
            }
        }
        label[n] = x;
        root[n++] = r;
    }
};

// _merge: the newer root joins the older, as Castle._union merges them.
void merge(Laid& laid, RootOf& root_of, int a, int b, int location) {
    if (a > b) std::swap(a, b);
    Feature* fa = laid.find(a);
    Feature* fb = laid.find(b);
    Locs locs = fa->locs;
    for (int i = 0; i < 3; ++i) locs.w[i] |= fb->locs.w[i];
    locs.add(location);
    fa->open += fb->open;
    fa->followers[0] += fb->followers[0];
    fa->followers[1] += fb->followers[1];
    fa->size = locs.count();
    fa->fountain |= fb->fountain;
    fa->markets += fb->markets;
    fa->locs = locs;
    laid.feature_root[fb - laid.features] = -1;
    for (int i = 0; i < root_of.n; ++i) {
        if (root_of.root[i] == b) root_of.root[i] = a;
    }
    root_of.set(b, a);
}

void lay(int first, int code, const Around& around, Laid& out) {
    const Tables& t = tables();
    const HeuristicTables& h = heuristic_tables();
    const int n = t.num_segments[code];
    out.num_new = n;
    out.num_touched = around.num_links;
    for (int i = 0; i < around.num_links; ++i) out.touched[i] = around.links[i].old;
    out.num_features = 0;
    for (int i = 0; i < around.num_olds; ++i) {
        out.feature_root[out.num_features] = around.old_roots[i];
        out.features[out.num_features++] = around.olds[i];
    }
    for (int i = 0; i < n; ++i) {
        const SegmentSpec& seg = t.segments[code][i];
        out.new_roots[i] = first + i;
        Feature f;
        f.kind = seg.kind;
        f.open = h.open_ports[code][around.empty][i];
        f.followers[0] = f.followers[1] = 0;
        f.size = 1;
        f.fountain = seg.fountain;
        f.markets = seg.markets;
        f.locs = Locs{{0, 0, 0}};
        out.feature_root[out.num_features] = first + i;
        out.features[out.num_features++] = f;
    }
    RootOf root_of;
    for (int i = 0; i < around.num_links; ++i) {
        const Link& link = around.links[i];
        if (h.slot_kind[code][link.slot] != link.kind) continue;  // no port, or another kind
        const int own = root_of.get(first + t.slot_segment[code][link.slot]);
        const int other = root_of.get(link.old);
        if (own != other) merge(out, root_of, own, other, around.location);
    }
    if (root_of.n) {
        for (int i = 0; i < out.num_new; ++i) out.new_roots[i] = root_of.get(out.new_roots[i]);
        for (int i = 0; i < out.num_touched; ++i) out.touched[i] = root_of.get(out.touched[i]);
    }
}

// _placement_value
double placement_value(const State& s, int me, Laid& laid) {
    const int opp = 1 - me;
    const int supply = s.supply[me];
    double value = 0.0, claim_now = 0.0, mine_now = 0.0;
    PySetOrder roots, touched;
    for (int i = 0; i < laid.num_new; ++i) roots.add(laid.new_roots[i]);
    for (int i = 0; i < laid.num_touched; ++i) touched.add(laid.touched[i]);
    roots.merge(touched);
    int order[MAX_FEATURES];
    const int num_roots = roots.items(order);
    const Feature* unfinished[MAX_FEATURES];
    int num_unfinished = 0;
    for (int i = 0; i < num_roots; ++i) {
        const int root = order[i];
        const Feature& f = *laid.find(root);
        if (f.open || f.kind == COURT) {
            unfinished[num_unfinished++] = &f;
            continue;
        }
        // completed: points are whole numbers, so the order of these sums is moot
        const int points = points_of(f.kind, f.size, f.fountain);
        if (f.followers[me] > f.followers[opp]) {
            mine_now += points;
        } else if (f.followers[opp] > f.followers[me]) {
            value -= points;
        } else if (f.followers[me] == 0 && supply > 0 &&
                   std::find(laid.new_roots, laid.new_roots + laid.num_new, root) !=
                       laid.new_roots + laid.num_new) {
            claim_now = std::max(claim_now, double(points));  // claim it with this turn's follower
        }
    }
    value += mine_now + claim_now;
    if (lands_on_corner(s, int64_t(double(s.scores[me]) + mine_now + claim_now))) {
        value += CORNER_BONUS;
    }
    double best_claim = 0.0;
    for (int i = 0; i < num_unfinished; ++i) {
        const Feature& f = *unfinished[i];
        if (f.followers[me] > f.followers[opp]) {
            const double p = potential(f.kind, f.size, f.fountain, f.open);
            value += GROWTH * p - OPEN_PENALTY * double(f.open);
        } else if (f.followers[opp] > f.followers[me]) {
            value -= GROWTH * potential(f.kind, f.size, f.fountain, f.open);
        } else if (f.followers[me] == 0 && f.kind != COURT) {
            best_claim = std::max(best_claim, potential(f.kind, f.size, f.fountain, f.open));
        } else if (f.followers[me] == 0 && f.kind == COURT && f.markets >= 2) {
            best_claim = std::max(best_claim, 1.5 * double(f.markets));
        }
    }
    if (supply >= 2 && claim_now == 0) value += CLAIM_WEIGHT * best_claim;
    return value;
}

// _values: the value of each placement (4 * cell + rotation), in order.
void values_of(const State& s, int me, const int* placements, int n, double* values) {
    if (n == 0) return;
    const HeuristicTables& h = heuristic_tables();
    const Castle& castle = s.castle;
    const int first = castle.num_segments;  // the id the placed tile's first segment would get
    const int base = 4 * s.tile;
    Around around;
    int around_cell = -1;
    double seen[4];  // values on that cell by SAME_SEGMENTS code - base
    bool has_seen[4] = {false, false, false, false};
    Laid laid;
    for (int i = 0; i < n; ++i) {
        const int action = placements[i];
        const int cell = action >> 2, code = base + (action & 3);
        if (cell != around_cell) {  // placements come cell by cell, rotations in order
            surroundings(castle, cell, around);
            around_cell = cell;
            std::fill(has_seen, has_seen + 4, false);
        }
        // rotations that give the same placed tile score alike
        const int same = h.same_segments[code] - base;
        if (!has_seen[same]) {
            lay(first, code, around, laid);
            seen[same] = placement_value(s, me, laid);
            has_seen[same] = true;
        }
        values[i] = seen[same];
    }
}

// -- the decisions --------------------------------------------------------------------------------
// DP1
int place(const State& s, int me, const int* legal, int n, Pcg64& rng) {
    int placements[NUM_PLACEMENTS];
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (legal[i] < NUM_PLACEMENTS) placements[m++] = legal[i];
    }
    if (m == 0 || s.tile < 0) return legal[0];
    double values[NUM_PLACEMENTS];
    values_of(s, me, placements, m, values);
    // break ties at random: one draw per placement, in order
    int best = legal[0];
    double best_value = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < m; ++i) {
        const double value = values[i] + rng.random() * 1e-3;
        if (value > best_value) {
            best = placements[i];
            best_value = value;
        }
    }
    return best;
}

// DP2
int follower(const State& s, int me, const int* legal, int n) {
    const Castle& castle = s.castle;
    if (s.last_cell < 0) return legal[0];
    const int g = tables().cell_grid[s.last_cell];
    const int supply = s.supply[me];
    const bool late = s.stack_size() < 8;
    int best = PASS;
    double best_value = 0.0;
    for (int i = 0; i < n; ++i) {
        const int action = legal[i];
        if (action == PASS) continue;
        const int root = castle.feature_at(g, action - SLOT_BASE);
        const int kind = castle.kind[root];
        double value;
        if (castle.is_complete(root)) {
            value = 100.0 + castle.value(root);  // points now, follower back at once
        } else if (kind == COURT) {
            const int markets = castle.markets[root];
            value = markets >= 2 || (markets && late) ? 3.0 * markets : 0.0;
            if (supply <= 3) value *= 0.5;
        } else if (late) {
            value = 0.0;  // too late to finish it
        } else {
            value = potential(kind, castle.size[root], castle.fountain[root], castle.open[root]);
            const double threshold = supply <= 2 ? 4.0 : 1.5;
            if (value < threshold) value = 0.0;
        }
        if (value > best_value) {
            best = action;
            best_value = value;
        }
    }
    return best;
}

// DP3
int order(const State& s, int me, const int* legal, int n) {
    const Castle& castle = s.castle;
    const bool mine = s.active == me && !s.groups[0].empty();
    const int winner = mine ? me : 1 - me;
    auto landing = [&](int action) {
        const int points = castle.value(castle.feature_named(s.last_cell, action));
        const bool lands = lands_on_corner(s, s.scores[winner] + points);
        return (lands ? 1.0 : 0.0) * (mine ? 1.0 : -1.0) + 1e-3 * double(points);
    };
    int best = legal[0];
    double best_key = landing(legal[0]);
    for (int i = 1; i < n; ++i) {
        const double key = landing(legal[i]);
        if (key > best_key) {  // max() keeps the first of equal keys
            best = legal[i];
            best_key = key;
        }
    }
    return best;
}

// HeuristicAgent.act, given the legal actions.
int act(const State& s, int seat, const int* legal, int n, Pcg64& rng) {
    if (n == 0) return -1;
    if (n == 1) return legal[0];
    switch (s.phase) {
        case PLACE:
            return place(s, seat, legal, n, rng);
        case FOLLOWER:
            return follower(s, seat, legal, n);
        case ORDER:
            return order(s, seat, legal, n);
        case DOUBLE:
        case EXTRA:
            return YES;
        default:
            return legal[0];
    }
}

}  // namespace

int heuristic_action(const State& s, int seat, Pcg64& rng) {
    int legal[NUM_ACTIONS];
    const int n = s.current_player() == seat ? s.legal_actions(legal) : 0;
    return act(s, seat, legal, n, rng);
}

int placement_values(const State& s, int seat, int actions[NUM_PLACEMENTS],
                     double values[NUM_PLACEMENTS]) {
    if (s.current_player() != seat || s.phase != PLACE || s.tile < 0) return 0;
    int legal[NUM_ACTIONS];
    const int n = s.legal_actions(legal);
    int m = 0;
    for (int i = 0; i < n; ++i) {
        if (legal[i] < NUM_PLACEMENTS) actions[m++] = legal[i];
    }
    values_of(s, seat, actions, m, values);
    return m;
}

int64_t heuristic_playout(State& s, Pcg64& rng, int64_t depth, double epsilon) {
    int64_t played = 0;
    int legal[NUM_ACTIONS];
    while (!s.is_terminal() && (depth == 0 || played < depth)) {
        const int n = s.legal_actions(legal);
        if (n == 0) break;  // a loaded position with no decision: nothing to play
        int action;
        if (n == 1) {
            action = legal[0];
        } else if (epsilon > 0 && rng.random() < epsilon) {
            action = legal[rng.integers(uint64_t(n))];
        } else {
            action = act(s, s.current_player(), legal, n, rng);
        }
        s.apply(action);
        ++played;
    }
    return played;
}

// -- the leaf evaluation (agents/leaf_values.py) --------------------------------------------------
namespace {

// _carcassonne_expected's constants
constexpr double COMPLETION = 0.8;
constexpr double STACK_HALF = 2.0;
constexpr double KEEP_WEIGHT = 0.5;
constexpr double SCORE_SCALE = 25.0;

// _carcassonne_expected: the expected final score of each seat.
void expected_scores(const State& s, double keys[NUM_PLAYERS]) {
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) keys[seat] = double(s.scores[seat]);
    if (s.is_terminal()) return;
    const Castle& castle = s.castle;
    const int stack = s.stack_size();
    std::vector<int> courts[NUM_PLAYERS];
    for (int root = 0; root < castle.num_segments; ++root) {
        if (castle.parent[root] != root) continue;
        const int a = castle.count[0][root], b = castle.count[1][root];
        if (a == b) continue;
        const int seat = a > b ? 0 : 1;
        const int kind = castle.kind[root];
        if (kind == COURT) {
            courts[seat].push_back(castle.markets[root]);
        } else if (kind == TOWER || kind == HOUSE || kind == PATH) {
            const int k = castle.open[root];
            if (k && stack) {
                const double chance = std::pow(COMPLETION, double(k)) * double(stack) /
                                      (double(stack) + STACK_HALF * double(k));
                keys[seat] += chance * double(castle.value(root));
            }
        }
    }
    // (FOLLOWER_WORTH is 0: followers in the supply add nothing)
    int held[NUM_PLAYERS][NUM_WALL_KINDS + 1] = {};
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        for (const HeldTile& tile : s.held[seat]) held[seat][tile.kind] += 1;
    }
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        const int upgraded = held[seat][MARKET_X4];
        std::vector<int>& markets = courts[seat];
        std::stable_sort(markets.begin(), markets.end(), std::greater<int>());
        for (size_t i = 0; i < markets.size(); ++i) {
            keys[seat] += double((int(i) < upgraded ? 4 : 3) * markets[i]);
        }
        keys[seat] += double(int64_t(s.config.wall9_points) * held[seat][BONUS_POINTS]);
    }
    int64_t sizes[NUM_PLAYERS];
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        const Keep& keep = s.keeps[seat];
        const int64_t bonus = int64_t(s.config.keep_bonus_tiles) * held[seat][BIGGER_KEEP];
        sizes[seat] = keep.has ? keep.size + bonus : 0;
    }
    if (sizes[0] != sizes[1]) {
        const int empty = NUM_CELLS - castle.num_placed;
        const int region = std::min(castle.largest_empty_region(), std::max(0, empty - stack));
        keys[sizes[0] > sizes[1] ? 0 : 1] += KEEP_WEIGHT * double(region);
    }
}

}  // namespace

void leaf_values(const State& s, double out[NUM_PLAYERS]) {
    double keys[NUM_PLAYERS];
    expected_scores(s, keys);
    // pairwise_evaluator: sum(tanh((k[i] - k[j]) / scale) for j != i) / (n - 1), n = 2
    out[0] = std::tanh((keys[0] - keys[1]) / SCORE_SCALE);
    out[1] = std::tanh((keys[1] - keys[0]) / SCORE_SCALE);
}

}  // namespace bge::carcassonne_castle
