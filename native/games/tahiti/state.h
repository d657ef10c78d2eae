// Tahiti: the rules engine, the twin of boardgame_envs/tahiti/rules.py (the reference; spec
// shared/rules/tahiti.md, section numbers below refer to it).
//
// One Discrete(69) action space (§11.2):
//   0-5    direction d: move Haumea (HAUMEA_MOVE, HAUMEA_STEP) / paddle the canoe (ACTION)
//   6      PASS: Haumea stays (HAUMEA_MOVE) / END the action step (ACTION)
//   7, 8   take the top tile of stack A / B (STACK)
//   9-44   place the tile in hand at Haumea + offset(d), rotation rho: 9 + 6 d + rho (PLACE)
//   45-62  island k = 1..18 (44 + k): the pending bounty cube (BOUNTY_PLACE) / the revealed
//          depletion token (DEPLETE)
//   63-66  HARVEST coconut / banana / taro / spice; 67 FISH; 68 DELIVER (ACTION)
//
// A turn (§4): Explore (HAUMEA_MOVE or HAUMEA_STEP, STACK, PLACE; while Haumea is in play),
// Haumea's bounty (BOUNTY_PLACE for each drawn cube with two or more legal spaces), Actions
// (ACTION until END or until taken >= paddles), Depletion (DEPLETE, once Haumea has left and
// while an empty island exists). Chance comes from the state's own numpy-equal generator.
//
// A State is a plain value: copying it is a clone. Only the snapshot checks (validate) throw;
// the bindings check every value before the engine sees it. Play allocates nothing (the deal
// of a new game uses the generator's permutations; a snapshot's last-event text is a string).
#pragma once

#include <cstdint>
#include <string>

#include "core/rng.h"
#include "games/tahiti/data.h"

namespace bge::tahiti {

// TahitiRules.version (rules.py): the -vN of the env ids, written in and required of snapshots.
constexpr int VERSION = 2;

// The last public event, kept as facts and written as rules.py writes it (event_text).
struct Event {
    enum Kind : uint8_t {
        Text,       // a text loaded from a snapshot (State::last_event_text); "" at setup
        Took,       // "took I05 from stack A": tile a, stack b
        Placed,     // "placed I05 at (1, -2) rot 3": tile a, cell c, rotation b
        Bounty,     // "bounty drew coconut, fish": drawn
        Delivered,  // "delivered"
        Harvested,  // "harvested taro": goods a
        Paddled,    // "paddled E (1 reef)[: drew X, lost Y]": direction a, reefs b, drew if c
        Fished,     // "fished: drew X, Y[, kept a fish]": drawn, kept if a
        Token,      // "plain token on I05": token kind a, island b
    };
    Kind kind = Text;
    uint8_t a = 0, b = 0;
    int16_t c = 0;
    uint8_t num_drawn = 0, num_lost = 0;
    uint8_t drawn[3] = {0, 0, 0};
    uint8_t lost[3] = {0, 0, 0};
};

// Legal actions in increasing order.
struct ActionList {
    uint8_t actions[NUM_ACTIONS];
    int size = 0;
};

struct State {
    // -- configuration -----------------------------------------------------------------------
    int num_players = 2;
    int max_rounds = 1000;
    int side = 0;     // home side: 0 "A" (2/4 players), 1 "B" (3 players)
    int removed = 0;  // cubes per kind out of the game (§2.12)
    Pcg64 rng;

    // -- the table -------------------------------------------------------------------------
    int16_t tile_cell[NUM_TILES];               // cell per tile, -1 when not on the table
    uint8_t rotation[NUM_TILES];
    uint8_t island_cubes[NUM_ISLANDS + 1];      // bit s: a cube on goods space s
    uint8_t tokens[NUM_ISLANDS + 1];            // 0 none, 1 plain, 2 fishing
    uint8_t stacks[2][NUM_ISLANDS];             // top first
    uint8_t stack_size[2] = {0, 0};
    uint8_t token_pile[NUM_TOKENS];             // top first
    uint8_t token_pile_size = 0;
    uint8_t favourites[4] = {0, 0, 0, 0};
    uint8_t unused_favourites[4] = {0, 0, 0, 0};
    uint8_t num_unused_favourites = 0;
    int haumea = HOME_CELL;                     // Haumea's cell, -1 once she has left
    int bag[NUM_GOODS] = {0, 0, 0, 0, 0};
    int canoes[4] = {HOME_CELL, HOME_CELL, HOME_CELL, HOME_CELL};
    int cargo[4][NUM_GOODS] = {};
    int charts[4][NUM_GOODS] = {};

