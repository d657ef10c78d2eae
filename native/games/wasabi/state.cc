// Wasabi!: legal moves, transitions, scoring and validation (rules.py's State).
#include "games/wasabi/state.h"

#include <algorithm>
#include <stdexcept>

namespace bge::wasabi {

namespace {

inline int lowest(uint64_t m) { return __builtin_ctzll(m); }

Geometry make_geometry(int columns) {
    Geometry g;
    g.columns = columns;
    for (int r = 0; r < ROWS; ++r) {
        for (int c = 0; c < columns; ++c) g.active |= bit(r * GRID_COLUMNS + c);
    }
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (!(g.active & bit(cell))) continue;
        const int r = cell / GRID_COLUMNS, c = cell % GRID_COLUMNS;
        const int near[4][2] = {{r - 1, c}, {r, c - 1}, {r, c + 1}, {r + 1, c}};
        for (const auto& rc : near) {
            if (rc[0] >= 0 && rc[0] < ROWS && rc[1] >= 0 && rc[1] < columns) {
                g.neighbours[cell][g.num_neighbours[cell]++] =
                    static_cast<uint8_t>(rc[0] * GRID_COLUMNS + rc[1]);
            }
        }
    }
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        const int length = i + 2;
        int& w = g.num_windows[i];
        for (int r = 0; r < ROWS; ++r) {
            for (int c = 0; c + length <= columns; ++c) {
                for (int k = 0; k < length; ++k) {
                    g.windows[i][w][k] = static_cast<uint8_t>(r * GRID_COLUMNS + c + k);
                }
                ++w;
            }
        }
        for (int c = 0; c < columns; ++c) {
            for (int r = 0; r + length <= ROWS; ++r) {
                for (int k = 0; k < length; ++k) {
                    g.windows[i][w][k] = static_cast<uint8_t>((r + k) * GRID_COLUMNS + c);
                }
                ++w;
            }
        }
    }
    for (int r = 0; r < ROWS - 1; ++r) {
        for (int c = 0; c < columns - 1; ++c) g.anchors |= bit(r * GRID_COLUMNS + c);
    }
    return g;
}

uint32_t recipe_mask(int r) {
    uint32_t m = 0;
    for (int k = 0; k < RECIPES[r].length; ++k) m |= 1u << RECIPES[r].kinds[k];
    return m;
}

// (some window matches the recipe, some matching window is ideal), spec §4.2 (find_match):
// a window matches when the sum of 1 << kind over its top tiles is the recipe's bit mask.
void find_match(int r, const int tops[NUM_CELLS], const Geometry& geo, bool either,
                bool& match, bool& ideal) {
    const Recipe& recipe = RECIPES[r];
    const int length = recipe.length;
    const uint64_t target = recipe_mask(r);
    match = ideal = false;
    bool reversed_ideal = false;
    for (int w = 0; w < geo.num_windows[length - 2]; ++w) {
        const uint8_t* cells = geo.windows[length - 2][w];
        uint64_t sum = 0;
        for (int k = 0; k < length; ++k) {
            const int t = tops[cells[k]];
            if (t >= 0) sum += uint64_t{1} << t;
        }
        if (sum != target) continue;
        match = true;
        bool forward = true, backward = true;
        for (int k = 0; k < length; ++k) {
            forward = forward && tops[cells[k]] == recipe.kinds[k];
            backward = backward && tops[cells[length - 1 - k]] == recipe.kinds[k];
        }
        ideal = ideal || forward;
        reversed_ideal = reversed_ideal || backward;
    }
    if (!ideal && either) ideal = reversed_ideal;
}

[[noreturn]] void fail(const std::string& field, const std::string& message) {
    throw std::invalid_argument("invalid wasabi position: " + field + ": " + message);
}

std::string cell_name(int cell) {
    return "(" + std::to_string(cell / GRID_COLUMNS) + "," + std::to_string(cell % GRID_COLUMNS) +
           ")";
}

}  // namespace

const Geometry& geometry(int columns) {
    static const Geometry tables[3] = {make_geometry(5), make_geometry(6), make_geometry(7)};
    return tables[columns < 5 ? 0 : (columns > 7 ? 2 : columns - 5)];
}

int phase_from_name(const std::string& name) {
    for (int p = 0; p <= NUM_PHASES; ++p) {
        if (name == PHASE_NAMES[p]) return p;
    }
    return -1;
}

State::State(int n, const Config& cfg) : num_players(n), columns(ACTIVE_COLUMNS[n]), config(cfg) {
    for (int k = 0; k < NUM_KINDS; ++k) pantry[k] = TILE_COUNTS[k];
    for (int t = 0; t < NUM_CARD_TYPES; ++t) kitchen[t] = CARDS_IN_PLAY[n][t];
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        deck_size[i] = DECK_SIZE[i];
        for (int j = 0; j < DECK_SIZE[i]; ++j) decks[i][j] = static_cast<uint8_t>(DECK_FIRST[i] + j);
    }
    for (int s = 0; s < MAX_PLAYERS; ++s) {
        for (int i = 0; i < MENU_SLOTS; ++i) menus[s][i] = NONE;
        for (int i = 0; i < NUM_LENGTHS; ++i) tokens[s][i] = s < n ? TOKENS_PER_PLAYER[i] : 0;
    }
    reset_turn();
}

State State::new_game(int n, const std::vector<uint32_t>& entropy, const Config& config) {
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) throw std::invalid_argument("num_players: 2 to 4");
    if (config.start_player >= n) throw std::invalid_argument("start_player: not a seat");
    Pcg64 rng = Pcg64::from_entropy(entropy);
    State state(n, config);
    for (int i = 0; i < NUM_LENGTHS; ++i) rng.shuffle(state.decks[i], state.deck_size[i]);
    int start = config.start_player;
    if (start == NONE) start = static_cast<int>(rng.integers(static_cast<uint64_t>(n)));
    state.start_player = state.active = start;
    state.phase = GIFT_PICK;
    return state;
}

