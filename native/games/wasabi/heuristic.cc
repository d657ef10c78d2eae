// Wasabi!: the reference heuristic (agents/heuristic/wasabi.py) in C++, step for step. The
// names follow the Python: a Planner is the agent after _setup(view) (one decision), a
// LiveRecipe is its Recipe valued on the board now. The Python memos (window values, the
// recipes kept between decisions, the last threats) only save time there and are left out:
// every value here is computed afresh, in the same order of operations.
#include "games/wasabi/heuristic.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>

namespace bge::wasabi {

namespace {

constexpr int EMPTY = -1, BLOCKED = -2;  // a cell's top: no tile, or a Wasabi! card over it
// Preference of action cards, best first (picks and discards).
constexpr int CARD_PREFERENCE[NUM_CARD_TYPES] = {WASABI, SWITCH, CHOP, SPICY, STACK};
// A card played for a completion must gain at least this much (a length-2 recipe: 2).
constexpr double COMPLETION_GAIN = 1.5;
constexpr int MAX_WINDOWS = Geometry::MAX_WINDOWS;
constexpr int MAX_THROUGH = 2 * MAX_RECIPE_LENGTH;  // windows of one length through a cell

inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

// The set bits of a small mask (kinds, window slots): without -mpopcnt __builtin_popcount is a
// library call.
inline int bit_count(uint32_t m) {
    int n = 0;
    for (; m; m &= m - 1) ++n;
    return n;
}

int preference(int card) {
    for (int i = 0; i < NUM_CARD_TYPES; ++i) {
        if (CARD_PREFERENCE[i] == card) return i;
    }
    return NUM_CARD_TYPES;
}

// -- the windows of one length on one board width (the reference's _window_tables) ----------
struct Windows {
    int length = 0;
    int count = 0;
    uint8_t cells[MAX_WINDOWS][MAX_RECIPE_LENGTH] = {};  // in reading order
    uint64_t mask[MAX_WINDOWS] = {};
    uint8_t num_through[NUM_CELLS] = {};
    uint8_t through[NUM_CELLS][MAX_THROUGH] = {};  // per cell: the windows through it, ascending
};

Windows make_windows(int columns, int length) {
    const Geometry& g = geometry(columns);
    Windows t;
    t.length = length;
    t.count = g.num_windows[length - 2];
    for (int w = 0; w < t.count; ++w) {
        for (int k = 0; k < length; ++k) {
            const int cell = g.windows[length - 2][w][k];
            t.cells[w][k] = static_cast<uint8_t>(cell);
            t.mask[w] |= bit(cell);
            t.through[cell][t.num_through[cell]++] = static_cast<uint8_t>(w);
        }
    }
    return t;
}

const Windows& windows(int columns, int length) {
    static const auto tables = [] {
        std::array<std::array<Windows, NUM_LENGTHS>, 3> t;
        for (int c = 0; c < 3; ++c) {
            for (int i = 0; i < NUM_LENGTHS; ++i) t[c][i] = make_windows(5 + c, i + 2);
        }
        return t;
    }();
    return tables[static_cast<size_t>(columns - 5)][static_cast<size_t>(length - 2)];
}

// -- CPython's iteration order of frozenset(kinds).difference(present) -------------------------
// The reference multiplies the supplies of a recipe's missing kinds in the order it iterates
// `kind_set.difference(present)`, and a product of 0.7s and 0.15s depends on its order. That
// order is CPython 3.11's hash-table order for small ints (hash(k) == k), replayed here from
// setobject.c: frozenset(tuple) adds the kinds one by one (set_add_entry), difference() copies
// the set (set_merge into a new one) and discards the present kinds, then rebuilds the table
// when more than a quarter of it is dummies (set_difference_update_internal).
class SetTable {
public:
    SetTable() { slots_.fill(NUL); }

    // set_add_entry of a new key into a table without dummies: the first free slot of the
    // probe sequence (the one set_insert_clean finds), then a resize when two thirds full.
    void add(int key) {
        insert_clean(slots_.data(), mask_, key);
        ++fill_;
        ++used_;
        if (fill_ * 5 >= mask_ * 3) resize(used_ * 4);
    }

    // set_merge(self, other) into this new, empty set (what set_copy does).
    void copy_from(const SetTable& other) {
        if ((fill_ + other.used_) * 5 >= mask_ * 3) resize((used_ + other.used_) * 2);
        if (fill_ == 0 && mask_ == other.mask_ && other.fill_ == other.used_) {
            slots_ = other.slots_;
            fill_ = other.fill_;
            used_ = other.used_;
            return;
        }
        fill_ = used_ = other.used_;
        for (size_t i = 0; i <= other.mask_; ++i) {
            if (other.slots_[i] >= 0) insert_clean(slots_.data(), mask_, other.slots_[i]);
        }
    }

    // set_discard_entry: the slot becomes a dummy.
    void discard(int key) {
        for (size_t i = 0; i <= mask_; ++i) {
            if (slots_[i] == key) {
                slots_[i] = DUMMY;
                --used_;
                return;
            }
        }
    }

    // The end of set_difference_update_internal: resize the dummies away when more than a
    // quarter of the table.
    void end_difference_update() {
        if (fill_ - used_ > mask_ / 4) resize(used_ * 4);
    }

