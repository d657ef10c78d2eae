// Wasabi! (spec shared/rules/wasabi.md): the rules engine, the native twin of
// boardgame_envs/wasabi/rules.py (the reference, held to it bit for bit by
// tests/native/test_wasabi.py). The same names, decision points and transitions.
//
// Players place ingredient tiles on a shared 6-row grid (5, 6 or 7 active columns by player
// count) and complete secret recipes when a row or column window shows their ingredients;
// action cards bend the rules for one turn. Cells are r * 7 + c for every player count.
//
// Actions (one space of 72, spec §11.2):
//   0-41   CELL(r, c) = r * 7 + c        PLACE_TARGET, SWITCH_*, CHOP_TARGET, CHOPPED_TILE,
//                                        WASABI_ANCHOR, REWARD_PICK (a board card)
//   42-58  KIND(k) = 42 + k              GIFT_PICK, STEP1_START, PLACE_DUE, REFILL_INGREDIENT
//   59-63  CARD(t) = 59 + t              STEP1_START, AFTER_PLACEMENT, REWARD_PICK/DISCARD
//   64-67  LENGTH(L) = 62 + L            DRAFT_PICK, REFILL_RECIPE
//   68-70  RECIPE_SLOT(i) = 68 + i       STEP1_START, DISCARD_MORE
//   71     DONE                          decline / stop
//
// The only chance is at setup (deck shuffles, start player); the state holds no generator.
// A State is a plain value: copying it is a clone. Invalid input is refused at the
// bindings (is_legal, validate); apply() assumes a legal action.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.h"
#include "games/wasabi/data.h"

namespace bge::wasabi {

// -- action indices -------------------------------------------------------------------------
constexpr int CELL_BASE = 0;
constexpr int KIND_BASE = 42;
constexpr int CARD_BASE = 59;
constexpr int LENGTH_BASE = 64;
constexpr int SLOT_BASE = 68;
constexpr int DONE = 71;
constexpr int NUM_ACTIONS = 72;

// -- decision points (spec §4.4), D1..D16, then the end ------------------------------------------
enum Phase : int8_t {
    GIFT_PICK,          // D1
    DRAFT_PICK,         // D2
    STEP1_START,        // D3
    PLACE_TARGET,       // D4
    PLACE_DUE,          // D5
    AFTER_PLACEMENT,    // D6
    SWITCH_FIRST,       // D7
    SWITCH_SECOND,      // D8
    CHOP_TARGET,        // D9
    CHOPPED_TILE,       // D10
    WASABI_ANCHOR,      // D11
    DISCARD_MORE,       // D12
    REWARD_PICK,        // D13
    REWARD_DISCARD,     // D14
    REFILL_INGREDIENT,  // D15
    REFILL_RECIPE,      // D16
    GAME_OVER,
};
constexpr int NUM_PHASES = 16;  // decision points (GAME_OVER is not one)
constexpr const char* PHASE_NAMES[NUM_PHASES + 1] = {
    "GIFT_PICK",     "DRAFT_PICK",   "STEP1_START",    "PLACE_TARGET",      "PLACE_DUE",
    "AFTER_PLACEMENT", "SWITCH_FIRST", "SWITCH_SECOND", "CHOP_TARGET",      "CHOPPED_TILE",
    "WASABI_ANCHOR", "DISCARD_MORE", "REWARD_PICK",    "REWARD_DISCARD",    "REFILL_INGREDIENT",
    "REFILL_RECIPE", "GAME_OVER"};

constexpr int NONE = -1;  // Python's None for optional small ints

// The options (WasabiRules.options).
struct Config {
    bool style_either_direction = false;
    bool gift_excludes_maki = false;
    bool hide_opponent_hands = false;
    int max_turns = DEFAULT_MAX_TURNS;
    int start_player = NONE;  // NONE: "random"
};

// Cells, windows, neighbours and Wasabi! anchors of the active area (rules.py Geometry).
struct Geometry {
    static constexpr int MAX_WINDOWS = 80;
    int columns = 0;
    uint64_t active = 0;   // active cells
    uint64_t anchors = 0;  // cells where a Wasabi! card may be anchored (r <= 4, c <= C - 2)
    uint8_t num_neighbours[NUM_CELLS] = {};
    uint8_t neighbours[NUM_CELLS][4] = {};  // active orthogonal neighbours, in rules.py's order
    // Windows of each length (index L - 2): cells in reading order; rows first, then columns.
    int num_windows[NUM_LENGTHS] = {};
    uint8_t windows[NUM_LENGTHS][MAX_WINDOWS][MAX_RECIPE_LENGTH] = {};
};

const Geometry& geometry(int columns);  // columns 5, 6 or 7

inline uint64_t bit(int cell) { return uint64_t{1} << cell; }
// The four cells of a Wasabi! card anchored at a cell.
inline uint64_t block_of(int anchor) {
    return bit(anchor) | bit(anchor + 1) | bit(anchor + GRID_COLUMNS) |
           bit(anchor + GRID_COLUMNS + 1);
}

using Mask = std::array<uint8_t, NUM_ACTIONS>;

struct State {
    int num_players = 2;
    int columns = 5;
    Config config;
    // The board: per cell a stack, bottom first (only the top counts). 72 tiles at most.
    uint8_t height[NUM_CELLS] = {};
    uint8_t stacks[NUM_CELLS][NUM_TILES] = {};
    uint64_t anchors = 0;  // Wasabi! cards on the board, by anchor cell
    uint64_t covered = 0;  // derived from anchors
    int pantry[NUM_KINDS] = {};
    int kitchen[NUM_CARD_TYPES] = {};
    // Top first.
    uint8_t decks[NUM_LENGTHS][MAX_DECK] = {};
    int deck_size[NUM_LENGTHS] = {};
    int tiles[MAX_PLAYERS][NUM_KINDS] = {};
    int cards[MAX_PLAYERS][NUM_CARD_TYPES] = {};
    int menus[MAX_PLAYERS][MENU_SLOTS] = {};  // recipe ids or NONE
    int tokens[MAX_PLAYERS][NUM_LENGTHS] = {};
    uint8_t completed[MAX_PLAYERS][MAX_COMPLETED] = {};  // recipe ids, in completion order
    bool completed_ideal[MAX_PLAYERS][MAX_COMPLETED] = {};
    int num_completed[MAX_PLAYERS] = {};
    int cubes[MAX_PLAYERS] = {};
    int start_player = 0;
    int active = 0;
    Phase phase = GIFT_PICK;
    int turn = 0;
    int winner = NONE;
    // Kinds chosen in the current gift (distinct kinds: at most all of them).
    int gift[NUM_KINDS] = {};
    int gift_size = 0;
    // The context of one turn (spec §2.7).
    int card_used = NONE;
    bool card_before = false;
    bool stack_on = false;
    int placements_left = 1;
    bool must_place = true;
    int kind = NONE;
    int selected = NONE;
    int lifted = NONE;
    int marked[MENU_SLOTS] = {};  // in the order marked
    int marked_size = 0;
    int picks = 0;
    int new_card = NONE;