void State::reset_turn() {
    card_used = NONE;
    card_before = false;
    stack_on = false;
    placements_left = 1;
    must_place = true;
    kind = NONE;
    selected = NONE;
    lifted = NONE;
    marked_size = 0;
    picks = 0;
    new_card = NONE;
}

// -- scoring --------------------------------------------------------------------------------------
int State::points(int seat) const {
    int total = 0;
    for (int i = 0; i < num_completed[seat]; ++i) {
        total += TOKEN_POINTS[RECIPES[completed[seat][i]].length - 2];
    }
    return total;
}

std::vector<double> State::scores() const {
    std::vector<double> out(static_cast<size_t>(num_players));
    for (int s = 0; s < num_players; ++s) out[static_cast<size_t>(s)] = points(s) + cubes[s];
    return out;
}

std::vector<double> State::score_keys() const {
    std::vector<double> out(static_cast<size_t>(num_players));
    const double bound = 21.0 + config.max_turns;  // 20 style cubes + one per Wasabi! play
    for (int s = 0; s < num_players; ++s) {
        out[static_cast<size_t>(s)] =
            winner != NONE ? (s == winner ? 1.0 : 0.0)
                           : static_cast<double>(points(s) + cubes[s]) + cubes[s] / bound;
    }
    return out;
}

int State::tiles_held(int seat) const {
    int total = 0;
    for (int k = 0; k < NUM_KINDS; ++k) total += tiles[seat][k];
    return total;
}

int State::cards_held(int seat) const {
    int total = 0;
    for (int t = 0; t < NUM_CARD_TYPES; ++t) total += cards[seat][t];
    return total;
}

bool State::any_tiles(int seat) const {
    for (int k = 0; k < NUM_KINDS; ++k) {
        if (tiles[seat][k]) return true;
    }
    return false;
}

// -- legal moves ------------------------------------------------------------------------------------
uint64_t State::occupied() const {
    uint64_t m = 0;
    for (int c = 0; c < NUM_CELLS; ++c) {
        if (height[c]) m |= bit(c);
    }
    return m & geo().active;
}

uint64_t State::empties() const { return geo().active & ~occupied() & ~covered; }

uint64_t State::uncovered_occupied() const { return occupied() & ~covered; }

uint64_t State::targets() const {
    return stack_on ? geo().active & ~covered : empties();
}

uint64_t State::switch_partners(int a) const {
    if (a < 0 || a >= NUM_CELLS || (covered & bit(a))) return 0;
    const Geometry& g = geo();
    uint64_t out = 0;
    for (int i = 0; i < g.num_neighbours[a]; ++i) {
        const int b = g.neighbours[a][i];
        if (!(covered & bit(b)) && (height[a] || height[b])) out |= bit(b);
    }
    return out;
}

uint64_t State::switch_firsts() const {
    uint64_t out = 0;
    for (uint64_t m = geo().active & ~covered; m; m &= m - 1) {
        const int a = lowest(m);
        if (switch_partners(a)) out |= bit(a);
    }
    return out;
}

uint64_t State::free_anchors() const {
    uint64_t out = 0;
    for (uint64_t m = geo().anchors; m; m &= m - 1) {
        const int a = lowest(m);
        if (!(block_of(a) & covered)) out |= bit(a);
    }
    return out;
}

bool State::has_swap() const {
    const Geometry& g = geo();
    for (uint64_t m = uncovered_occupied(); m; m &= m - 1) {
        const int a = lowest(m);
        for (int i = 0; i < g.num_neighbours[a]; ++i) {
            if (!(covered & bit(g.neighbours[a][i]))) return true;
        }
    }
    return false;
}

bool State::card_usable(int card, bool before) const {
    switch (card) {
        case STACK:
            return before && any_tiles(active) && uncovered_occupied() != 0;
        case SPICY:
            return any_tiles(active) && empties() != 0;
        case SWITCH:
            return has_swap();
        case CHOP:
            return uncovered_occupied() != 0;
        default:
            return free_anchors() != 0;
    }
}

void State::reward_options(bool types_out[NUM_CARD_TYPES], uint64_t& anchors_out) const {
    bool offered_other = false;
    for (int t = 0; t < NUM_CARD_TYPES; ++t) {
        types_out[t] = kitchen[t] > 0;
        if (types_out[t] && t != card_used) offered_other = true;
    }
    anchors_out = anchors;
    if (anchors && card_used != WASABI) offered_other = true;
    if (card_used != NONE && offered_other) {
        types_out[card_used] = false;
        if (card_used == WASABI) anchors_out = 0;
    }
}

void State::gift_kinds(bool out[NUM_KINDS]) const {
    for (int k = 0; k < NUM_KINDS; ++k) {
        out[k] = GIFTABLE[k] && !(config.gift_excludes_maki && k == MAKI);
    }
}