    // The keys in iteration order; their count.
    int keys(uint8_t* out) const {
        int n = 0;
        for (size_t i = 0; i <= mask_; ++i) {
            if (slots_[i] >= 0) out[n++] = static_cast<uint8_t>(slots_[i]);
        }
        return n;
    }

private:
    static constexpr int NUL = -1, DUMMY = -2;
    static constexpr size_t LINEAR_PROBES = 9, PERTURB_SHIFT = 5, MAX_SLOTS = 64;

    static void insert_clean(int* table, size_t mask, int key) {
        size_t perturb = static_cast<size_t>(key);
        size_t i = static_cast<size_t>(key) & mask;
        while (true) {
            if (table[i] == NUL) {
                table[i] = key;
                return;
            }
            if (i + LINEAR_PROBES <= mask) {
                for (size_t j = 1; j <= LINEAR_PROBES; ++j) {
                    if (table[i + j] == NUL) {
                        table[i + j] = key;
                        return;
                    }
                }
            }
            perturb >>= PERTURB_SHIFT;
            i = (i * 5 + 1 + perturb) & mask;
        }
    }

    // set_table_resize: the smallest table (from 8 slots) larger than min_used, the live keys
    // moved over in slot order.
    void resize(size_t min_used) {
        size_t size = 8;
        while (size <= min_used) size <<= 1;
        const std::array<int, MAX_SLOTS> old = slots_;
        const size_t old_mask = mask_;
        slots_.fill(NUL);
        mask_ = size - 1;
        for (size_t i = 0; i <= old_mask; ++i) {
            if (old[i] >= 0) insert_clean(slots_.data(), mask_, old[i]);
        }
        fill_ = used_;
    }

    std::array<int, MAX_SLOTS> slots_;
    size_t mask_ = 7;
    size_t fill_ = 0, used_ = 0;
};

struct MissingOrder {
    int count = 0;
    uint8_t kinds[MAX_RECIPE_LENGTH] = {};
};
// Per recipe and per set of present kinds (bit i: kinds[i]), the missing kinds in the
// order the reference iterates them.
using MissingOrders = std::array<std::array<MissingOrder, 1 << MAX_RECIPE_LENGTH>, NUM_RECIPES>;

const MissingOrders& missing_orders() {
    static const MissingOrders table = [] {
        MissingOrders t;
        for (int r = 0; r < NUM_RECIPES; ++r) {
            const Recipe& recipe = RECIPES[r];
            SetTable kind_set;
            for (int i = 0; i < recipe.length; ++i) kind_set.add(recipe.kinds[i]);
            for (int present = 0; present < (1 << recipe.length); ++present) {
                SetTable missing;
                missing.copy_from(kind_set);
                for (int i = 0; i < recipe.length; ++i) {
                    if (present >> i & 1) missing.discard(recipe.kinds[i]);
                }
                missing.end_difference_update();
                MissingOrder& m = t[static_cast<size_t>(r)][static_cast<size_t>(present)];
                m.count = missing.keys(m.kinds);
            }
        }
        return t;
    }();
    return table;
}

// -- one live recipe of the player, valued on the board (the reference's Recipe) ----------------
struct LiveRecipe {
    int id = 0;
    int length = 0;
    int points = 0;
    int cubes = 0;
    bool either = false;
    int all_kinds = 0;  // bit i: kinds[i] is in the window
    int8_t slot[NUM_KINDS] = {};  // the index of a kind in the recipe, or -1
    double supply[NUM_KINDS] = {};
    const Windows* win = nullptr;
    const MissingOrder* missing = nullptr;  // per set of present kinds
    // The windows valued on the board now (value_board).
    uint64_t unfit = 0;  // cells whose top does not fit
    double values[MAX_WINDOWS];  // the first win->count are set by value_board
    int ranked[MAX_WINDOWS];     // the nonzero windows, best first (ties: lower index first)
    int num_ranked = 0;
    double best = 0.0;
    uint64_t best_cells = 0;

    void init(int recipe, int columns, bool either_direction, const double* supplies) {
        id = recipe;
        either = either_direction;
        const Recipe& r = RECIPES[recipe];
        length = r.length;
        points = TOKEN_POINTS[length - 2];
        cubes = TOKEN_CUBES[length - 2];
        all_kinds = (1 << length) - 1;
        std::fill(slot, slot + NUM_KINDS, static_cast<int8_t>(-1));
        for (int i = 0; i < length; ++i) {
            slot[r.kinds[i]] = static_cast<int8_t>(i);
            supply[r.kinds[i]] = supplies[r.kinds[i]];
        }
        win = &windows(columns, length);
        missing = missing_orders()[static_cast<size_t>(recipe)].data();
    }

    // A top fits when it is empty or one of the recipe's kinds.
    bool fits(int k) const { return k == EMPTY || (k >= 0 && slot[k] >= 0); }
    bool has_kind(int k) const { return slot[k] >= 0; }

    // The value of window w on `tops`: dead with a covered cell, a foreign or a repeated
    // kind; a full one is the recipe's value (with the cubes in the ideal order); a partial
    // one a share of it (_window_value).
    double window_value(const int* tops, int w) const {
        int present = 0, aligned = 0, backwards = 0;
        const int last = length - 1;
        for (int i = 0; i < length; ++i) {
            const int k = tops[win->cells[w][i]];
            if (k == EMPTY) continue;
            if (k < 0) return 0.0;
            const int j = slot[k];
            if (j < 0 || (present >> j & 1)) return 0.0;
            present |= 1 << j;
            aligned += j == i;
            backwards += j == last - i;
        }
        if (either && backwards > aligned) aligned = backwards;
        if (present == all_kinds) return points + (aligned == length ? cubes : 0);
        return partial_value(present, aligned);
    }