    // A new game (checked arguments): the decks shuffled and the start player drawn from
    // default_rng(entropy), as WasabiRules._new_state does.
    static State new_game(int num_players, const std::vector<uint32_t>& entropy,
                          const Config& config);
    // An empty position (State.__init__), for from_dict to fill.
    State() = default;
    State(int num_players, const Config& config);

    const Geometry& geo() const { return geometry(columns); }
    int current_player() const { return phase == GAME_OVER ? NONE : active; }
    bool is_terminal() const { return phase == GAME_OVER; }
    const char* phase_name() const { return PHASE_NAMES[phase]; }

    void legal_mask(Mask& mask) const;
    bool is_legal(int64_t action) const;
    int legal_actions(int* out) const;  // ascending; returns the count
    void apply(int action);             // a legal action (checked by the caller)
    // Random playout: legal[rng.integers(len(legal))] until the end or depth decisions
    // (0: no limit); the number played (State.playout).
    int playout(Pcg64& rng, int depth);

    int points(int seat) const;
    std::vector<double> scores() const;
    std::vector<double> score_keys() const;
    bool board_full() const;
    int top(int cell) const {  // kind of the top tile in play, or NONE (empty or covered)
        return height[cell] && !(covered & bit(cell)) ? stacks[cell][height[cell] - 1] : NONE;
    }
    int tiles_held(int seat) const;
    int cards_held(int seat) const;

    // Throws std::invalid_argument naming the field unless play can continue from this
    // position (State._validate): shapes are already fixed by the reader.
    void validate() const;

    // -- legal moves, one function per decision type --------------------------------------------
    uint64_t occupied() const;  // active cells with a tile (covered or not)
    uint64_t empties() const;   // active, uncovered, empty
    uint64_t uncovered_occupied() const;
    uint64_t targets() const;
    uint64_t switch_firsts() const;
    uint64_t switch_partners(int a) const;
    uint64_t free_anchors() const;
    bool has_swap() const;
    bool card_usable(int card, bool before) const;
    bool any_tiles(int seat) const;
    void reward_options(bool types_out[NUM_CARD_TYPES], uint64_t& anchors_out) const;
    void gift_kinds(bool out[NUM_KINDS]) const;

    // -- transitions ----------------------------------------------------------------------------
    void reset_turn();
    void play_card(int card, bool before);
    bool check();
    void game_over();
    void end_step1();
    void after_card_effect();
    void return_lifted();
    void after_pick();
    void to_refill_ingredients();
    void to_refill_recipes();
    void draw_recipe(int deck);
    void end_turn();
    void begin_turn(int seat);
    void push_tile(int cell, int kind);
    int pop_tile(int cell);

    void validate_components() const;
    void validate_end() const;
    void validate_context() const;
    void validate_setup() const;
};

// The phase of a name, or -1.
int phase_from_name(const std::string& name);

}  // namespace bge::wasabi
