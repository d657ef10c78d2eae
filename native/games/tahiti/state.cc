// Tahiti: legal moves, transitions and scoring, move for move as rules.py plays them.
#include "games/tahiti/state.h"

#include <cstring>
#include <vector>

namespace bge::tahiti {

namespace {

int sum_goods(const int counts[NUM_GOODS]) {
    int total = 0;
    for (int g = 0; g < NUM_GOODS; ++g) total += counts[g];
    return total;
}

int positive_mod(int a, int n) { return ((a % n) + n) % n; }

template <typename T>
T pop_front(T* values, uint8_t& size) {
    const T first = values[0];
    for (int i = 1; i < size; ++i) values[i - 1] = values[i];
    --size;
    return first;
}

void append_goods_text(std::string& out, const uint8_t* goods, int count) {
    if (count == 0) {
        out += "nothing";
        return;
    }
    for (int i = 0; i < count; ++i) {
        if (i) out += ", ";
        out += GOODS_NAMES[goods[i]];
    }
}

}  // namespace

// -- construction (§3) -----------------------------------------------------------------------
State State::blank(int num_players, int max_rounds, const Pcg64& rng) {
    State s;
    s.num_players = num_players;
    s.max_rounds = max_rounds;
    s.side = home_side(num_players);
    s.removed = cubes_removed_per_kind(num_players);
    s.rng = rng;
    for (int t = 0; t < NUM_TILES; ++t) {
        s.tile_cell[t] = -1;
        s.rotation[t] = 0;
        s.reefs[t] = 0;
        s.edge[t] = false;
    }
    std::memset(s.island_cubes, 0, sizeof s.island_cubes);
    std::memset(s.tokens, 0, sizeof s.tokens);
    std::memset(s.stacks, 0, sizeof s.stacks);
    std::memset(s.token_pile, 0, sizeof s.token_pile);
    std::memset(s.cell_tile, -1, sizeof s.cell_tile);
    return s;
}

State State::new_game(int num_players, int max_rounds, const Pcg64& rng) {
    State s = blank(num_players, max_rounds, rng);
    s.setup();
    return s;
}

void State::setup() {
    const int in_play = CUBES_PER_KIND - removed;
    for (int g = 0; g < NUM_GOODS; ++g) bag[g] = in_play;
    put_tile(HOME, HOME_CELL, 0);
    bool start[NUM_TILES] = {};
    for (const StartTile& t : START_LAYOUT[side]) {
        put_tile(t.tile, cell_of(t.q, t.r), t.rotation);
        start[t.tile] = true;
    }
    for (const StartTile& t : START_LAYOUT[side]) {  // fill the starting islands (step 5)
        if (!is_island(t.tile)) continue;
        for (int crop : ISLAND_SLOTS[t.tile]) {
            put_cube(t.tile, crop);
            --bag[crop];
        }
    }
    int rest[NUM_ISLANDS];
    int num_rest = 0;
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        if (!start[k]) rest[num_rest++] = k;
    }
    const std::vector<int> order = rng.permutation(num_rest);
    const int split = (num_rest + 1) / 2;
    stack_size[0] = static_cast<uint8_t>(split);
    stack_size[1] = static_cast<uint8_t>(num_rest - split);
    for (int i = 0; i < num_rest; ++i) {
        const uint8_t tile = static_cast<uint8_t>(rest[order[static_cast<size_t>(i)]]);
        if (i < split) {
            stacks[0][i] = tile;
        } else {
            stacks[1][i - split] = tile;
        }
    }
    uint8_t pile[NUM_TOKENS];
    for (int i = 0; i < NUM_TOKENS; ++i) pile[i] = i < TOKEN_COUNTS[PLAIN] ? PLAIN : FISHING;
    const std::vector<int> token_order = rng.permutation(NUM_TOKENS);
    for (int i = 0; i < NUM_TOKENS; ++i) token_pile[i] = pile[token_order[static_cast<size_t>(i)]];
    token_pile_size = NUM_TOKENS;
    const int set_size = favourite_set_size(num_players);
    const std::vector<int> favourite_order = rng.permutation(set_size);
    num_unused_favourites = 0;
    for (int i = 0; i < set_size; ++i) {
        const uint8_t f =
            static_cast<uint8_t>(favourite_set_first(num_players) + favourite_order[static_cast<size_t>(i)]);
        if (i < num_players) {
            favourites[i] = f;
        } else {
            unused_favourites[num_unused_favourites++] = f;
        }
    }
    first_player = static_cast<int>(rng.integers(static_cast<uint64_t>(num_players)));
    rebuild();
    begin_turn(first_player);
}