    // _partial_value: a share of the value for the kinds present, `aligned` of them in their
    // ideal position, times the chance of the missing ones.
    double partial_value(int present_bits, int aligned) const {
        const int present = bit_count(static_cast<uint32_t>(present_bits));
        const double share = static_cast<double>(present) / length;
        double chance = 1.0;
        const MissingOrder& m = missing[present_bits];
        for (int i = 0; i < m.count; ++i) chance *= supply[m.kinds[i]];
        const double style = static_cast<double>(cubes * aligned) / std::max(present, 1);
        return (points + style) * (0.05 + 0.45 * share * share) * chance;
    }

    void value_board(const int* tops) {
        unfit = 0;
        for (int c = 0; c < NUM_CELLS; ++c) {
            if (!fits(tops[c])) unfit |= bit(c);
        }
        num_ranked = 0;
        for (int w = 0; w < win->count; ++w) {
            values[w] = (win->mask[w] & unfit) ? 0.0 : window_value(tops, w);
            if (values[w] != 0.0) ranked[num_ranked++] = w;
        }
        // Best first, equal values in window order (a stable sort, as sorted(reverse=True)).
        for (int i = 1; i < num_ranked; ++i) {
            const int w = ranked[i];
            int j = i;
            for (; j > 0 && values[ranked[j - 1]] < values[w]; --j) ranked[j] = ranked[j - 1];
            ranked[j] = w;
        }
        best = num_ranked ? values[ranked[0]] : 0.0;
        best_cells = num_ranked ? win->mask[ranked[0]] : 0;
    }

    // The best value now of a window through none of `cells`.
    double best_outside(uint64_t cells) const {
        if (!(best_cells & cells)) return best;
        for (int i = 0; i < num_ranked; ++i) {
            if (!(win->mask[ranked[i]] & cells)) return values[ranked[i]];
        }
        return 0.0;
    }

    // The best window value on `tops`, which differs from the board now in `changed` only.
    double best_after(const int* tops, const int* changed, int num_changed) const {
        uint64_t now_unfit = unfit, moved = 0;
        for (int i = 0; i < num_changed; ++i) {
            const uint64_t b = bit(changed[i]);
            if (fits(tops[changed[i]])) {
                moved |= b;
                now_unfit &= ~b;
            } else if (!(now_unfit & b)) {
                moved |= b;
                now_unfit |= b;
            }
        }
        if (!moved) return best;
        double result = best_outside(moved);
        for (int i = 0; i < num_changed; ++i) {
            const int c = changed[i];
            if (!fits(tops[c])) continue;
            for (int t = 0; t < win->num_through[c]; ++t) {
                const int w = win->through[c][t];
                if (!(win->mask[w] & now_unfit)) {
                    const double value = window_value(tops, w);
                    if (value > result) result = value;
                }
            }
        }
        return result;
    }

    // The best window value with `cells` covered by a Wasabi! card.
    double best_covering(uint64_t cells) const {
        const uint64_t moved = cells & ~unfit;
        return moved ? best_outside(moved) : best;
    }

    // Adds to totals[i] the best window value after each placement of a kind of `kinds` on
    // a cell of `cells`, kinds varying fastest (bests_placing; `tops` is scratch, restored).
    void add_bests_placing(int* tops, const int* cells, int num_cells, const int* kinds,
                           int num_kinds, double* totals) const {
        bool disjoint = true;
        for (int j = 0; j < num_kinds; ++j) disjoint = disjoint && !fits(kinds[j]);
        int i = 0;
        if (disjoint) {  // each placement kills the windows through its cell
            for (int n = 0; n < num_cells; ++n) {
                const uint64_t b = bit(cells[n]);
                const double idle = ((unfit & b) || !(best_cells & b)) ? best : best_outside(b);
                for (int j = 0; j < num_kinds; ++j) totals[i++] += idle;
            }
            return;
        }
        for (int n = 0; n < num_cells; ++n) {
            const int cell = cells[n];
            const uint64_t b = bit(cell);
            const double outside = best_outside(b);  // the windows through the cell die
            const double idle = (unfit & b) ? best : outside;  // the value with an unfitting kind
            const uint64_t others_unfit = unfit & ~b;
            int through[MAX_THROUGH];
            int num_through = 0;
            for (int t = 0; t < win->num_through[cell]; ++t) {
                const int w = win->through[cell][t];
                if (!(win->mask[w] & others_unfit)) through[num_through++] = w;
            }
            const int old = tops[cell];
            for (int j = 0; j < num_kinds; ++j) {
                if (!fits(kinds[j])) {
                    totals[i++] += idle;
                    continue;
                }
                tops[cell] = kinds[j];
                double value = outside;
                for (int t = 0; t < num_through; ++t) {
                    const double seen = window_value(tops, through[t]);
                    if (seen > value) value = seen;
                }
                totals[i++] += value;
            }
            tops[cell] = old;
        }
    }
};

// -- results compared as the reference's tuples ---------------------------------------------------
struct Scored {  // (score, a, b): a placement (score, kind, cell), a swap, a chop, an anchor
    double score;
    int a;
    int b;
};

// Tuple order: score, then a, then b (Python's max keeps the first of equal tuples, and no
// two of these tuples are equal).
bool greater(const Scored& x, const Scored& y) {
    if (x.score != y.score) return x.score > y.score;
    if (x.a != y.a) return x.a > y.a;
    return x.b > y.b;
}

// Kinds of opponent threats on one empty cell, in the order the reference's dict holds them.
struct Threat {
    int count = 0;
    int kinds[NUM_KINDS];  // set before read: count of them
    double values[NUM_KINDS];

