// The rules (spec §4-§6): legal moves, transitions, scoring; the same steps, in the same
// order, as boardgame_envs/carcassonne_castle/rules.py.
#include "games/carcassonne_castle/state.h"

#include <algorithm>
#include <functional>

namespace bge::carcassonne_castle {

const char* const PHASE_NAMES[6] = {"PLACE", "FOLLOWER", "ORDER", "DOUBLE", "EXTRA", "GAME_OVER"};

State State::blank(Config config) {
    State s;
    s.config = config;
    s.castle = Castle::empty();
    for (int t = 0; t < NUM_TILE_TYPES; ++t) s.unseen[t] = TILE_TYPES[t].count;
    for (int i = 0; i < NUM_STOCKED; ++i) s.corners[i] = 0;
    return s;
}

State State::deal(Config config, Pcg64 rng) {
    const Tables& t = tables();
    State s = blank(config);
    const std::vector<int> order = rng.permutation(NUM_CASTLE_TILES);
    for (int i = 0; i < NUM_CASTLE_TILES; ++i) s.stack[i] = uint8_t(t.tile_copies[order[i]]);
    s.stack_head = 0;
    s.stack_end = NUM_CASTLE_TILES;
    const std::vector<int> walls = rng.permutation(NUM_WALL_TILES);
    for (int i = 0; i < NUM_WALL_TILES; ++i) {
        const int kind = t.wall_tiles[walls[i]];
        if (i < NUM_STOCKED) {
            s.corners[i] = uint8_t(kind);
        } else {
            s.boxed.push_back(uint8_t(kind));
        }
    }
    s.start_player = int(rng.integers(NUM_PLAYERS));
    s.start_turn(s.start_player, false);
    return s;
}

// -- legal moves, one function per decision (spec §4) ----------------------------------------
void State::legal_mask(uint8_t mask[NUM_ACTIONS]) const {
    std::fill(mask, mask + NUM_ACTIONS, uint8_t(0));
    switch (phase) {
        case PLACE: {  // DP1
            if (tile < 0) return;
            const uint8_t* fit = tables().fit[tile];
            for (int cell = 0; cell < NUM_CELLS; ++cell) {
                const int bits = fit[castle.key[cell]];
                for (int r = 0; r < 4; ++r) mask[4 * cell + r] = uint8_t((bits >> r) & 1);
            }
            return;
        }
        case FOLLOWER: {  // DP2
            mask[PASS] = 1;
            if (supply[active] == 0 || last_cell < 0 || castle.is_empty(last_cell)) return;
            int slots[8];
            const int n = castle.open_segments(last_cell, slots);
            for (int i = 0; i < n; ++i) mask[SLOT_BASE + slots[i]] = 1;
            return;
        }
        case ORDER: {  // DP3
            const auto& group = groups[0].empty() ? groups[1] : groups[0];
            for (int name : group) {
                if (name >= 0 && name < NUM_ACTIONS) mask[name] = 1;
            }
            return;
        }
        case DOUBLE:  // DP4
        case EXTRA:   // DP5
            mask[PASS] = mask[YES] = 1;
            return;
        case GAME_OVER:
            return;
    }
}

bool State::is_legal(int64_t action) const {
    if (action < 0 || action >= NUM_ACTIONS) return false;
    const int a = int(action);
    switch (phase) {
        case PLACE:
            return tile >= 0 && a < NUM_PLACEMENTS && castle.placement_fits(tile, a / 4, a % 4);
        case DOUBLE:
        case EXTRA:
            return a == PASS || a == YES;
        case GAME_OVER:
            return false;
        default: {
            uint8_t mask[NUM_ACTIONS];
            legal_mask(mask);
            return mask[a] != 0;
        }
    }
}

int State::legal_actions(int out[NUM_ACTIONS]) const {
    uint8_t mask[NUM_ACTIONS];
    legal_mask(mask);
    int n = 0;
    for (int a = 0; a < NUM_ACTIONS; ++a) {
        if (mask[a]) out[n++] = a;
    }
    return n;
}

int State::usable_kinds(int seat) const {
    if (seat != active || phase == GAME_OVER) return 0;
    int bits = 0;
    for (const HeldTile& h : held[seat]) {
        if (h.kind <= 3 && h.taken < turn) bits |= 1 << h.kind;
    }
    return bits;
}

// -- transitions -------------------------------------------------------------------------------
void State::apply(int action) {
    switch (phase) {
        case PLACE:
            apply_place(action);
            return;
        case FOLLOWER:
            if (action != PASS) {
                castle.add_follower(last_cell, action - SLOT_BASE, active);
                supply[active] -= 1;
            }
            resolve_ties_and_group();
            continue_scoring();
            return;
        case ORDER: {
            const int index = groups[0].empty() ? 1 : 0;
            auto& group = groups[index];
            for (int i = 0; i < group.size(); ++i) {
                if (group[i] == action) {
                    group.erase(i);
                    break;
                }
            }
            take(action, index);
            if (phase == ORDER) continue_scoring();  // not waiting for a DOUBLE decision
            return;
        }
        case DOUBLE: {
            const int name = doubling;
            doubling = -1;
            score(name, 0, action == YES);
            continue_scoring();
            return;
        }
        case EXTRA:
            if (action == YES) {
                use_wall_tile(EXTRA_TURN);
                Text t;
                t.type = Text::EXTRA_TAKEN;
                t.a = active;
                log(t);
                start_turn(active, true);
            } else {
                end_turn();
            }
            return;
        case GAME_OVER:
            return;
    }
}

void State::apply_place(int action) {
    const int cell = action / 4, rotation = action % 4;
    int names[MAX_COMPLETED];
    const int n = castle.place(cell, tile, rotation, active, names);
    completed.clear();
    for (int i = 0; i < n; ++i) completed.push_back(int16_t(names[i]));
    Text t;
    t.type = Text::PLACES;
    t.a = active;
    t.b = tile;
    t.c = rotation;
    t.d = cell;
    log(t);
    tile = -1;
    last_cell = cell;
    phase = FOLLOWER;
}

void State::resolve_ties_and_group() {
    groups[0].clear();
    groups[1].clear();
    for (int name : completed) {
        const int root = castle.feature_named(last_cell, name);
        const int a = castle.count[0][root], b = castle.count[1][root];
        if (a == b) {
            if (a) {
                castle.release(root, supply);
                Text t;
                t.type = Text::TIE;
                t.a = castle.kind[root];
                t.b = castle.size[root];
                log(t);
            }
            continue;
        }
        const int winner = a > b ? 0 : 1;
        groups[winner == active ? 0 : 1].push_back(int16_t(name));
    }
    completed.clear();
}

void State::continue_scoring() {
    phase = ORDER;
    while (!groups[0].empty() || !groups[1].empty()) {
        const int index = groups[0].empty() ? 1 : 0;
        auto& group = groups[index];
        if (group.size() >= 2) return;  // DP3: the active player chooses
        const int name = group[group.size() - 1];
        group.erase(group.size() - 1);
        take(name, index);
        if (phase == DOUBLE) return;
    }
    after_scoring();
}

void State::take(int name, int group) {
    const int root = castle.feature_named(last_cell, name);
    const int kind = castle.kind[root];
    const int usable = usable_kinds(active);
    if (group == 0 && ((kind == TOWER && (usable >> TOWER_X2 & 1)) ||
                       (kind == HOUSE && (usable >> HOUSE_X2 & 1)))) {
        phase = DOUBLE;
        doubling = name;
        return;
    }
    score(name, group, false);
}

void State::score(int name, int group, bool doubled) {
    const int root = castle.feature_named(last_cell, name);
    const int winner = group == 0 ? active : 1 - active;
    int points = castle.value(root);
    const int kind = castle.kind[root];
    if (doubled) {
        use_wall_tile(kind == TOWER ? TOWER_X2 : HOUSE_X2);
        points *= 2;
    }
    Text t;
    t.type = Text::SCORES;
    t.a = winner;
    t.b = points;
    t.c = kind;
    t.d = castle.size[root];
    t.n = doubled;
    log(t);
    advance(winner, points);
    if (kind == HOUSE) {
        const int size = castle.size[root];
        Keep& keep = keeps[winner];
        if (!keep.has || size > keep.size) {
            keep.has = true;
            keep.size = size;
            uint8_t grids[NUM_GRID];
            const int n = castle.locations(root, grids);
            keep.locations.clear();
            for (int i = 0; i < n; ++i) keep.locations.push_back(grids[i]);
            Text k;
            k.type = Text::KEEP_MOVES;
            k.a = winner;
            k.b = size;
            log(k);
        }
    }
    castle.release(root, supply);
}

void State::advance(int seat, int64_t points) {
    scores[seat] += points;
    const int corner = tables().corner_at_space[scores[seat] % TRACK_LENGTH];
    if (corner >= 0 && corners[corner]) {
        const int kind = corners[corner];
        held[seat].push_back(HeldTile{kind, turn});
        corners[corner] = 0;
        Text t;
        t.type = Text::WALL_TAKEN;
        t.a = seat;
        t.b = corner;
        t.c = kind;
        log(t);
    }
}

void State::use_wall_tile(int kind) {
    auto& mine = held[active];
    for (int i = 0; i < mine.size(); ++i) {
        if (mine[i].kind == kind && mine[i].taken < turn) {
            mine.erase(i);
            used.push_back(UsedTile{kind, active});
            return;
        }
    }
}

void State::after_scoring() {
    if ((usable_kinds(active) >> EXTRA_TURN & 1) && stack_size() > 0) {
        phase = EXTRA;
    } else {
        end_turn();
    }
}

void State::end_turn() {
    if (stack_size() == 0) {
        final_scoring();
    } else {
        start_turn(1 - active, false);
    }
}

void State::start_turn(int seat, bool extra) {
    turn += 1;
    active = seat;
    extra_turn = extra;
    last_cell = -1;
    groups[0].clear();
    groups[1].clear();
    doubling = -1;
    if (int(events.size()) > MAX_EVENTS) events.erase(events.begin(), events.end() - MAX_EVENTS);
    Text t;
    t.type = Text::TURN;
    t.n = turn;
    t.a = seat;
    log(t);
    while (stack_size() > 0) {
        const int drawn = stack[stack_head++];
        unseen[drawn] -= 1;
        if (castle.has_placement(drawn)) {
            tile = drawn;
            phase = PLACE;
            return;
        }
        discards.push_back(uint8_t(drawn));
        Text aside;
        aside.type = Text::SET_ASIDE;
        aside.a = drawn;
        log(aside);
    }
    tile = -1;
    final_scoring();
}

// -- final scoring (spec §6.8) -----------------------------------------------------------------
void State::final_scoring() {
    std::vector<FinalItem> final[NUM_PLAYERS];
    int held_count[NUM_PLAYERS][NUM_WALL_KINDS + 1] = {};
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        for (const HeldTile& h : held[seat]) {
            if (h.kind >= 1 && h.kind <= NUM_WALL_KINDS) held_count[seat][h.kind] += 1;
        }
    }
    // F1: the keep bonus
    const int region = castle.largest_empty_region();
    int64_t values[NUM_PLAYERS];
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        const Keep& keep = keeps[seat];
        values[seat] = keep.has ? keep.size + int64_t(config.keep_bonus_tiles) *
                                                  held_count[seat][BIGGER_KEEP]
                                : 0;
    }
    if (values[0] != values[1]) {
        Text label;
        label.type = Text::L_KEEP;
        final[values[0] > values[1] ? 0 : 1].push_back(FinalItem{label, region});
    }
    // F2: courts; F3: unfinished features through kinds 4-6
    std::vector<int> won[NUM_PLAYERS][4];
    std::vector<int> courts[NUM_PLAYERS];
    for (int root = 0; root < castle.num_segments; ++root) {
        if (castle.parent[root] != root) continue;
        const int a = castle.count[0][root], b = castle.count[1][root];
        if (a == b) continue;
        const int seat = a > b ? 0 : 1;
        const int kind = castle.kind[root];
        if (kind == COURT) {
            courts[seat].push_back(castle.markets[root]);
        } else if (kind < NO_KIND && !castle.is_complete(root)) {
            won[seat][kind].push_back(castle.value(root));
        }
    }
    static constexpr int UNFINISHED[3][2] = {
        {UNFINISHED_PATH, PATH}, {UNFINISHED_TOWER, TOWER}, {UNFINISHED_HOUSE, HOUSE}};
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        std::vector<int>& markets = courts[seat];
        std::sort(markets.begin(), markets.end(), std::greater<int>());
        const int upgraded = held_count[seat][MARKET_X4];
        for (size_t i = 0; i < markets.size(); ++i) {
            if (!markets[i]) continue;
            const int per = int(i) < upgraded ? 4 : 3;
            Text label;
            label.type = Text::L_COURT;
            label.a = markets[i];
            label.b = per;
            final[seat].push_back(FinalItem{label, int64_t(per) * markets[i]});
        }
        for (const auto& pair : UNFINISHED) {
            std::vector<int>& targets = won[seat][pair[1]];
            std::sort(targets.begin(), targets.end(), std::greater<int>());
            const size_t take_n = std::min(targets.size(), size_t(held_count[seat][pair[0]]));
            for (size_t i = 0; i < take_n; ++i) {
                Text label;
                label.type = Text::L_UNFINISHED;
                label.a = pair[1];
                final[seat].push_back(FinalItem{label, targets[i]});
            }
        }
        for (int i = 0; i < held_count[seat][BONUS_POINTS]; ++i) {  // F4
            Text label;
            label.type = Text::L_BONUS;
            final[seat].push_back(FinalItem{label, config.wall9_points});
        }
    }
    for (int seat = 0; seat < NUM_PLAYERS; ++seat) {
        for (const FinalItem& item : final[seat]) {
            scores[seat] += item.points;  // no wall tiles are taken now (§6.5)
            Text t;
            t.type = Text::FINAL;
            t.a = seat;
            t.n = item.points;
            t.b = item.label.type;
            t.c = item.label.a;
            t.d = item.label.b;
            log(t);
        }
    }
    final_[0] = std::move(final[0]);
    final_[1] = std::move(final[1]);
    phase = GAME_OVER;
    tile = -1;
    last_cell = -1;
    extra_turn = false;
    completed.clear();
    groups[0].clear();
    groups[1].clear();
    doubling = -1;
}