void State::put_tile(int tile, int cell, int rot) {
    tile_cell[tile] = static_cast<int16_t>(cell);
    rotation[tile] = static_cast<uint8_t>(rot);
    cell_tile[cell] = static_cast<int8_t>(tile);
    reefs[tile] = static_cast<uint8_t>(reef_mask(tile, rot, side));
}

void State::rebuild() {
    std::memset(cell_tile, -1, sizeof cell_tile);
    for (int t = 0; t < NUM_TILES; ++t) {
        if (tile_cell[t] >= 0) cell_tile[tile_cell[t]] = static_cast<int8_t>(t);
        reefs[t] = static_cast<uint8_t>(reef_mask(t, rotation[t], side));
    }
    update_edges();
}

void State::update_edges() {
    for (int t = 0; t < NUM_TILES; ++t) {
        const int cell = tile_cell[t];
        bool is_edge = false;
        if (cell >= 0) {
            for (int d = 0; d < 6 && !is_edge; ++d) {
                const int nb = GRID.neighbours[cell][d];
                is_edge = nb < 0 || cell_tile[nb] < 0;
            }
        }
        edge[t] = is_edge;
    }
}

// -- the contract ------------------------------------------------------------------------------
void State::scores(int out[4]) const { score_charts(charts, favourites, num_players, out); }

void State::scores_known_to(int seat, int out[4]) const {
    if (is_terminal()) {
        scores(out);
        return;
    }
    uint8_t known[4] = {0, 0, 0, 0};  // 0: no favourite tile, so no favourite bonus
    known[seat] = favourites[seat];
    score_charts(charts, known, num_players, out);
}

int State::turns_left() const {
    if (!end_triggered || phase == Phase::GameOver) return 0;
    return positive_mod(first_player - turn_player - 1, num_players);
}

int State::tokens_left(int kind) const {
    int count = 0;
    for (int i = 0; i < token_pile_size; ++i) count += token_pile[i] == kind ? 1 : 0;
    return count;
}

int State::active_paddles() const { return paddles(sum_goods(cargo[turn_player])); }

void State::legal_mask(uint8_t mask[NUM_ACTIONS]) const {
    std::memset(mask, 0, NUM_ACTIONS);
    switch (phase) {
        case Phase::Action:
            legal_actions_step(mask);
            break;
        case Phase::BountyPlace: {
            int spaces[NUM_ISLANDS];
            const int n = bounty_size ? bounty_spaces(bounty[0], spaces) : 0;
            for (int i = 0; i < n; ++i) mask[ISLAND_BASE + spaces[i]] = 1;
            break;
        }
        case Phase::HaumeaMove:
            legal_haumea_moves(mask);
            break;
        case Phase::HaumeaStep:
            legal_haumea_steps(mask);
            break;
        case Phase::Stack:
            legal_stacks(mask);
            break;
        case Phase::Place:
            legal_placements(mask);
            break;
        case Phase::Deplete:
            for (int k = 1; k <= NUM_ISLANDS; ++k) {
                if (is_eligible_island(k)) mask[ISLAND_BASE + k] = 1;
            }
            break;
        case Phase::GameOver:
            break;
    }
}

ActionList State::legal_actions() const {
    uint8_t mask[NUM_ACTIONS];
    legal_mask(mask);
    ActionList list;
    for (int a = 0; a < NUM_ACTIONS; ++a) {
        if (mask[a]) list.actions[list.size++] = static_cast<uint8_t>(a);
    }
    return list;
}

bool State::is_legal(int action) const {
    if (action < 0 || action >= NUM_ACTIONS) return false;
    uint8_t mask[NUM_ACTIONS];
    legal_mask(mask);
    return mask[action] != 0;
}