    void add(int kind, double value) {
        for (int i = 0; i < count; ++i) {
            if (kinds[i] == kind) {
                values[i] = values[i] + value;
                return;
            }
        }
        kinds[count] = kind;
        values[count++] = 0.0 + value;
    }

    double total() const {
        double sum = 0.0;
        for (int i = 0; i < count; ++i) sum += values[i];
        return sum;
    }

    // _block: the blocking value of `kind` on this cell.
    double block(int kind) const {
        double others = 0.0, own = 0.0;
        for (int i = 0; i < count; ++i) {
            if (kinds[i] != kind) {
                others += values[i];
            } else {
                own = values[i];
            }
        }
        return others - 2 * own;
    }
};

struct Holder {
    double weight;
    const int* hand;  // nullptr: hidden
};

// -- the agent after _setup(view): one decision --------------------------------------------------
class Planner {
public:
    Planner(const State& s, int seat) : s_(s), seat_(seat), geo_(s.geo()) {
        for (int k = 0; k < NUM_KINDS; ++k) hand_[k] = s.tiles[seat][k];
        for (int c = 0; c < NUM_CELLS; ++c) {
            if (s.covered & bit(c)) {
                tops_[c] = BLOCKED;
            } else {
                tops_[c] = s.height[c] ? s.stacks[c][s.height[c] - 1] : EMPTY;
            }
        }
        for (int k = 0; k < NUM_KINDS; ++k) {
            supply_[k] = hand_[k] ? 1.0 : (s.pantry[k] ? 0.7 : 0.15);
        }
        for (int i = 0; i < MENU_SLOTS; ++i) {
            const int r = s.menus[seat][i];
            if (r != NONE && s.tokens[seat][RECIPES[r].length - 2]) {
                live_[num_live_++].init(r, s.columns, s.config.style_either_direction, supply_);
            }
        }
    }

    // Board value: the sum of the live recipes' best windows.
    double value_now() {
        valued_live();
        double total = 0.0;
        for (int i = 0; i < num_live_; ++i) total += live_[i].best;
        return total;
    }

    int act() {
        num_legal_ = s_.legal_actions(legal_);
        is_legal_.fill(false);
        for (int i = 0; i < num_legal_; ++i) is_legal_[static_cast<size_t>(legal_[i])] = true;
        if (num_legal_ == 1) return legal_[0];
        switch (s_.phase) {
            case STEP1_START: return step1_start();
            case PLACE_TARGET: return place_target();
            case PLACE_DUE: return place_due();
            case AFTER_PLACEMENT: return after_placement();
            case SWITCH_FIRST: return switch_first();
            case SWITCH_SECOND: return switch_second();
            case CHOP_TARGET: return chop_target();
            case CHOPPED_TILE: return chopped_tile();
            case WASABI_ANCHOR: return wasabi_anchor();
            case DISCARD_MORE: return discard_more();
            case REWARD_PICK: return reward_pick();
            case REWARD_DISCARD: return reward_discard();
            case REFILL_INGREDIENT: return refill_ingredient();
            case REFILL_RECIPE: return refill_recipe();
            case GIFT_PICK: return gift_pick();
            case DRAFT_PICK: return draft_pick();
            case GAME_OVER: break;
        }
        return legal_[0];
    }

private:
    // -- valuations ----------------------------------------------------------------------------
    void valued_live() {
        if (valued_) return;
        for (int i = 0; i < num_live_; ++i) live_[i].value_board(tops_);
        valued_ = true;
    }

    double value_after(const int* tops, const int* changed, int num_changed) {
        valued_live();
        double total = 0.0;
        for (int i = 0; i < num_live_; ++i) {
            total += live_[i].best_after(tops, changed, num_changed);
        }
        return total;
    }

    double value_covering(uint64_t cells) {
        valued_live();
        double total = 0.0;
        for (int i = 0; i < num_live_; ++i) total += live_[i].best_covering(cells);
        return total;
    }

    // How much the live recipes want one more tile of `kind`.
    double need(int kind) {
        if (!need_known_[kind]) {
            double total = 0.0;
            for (int i = 0; i < num_live_; ++i) {
                const LiveRecipe& r = live_[i];
                if (r.has_kind(kind)) {
                    total += static_cast<double>(r.points + r.cubes) / r.length;
                }
            }
            need_[kind] = total / (1 + hand_[kind]);
            need_known_[kind] = true;
        }
        return need_[kind];
    }

    // -- opponents' likely lines ---------------------------------------------------------------
    const Threat* threats() {
        if (!threats_known_) {
            for (int length = 2; length <= MAX_RECIPE_LENGTH; ++length) {
                int unknown[MAX_DECK];
                Holder holders[MAX_PLAYERS];
                int num_unknown = 0, num_holders = 0;
                find_holders(length, unknown, num_unknown, holders, num_holders);
                if (num_holders) add_threats(length, unknown, num_unknown, holders, num_holders);
            }
            threats_known_ = true;
        }
        return threats_;
    }