void State::legal_mask(Mask& mask) const {
    mask.fill(0);
    const int p = active;
    auto cells = [&](uint64_t m) {
        for (; m; m &= m - 1) mask[static_cast<size_t>(CELL_BASE + lowest(m))] = 1;
    };
    auto usable_cards = [&](bool before) {
        for (int t = 0; t < NUM_CARD_TYPES; ++t) {
            if (cards[p][t] && card_usable(t, before)) mask[static_cast<size_t>(CARD_BASE + t)] = 1;
        }
    };
    // Kinds in the active hand; whether there was one.
    auto hand_kinds = [&]() {
        bool any = false;
        for (int k = 0; k < NUM_KINDS; ++k) {
            if (tiles[p][k]) {
                mask[static_cast<size_t>(KIND_BASE + k)] = 1;
                any = true;
            }
        }
        return any;
    };
    switch (phase) {
        case STEP1_START: {
            const bool kinds = empties() ? hand_kinds() : false;
            usable_cards(true);
            for (int i = 0; i < MENU_SLOTS; ++i) {
                if (menus[p][i] != NONE) mask[static_cast<size_t>(SLOT_BASE + i)] = 1;
            }
            if (!kinds) mask[DONE] = 1;
            break;
        }
        case PLACE_TARGET:
            cells(targets());
            break;
        case PLACE_DUE: {
            const bool kinds = targets() ? hand_kinds() : false;
            if (!must_place || !kinds) mask[DONE] = 1;
            break;
        }
        case AFTER_PLACEMENT:
            usable_cards(false);
            mask[DONE] = 1;
            break;
        case SWITCH_FIRST:
            cells(switch_firsts());
            break;
        case SWITCH_SECOND:
            cells(switch_partners(selected));
            break;
        case CHOP_TARGET:
            cells(uncovered_occupied());
            break;
        case CHOPPED_TILE: {
            uint64_t m = empties();
            if (selected >= 0 && selected < NUM_CELLS) m &= ~bit(selected);
            cells(m);
            mask[DONE] = 1;
            break;
        }
        case WASABI_ANCHOR:
            cells(free_anchors());
            break;
        case DISCARD_MORE:
            for (int i = 0; i < MENU_SLOTS; ++i) {
                bool is_marked = false;
                for (int j = 0; j < marked_size; ++j) is_marked = is_marked || marked[j] == i;
                if (menus[p][i] != NONE && !is_marked) mask[static_cast<size_t>(SLOT_BASE + i)] = 1;
            }
            mask[DONE] = 1;
            break;
        case REWARD_PICK: {
            bool types[NUM_CARD_TYPES];
            uint64_t board;
            reward_options(types, board);
            cells(board);
            for (int t = 0; t < NUM_CARD_TYPES; ++t) {
                if (types[t]) mask[static_cast<size_t>(CARD_BASE + t)] = 1;
            }
            mask[DONE] = 1;
            break;
        }
        case REWARD_DISCARD:
            for (int t = 0; t < NUM_CARD_TYPES; ++t) {
                if (cards[p][t] - (t == new_card ? 1 : 0) > 0) {
                    mask[static_cast<size_t>(CARD_BASE + t)] = 1;
                }
            }
            break;
        case REFILL_INGREDIENT:
            for (int k = 0; k < NUM_KINDS; ++k) {
                if (pantry[k]) mask[static_cast<size_t>(KIND_BASE + k)] = 1;
            }
            mask[DONE] = 1;
            break;
        case REFILL_RECIPE:
        case DRAFT_PICK:
            for (int i = 0; i < NUM_LENGTHS; ++i) {
                if (deck_size[i]) mask[static_cast<size_t>(LENGTH_BASE + i)] = 1;
            }
            if (phase == REFILL_RECIPE) mask[DONE] = 1;
            break;
        case GIFT_PICK: {
            bool giftable[NUM_KINDS];
            gift_kinds(giftable);
            for (int i = 0; i < gift_size; ++i) giftable[gift[i]] = false;
            for (int k = 0; k < NUM_KINDS; ++k) {
                if (giftable[k] && pantry[k]) mask[static_cast<size_t>(KIND_BASE + k)] = 1;
            }
            break;
        }
        case GAME_OVER:
            break;
    }
}

bool State::is_legal(int64_t action) const {
    if (action < 0 || action >= NUM_ACTIONS || phase == GAME_OVER) return false;
    Mask mask;
    legal_mask(mask);
    return mask[static_cast<size_t>(action)] != 0;
}

int State::legal_actions(int* out) const {
    Mask mask;
    legal_mask(mask);
    int count = 0;
    for (int a = 0; a < NUM_ACTIONS; ++a) {
        if (mask[static_cast<size_t>(a)]) out[count++] = a;
    }
    return count;
}

int State::playout(Pcg64& rng, int depth) {
    int played = 0;
    int legal[NUM_ACTIONS];
    while (!is_terminal() && (depth == 0 || played < depth)) {
        const int count = legal_actions(legal);
        if (count == 0) break;  // not reachable from a validated position
        apply(legal[rng.integers(static_cast<uint64_t>(count))]);
        ++played;
    }
    return played;
}

// -- transitions ------------------------------------------------------------------------------------
void State::push_tile(int cell, int k) {
    if (height[cell] < NUM_TILES) stacks[cell][height[cell]++] = static_cast<uint8_t>(k);
}

int State::pop_tile(int cell) {
    if (!height[cell]) return NONE;
    return stacks[cell][--height[cell]];
}