int State::playout(Pcg64& moves, int depth) {
    int played = 0;
    while (!is_terminal() && (depth == 0 || played < depth)) {
        const ActionList legal = legal_actions();
        if (legal.size == 0) break;  // never in a valid position
        const uint64_t i = moves.integers(static_cast<uint64_t>(legal.size));
        apply(legal.actions[i]);
        ++played;
    }
    return played;
}

// -- geometry ------------------------------------------------------------------------------------
int State::reefs_between(int cell, int d) const {
    const int target = GRID.neighbours[cell][d];
    const int leaving = reefs[cell_tile[cell]] >> d & 1;
    const int entering = reefs[cell_tile[target]] >> ((d + 3) % 6) & 1;
    return leaving + entering;
}

int State::nearest_edge_distance(int cell) const {
    int best = 1 << 20;
    for (int t = 0; t < NUM_TILES; ++t) {
        if (tile_cell[t] >= 0 && edge[t]) {
            const int distance = cell_distance(cell, tile_cell[t]);
            if (distance < best) best = distance;
        }
    }
    return best;
}

int State::placement_directions(int out[6]) const {
    int count = 0;
    if (haumea < 0) return 0;
    for (int d = 0; d < 6; ++d) {
        const int p = GRID.neighbours[haumea][d];
        if (p < 0 || cell_tile[p] >= 0) continue;
        int placed = 0;
        for (int e = 0; e < 6; ++e) placed += is_placed_cell(GRID.neighbours[p][e]) ? 1 : 0;
        if (placed >= 2) out[count++] = d;
    }
    return count;
}

// -- legal-move generation, one function per decision type -----------------------------------
void State::legal_haumea_moves(uint8_t* mask) const {  // D1 (§4.1)
    for (int d = 0; d < 6; ++d) {
        if (is_edge_cell(GRID.neighbours[haumea][d])) mask[d] = 1;
    }
    if (is_edge_cell(haumea)) mask[PASS] = 1;
}

void State::legal_haumea_steps(uint8_t* mask) const {  // D1, rare case: one closer to an edge
    const int here = nearest_edge_distance(haumea);
    for (int d = 0; d < 6; ++d) {
        const int nb = GRID.neighbours[haumea][d];
        if (is_placed_cell(nb) && nearest_edge_distance(nb) == here - 1) mask[d] = 1;
    }
}

void State::legal_stacks(uint8_t* mask) const {  // D2
    for (int i = 0; i < 2; ++i) {
        if (stack_size[i]) mask[STACK_A + i] = 1;
    }
}

void State::legal_placements(uint8_t* mask) const {  // D3
    int dirs[6];
    const int n = placement_directions(dirs);
    for (int i = 0; i < n; ++i) {
        for (int rho = 0; rho < 6; ++rho) mask[PLACE_BASE + 6 * dirs[i] + rho] = 1;
    }
}

int State::bounty_spaces(int goods, int out[NUM_ISLANDS]) const {  // §4.2
    int count = 0;
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        if (tile_cell[k] < 0 || tokens[k]) continue;
        for (int s = 0; s < 2; ++s) {
            if (ISLAND_SLOTS[k][s] == goods && !(island_cubes[k] >> s & 1)) out[count++] = k;
        }
    }
    return count;
}

void State::legal_actions_step(uint8_t* mask) const {  // D5 (§4.3)
    const int seat = turn_player;
    const int cell = canoes[seat];
    for (int d = 0; d < 6; ++d) {
        if (is_placed_cell(GRID.neighbours[cell][d])) mask[d] = 1;
    }
    mask[END] = 1;
    const int tile = cell_tile[cell];
    const int n = sum_goods(cargo[seat]);
    if (n < CANOE_CAPACITY) {
        if (is_island(tile) && island_cubes[tile]) {
            for (int s = 0; s < 2; ++s) {
                if (island_cubes[tile] >> s & 1) mask[HARVEST_BASE + ISLAND_SLOTS[tile][s]] = 1;
            }
        }
        if (tile != HOME) mask[FISH_ACTION] = 1;
    }
    if (tile == HOME && n) mask[DELIVER] = 1;
}