    // _holders: the recipes of `length` this seat cannot see, and (weight, hand) of the
    // opponents that may hold one.
    void find_holders(int length, int* unknown, int& num_unknown, Holder* holders,
                      int& num_holders) const {
        const int n = s_.num_players, i = length - 2;
        uint64_t known = 0;
        for (int j = 0; j < MENU_SLOTS; ++j) {
            if (s_.menus[seat_][j] != NONE) known |= uint64_t{1} << s_.menus[seat_][j];
        }
        for (int p = 0; p < n; ++p) {
            for (int j = 0; j < s_.num_completed[p]; ++j) {
                known |= uint64_t{1} << s_.completed[p][j];
            }
        }
        for (int r = DECK_FIRST[i]; r < DECK_FIRST[i] + DECK_SIZE[i]; ++r) {
            if (!(known >> r & 1)) unknown[num_unknown++] = r;
        }
        for (int rel = 1; rel < n; ++rel) {
            const int p = (seat_ + rel) % n;
            int held = 0;
            for (int j = 0; j < MENU_SLOTS; ++j) {
                const int r = s_.menus[p][j];  // only its length is read: public
                held += r != NONE && RECIPES[r].length == length;
            }
            if (held && s_.tokens[p][i] && num_unknown) {
                const double weight = (rel == 1 ? 1.0 : 0.5) * held / num_unknown;
                const bool hidden = s_.config.hide_opponent_hands;
                holders[num_holders++] = {weight, hidden ? nullptr : s_.tiles[p]};
            }
        }
    }

    // _add_threats: the windows with one empty cell, no covered one and length - 1 distinct
    // kinds that an unseen recipe completes.
    void add_threats(int length, const int* unknown, int num_unknown, const Holder* holders,
                     int num_holders) {
        const int i = length - 2;
        const double value = TOKEN_POINTS[i] + TOKEN_CUBES[i] / 2.0;
        uint32_t sets[MAX_DECK];
        for (int u = 0; u < num_unknown; ++u) {
            uint32_t m = 0;
            const Recipe& r = RECIPES[unknown[u]];
            for (int k = 0; k < r.length; ++k) m |= 1u << r.kinds[k];
            sets[u] = m;
        }
        double chances[NUM_KINDS];
        bool chance_known[NUM_KINDS] = {};
        uint64_t empty = 0, covered = 0;
        for (int c = 0; c < NUM_CELLS; ++c) {
            if (tops_[c] == EMPTY) empty |= bit(c);
            if (tops_[c] == BLOCKED) covered |= bit(c);
        }
        const Windows& win = windows(s_.columns, length);
        for (int w = 0; w < win.count; ++w) {
            const uint64_t cells = win.mask[w];
            const uint64_t hole = cells & empty;
            if (!hole || (hole & (hole - 1)) || (cells & covered)) continue;
            uint32_t present = 0;
            for (int k = 0; k < length; ++k) {
                const int top = tops_[win.cells[w][k]];
                if (top >= 0) present |= 1u << top;
            }
            if (bit_count(present) != length - 1) continue;
            uint32_t finishing = 0;  // the kinds that finish a recipe above `present`
            for (int u = 0; u < num_unknown; ++u) {
                if (!(present & ~sets[u]) && present != sets[u]) finishing |= sets[u] & ~present;
            }
            const int hole_cell = lowest(hole);
            for (int kind = 0; kind < NUM_KINDS; ++kind) {
                if (!(finishing >> kind & 1)) continue;
                if (!chance_known[kind]) {
                    chances[kind] = holding_chance(holders, num_holders, kind);
                    chance_known[kind] = true;
                }
                if (chances[kind] != 0.0) threats_[hole_cell].add(kind, chances[kind] * value);
            }
        }
    }

    // The weighted chance that the holders have (or may get) a tile of `kind`.
    double holding_chance(const Holder* holders, int num_holders, int kind) const {
        double chance = 0.0;
        for (int h = 0; h < num_holders; ++h) {
            double has = holders[h].hand == nullptr ? 0.6 : (holders[h].hand[kind] ? 1.0 : 0.0);
            if (has == 0.0 && s_.pantry[kind]) has = 0.3;  // it may take one in its refill
            chance += holders[h].weight * has;
        }
        return chance;
    }

    // -- placements ----------------------------------------------------------------------------
    // The best (score, kind, cell) of the placements of a kind of `kinds` on a cell of `cells`
    // (both non-empty): max(_placements(kinds, cells)).
    Scored best_of_placements(const int* kinds, int num_kinds, const int* cells, int num_cells) {
        int tops[NUM_CELLS];  // a scratch board
        std::copy(tops_, tops_ + NUM_CELLS, tops);
        const double before = value_now();
        const Threat* threat = threats();
        double needs[NUM_KINDS];
        for (int j = 0; j < num_kinds; ++j) needs[j] = need(kinds[j]);
        double totals[NUM_CELLS * NUM_KINDS];
        std::fill(totals, totals + num_cells * num_kinds, 0.0);
        for (int r = 0; r < num_live_; ++r) {
            live_[r].add_bests_placing(tops, cells, num_cells, kinds, num_kinds, totals);
        }
        Scored best{0.0, -1, -1};
        int i = 0;
        for (int n = 0; n < num_cells; ++n) {
            const Threat& t = threat[cells[n]];
            for (int j = 0; j < num_kinds; ++j) {
                double gain = totals[i++] - before;
                if (gain < 0.5) gain -= 0.3 * needs[j];  // not an advance: keep needed tiles
                const Scored p{gain + (t.count ? t.block(kinds[j]) : 0.0), kinds[j], cells[n]};
                if (i == 1 || greater(p, best)) best = p;
            }
        }
        return best;
    }