int64_t State::playout(Pcg64& rng, int64_t depth) {
    int64_t played = 0;
    int legal[NUM_ACTIONS];
    while (!is_terminal() && (depth == 0 || played < depth)) {
        const int n = legal_actions(legal);
        if (n == 0) break;  // a loaded position with no decision: nothing to play
        apply(legal[rng.integers(uint64_t(n))]);
        ++played;
    }
    return played;
}

// -- texts -------------------------------------------------------------------------------------
namespace {

const char* kind_name(int kind) { return kind >= 0 && kind < 4 ? KIND_NAMES[kind] : "?"; }
const char* tile_name(int tile) {
    return tile >= 0 && tile < NUM_TILE_TYPES ? TILE_TYPES[tile].name : "?";
}

std::string label_text(int type, int a, int b) {
    using std::to_string;
    switch (type) {
        case Text::L_KEEP:
            return "keep";
        case Text::L_COURT:
            return "court (" + to_string(a) + " markets x " + to_string(b) + ")";
        case Text::L_UNFINISHED:
            return std::string("unfinished ") + kind_name(a);
        case Text::L_BONUS:
            return "bonus wall tile";
        default:
            return "";
    }
}

}  // namespace

std::string State::text(const Text& t) const {
    using std::to_string;
    const std::string p = "P" + to_string(t.a);
    switch (t.type) {
        case Text::RAW:
            return pool && t.a >= 0 && size_t(t.a) < pool->size() ? (*pool)[size_t(t.a)] : "";
        case Text::PLACES: {
            const XY xy = t.d >= 0 && t.d < NUM_CELLS ? PLAYABLE_CELLS[t.d] : XY{0, 0};
            return p + " places " + tile_name(t.b) + " r" + to_string(t.c) + " on (" +
                   to_string(xy.x) + "," + to_string(xy.y) + ")";
        }
        case Text::EXTRA_TAKEN:
            return p + " takes an extra turn";
        case Text::TIE:
            return std::string(kind_name(t.a)) + " of " + to_string(t.b) + " completed: tie";
        case Text::SCORES:
            return p + " scores " + to_string(t.b) + " for the " + kind_name(t.c) + " of " +
                   to_string(t.d) + (t.n ? " (x2)" : "");
        case Text::KEEP_MOVES:
            return p + "'s keep moves to a house of " + to_string(t.b);
        case Text::WALL_TAKEN:
            return p + " takes the wall tile of C" + to_string(t.b + 1) + ": " +
                   to_string(t.c) + " (" + (t.c >= 1 && t.c <= 9 ? WALL_NAMES[t.c] : "?") + ")";
        case Text::TURN:
            return "turn " + to_string(t.n) + ": " + p;
        case Text::SET_ASIDE:
            return std::string(tile_name(t.a)) + " has no legal placement: set aside";
        case Text::FINAL:
            return "final: " + p + " scores " + to_string(t.n) + " (" + label_text(t.b, t.c, t.d) +
                   ")";
        default:
            return label_text(t.type, t.a, t.b);
    }
}

}  // namespace bge::carcassonne_castle