bool State::is_eligible_island(int k) const {  // D6 (§4.4): placed, no token, no cube
    return tile_cell[k] >= 0 && !tokens[k] && !island_cubes[k];
}

bool State::any_eligible_island() const {
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        if (is_eligible_island(k)) return true;
    }
    return false;
}

// -- transitions -----------------------------------------------------------------------------------
void State::set_event(Event event) {
    last_event = event;
    if (!last_event_text.empty()) last_event_text.clear();
}

void State::apply(int action) {
    switch (phase) {
        case Phase::Action:
            apply_step_action(action);
            break;
        case Phase::BountyPlace: {
            const int goods = pop_front(bounty, bounty_size);
            put_cube(action - ISLAND_BASE, goods);
            process_bounty();
            break;
        }
        case Phase::HaumeaMove:
        case Phase::HaumeaStep:
            apply_haumea(action);
            break;
        case Phase::Stack: {
            const int i = action - STACK_A;
            hand_tile = pop_front(stacks[i], stack_size[i]);
            Event event;
            event.kind = Event::Took;
            event.a = static_cast<uint8_t>(hand_tile);
            event.b = static_cast<uint8_t>(i);
            set_event(event);
            phase = Phase::Place;
            break;
        }
        case Phase::Place:
            apply_place(action);
            break;
        case Phase::Deplete:
            apply_deplete(action - ISLAND_BASE);
            break;
        case Phase::GameOver:
            break;
    }
}

void State::apply_haumea(int action) {
    if (action != PASS) haumea = GRID.neighbours[haumea][action];
    // rare case (§4.1 D1): keep stepping toward the nearest edge tile
    phase = is_edge_cell(haumea) ? Phase::Stack : Phase::HaumeaStep;
}

void State::apply_place(int action) {
    const int d = (action - PLACE_BASE) / 6, rho = (action - PLACE_BASE) % 6;
    const int tile = hand_tile;
    hand_tile = 0;
    const int cell = GRID.neighbours[haumea][d];
    put_tile(tile, cell, rho);
    update_edges();
    Event event;
    event.kind = Event::Placed;
    event.a = static_cast<uint8_t>(tile);
    event.b = static_cast<uint8_t>(rho);
    event.c = static_cast<int16_t>(cell);
    set_event(event);
    if (!stack_size[0] && !stack_size[1]) haumea = -1;  // Haumea leaves (§4.1)
    start_bounty();
}

void State::begin_turn(int seat) {
    turn_player = seat;
    taken = 0;
    if (haumea < 0) {
        start_bounty();
        return;
    }
    bool near = is_edge_cell(haumea);
    for (int d = 0; d < 6 && !near; ++d) near = is_edge_cell(GRID.neighbours[haumea][d]);
    phase = near ? Phase::HaumeaMove : Phase::HaumeaStep;
}

int State::draw(int count, uint8_t out[3]) {
    int total = sum_goods(bag);
    if (count > total) count = total;
    if (count > 3) count = 3;  // never more than 3 draws (bounty, fishing)
    for (int i = 0; i < count; ++i) {
        int x = static_cast<int>(rng.random() * static_cast<double>(total));
        int g = 0;
        while (g < NUM_GOODS - 1 && x >= bag[g]) {
            x -= bag[g];
            ++g;
        }
        --bag[g];
        --total;
        out[i] = static_cast<uint8_t>(g);
    }
    return count < 0 ? 0 : count;
}

void State::start_bounty() {  // Haumea's bounty (§4.2)
    const int count = haumea >= 0 ? BOUNTY_WITH_HAUMEA : BOUNTY_WITHOUT_HAUMEA;
    bounty_size = static_cast<uint8_t>(draw(count, bounty));
    Event event;
    event.kind = Event::Bounty;
    event.num_drawn = bounty_size;
    for (int i = 0; i < bounty_size; ++i) event.drawn[i] = bounty[i];
    set_event(event);
    process_bounty();
}

