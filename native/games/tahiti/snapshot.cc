// Tahiti: the checks of a position loaded from a snapshot (rules.py State._validate): the facts
// of a snapshot, each already of the right type and range (the bindings read them), must make a
// position play can continue from. Every check throws std::invalid_argument naming the problem;
// after them every index the rules use is within its table.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "games/tahiti/state.h"

namespace bge::tahiti {

namespace {

[[noreturn]] void invalid(const std::string& message) { throw std::invalid_argument(message); }

int sum_goods(const int counts[NUM_GOODS]) {
    int total = 0;
    for (int g = 0; g < NUM_GOODS; ++g) total += counts[g];
    return total;
}

}  // namespace

void State::cubes_by_kind(int out[NUM_GOODS]) const {
    for (int g = 0; g < NUM_GOODS; ++g) out[g] = bag[g] + aside[g];
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        for (int s = 0; s < 2; ++s) {
            if (island_cubes[k] >> s & 1) ++out[ISLAND_SLOTS[k][s]];
        }
    }
    for (int seat = 0; seat < num_players; ++seat) {
        for (int g = 0; g < NUM_GOODS; ++g) out[g] += cargo[seat][g] + charts[seat][g];
    }
    for (int i = 0; i < bounty_size; ++i) ++out[bounty[i]];
}

void State::validate_board() const {  // the §3 starting layout, and every tile connected
    for (const StartTile& t : START_LAYOUT[side]) {
        if (tile_cell[t.tile] != cell_of(t.q, t.r) || rotation[t.tile] != t.rotation) {
            invalid(std::string("board: the starting tile ") + TILE_NAMES[t.tile] +
                    " must stand at its place of §3");
        }
    }
    for (int t = FIRST_WATER; t < NUM_TILES; ++t) {
        bool start = false;
        for (const StartTile& s : START_LAYOUT[side]) start = start || s.tile == t;
        if (!start && tile_cell[t] >= 0) {
            invalid(std::string("board: water tile ") + TILE_NAMES[t] + " is not used");
        }
    }
    bool reached[NUM_CELLS] = {};
    int frontier[NUM_CELLS];
    int size = 0;
    reached[HOME_CELL] = true;
    frontier[size++] = HOME_CELL;
    while (size) {
        const int cell = frontier[--size];
        for (int d = 0; d < 6; ++d) {
            const int nb = GRID.neighbours[cell][d];
            if (nb >= 0 && !reached[nb] && cell_tile[nb] >= 0) {
                reached[nb] = true;
                frontier[size++] = nb;
            }
        }
    }
    for (int t = 0; t < NUM_TILES; ++t) {
        if (tile_cell[t] >= 0 && !reached[tile_cell[t]]) {
            invalid(std::string("board: tile ") + TILE_NAMES[t] +
                    " is not connected to the home tile (§4.1 D3)");
        }
    }
}

