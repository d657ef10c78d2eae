// Carcassonne: The Castle, the rules engine in C++: the same position, decisions, random
// draws, snapshots and observations as boardgame_envs/carcassonne_castle/rules.py (the
// reference; spec shared/rules/carcassonne_castle.md). A State is a value: copy = clone.
//
// Actions (one space of 326, spec §11.1): 0-303 PLACE the drawn tile on cell c in rotation
// r (4c + r); 304-315 FOLLOWER / ORDER naming slot s of the just-placed tile; 316 PASS;
// 317 YES; 318-325 ORDER naming the feature facing half-port k of the just-placed tile.
//
// The event log and the final-scoring labels (texts in the snapshot) are kept as Text
// records and written out only when a snapshot or a view asks: a snapshot may carry any
// texts, which are kept as they are (Text::RAW, in a shared pool).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/rng.h"
#include "games/carcassonne_castle/castle.h"

namespace bge::carcassonne_castle {

enum Phase : uint8_t { PLACE = 0, FOLLOWER, ORDER, DOUBLE, EXTRA, GAME_OVER };
constexpr int NUM_PHASES = 5;  // the decision phases (GAME_OVER is not one)
extern const char* const PHASE_NAMES[6];

constexpr int MAX_EVENTS = 12;
constexpr int64_t MAX_NUMBER = int64_t(1) << 40;  // scores, turns: far beyond any game

// A small vector of fixed capacity (no allocation); push_back past it is the caller's bug
// and is refused silently (every caller's capacity is proven by the conservation checks).
template <typename T, int N>
struct FixedVec {
    T items[N];
    int n = 0;
    int size() const { return n; }
    bool empty() const { return n == 0; }
    void clear() { n = 0; }
    void push_back(const T& value) {
        if (n < N) items[n++] = value;
    }
    void erase(int index) {
        for (int i = index; i + 1 < n; ++i) items[i] = items[i + 1];
        --n;
    }
    T& operator[](int i) { return items[i]; }
    const T& operator[](int i) const { return items[i]; }
    const T* begin() const { return items; }
    const T* end() const { return items + n; }
};

// A text of the event log or a final-scoring label.
struct Text {
    enum Type : uint8_t {
        RAW,          // pool[a]
        PLACES,       // "P{a} places {tile b} r{c} on ({cell d})"
        EXTRA_TAKEN,  // "P{a} takes an extra turn"
        TIE,          // "{kind a} of {b} completed: tie"
        SCORES,       // "P{a} scores {b} for the {kind c} of {d}" + " (x2)" if n
        KEEP_MOVES,   // "P{a}'s keep moves to a house of {b}"
        WALL_TAKEN,   // "P{a} takes the wall tile of C{b + 1}: {c} ({wall name c})"
        TURN,         // "turn {n}: P{a}"
        SET_ASIDE,    // "{tile a} has no legal placement: set aside"
        FINAL,        // "final: P{a} scores {n} ({label b, c, d})"
        L_KEEP,       // "keep"
        L_COURT,      // "court ({a} markets x {b})"
        L_UNFINISHED, // "unfinished {kind a}"
        L_BONUS,      // "bonus wall tile"
    };
    uint8_t type = RAW;
    int32_t a = 0, b = 0, c = 0, d = 0;
    int64_t n = 0;
};

struct FinalItem {
    Text label;
    int64_t points;
};

struct HeldTile {
    int kind;
    int64_t taken;  // the turn it was taken in
};

struct UsedTile {
    int kind, seat;
};

struct Keep {
    bool has = false;
    int size = 0;
    FixedVec<uint8_t, NUM_CELLS> locations;  // grid positions
};

struct Config {
    int keep_bonus_tiles = KEEP_BONUS_TILES;
    int wall9_points = WALL9_POINTS;
};

struct State {
    Config config;
    Castle castle;
    uint8_t stack[NUM_CASTLE_TILES];  // tile types: stack[stack_head .. stack_end), top first
    int stack_head = 0, stack_end = 0;
    int unseen[NUM_TILE_TYPES];  // per type: still in the stack
    int tile = -1;  // the drawn tile, -1 for none
    FixedVec<uint8_t, NUM_CASTLE_TILES> discards;
    uint8_t corners[NUM_STOCKED];  // wall-tile kind on C1..C13, 0 = taken
    FixedVec<uint8_t, NUM_WALL_TILES> boxed;
    FixedVec<HeldTile, NUM_WALL_TILES> held[NUM_PLAYERS];
    FixedVec<UsedTile, NUM_WALL_TILES> used;
    int64_t scores[NUM_PLAYERS] = {0, 0};
    int supply[NUM_PLAYERS] = {FOLLOWERS_PER_PLAYER, FOLLOWERS_PER_PLAYER};
    Keep keeps[NUM_PLAYERS];
    int start_player = 0;
    int active = 0;
    int64_t turn = 0;
    bool extra_turn = false;
    Phase phase = PLACE;
    int last_cell = -1;
    FixedVec<int16_t, MAX_COMPLETED> completed;
    FixedVec<int16_t, MAX_COMPLETED> groups[2];  // pending names: active's, other's
    int doubling = -1;
    std::vector<FinalItem> final_[NUM_PLAYERS];
    std::vector<Text> events;
    std::shared_ptr<const std::vector<std::string>> pool;  // texts of RAW Texts

    // A new game: the stack and the wall tiles shuffled, the start player drawn.
    static State deal(Config config, Pcg64 rng);
    // The empty position a snapshot is loaded into (no draws).
    static State blank(Config config);

    int current_player() const { return phase == GAME_OVER ? -1 : active; }
    bool is_terminal() const { return phase == GAME_OVER; }
    int stack_size() const { return stack_end - stack_head; }

    void legal_mask(uint8_t mask[NUM_ACTIONS]) const;
    bool is_legal(int64_t action) const;
    // Legal actions, ascending; returns how many.
    int legal_actions(int out[NUM_ACTIONS]) const;
    void apply(int action);  // a legal action (checked by the caller)
    // Random legal moves (numpy's rng.integers over legal_actions()); decisions played.
    int64_t playout(Pcg64& rng, int64_t depth);

    // Wall-tile kinds 1-3 the seat may use now, as a bit set (bit k: kind k).
    int usable_kinds(int seat) const;
    void observation(int seat, float* out) const;
    std::string text(const Text& t) const;

    // Placements replayed into a castle (the snapshot loader's helper).
    int place_tile(int cell, int tile, int rotation, int seat, int names[MAX_COMPLETED]) {
        return castle.place(cell, tile, rotation, seat, names);
    }

private:
    void apply_place(int action);
    void resolve_ties_and_group();
    void continue_scoring();
    void take(int name, int group);
    void score(int name, int group, bool doubled);
    void advance(int seat, int64_t points);
    void use_wall_tile(int kind);
    void after_scoring();
    void end_turn();
    void start_turn(int seat, bool extra);
    void final_scoring();
    void log(const Text& t) { events.push_back(t); }
};

// Observation layout (encoding.py): 105 spatial channels over the 132 locations, then 415.
constexpr int SPATIAL_CHANNELS = 105;
constexpr int SPATIAL_SIZE = SPATIAL_CHANNELS * NUM_GRID;  // 13860
constexpr int OBSERVATION_SIZE = SPATIAL_SIZE + 415;  // 14275

}  // namespace bge::carcassonne_castle