void State::apply(int action) {
    const int p = active;
    switch (phase) {
        case GIFT_PICK: {
            const int k = action - KIND_BASE;
            const int receiver = (active + 1) % num_players;
            --pantry[k];
            ++tiles[receiver][k];
            if (gift_size < NUM_KINDS) gift[gift_size++] = k;
            if (gift_size == GIFT_SIZE) {
                gift_size = 0;
                active = receiver;
                if (receiver == start_player) phase = DRAFT_PICK;
            }
            break;
        }
        case DRAFT_PICK: {
            draw_recipe(action - LENGTH_BASE);
            bool full = true;
            for (int i = 0; i < MENU_SLOTS; ++i) full = full && menus[active][i] != NONE;
            if (full) {
                active = (active + 1) % num_players;
                if (active == start_player) begin_turn(active);
            }
            break;
        }
        case STEP1_START:
            if (action == DONE) {
                end_step1();
            } else if (action >= SLOT_BASE) {
                marked[0] = action - SLOT_BASE;
                marked_size = 1;
                phase = DISCARD_MORE;
            } else if (action >= CARD_BASE) {
                play_card(action - CARD_BASE, true);
            } else {
                kind = action - KIND_BASE;
                phase = PLACE_TARGET;
            }
            break;
        case PLACE_TARGET: {
            const int k = kind;
            --tiles[p][k];
            push_tile(action - CELL_BASE, k);
            kind = NONE;
            stack_on = false;
            --placements_left;
            must_place = false;
            if (check()) return;
            if (placements_left > 0) {
                phase = PLACE_DUE;
            } else if (card_used == NONE) {
                phase = AFTER_PLACEMENT;
            } else {
                end_step1();
            }
            break;
        }
        case PLACE_DUE:
            if (action == DONE) {
                end_step1();
            } else {
                kind = action - KIND_BASE;
                phase = PLACE_TARGET;
            }
            break;
        case AFTER_PLACEMENT:
            if (action == DONE) {
                end_step1();
            } else {
                play_card(action - CARD_BASE, false);
            }
            break;
        case SWITCH_FIRST:
            selected = action - CELL_BASE;
            phase = SWITCH_SECOND;
            break;
        case SWITCH_SECOND: {
            const int a = selected, b = action - CELL_BASE;
            uint8_t tmp[NUM_TILES];
            const uint8_t ha = height[a];
            std::copy(stacks[a], stacks[a] + ha, tmp);
            std::copy(stacks[b], stacks[b] + height[b], stacks[a]);
            height[a] = height[b];
            std::copy(tmp, tmp + ha, stacks[b]);
            height[b] = ha;
            selected = NONE;
            if (check()) return;
            after_card_effect();
            break;
        }
        case CHOP_TARGET: {
            const int cell = action - CELL_BASE;
            lifted = pop_tile(cell);
            selected = cell;
            if (check()) return;  // a 10th recipe: game_over returns the lifted tile
            if (card_before) {
                phase = CHOPPED_TILE;
            } else {
                return_lifted();
                end_step1();
            }
            break;
        }
        case CHOPPED_TILE:
            if (action == DONE) {
                return_lifted();
                phase = PLACE_DUE;
                return;
            }
            push_tile(action - CELL_BASE, lifted);
            lifted = selected = NONE;
            placements_left = 0;  // the chopped tile was this turn's placement
            must_place = false;
            if (check()) return;
            end_step1();
            break;
        case WASABI_ANCHOR:
            --cards[p][WASABI];
            anchors |= bit(action - CELL_BASE);
            covered |= block_of(action - CELL_BASE);
            ++cubes[p];
            if (check()) return;
            after_card_effect();
            break;
        case DISCARD_MORE: {
            if (action != DONE) {
                if (marked_size < MENU_SLOTS) marked[marked_size++] = action - SLOT_BASE;
                return;
            }
            // The marked slots in ascending order go under their decks.
            for (int slot = 0; slot < MENU_SLOTS; ++slot) {
                bool is_marked = false;
                for (int j = 0; j < marked_size; ++j) is_marked = is_marked || marked[j] == slot;
                const int recipe = menus[p][slot];
                if (!is_marked || recipe == NONE) continue;
                const int deck = RECIPES[recipe].length - 2;
                if (deck_size[deck] < MAX_DECK) {
                    decks[deck][deck_size[deck]++] = static_cast<uint8_t>(recipe);
                }
                menus[p][slot] = NONE;
            }
            marked_size = 0;
            end_step1();
            break;
        }
        case REWARD_PICK: {
            --picks;
            if (action == DONE) {
                after_pick();
                return;
            }
            int card;
            if (action < KIND_BASE) {  // a Wasabi! card from the board: its cells are uncovered
                const int taken = action - CELL_BASE;
                anchors &= ~bit(taken);
                covered = 0;
                for (uint64_t m = anchors; m; m &= m - 1) covered |= block_of(lowest(m));
                card = WASABI;
            } else {
                card = action - CARD_BASE;
                --kitchen[card];
            }
            ++cards[p][card];
            new_card = card;
            if (cards_held(p) > CARD_HAND_LIMIT) {
                phase = REWARD_DISCARD;
            } else {
                after_pick();
            }
            break;
        }
        case REWARD_DISCARD: {
            const int card = action - CARD_BASE;
            --cards[p][card];
            ++kitchen[card];
            after_pick();
            break;
        }
        case REFILL_INGREDIENT:
            if (action == DONE) {
                to_refill_recipes();
                return;
            }
            --pantry[action - KIND_BASE];
            ++tiles[p][action - KIND_BASE];
            to_refill_ingredients();
            break;
        case REFILL_RECIPE:
            if (action == DONE) {
                end_turn();
                return;
            }
            draw_recipe(action - LENGTH_BASE);
            to_refill_recipes();
            break;
        case GAME_OVER:
            break;
    }
}

// Play a card (spec §4.6). A Wasabi! card stays in hand until WASABI_ANCHOR lays it.
void State::play_card(int card, bool before) {
    card_used = card;
    card_before = before;
    if (card != WASABI) {
        --cards[active][card];
        ++kitchen[card];
    }
    switch (card) {
        case STACK:
            stack_on = true;
            phase = PLACE_DUE;
            break;
        case SPICY:
            ++placements_left;
            must_place = before;  // Spicy! before: the first placement is still due
            phase = PLACE_DUE;
            break;
        case SWITCH:
            phase = SWITCH_FIRST;
            break;
        case CHOP:
            phase = CHOP_TARGET;
            break;
        default:
            phase = WASABI_ANCHOR;
    }
}

void State::return_lifted() {
    if (lifted != NONE) ++pantry[lifted];
    lifted = selected = NONE;
}

void State::after_card_effect() {
    if (card_before) {
        phase = PLACE_DUE;
    } else {
        end_step1();
    }
}