void State::validate() const {
    const int n = num_players;
    if (n < 2 || n > 4) invalid("num_players is 2 to 4");
    if (tile_cell[HOME] != HOME_CELL || rotation[HOME] != 0) {
        invalid("the home tile must be at (0, 0) with rotation 0");
    }
    for (int t = 0; t < NUM_TILES; ++t) {
        if (tile_cell[t] >= NUM_CELLS || (tile_cell[t] >= 0 && !GRID.valid[tile_cell[t]]) ||
            rotation[t] > 5) {
            invalid("board: a tile off the grid");
        }
        if (tile_cell[t] >= 0 && cell_tile[tile_cell[t]] != t) invalid("board: a cell twice");
    }
    validate_board();
    // every island exactly once: on the board, in a stack or in hand
    int places[NUM_TILES] = {};
    for (int t = 0; t < NUM_TILES; ++t) places[t] += tile_cell[t] >= 0 ? 1 : 0;
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < stack_size[i]; ++j) {
            if (!is_island(stacks[i][j])) invalid("stacks hold island tiles only");
            ++places[stacks[i][j]];
        }
    }
    if (hand_tile != 0) {
        if (!is_island(hand_tile)) invalid("hand_tile is an island tile");
        ++places[hand_tile];
    }
    for (int t = 0; t < NUM_TILES; ++t) {
        if (places[t] > 1) invalid("a tile is in two places (board, stacks, hand)");
        if (is_island(t) && places[t] == 0) {
            invalid(std::string("island tiles ") + TILE_NAMES[t] + " are nowhere");
        }
    }
    for (int seat = 0; seat < n; ++seat) {
        const int cell = canoes[seat];
        if (cell < 0 || cell >= NUM_CELLS || cell_tile[cell] < 0) {
            invalid("a canoe stands on no tile");
        }
    }
    if (haumea >= NUM_CELLS || (haumea >= 0 && cell_tile[haumea] < 0)) {
        invalid("Haumea stands on no tile");
    }
    for (int seat = 0; seat < n; ++seat) {
        for (int g = 0; g < NUM_GOODS; ++g) {
            if (cargo[seat][g] < 0 || charts[seat][g] < 0 || cargo[seat][g] > TOTAL_CUBES ||
                charts[seat][g] > TOTAL_CUBES) {
                invalid("seat " + std::to_string(seat) + ": cargo and chart are 5 counts >= 0");
            }
        }
        if (sum_goods(cargo[seat]) > CANOE_CAPACITY) {
            invalid("seat " + std::to_string(seat) + ": too many cubes on a canoe of 5");
        }
    }
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        if (island_cubes[k] > 3 || tokens[k] > FISHING) invalid("island cubes or token");
        if ((island_cubes[k] || tokens[k]) && tile_cell[k] < 0) {
            invalid(std::string(TILE_NAMES[k]) + " holds cubes or a token off the table");
        }
        if (island_cubes[k] && tokens[k]) {
            invalid(std::string(TILE_NAMES[k]) + " holds both cubes and a token");
        }
    }
    for (int g = 0; g < NUM_GOODS; ++g) {
        if (bag[g] < 0 || aside[g] < 0 || bag[g] > TOTAL_CUBES || aside[g] > TOTAL_CUBES) {
            invalid("bag and aside are 5 counts >= 0");
        }
    }
    for (int i = 0; i < bounty_size; ++i) {
        if (bounty[i] >= NUM_GOODS) invalid("bounty: not a goods kind");
    }
    int by_kind[NUM_GOODS];
    cubes_by_kind(by_kind);
    for (int g = 0; g < NUM_GOODS; ++g) {
        if (by_kind[g] != CUBES_PER_KIND - removed) {
            invalid("cubes per kind must each be " + std::to_string(CUBES_PER_KIND - removed));
        }
    }
    int token_count[3] = {0, 0, 0};
    for (int k = 1; k <= NUM_ISLANDS; ++k) ++token_count[tokens[k]];
    for (int i = 0; i < token_pile_size; ++i) {
        if (token_pile[i] != PLAIN && token_pile[i] != FISHING) invalid("token_pile: a kind");
        ++token_count[token_pile[i]];
    }
    if (revealed_token < 0 || revealed_token > FISHING) invalid("revealed_token: a kind");
    ++token_count[revealed_token];
    for (int kind = PLAIN; kind <= FISHING; ++kind) {
        if (token_count[kind] != TOKEN_COUNTS[kind]) {
            invalid(std::string(TOKEN_NAMES[kind]) + " tokens: " +
                    std::to_string(token_count[kind]) + ", must be " +
                    std::to_string(TOKEN_COUNTS[kind]));
        }
    }
    int favourites_seen[NUM_FAVOURITES + 1] = {};
    const int set_size = favourite_set_size(n);
    if (num_unused_favourites != set_size - n) invalid("favourite tiles: not the set");
    for (int i = 0; i < n + num_unused_favourites; ++i) {
        const int f = i < n ? favourites[i] : unused_favourites[i - n];
        if (f < 1 || f > NUM_FAVOURITES) invalid("favourite tiles: not the set");
        ++favourites_seen[f];
    }
    for (int f = 1; f <= NUM_FAVOURITES; ++f) {
        const bool in_set = f >= favourite_set_first(n) && f < favourite_set_first(n) + set_size;
        if (favourites_seen[f] != (in_set ? 1 : 0)) {
            invalid("favourite tiles are not the set for " + std::to_string(n) + " players");
        }
    }
    if (first_player < 0 || first_player >= n) invalid("first_player is not a seat");
    if (turn_player < 0 || turn_player >= n) invalid("turn_player is not a seat");
    const int dealt = NUM_ISLANDS - count_start_islands(side);
    const int most[2] = {(dealt + 1) / 2, dealt / 2};  // §3 step 7
    for (int i = 0; i < 2; ++i) {
        if (stack_size[i] > most[i]) {
            invalid("stacks[" + std::to_string(i) + "]: " + std::to_string(stack_size[i]) +
                    " tiles; the stack starts with " + std::to_string(most[i]));
        }
    }
    const bool tiles_to_place = stack_size[0] || stack_size[1] || hand_tile;
    if (haumea < 0 && tiles_to_place) invalid("Haumea has left while island tiles remain to place");
    if (haumea >= 0 && !tiles_to_place) {
        invalid("Haumea is on the board, but every island tile is placed");
    }
    if (end_triggered && haumea >= 0) invalid("the season cannot end while Haumea is in play");
    if (haumea < 0) {
        int undepleted = 0;
        for (int k = 1; k <= NUM_ISLANDS; ++k) undepleted += tokens[k] ? 0 : 1;
        if (end_triggered != (undepleted <= UNDEPLETED_AT_END)) {
            invalid("end_triggered does not match the undepleted islands (§6.1)");
        }
    }
    if (max_rounds < 1 || round < 0 || round > max_rounds) invalid("round out of range");
    validate_phase_context();
    if (phase != Phase::GameOver && legal_actions().size == 0) {
        invalid(std::string("phase ") + phase_name() + " has no legal action in this position");
    }
}