    std::optional<Scored> best_placement(bool stack = false) {
        const int index = stack ? 1 : 0;
        if (!placement_known_[index]) {
            placement_[index] = find_best_placement(stack);
            placement_known_[index] = true;
        }
        return placement_[index];
    }

    std::optional<Scored> find_best_placement(bool stack) {
        int kinds[NUM_KINDS], cells[NUM_CELLS];
        int num_kinds = 0, num_cells = 0;
        for (int k = 0; k < NUM_KINDS; ++k) {
            if (hand_[k]) kinds[num_kinds++] = k;
        }
        for (uint64_t m = geo_.active; m; m &= m - 1) {
            const int c = lowest(m);
            if (stack ? tops_[c] != BLOCKED : tops_[c] == EMPTY) cells[num_cells++] = c;
        }
        if (!num_kinds || !num_cells) return std::nullopt;
        return best_of_placements(kinds, num_kinds, cells, num_cells);
    }

    // -- card effects --------------------------------------------------------------------------
    int top_of_stack(int cell) const {
        return s_.height[cell] ? s_.stacks[cell][s_.height[cell] - 1] : EMPTY;
    }

    // (gain, a, b) of each swap of two orthogonal neighbours.
    int swaps(Scored* out) {
        const double before = value_now();
        int next[NUM_CELLS];  // scratch: each swap is undone after it is valued
        std::copy(tops_, tops_ + NUM_CELLS, next);
        int count = 0;
        for (uint64_t m = geo_.active; m; m &= m - 1) {
            const int a = lowest(m);
            for (int j = 0; j < geo_.num_neighbours[a]; ++j) {
                const int b = geo_.neighbours[a][j];
                if (b < a || tops_[a] == BLOCKED || tops_[b] == BLOCKED) continue;
                if (!s_.height[a] && !s_.height[b]) continue;
                next[a] = top_of_stack(b);
                next[b] = top_of_stack(a);
                const int changed[2] = {a, b};
                out[count++] = {value_after(next, changed, 2) - before, a, b};
                next[a] = tops_[a];
                next[b] = tops_[b];
            }
        }
        return count;
    }

    // (gain, cell, 0) of each chop.
    int chops(Scored* out) {
        const double before = value_now();
        int count = 0;
        for (uint64_t m = geo_.active; m; m &= m - 1) {
            const int c = lowest(m);
            if (tops_[c] < 0) continue;
            int next[NUM_CELLS];
            std::copy(tops_, tops_ + NUM_CELLS, next);
            next[c] = s_.height[c] > 1 ? s_.stacks[c][s_.height[c] - 2] : EMPTY;
            const int changed[1] = {c};
            out[count++] = {value_after(next, changed, 1) - before, c, 0};
        }
        return count;
    }

    // (gain, anchor, 0) of each free Wasabi! anchor.
    int anchors(Scored* out) {
        const double before = value_now();
        const Threat* threat = threats();
        int count = 0;
        for (uint64_t m = geo_.anchors; m; m &= m - 1) {
            const int a = lowest(m);
            if (block_of(a) & s_.covered) continue;
            double block = 0.0;
            for (const int c : {a, a + 1, a + GRID_COLUMNS, a + GRID_COLUMNS + 1}) {
                block += threat[c].total();
            }
            const double covered_value = value_covering(block_of(a));
            out[count++] = {covered_value - before + block, a, 0};
        }
        return count;
    }

    // The greatest of `items` (max(items, default=None)).
    static std::optional<Scored> max_of(const Scored* items, int count) {
        std::optional<Scored> best;
        for (int i = 0; i < count; ++i) {
            if (!best || greater(items[i], *best)) best = items[i];
        }
        return best;
    }

    // The greatest of the `items` whose `a` is a legal cell.
    std::optional<Scored> max_allowed(const Scored* items, int count) const {
        std::optional<Scored> best;
        for (int i = 0; i < count; ++i) {
            if (!is_legal_[static_cast<size_t>(CELL_BASE + items[i].a)]) continue;
            if (!best || greater(items[i], *best)) best = items[i];
        }
        return best;
    }