// Completion check for the active player (spec §4.3); true if the game ended.
bool State::check() {
    const int p = active;
    int candidates[MENU_SLOTS];
    int num_candidates = 0;
    for (int slot = 0; slot < MENU_SLOTS; ++slot) {
        const int r = menus[p][slot];
        if (r != NONE && tokens[p][RECIPES[r].length - 2]) candidates[num_candidates++] = slot;
    }
    if (!num_candidates) return false;
    int tops[NUM_CELLS];
    uint32_t in_play = 0;
    for (int c = 0; c < NUM_CELLS; ++c) {
        tops[c] = top(c);
        if (tops[c] >= 0) in_play |= 1u << tops[c];
    }
    // (ideal, slot) of the matches: ideal ones first, then by slot.
    int found_slot[MENU_SLOTS];
    bool found_ideal[MENU_SLOTS];
    int num_found = 0;
    bool matches[MENU_SLOTS] = {false, false, false};
    bool ideals[MENU_SLOTS] = {false, false, false};
    for (int i = 0; i < num_candidates; ++i) {
        const int r = menus[p][candidates[i]];
        const uint32_t need = recipe_mask(r);
        if ((in_play & need) != need) continue;  // some kind is on no top tile
        find_match(r, tops, geo(), config.style_either_direction, matches[i], ideals[i]);
    }
    for (int pass = 0; pass < 2; ++pass) {
        for (int i = 0; i < num_candidates; ++i) {
            if (matches[i] && ideals[i] == (pass == 0)) {
                found_slot[num_found] = candidates[i];
                found_ideal[num_found++] = ideals[i];
            }
        }
    }
    if (!num_found) return false;
    int left[NUM_LENGTHS];
    std::copy(tokens[p], tokens[p] + NUM_LENGTHS, left);
    bool chosen[MENU_SLOTS] = {false, false, false};
    bool chosen_ideal[MENU_SLOTS] = {false, false, false};
    for (int i = 0; i < num_found; ++i) {
        const int length = RECIPES[menus[p][found_slot[i]]].length;
        if (left[length - 2]) {
            --left[length - 2];
            chosen[found_slot[i]] = true;
            chosen_ideal[found_slot[i]] = found_ideal[i];
        }
    }
    for (int slot = 0; slot < MENU_SLOTS; ++slot) {
        if (!chosen[slot]) continue;
        const int r = menus[p][slot];
        const int length = RECIPES[r].length;
        menus[p][slot] = NONE;
        --tokens[p][length - 2];
        if (num_completed[p] < MAX_COMPLETED) {
            completed[p][num_completed[p]] = static_cast<uint8_t>(r);
            completed_ideal[p][num_completed[p]++] = chosen_ideal[slot];
        }
        if (chosen_ideal[slot]) cubes[p] += TOKEN_CUBES[length - 2];
        ++picks;
    }
    if (num_completed[p] >= RECIPES_TO_WIN) {
        winner = p;
        game_over();
        return true;
    }
    return false;
}

// The game ends (spec §6): a lifted tile goes back to the pantry; no turn context is kept.
void State::game_over() {
    return_lifted();
    reset_turn();
    phase = GAME_OVER;
}

void State::end_step1() {
    if (picks) {
        phase = REWARD_PICK;
    } else {
        to_refill_ingredients();
    }
}

void State::after_pick() {
    new_card = NONE;
    if (picks) {
        phase = REWARD_PICK;
    } else {
        to_refill_ingredients();
    }
}

void State::to_refill_ingredients() {
    bool pantry_left = false;
    for (int k = 0; k < NUM_KINDS; ++k) pantry_left = pantry_left || pantry[k];
    if (tiles_held(active) < TILE_HAND_LIMIT && pantry_left) {
        phase = REFILL_INGREDIENT;
    } else {
        to_refill_recipes();
    }
}

void State::to_refill_recipes() {
    bool slot_free = false, decks_left = false;
    for (int i = 0; i < MENU_SLOTS; ++i) slot_free = slot_free || menus[active][i] == NONE;
    for (int i = 0; i < NUM_LENGTHS; ++i) decks_left = decks_left || deck_size[i];
    if (slot_free && decks_left) {
        phase = REFILL_RECIPE;
    } else {
        end_turn();
    }
}

void State::draw_recipe(int deck) {
    if (deck < 0 || deck >= NUM_LENGTHS || !deck_size[deck]) return;
    for (int i = 0; i < MENU_SLOTS; ++i) {
        if (menus[active][i] == NONE) {
            menus[active][i] = decks[deck][0];
            --deck_size[deck];
            std::copy(decks[deck] + 1, decks[deck] + 1 + deck_size[deck], decks[deck]);
            return;
        }
    }
}

bool State::board_full() const { return (geo().active & ~occupied() & ~covered) == 0; }

void State::end_turn() {
    ++turn;
    if (board_full() || turn >= config.max_turns) {
        game_over();
        return;
    }
    begin_turn((active + 1) % num_players);
}

void State::begin_turn(int seat) {
    active = seat;
    reset_turn();
    phase = STEP1_START;
}