void State::validate_phase_context() const {
    const int n = num_players;
    const std::string name = phase_name();
    if ((phase == Phase::Place && !hand_tile) || (phase == Phase::BountyPlace && !bounty_size) ||
        (phase == Phase::Deplete && !revealed_token)) {
        invalid("phase " + name + " lacks its tile, cube or token");
    }
    bool any_aside = false;
    for (int g = 0; g < NUM_GOODS; ++g) any_aside = any_aside || aside[g];
    if ((hand_tile && phase != Phase::Place) ||
        ((bounty_size || any_aside) && phase != Phase::BountyPlace) ||
        (revealed_token && phase != Phase::Deplete)) {
        invalid("a field of another phase is set in phase " + name);
    }
    const bool exploring = phase == Phase::HaumeaMove || phase == Phase::HaumeaStep ||
                           phase == Phase::Stack || phase == Phase::Place;
    if (exploring && haumea < 0) invalid("phase " + name + " needs Haumea on the board");
    if ((phase == Phase::Stack || phase == Phase::Place) && !is_edge_cell(haumea)) {
        invalid("phase " + name + ": Haumea must stand on an edge tile");
    }
    if (phase == Phase::Deplete && haumea >= 0) {
        invalid("phase DEPLETE: depletion begins only after Haumea has left");
    }
    if (phase == Phase::Action) {
        const int limit = paddles(sum_goods(cargo[turn_player]));
        if (taken < 0 || taken >= limit) invalid("taken: out of range in the ACTION phase");
    } else if (phase != Phase::Deplete && taken) {
        invalid("taken: actions are counted in ACTION only");
    }
    if (taken < 0 || taken > MAX_PADDLES) invalid("taken: out of range");
    if (phase == Phase::BountyPlace) {
        const int drawn = haumea >= 0 ? BOUNTY_WITH_HAUMEA : BOUNTY_WITHOUT_HAUMEA;
        if (bounty_size + sum_goods(aside) > drawn) invalid("bounty and aside: too many cubes");
        int spaces[NUM_ISLANDS];
        if (bounty[0] == FISH || bounty_spaces(bounty[0], spaces) < 2) {
            invalid("bounty: the pending cube has no choice of spaces");
        }
    }
    if (phase != Phase::GameOver) {
        if (truncated || round >= max_rounds) {
            invalid("a live game has played fewer than max_rounds rounds and is not truncated");
        }
        return;
    }
    for (int seat = 0; seat < n; ++seat) {
        if (sum_goods(cargo[seat])) invalid("cargo: canoes are unloaded when the game ends");
    }
    if (turn_player != (first_player + n - 1) % n) {
        invalid("turn_player: a game ends after the last seat of a round");
    }
    if (truncated == end_triggered) {
        invalid("a finished game ended either by the season or at the round limit");
    }
    if (round < 1 || (truncated && round != max_rounds)) {
        invalid("round: a game ends after a complete round");
    }
}

}  // namespace bge::tahiti