void State::process_bounty() {  // place the drawn cubes in order until one has a choice (D4)
    while (bounty_size) {
        const int goods = bounty[0];
        int spaces[NUM_ISLANDS];
        const int n = goods != FISH ? bounty_spaces(goods, spaces) : 0;
        if (n >= 2) {
            phase = Phase::BountyPlace;
            return;
        }
        pop_front(bounty, bounty_size);
        if (n) {
            put_cube(spaces[0], goods);  // the only space: placed automatically
        } else {
            ++aside[goods];
        }
    }
    for (int g = 0; g < NUM_GOODS; ++g) {  // set-aside cubes go back into the bag
        bag[g] += aside[g];
        aside[g] = 0;
    }
    taken = 0;
    phase = Phase::Action;
}

void State::put_cube(int island, int goods) {
    const int slot = ISLAND_SLOTS[island][0] == goods ? 0 : 1;
    island_cubes[island] = static_cast<uint8_t>(island_cubes[island] | (1 << slot));
}

void State::take_cube(int island, int goods) {
    const int slot = ISLAND_SLOTS[island][0] == goods ? 0 : 1;
    island_cubes[island] = static_cast<uint8_t>(island_cubes[island] & ~(1 << slot));
}

void State::apply_step_action(int action) {
    const int seat = turn_player;
    int* load = cargo[seat];
    if (action == END) {
        end_actions();
        return;
    }
    if (action < 6) {
        paddle(seat, action);
    } else if (action == DELIVER) {
        for (int g = 0; g < NUM_GOODS; ++g) {
            charts[seat][g] += load[g];
            load[g] = 0;
        }
        Event event;
        event.kind = Event::Delivered;
        set_event(event);
    } else if (action == FISH_ACTION) {
        fish(seat);
    } else {
        const int goods = action - HARVEST_BASE;
        take_cube(cell_tile[canoes[seat]], goods);
        ++load[goods];
        Event event;
        event.kind = Event::Harvested;
        event.a = static_cast<uint8_t>(goods);
        set_event(event);
    }
    ++taken;
    if (taken >= paddles(sum_goods(load))) end_actions();
}

void State::paddle(int seat, int d) {  // move the canoe, then the reef check (§4.3.1)
    const int cell = canoes[seat];
    const int crossed = reefs_between(cell, d);
    canoes[seat] = GRID.neighbours[cell][d];
    Event event;
    event.kind = Event::Paddled;
    event.a = static_cast<uint8_t>(d);
    event.b = static_cast<uint8_t>(crossed);
    int* load = cargo[seat];
    if (!crossed || !sum_goods(load)) {
        set_event(event);
        return;
    }
    event.c = 1;
    event.num_drawn = static_cast<uint8_t>(draw(crossed, event.drawn));
    for (int i = 0; i < event.num_drawn; ++i) {
        const int g = event.drawn[i];
        ++bag[g];
        if (load[g]) {
            --load[g];
            ++bag[g];
            event.lost[event.num_lost++] = static_cast<uint8_t>(g);
        }
    }
    set_event(event);
}

void State::fish(int seat) {  // the fishing draw (§4.3.3): keep one fish if any is drawn
    const int island = cell_tile[canoes[seat]];
    const bool bonus = is_island(island) && tokens[island] == FISHING;
    Event event;
    event.kind = Event::Fished;
    event.num_drawn =
        static_cast<uint8_t>(draw(bonus ? FISH_DRAWS_WITH_BONUS : FISH_DRAWS, event.drawn));
    bool caught = false;
    for (int i = 0; i < event.num_drawn; ++i) {
        ++bag[event.drawn[i]];
        caught = caught || event.drawn[i] == FISH;
    }
    if (caught) {
        --bag[FISH];
        ++cargo[seat][FISH];
    }
    event.a = caught ? 1 : 0;
    set_event(event);
}

void State::end_actions() {  // the Depletion step (§4.4) once Haumea has left
    if (haumea < 0 && any_eligible_island() && token_pile_size) {
        revealed_token = pop_front(token_pile, token_pile_size);
        phase = Phase::Deplete;
        return;
    }
    end_turn();
}