// -- validation (State._validate and its helpers) ----------------------------------------------
namespace {

struct Context {
    int card_used;
    bool card_before, stack_on;
    int placements_left;
    bool must_place;
    bool operator==(const Context& o) const {
        return card_used == o.card_used && card_before == o.card_before &&
               stack_on == o.stack_on && placements_left == o.placements_left &&
               must_place == o.must_place;
    }
};

constexpr Context FRESH{NONE, false, false, 1, true};
constexpr Context PLACED{NONE, false, false, 0, false};
Context before_ctx(int card) { return {card, true, false, 1, true}; }
Context after_ctx(int card) { return {card, false, false, 0, false}; }

bool placement_due(const Context& c) {
    return c == Context{STACK, true, true, 1, true} || c == Context{SPICY, true, false, 2, true} ||
           c == Context{SPICY, true, false, 1, false} ||
           c == Context{SPICY, false, false, 1, false} || c == before_ctx(SWITCH) ||
           c == before_ctx(CHOP) || c == before_ctx(WASABI);
}

bool step1_end(const Context& c) {
    if (c == FRESH || c == PLACED) return true;
    if (placement_due(c) && !c.stack_on) return true;
    for (int card = 0; card < NUM_CARD_TYPES; ++card) {
        if (card != STACK && c == after_ctx(card)) return true;
        if (c == Context{card, true, false, 0, false}) return true;
    }
    return false;
}

bool context_ok(Phase phase, const Context& c) {
    switch (phase) {
        case GIFT_PICK:
        case DRAFT_PICK:
        case STEP1_START:
        case DISCARD_MORE:
        case GAME_OVER:
            return c == FRESH;
        case PLACE_TARGET:
            return placement_due(c) || c == FRESH;
        case PLACE_DUE:
            return placement_due(c);
        case AFTER_PLACEMENT:
            return c == PLACED;
        case SWITCH_FIRST:
        case SWITCH_SECOND:
            return c == before_ctx(SWITCH) || c == after_ctx(SWITCH);
        case CHOP_TARGET:
            return c == before_ctx(CHOP) || c == after_ctx(CHOP);
        case CHOPPED_TILE:
            return c == before_ctx(CHOP);
        case WASABI_ANCHOR:
            return c == before_ctx(WASABI) || c == after_ctx(WASABI);
        default:  // REWARD_PICK, REWARD_DISCARD, REFILL_INGREDIENT, REFILL_RECIPE
            return step1_end(c);
    }
}

bool picks_ok(Phase phase, int picks) {
    switch (phase) {
        case PLACE_TARGET:
        case PLACE_DUE:
        case AFTER_PLACEMENT:
        case SWITCH_FIRST:
        case SWITCH_SECOND:
        case CHOP_TARGET:
        case CHOPPED_TILE:
        case WASABI_ANCHOR:
            return picks >= 0 && picks <= MENU_SLOTS;
        case REWARD_PICK:
            return picks >= 1 && picks <= MENU_SLOTS;
        case REWARD_DISCARD:
            return picks >= 0 && picks < MENU_SLOTS;
        default:
            return picks == 0;
    }
}

}  // namespace

void State::validate() const {
    const int n = num_players;
    if (n < MIN_PLAYERS || n > MAX_PLAYERS) fail("num_players", "not 2 to 4");
    if (phase < GIFT_PICK || phase > GAME_OVER) fail("phase", "unknown phase");
    if (config.max_turns < 1 || config.max_turns > MAX_TURNS_LIMIT) fail("config", "max_turns");
    if (config.start_player < NONE || config.start_player >= MAX_PLAYERS) {
        fail("config", "start_player");
    }
    if (active < 0 || active >= n) fail("active", "not a seat");
    if (start_player < 0 || start_player >= n) fail("start_player", "not a seat");
    if (winner != NONE && (winner < 0 || winner >= n)) fail("winner", "not a seat");
    if (config.start_player != NONE && config.start_player != start_player) {
        fail("start_player", "the option fixes another seat");
    }
    const int ranges[5][2] = {{kind, NUM_KINDS},
                              {lifted, NUM_KINDS},
                              {card_used, NUM_CARD_TYPES},
                              {new_card, NUM_CARD_TYPES},
                              {selected, NUM_CELLS}};
    const char* names[5] = {"kind", "lifted", "card_used", "new_card", "selected"};
    for (int i = 0; i < 5; ++i) {
        if (ranges[i][0] != NONE && (ranges[i][0] < 0 || ranges[i][0] >= ranges[i][1])) {
            fail(names[i], "not null or in range");
        }
    }
    if (gift_size < 0 || gift_size > NUM_KINDS) fail("gift", "too many kinds");
    for (int i = 0; i < gift_size; ++i) {
        if (gift[i] < 0 || gift[i] >= NUM_KINDS) fail("gift", "a kind out of range");
        for (int j = 0; j < i; ++j) {
            if (gift[j] == gift[i]) fail("gift", "must hold distinct kinds");
        }
    }
    if (marked_size < 0 || marked_size > MENU_SLOTS) fail("marked", "too many slots");
    for (int i = 0; i < marked_size; ++i) {
        if (marked[i] < 0 || marked[i] >= MENU_SLOTS) fail("marked", "a slot out of range");
        for (int j = 0; j < i; ++j) {
            if (marked[j] == marked[i]) fail("marked", "must hold distinct slots");
        }
    }
    validate_components();
    validate_end();
    validate_context();
    if (phase != GAME_OVER) {
        Mask mask;
        legal_mask(mask);
        bool any = false;
        for (uint8_t m : mask) any = any || m;
        if (!any) fail("phase", std::string(phase_name()) + " would have no legal action");
    }
}