    // (gain, action) of the playable cards worth playing now; the best of them, if any.
    std::optional<Scored> best_card_play(bool before) {
        Scored plays[NUM_CARD_TYPES];
        int count = 0;
        Scored items[4 * NUM_CELLS];
        if (before && is_legal_[CARD_BASE + STACK]) {
            const auto plain = best_placement();
            const auto stacked = best_placement(true);
            if (stacked && plain && stacked->score - plain->score >= COMPLETION_GAIN) {
                plays[count++] = {stacked->score - plain->score, CARD_BASE + STACK, 0};
            }
        }
        if (is_legal_[CARD_BASE + SWITCH]) {
            const auto best = max_of(items, swaps(items));
            const double gain = best ? best->score : 0.0;
            if (gain >= COMPLETION_GAIN) plays[count++] = {gain, CARD_BASE + SWITCH, 0};
        }
        if (is_legal_[CARD_BASE + CHOP]) {
            const auto best = max_of(items, chops(items));
            const double gain = best ? best->score : 0.0;
            if (gain >= COMPLETION_GAIN) plays[count++] = {gain, CARD_BASE + CHOP, 0};
        }
        if (!before && is_legal_[CARD_BASE + SPICY]) {
            const auto extra = best_placement();
            if (extra && extra->score >= 0.8) plays[count++] = {extra->score, CARD_BASE + SPICY, 0};
        }
        if (!before && is_legal_[CARD_BASE + WASABI]) {
            const auto best = max_of(items, anchors(items));
            plays[count++] = {1.0 + (best ? best->score : -9.0), CARD_BASE + WASABI, 0};
        }
        std::optional<Scored> best;
        for (int i = 0; i < count; ++i) {
            if (plays[i].score > 0.5 && (!best || greater(plays[i], *best))) best = plays[i];
        }
        return best;
    }

    // -- decisions -----------------------------------------------------------------------------
    int step1_start() {
        if (const auto play = best_card_play(true)) return play->a;
        const auto best = best_placement();
        int dead[MENU_SLOTS];
        const int num_dead = dead_slots(dead);
        if (num_dead && (!best || best->score < COMPLETION_GAIN)) return SLOT_BASE + dead[0];
        if (best) return KIND_BASE + best->a;
        return is_legal_[DONE] ? DONE : legal_[num_legal_ - 1];
    }

    int place_target() {
        int cells[NUM_CELLS];
        for (int i = 0; i < num_legal_; ++i) cells[i] = legal_[i] - CELL_BASE;
        const int kind = s_.kind;  // shown to the seat placing it
        return CELL_BASE + best_of_placements(&kind, 1, cells, num_legal_).b;
    }

    int place_due() {
        const auto best = best_placement(s_.stack_on);
        if (!best || (is_legal_[DONE] && best->score < 0.3)) return DONE;
        return KIND_BASE + best->a;
    }

    int after_placement() {
        const auto play = best_card_play(false);
        return play ? play->a : DONE;
    }

    int switch_first() {
        Scored items[4 * NUM_CELLS];
        const auto best = max_allowed(items, swaps(items));
        return best ? CELL_BASE + best->a : legal_[0];
    }

    int switch_second() {
        Scored items[4 * NUM_CELLS];
        const int count = swaps(items);
        const int a = s_.selected;
        std::optional<Scored> best;
        for (int i = 0; i < count; ++i) {
            if (items[i].a != a && items[i].b != a) continue;
            const int other = items[i].a == a ? items[i].b : items[i].a;
            if (!is_legal_[static_cast<size_t>(CELL_BASE + other)]) continue;
            const Scored option{items[i].score, other, 0};
            if (!best || greater(option, *best)) best = option;
        }
        return best ? CELL_BASE + best->a : legal_[0];
    }

    int chop_target() {
        Scored items[NUM_CELLS];
        const auto best = max_allowed(items, chops(items));
        return best ? CELL_BASE + best->a : legal_[0];
    }

    int chopped_tile() {
        int cells[NUM_CELLS];
        int num_cells = 0;
        for (int i = 0; i < num_legal_; ++i) {
            if (legal_[i] != DONE) cells[num_cells++] = legal_[i] - CELL_BASE;
        }
        const auto from_hand = best_placement();
        if (!num_cells) return DONE;
        const int lifted = s_.lifted;
        const Scored best = best_of_placements(&lifted, 1, cells, num_cells);
        if (from_hand && from_hand->score > best.score) return DONE;
        return CELL_BASE + best.b;
    }

    int wasabi_anchor() {
        Scored items[NUM_CELLS];
        const auto best = max_allowed(items, anchors(items));
        return best ? CELL_BASE + best->a : legal_[0];
    }

    int discard_more() {
        int dead[MENU_SLOTS];
        const int num_dead = dead_slots(dead);
        for (int i = 0; i < num_dead; ++i) {
            if (is_legal_[static_cast<size_t>(SLOT_BASE + dead[i])]) return SLOT_BASE + dead[i];
        }
        return DONE;
    }

    // Menu slots whose recipe cannot score: no token of its length, or a kind that is neither
    // in hand, nor in the pantry, nor a top tile on the board.
    int dead_slots(int* out) const {
        bool on_board[NUM_KINDS] = {};
        for (int c = 0; c < NUM_CELLS; ++c) {
            if (tops_[c] >= 0) on_board[tops_[c]] = true;
        }
        int count = 0;
        for (int slot = 0; slot < MENU_SLOTS; ++slot) {
            const int r = s_.menus[seat_][slot];
            if (r == NONE) continue;
            const Recipe& recipe = RECIPES[r];
            bool gone = false;
            for (int i = 0; i < recipe.length; ++i) {
                const int k = recipe.kinds[i];
                gone = gone || (!hand_[k] && !s_.pantry[k] && !on_board[k]);
            }
            if (!s_.tokens[seat_][recipe.length - 2] || gone) out[count++] = slot;
        }
        return count;
    }