void State::apply_deplete(int island) {
    tokens[island] = static_cast<uint8_t>(revealed_token);
    Event event;
    event.kind = Event::Token;
    event.a = static_cast<uint8_t>(revealed_token);
    event.b = static_cast<uint8_t>(island);
    set_event(event);
    revealed_token = 0;
    int undepleted = 0;
    for (int k = 1; k <= NUM_ISLANDS; ++k) undepleted += tile_cell[k] >= 0 && !tokens[k] ? 1 : 0;
    if (undepleted == UNDEPLETED_AT_END && !end_triggered) end_triggered = true;  // §6.1
    end_turn();
}

void State::end_turn() {  // §6.2, §6.6
    const int next = (turn_player + 1) % num_players;
    if (next == first_player) {
        ++round;
        if (end_triggered) {
            finish(false);
            return;
        }
        if (round >= max_rounds) {
            finish(true);
            return;
        }
    }
    begin_turn(next);
}

void State::finish(bool truncated_) {  // unload every canoe (§6.3)
    for (int seat = 0; seat < num_players; ++seat) {
        for (int g = 0; g < NUM_GOODS; ++g) {
            charts[seat][g] += cargo[seat][g];
            cargo[seat][g] = 0;
        }
    }
    truncated = truncated_;
    taken = 0;
    phase = Phase::GameOver;
}

// -- the last event as text ----------------------------------------------------------------------
std::string State::event_text() const {
    const Event& e = last_event;
    std::string out;
    switch (e.kind) {
        case Event::Text:
            return last_event_text;
        case Event::Took:
            out = "took ";
            out += TILE_NAMES[e.a];
            out += " from stack ";
            out += e.b ? "B" : "A";
            break;
        case Event::Placed:
            out = "placed ";
            out += TILE_NAMES[e.a];
            out += " at (" + std::to_string(cell_q(e.c)) + ", " + std::to_string(cell_r(e.c)) +
                   ") rot " + std::to_string(e.b);
            break;
        case Event::Bounty:
            out = "bounty drew ";
            append_goods_text(out, e.drawn, e.num_drawn);
            break;
        case Event::Delivered:
            out = "delivered";
            break;
        case Event::Harvested:
            out = "harvested ";
            out += GOODS_NAMES[e.a];
            break;
        case Event::Paddled:
            out = "paddled ";
            out += DIRECTION_NAMES[e.a];
            out += " (" + std::to_string(e.b) + (e.b == 1 ? " reef)" : " reefs)");
            if (e.c) {
                out += ": drew ";
                append_goods_text(out, e.drawn, e.num_drawn);
                out += ", lost ";
                append_goods_text(out, e.lost, e.num_lost);
            }
            break;
        case Event::Fished:
            out = "fished: drew ";
            append_goods_text(out, e.drawn, e.num_drawn);
            if (e.a) out += ", kept a fish";
            break;
        case Event::Token:
            out = TOKEN_NAMES[e.a];
            out += " token on ";
            out += TILE_NAMES[e.b];
            break;
    }
    return out;
}

// -- scoring (§6.4) --------------------------------------------------------------------------------
void score_charts(const int charts[][NUM_GOODS], const uint8_t* favourites, int num_players,
                  int out[4]) {
    for (int seat = 0; seat < num_players; ++seat) {
        const int* chart = charts[seat];
        int total = 0, low = chart[0];
        for (int g = 0; g < NUM_GOODS; ++g) {
            total += chart[g];
            if (chart[g] < low) low = chart[g];
        }
        int bonus = 0;
        const int favourite = favourites[seat] <= NUM_FAVOURITES ? favourites[seat] : 0;
        for (int g : FAVOURITES[favourite]) {
            if (g < 0) break;  // no favourite (a blank state)
            const int mine = chart[g];
            if (!mine) continue;  // a count of 0 never scores
            int higher[4];
            int distinct = 0;
            for (int other = 0; other < num_players; ++other) {
                const int value = charts[other][g];
                if (value <= mine) continue;
                bool seen = false;
                for (int i = 0; i < distinct; ++i) seen = seen || higher[i] == value;
                if (!seen) higher[distinct++] = value;
            }
            if (distinct == 0) {
                bonus += FAVOURITE_FIRST;
            } else if (distinct == 1) {
                bonus += FAVOURITE_SECOND;
            }
        }
        out[seat] = total + bonus + set_bonus(low);
    }
}

}  // namespace bge::tahiti