void State::validate_components() const {
    const int n = num_players;
    const Geometry& g = geo();
    if (columns != ACTIVE_COLUMNS[n]) fail("columns", "not the player count's");
    int64_t counts[NUM_KINDS] = {};
    int total_tiles = 0;
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (height[cell] > NUM_TILES) fail("stacks", "a stack too high");
        for (int i = 0; i < height[cell]; ++i) {
            if (stacks[cell][i] >= NUM_KINDS) fail("stacks", "a kind out of range");
            ++counts[stacks[cell][i]];
        }
        total_tiles += height[cell];
        if (height[cell] && !(g.active & bit(cell))) {
            fail("stacks", "a tile lies outside the active area");
        }
    }
    if (total_tiles > NUM_TILES) fail("stacks", "more tiles than the game has");
    uint64_t cover = 0;
    for (uint64_t m = anchors; m; m &= m - 1) {
        const int a = lowest(m);
        if (!(g.anchors & bit(a)) || (block_of(a) & cover)) {
            fail("anchors", "Wasabi! card at " + cell_name(a) + " is misplaced");
        }
        cover |= block_of(a);
    }
    if (cover != covered) fail("anchors", "covered cells do not match the cards");
    for (int k = 0; k < NUM_KINDS; ++k) {
        if (pantry[k] < 0) fail("pantry", "a tile count is negative");
    }
    for (int s = 0; s < n; ++s) {
        int64_t sum = 0;
        for (int k = 0; k < NUM_KINDS; ++k) {
            if (tiles[s][k] < 0) fail("tiles", "a negative count");
            sum += tiles[s][k];
        }
        if (sum > TILE_HAND_LIMIT) fail("tiles", "seat " + std::to_string(s) + " holds too many");
    }
    for (int k = 0; k < NUM_KINDS; ++k) {
        int64_t c = counts[k] + pantry[k] + (lifted == k ? 1 : 0);
        for (int s = 0; s < n; ++s) c += tiles[s][k];
        if (c != TILE_COUNTS[k]) fail("pantry", "the 72 tiles are not conserved");
    }
    for (int t = 0; t < NUM_CARD_TYPES; ++t) {
        if (kitchen[t] < 0) fail("kitchen", "a card count is negative");
    }
    for (int s = 0; s < n; ++s) {
        const int limit = CARD_HAND_LIMIT + (phase == REWARD_DISCARD && s == active ? 1 : 0);
        int64_t sum = 0;
        for (int t = 0; t < NUM_CARD_TYPES; ++t) {
            if (cards[s][t] < 0) fail("cards", "a negative count");
            sum += cards[s][t];
        }
        if (sum > limit) fail("cards", "seat " + std::to_string(s) + " holds too many");
    }
    const int num_anchors = __builtin_popcountll(anchors);
    for (int t = 0; t < NUM_CARD_TYPES; ++t) {
        int64_t c = static_cast<int64_t>(kitchen[t]) + (t == WASABI ? num_anchors : 0);
        for (int s = 0; s < n; ++s) c += cards[s][t];
        if (c != CARDS_IN_PLAY[n][t]) fail("kitchen", "action cards are not conserved");
    }
    int places[NUM_RECIPES] = {};
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        if (deck_size[i] < 0 || deck_size[i] > MAX_DECK) fail("decks", "a deck too long");
        for (int j = 0; j < deck_size[i]; ++j) {
            const int r = decks[i][j];
            if (r >= NUM_RECIPES) fail("decks", "a recipe out of range");
            ++places[r];
            if (RECIPES[r].length != i + 2) fail("decks", "a deck holds another length");
        }
    }
    for (int s = 0; s < n; ++s) {
        for (int i = 0; i < MENU_SLOTS; ++i) {
            const int r = menus[s][i];
            if (r == NONE) continue;
            if (r < 0 || r >= NUM_RECIPES) fail("menus", "a recipe out of range");
            ++places[r];
        }
        if (num_completed[s] < 0 || num_completed[s] > MAX_COMPLETED) {
            fail("completed", "too many recipes");
        }
        for (int i = 0; i < num_completed[s]; ++i) {
            if (completed[s][i] >= NUM_RECIPES) fail("completed", "a recipe out of range");
            ++places[completed[s][i]];
        }
    }
    for (int r = 0; r < NUM_RECIPES; ++r) {
        if (places[r] != 1) fail("decks", "the 52 recipes are not each in one place");
    }
    const int64_t max_cubes = MAX_STYLE_CUBES + static_cast<int64_t>(config.max_turns);
    for (int s = 0; s < n; ++s) {
        int used[NUM_LENGTHS] = {};
        int64_t style = 0;
        for (int i = 0; i < num_completed[s]; ++i) {
            const int length = RECIPES[completed[s][i]].length;
            ++used[length - 2];
            if (completed_ideal[s][i]) style += TOKEN_CUBES[length - 2];
        }
        for (int i = 0; i < NUM_LENGTHS; ++i) {
            if (tokens[s][i] < 0) fail("tokens", "a negative token count");
        }
        for (int i = 0; i < NUM_LENGTHS; ++i) {
            if (static_cast<int64_t>(tokens[s][i]) + used[i] != TOKENS_PER_PLAYER[i]) {
                fail("tokens", "unused and used tokens do not add up");
            }
        }
        if (cubes[s] < style || cubes[s] > max_cubes) fail("cubes", "out of range");
    }
}

void State::validate_end() const {
    const int max_turns = config.max_turns;
    int most = 0, tens = 0;
    for (int s = 0; s < num_players; ++s) {
        most = std::max(most, num_completed[s]);
        tens += num_completed[s] == RECIPES_TO_WIN ? 1 : 0;
    }
    if (turn < 0 || turn > max_turns) fail("turn", "not 0..max_turns");
    if (phase != GAME_OVER) {
        if (winner != NONE) fail("winner", "set while the game goes on");
        if (turn == max_turns) fail("turn", "the turn limit ended the game");
        if (most >= RECIPES_TO_WIN) fail("completed", "a seat completed 10 recipes");
    } else if (winner != NONE) {
        if (num_completed[winner] != RECIPES_TO_WIN || tens != 1) {
            fail("winner", "must be the one seat with 10 recipes done");
        }
        if (winner != active) fail("winner", "only the active player completes recipes");
    } else {
        if (most >= RECIPES_TO_WIN) fail("winner", "a seat completed 10 recipes, but none won");
        if (!board_full() && turn != max_turns) {
            fail("phase", "GAME_OVER without a 10th recipe, a full board or the turn limit");
        }
    }
}