    // -- the turn ----------------------------------------------------------------------------
    int first_player = 0;
    int turn_player = 0;
    int round = 0;  // complete rounds
    Phase phase = Phase::HaumeaMove;
    int taken = 0;
    int hand_tile = 0;
    uint8_t bounty[BOUNTY_WITH_HAUMEA] = {0, 0, 0};  // drawn, not yet processed; [0] pending
    uint8_t bounty_size = 0;
    int aside[NUM_GOODS] = {0, 0, 0, 0, 0};          // bounty cubes set aside this turn
    int revealed_token = 0;
    bool end_triggered = false;
    bool truncated = false;
    Event last_event;
    std::string last_event_text;  // the text of an Event::Text

    // -- caches rebuilt from the facts (rebuild) ---------------------------------------------
    int8_t cell_tile[NUM_CELLS];  // tile per cell, -1 when empty
    uint8_t reefs[NUM_TILES];     // world reef edges per tile
    bool edge[NUM_TILES];         // a placed tile with an empty or missing neighbour position

    // A new game (§3): num_players 2-4, max_rounds >= 1 (checked by the caller).
    static State new_game(int num_players, int max_rounds, const Pcg64& rng);
    // An empty table for num_players, before a snapshot's facts are filled in.
    static State blank(int num_players, int max_rounds, const Pcg64& rng);

    // -- the contract ------------------------------------------------------------------------
    int current_player() const { return phase == Phase::GameOver ? -1 : turn_player; }
    bool is_terminal() const { return phase == Phase::GameOver; }
    const char* phase_name() const { return PHASE_NAMES[static_cast<int>(phase)]; }
    void legal_mask(uint8_t mask[NUM_ACTIONS]) const;
    ActionList legal_actions() const;
    bool is_legal(int action) const;
    void apply(int action);  // a legal action (checked by the caller)
    void scores(int out[4]) const;
    // The scores as `seat` may know them (State.scores_known_to): another seat's favourite
    // tile is secret until the final scoring, so its favourite bonus is left out while the
    // game runs; `seat`'s own is in. Once the game is over, scores().
    void scores_known_to(int seat, int out[4]) const;
    int turns_left() const;
    // Random legal moves from `rng` (State.playout), to the end or for `depth` decisions.
    int playout(Pcg64& moves, int depth);

    // -- what views show --------------------------------------------------------------------
    int stack_top(int i) const { return stack_size[i] ? stacks[i][0] : 0; }
    int tokens_left(int kind) const;
    int active_paddles() const;
    std::string event_text() const;

    // -- snapshots: rebuild the caches, then check the facts (throws std::invalid_argument) ---
    void rebuild();
    void validate() const;
    void cubes_by_kind(int out[NUM_GOODS]) const;

    // -- geometry ------------------------------------------------------------------------------
    bool is_edge_cell(int cell) const {
        return cell >= 0 && cell_tile[cell] >= 0 && edge[cell_tile[cell]];
    }
    bool is_placed_cell(int cell) const { return cell >= 0 && cell_tile[cell] >= 0; }
    int reefs_between(int cell, int d) const;
    int nearest_edge_distance(int cell) const;
    // Directions from Haumea's cell whose position is a legal place for a tile (§4.1 D3).
    int placement_directions(int out[6]) const;

private:
    // legal-move generation, one function per decision type
    void legal_haumea_moves(uint8_t* mask) const;
    void legal_haumea_steps(uint8_t* mask) const;
    void legal_stacks(uint8_t* mask) const;
    void legal_placements(uint8_t* mask) const;
    int bounty_spaces(int goods, int out[NUM_ISLANDS]) const;
    void legal_actions_step(uint8_t* mask) const;
    bool any_eligible_island() const;
    bool is_eligible_island(int k) const;

    // transitions
    void setup();
    void put_tile(int tile, int cell, int rotation);
    void update_edges();
    void apply_haumea(int action);
    void apply_place(int action);
    void begin_turn(int seat);
    int draw(int count, uint8_t out[3]);
    void start_bounty();
    void process_bounty();
    void put_cube(int island, int goods);
    void take_cube(int island, int goods);
    void apply_step_action(int action);
    void paddle(int seat, int d);
    void fish(int seat);
    void end_actions();
    void apply_deplete(int island);
    void end_turn();
    void finish(bool truncated_);
    void set_event(Event event);

    void validate_board() const;
    void validate_phase_context() const;
};

// Goods + favourite bonus + set bonus per seat (§6.4).
void score_charts(const int charts[][NUM_GOODS], const uint8_t* favourites, int num_players,
                  int out[4]);

// The observation of `seat` (boardgame_envs/tahiti/encoding.py), written into `out`.
constexpr int NUM_PLANES = 28;
constexpr int VECTOR = NUM_PLANES * NUM_CELLS;      // 10108
constexpr int OBSERVATION_SIZE = VECTOR + 399;       // 10507
void encode_observation(const State& state, int seat, float* out);

}  // namespace bge::tahiti