    int reward_pick() const {
        int held = 0, worst = -1;
        for (int t = 0; t < NUM_CARD_TYPES; ++t) {
            if (s_.cards[seat_][t]) {
                held += s_.cards[seat_][t];
                worst = std::max(worst, preference(t));
            }
        }
        int options[NUM_CARD_TYPES];
        std::fill(options, options + NUM_CARD_TYPES, -1);
        for (int i = 0; i < num_legal_; ++i) {
            const int a = legal_[i];
            if (CARD_BASE <= a && a < LENGTH_BASE) options[a - CARD_BASE] = a;
        }
        for (int i = 0; i < num_legal_; ++i) {  // a Wasabi! card from the board
            if (legal_[i] < KIND_BASE && options[WASABI] < 0) options[WASABI] = legal_[i];
        }
        for (int p = 0; p < NUM_CARD_TYPES; ++p) {
            const int card = CARD_PREFERENCE[p];
            if (options[card] < 0) continue;
            if (held < CARD_HAND_LIMIT || p < worst) return options[card];
            return DONE;
        }
        return DONE;
    }

    int reward_discard() const {
        int best = legal_[0];
        for (int i = 1; i < num_legal_; ++i) {
            if (preference(legal_[i] - CARD_BASE) > preference(best - CARD_BASE)) best = legal_[i];
        }
        return best;
    }

    int refill_ingredient() {
        int best = -1;
        for (int i = 0; i < num_legal_; ++i) {
            if (legal_[i] == DONE) continue;
            const int k = legal_[i] - KIND_BASE;
            if (best < 0) {
                best = k;
                continue;
            }
            const double nk = need(k), nb = need(best);
            if (nk > nb || (nk == nb && s_.pantry[k] > s_.pantry[best])) best = k;
        }
        return best < 0 ? DONE : KIND_BASE + best;
    }

    int refill_recipe() const {
        const int choice = length_choice();
        return choice >= 0 ? choice : DONE;
    }

    int length_choice() const {
        int held[NUM_LENGTHS] = {};
        for (int j = 0; j < MENU_SLOTS; ++j) {
            const int r = s_.menus[seat_][j];
            if (r != NONE) ++held[RECIPES[r].length - 2];
        }
        for (int i = 0; i < NUM_LENGTHS; ++i) {
            if (is_legal_[static_cast<size_t>(LENGTH_BASE + i)] && s_.tokens[seat_][i] > held[i]) {
                return LENGTH_BASE + i;
            }
        }
        return -1;
    }

    int gift_pick() const {
        // max(kinds, key=(k != MAKI, pantry[k], -k)): the first greatest.
        int best = legal_[0] - KIND_BASE;
        for (int i = 1; i < num_legal_; ++i) {
            const int k = legal_[i] - KIND_BASE;
            const int km = k != MAKI, bm = best != MAKI;
            if (km != bm ? km > bm
                         : (s_.pantry[k] != s_.pantry[best] ? s_.pantry[k] > s_.pantry[best]
                                                            : -k > -best)) {
                best = k;
            }
        }
        return KIND_BASE + best;
    }

    int draft_pick() const {
        const int choice = length_choice();
        return choice >= 0 ? choice : legal_[0];
    }

    const State& s_;
    const int seat_;
    const Geometry& geo_;
    int hand_[NUM_KINDS] = {};
    int tops_[NUM_CELLS] = {};
    double supply_[NUM_KINDS] = {};
    LiveRecipe live_[MENU_SLOTS];
    int num_live_ = 0;
    bool valued_ = false;
    Threat threats_[NUM_CELLS];
    bool threats_known_ = false;
    double need_[NUM_KINDS] = {};
    bool need_known_[NUM_KINDS] = {};
    std::optional<Scored> placement_[2];
    bool placement_known_[2] = {};
    int legal_[NUM_ACTIONS] = {};
    int num_legal_ = 0;
    std::array<bool, NUM_ACTIONS> is_legal_{};
};

}  // namespace

int heuristic_action(const State& state, int seat, Pcg64& /*rng: the reference draws none*/) {
    Planner planner(state, seat);
    return planner.act();
}

double board_value(const State& state, int seat) {
    Planner planner(state, seat);
    return planner.value_now();
}

int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon) {
    int64_t played = 0;
    int legal[NUM_ACTIONS];
    while (!state.is_terminal() && (depth == 0 || played < depth)) {
        const int count = state.legal_actions(legal);
        if (count == 0) break;  // not reachable from a validated position
        int action;
        if (count == 1) {
            action = legal[0];
        } else if (epsilon > 0 && rng.random() < epsilon) {
            action = legal[rng.integers(static_cast<uint64_t>(count))];
        } else {
            action = heuristic_action(state, state.current_player(), rng);
        }
        if (!state.is_legal(action)) {
            throw std::logic_error("wasabi heuristic chose illegal action " +
                                   std::to_string(action) + " in phase " + state.phase_name());
        }
        state.apply(action);
        ++played;
    }
    return played;
}

std::vector<double> leaf_values(const State& state) {
    const int n = state.num_players;
    std::vector<double> keys = state.score_keys();
    if (!state.is_terminal()) {
        for (int seat = 0; seat < n; ++seat) {
            keys[static_cast<size_t>(seat)] += kProgressWorth * board_value(state, seat);
        }
    }
    std::vector<double> out(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        double total = 0.0;
        for (int j = 0; j < n; ++j) {
            if (j != i) {
                total += std::tanh((keys[static_cast<size_t>(i)] - keys[static_cast<size_t>(j)]) /
                                   kLeafScoreScale);
            }
        }
        out[static_cast<size_t>(i)] = total / (n - 1);
    }
    return out;
}

}  // namespace bge::wasabi