void State::validate_context() const {
    const int p = active;
    if ((kind != NONE) != (phase == PLACE_TARGET)) fail("kind", "set exactly in PLACE_TARGET");
    if ((lifted != NONE) != (phase == CHOPPED_TILE)) fail("lifted", "set exactly in CHOPPED_TILE");
    if ((selected != NONE) != (phase == SWITCH_SECOND || phase == CHOPPED_TILE)) {
        fail("selected", "set exactly in SWITCH_SECOND, CHOPPED_TILE");
    }
    if ((new_card != NONE) != (phase == REWARD_DISCARD)) {
        fail("new_card", "set exactly in REWARD_DISCARD");
    }
    if ((marked_size > 0) != (phase == DISCARD_MORE)) fail("marked", "set exactly in DISCARD_MORE");
    if (gift_size && phase != GIFT_PICK) fail("gift", "set outside GIFT_PICK");
    const Context c{card_used, card_before, stack_on, placements_left, must_place};
    if (!context_ok(phase, c)) {
        fail("card_used, card_before, stack_on, placements_left, must_place",
             std::string("not a turn context of ") + phase_name());
    }
    if (!picks_ok(phase, picks) || picks > num_completed[p]) {
        fail("picks", "pending picks are not possible in " + std::string(phase_name()));
    }
    switch (phase) {
        case GIFT_PICK:
        case DRAFT_PICK:
            validate_setup();
            break;
        case STEP1_START:
            if (board_full()) fail("stacks", "a turn starts with an empty uncovered cell");
            break;
        case PLACE_TARGET:
            if (!tiles[p][kind]) fail("kind", "the kind to place is not in hand");
            break;
        case SWITCH_SECOND:
        case CHOPPED_TILE:
            if (!(geo().active & bit(selected)) || (covered & bit(selected))) {
                fail("selected", "not an active uncovered cell");
            }
            break;
        case WASABI_ANCHOR:
            if (!cards[p][WASABI]) fail("cards", "lays a Wasabi! card it does not hold");
            break;
        case DISCARD_MORE:
            for (int i = 0; i < marked_size; ++i) {
                if (menus[p][marked[i]] == NONE) fail("marked", "marks an empty menu slot");
            }
            break;
        case REWARD_DISCARD:
            if (cards_held(p) != CARD_HAND_LIMIT + 1 || !cards[p][new_card]) {
                fail("new_card", "must hold 3 cards, the new one among them");
            }
            break;
        case REFILL_INGREDIENT: {
            bool pantry_left = false;
            for (int k = 0; k < NUM_KINDS; ++k) pantry_left = pantry_left || pantry[k];
            if (tiles_held(p) >= TILE_HAND_LIMIT || !pantry_left) {
                fail("tiles", "may not take tiles");
            }
            break;
        }
        case REFILL_RECIPE: {
            bool slot_free = false, decks_left = false;
            for (int i = 0; i < MENU_SLOTS; ++i) slot_free = slot_free || menus[p][i] == NONE;
            for (int i = 0; i < NUM_LENGTHS; ++i) decks_left = decks_left || deck_size[i];
            if (!slot_free || !decks_left) fail("menus", "may not draw");
            break;
        }
        default:
            break;
    }
}

void State::validate_setup() const {
    const int n = num_players, p = active;
    if (turn) fail("turn", "not 0 during the setup");
    if (occupied() || anchors) fail("stacks", "the board is empty during the setup");
    for (int s = 0; s < n; ++s) {
        if (cards_held(s) || num_completed[s] || cubes[s]) {
            fail("cards", "nobody holds cards, recipes done or cubes during the setup");
        }
    }
    // Tiles on inactive cells were refused already; occupied() covers the active ones.
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (height[cell]) fail("stacks", "the board is empty during the setup");
    }
    bool giftable[NUM_KINDS];
    gift_kinds(giftable);
    for (int i = 0; i < gift_size; ++i) {
        if (!giftable[gift[i]]) fail("gift", "holds a kind that may not be given");
    }
    const int at = ((p - start_player) % n + n) % n;
    for (int i = 0; i < n; ++i) {
        const int seat = (start_player + i) % n;
        const int receiver = (seat + 1) % n;
        const int* hand = tiles[receiver];
        bool ok = true;
        if (phase == DRAFT_PICK || i < at) {
            int sum = 0, most = 0;
            for (int k = 0; k < NUM_KINDS; ++k) {
                sum += hand[k];
                most = std::max(most, hand[k]);
                if (hand[k] && !giftable[k]) ok = false;
            }
            ok = ok && sum == GIFT_SIZE && most == 1;
        } else if (i == at) {
            for (int k = 0; k < NUM_KINDS; ++k) {
                int expected = 0;
                for (int j = 0; j < gift_size; ++j) expected += gift[j] == k ? 1 : 0;
                ok = ok && hand[k] == expected;
            }
        } else {
            for (int k = 0; k < NUM_KINDS; ++k) ok = ok && hand[k] == 0;
        }
        if (!ok) fail("tiles", "seat " + std::to_string(receiver) + "'s tiles are not its gift");
        int held = 0;
        for (int j = 0; j < MENU_SLOTS; ++j) held += menus[seat][j] != NONE ? 1 : 0;
        int expected;
        if (phase == GIFT_PICK || i > at) {
            expected = 0;
        } else if (i < at) {
            expected = MENU_SLOTS;
        } else {
            expected = held < MENU_SLOTS ? held : -1;
        }
        bool gap = false;
        for (int j = 0; j < held && j < MENU_SLOTS; ++j) gap = gap || menus[seat][j] == NONE;
        if (held != expected || gap) {
            fail("menus", "seat " + std::to_string(seat) + "'s menu is not its draft so far");
        }
    }
}

}  // namespace bge::wasabi
