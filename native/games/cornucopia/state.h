// Cornucopia: one position and its rules (boardgame_envs/cornucopia/rules.py, the reference;
// spec shared/rules/cornucopia.md). A plain value type: copying a State clones the game.
//
// Actions (one Discrete(23) space, spec §11.2):
//   0-5 BID number index + 1 · 6-8 BET YES stake 1..3 · 9-11 BET NO stake 1..3 ·
//   12-16 PLACE in B0..B4 · 17 REDRAW · 18 FORFEIT · 19-22 DECLARE 0..3 red (variant).
// Storage as in the reference: the deck's top is its last card; B4 starts with W*; a bet is
// (side, stake) with side 0 = YES, 1 = NO. Chance (shuffles) happens inside apply: shuffle i
// of a game uses numpy.random.default_rng((seed, i)).
//
// The log (public events of the turn and of the previous one, part of the snapshot) is kept
// as small event records and written out as text only for snapshots and views.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/rng.h"
#include "games/cornucopia/data.h"

namespace bge::cornucopia {

// -- action indices ---------------------------------------------------------------------------
constexpr int kBidBase = 0;
constexpr int kYesBase = 6;
constexpr int kNoBase = 9;
constexpr int kPlaceBase = 12;
constexpr int kRedraw = 17;
constexpr int kForfeit = 18;
constexpr int kDeclareBase = 19;
constexpr int kNumActions = 23;

// -- phases (decision types, §4.3) ----------------------------------------------------------
enum Phase : uint8_t { kDeclare = 0, kBid = 1, kBet = 2, kCard = 3, kGameOver = 4 };
constexpr const char* kPhaseNames[5] = {"DECLARE", "BID", "BET", "CARD", "GAME_OVER"};

constexpr int kYes = 0;
constexpr int kNo = 1;
constexpr const char* kSideNames[2] = {"YES", "NO"};

// How a game ended (None while it goes on).
enum EndReason : uint8_t { kNotOver = 0, kEndDeck = 1, kEndStacks = 2, kEndNoCards = 3 };
constexpr const char* kEndReasonTexts[4] = {"", "deck run out twice", "three bid stacks empty",
                                            "deck and discard pile empty"};

constexpr int kAllTypes = (1 << kNumTypes) - 1;

// A pile of crop cards (deck: top last; discard: oldest first).
struct Pile {
    int8_t cards[kNumCropCards];
    int size = 0;
    void push(int card) { cards[size++] = static_cast<int8_t>(card); }
    int pop() { return cards[--size]; }
};

struct Basket {
    int8_t cards[kBasketCapacity];
    int size = 0;
};

// One public event of the log; render_event writes its line of text.
enum EventKind : uint8_t {
    kEvDeclare,    // v0 seat, v1 count
    kEvBid,        // v0 seat, v1 number
    kEvBets,       // n bettors: v[3i] seat, v[3i+1] side, v[3i+2] stake
    kEvDraw,       // v0 card
    kEvPlace,      // v0 card, v1 basket, v2 bonus
    kEvRedraw,     // v0 card
    kEvForfeit,    // v0 card
    kEvSuccess,    // v0 basket, v1 completion type, v2 seat, v3 number
    kEvSown,       // v0 basket, n cards in v1..
    kEvFailure,    // v0 number
    kEvGameOver,   // v0 end reason
    kEvExhausted,  // v0 exhaustions
};

struct Event {
    uint8_t kind;
    uint8_t n;
    uint8_t v[14];
};

// The log of one turn: lines loaded from a snapshot (kept as text, shared, immutable), then
// the events played since. A turn adds at most ~27 events (declare, bid, bets, 9 draws and
// their outcomes, 2 exhaustions, success, sown, failure, game over).
struct Log {
    static constexpr int kCapacity = 40;
    std::shared_ptr<const std::vector<std::string>> loaded;
    int count = 0;
    Event events[kCapacity];

    bool empty() const { return count == 0 && !loaded; }
    void clear() {
        loaded.reset();
        count = 0;
    }
    Event& add(uint8_t kind) {
        // Never full in play (see above); the last slot is reused rather than overrun.
        if (count < kCapacity) ++count;
        Event& e = events[count - 1];
        e.kind = kind;
        e.n = 0;
        return e;
    }
};

// The fields of a snapshot (to_dict / from_dict), as plain values; bindings convert Python
// objects into it (types only), State::load checks everything else.
struct Snapshot {
    int64_t num_players = 0;
    bool variant = false;
    u128 seed = 0;
    int64_t shuffles = 0;
    std::vector<int64_t> deck, discard;
    std::vector<std::vector<int64_t>> baskets;
    int64_t exhaustions = 0;
    bool end_pending = false;
    std::vector<int64_t> stacks;
    std::vector<std::vector<int64_t>> won, chips;
    std::vector<int64_t> bank;
    int64_t start_player = 0, turn_player = 0, turn = 0;
    std::string phase;
    std::optional<int64_t> bid;
    int64_t placed = 0;
    bool red_used = false;
    int64_t declared = 0;
    std::optional<int64_t> pending;
    std::vector<int64_t> bet_order;
    int64_t bet_index = 0;
    std::vector<std::optional<std::vector<int64_t>>> bets;
    bool bets_revealed = false;
    std::optional<std::string> end_reason;
    std::vector<std::string> log, last_log;
};

// Chip counts in a loaded snapshot are refused beyond this (they stay far from overflow).
constexpr int64_t kMaxChipValue = int64_t{1} << 40;

struct State {
    int num_players = 2;
    bool variant = false;
    u128 seed = 0;
    int shuffles = 0;
    Pile deck;
    Pile discard;
    Basket baskets[kNumBaskets];
    int exhaustions = 0;
    bool end_pending = false;
    int stacks[kNumBidNumbers] = {};
    int won[kMaxPlayers][kNumBidNumbers] = {};
    int64_t chips[kMaxPlayers][3] = {};
    int64_t bank[3] = {};
    int start_player = 0;
    int turn_player = 0;
    int turn = 0;
    Phase phase = kBid;
    int bid = 0;  // 0: none
    int placed = 0;
    bool red_used = false;
    int declared = 0;
    int pending = -1;  // -1: none
    int bet_order[kMaxPlayers - 1] = {};
    int bet_count = 0;
    int bet_index = 0;
    int8_t bet_side[kMaxPlayers] = {};   // -1: no bet
    int8_t bet_stake[kMaxPlayers] = {};  // 0 with no bet
    bool bets_revealed = false;
    EndReason end_reason = kNotOver;
    Log logs[2];
    int log_index = 0;  // logs[log_index] is this turn's, the other the previous turn's
    // Caches rebuilt from the facts above.
    uint8_t fits[kNumBaskets] = {};    // per basket, bitmask of the crop types it accepts
    uint8_t status[kNumBaskets] = {};  // per basket, kAmbiguous / kSame / kDifferent
    int deck_counts[kNumTypes] = {};
    int discard_counts[kNumTypes] = {};

    // -- construction ------------------------------------------------------------------------
    static State new_game(int num_players, bool variant, u128 seed);
    // A checked position from a snapshot; throws std::invalid_argument naming the field.
    static State load(const Snapshot& snapshot);
    Snapshot save() const;

    // -- the contract ------------------------------------------------------------------------
    int current_player() const {
        if (phase == kBet) return bet_order[bet_index];
        if (phase == kGameOver) return -1;
        return turn_player;
    }
    bool is_terminal() const { return phase == kGameOver; }
    const char* phase_name() const { return kPhaseNames[phase]; }
    // Bit a set for each legal action a (0 once the game is over).
    uint32_t legal_bits() const;
    bool is_legal(int64_t action) const {
        return action >= 0 && action < kNumActions && ((legal_bits() >> action) & 1u);
    }
    // Carries out a legal action (the caller checks legality).
    void apply(int action);
    std::array<double, kMaxPlayers> scores() const;
    // Random legal moves as State.playout plays them; the number of decisions played.
    int64_t playout(Pcg64& rng, int64_t depth);
    // encode(view(seat)) into out[kObservationSize] (encoding.cc).
    void observation(int seat, float* out) const;

    bool can_redraw() const {
        if (variant) return declared >= 1;
        return !red_used && chips[turn_player][kRed] >= 1;
    }
    const Log& log() const { return logs[log_index]; }
    const Log& last_log() const { return logs[log_index ^ 1]; }
    std::vector<std::string> log_lines(const Log& log) const;

    void refresh_fits(int j);
    void refresh_caches();

private:
    Log& log_mut() { return logs[log_index]; }
    void declare(int count);
    void do_bid(int number);
    void bet(int action);
    void reveal();
    void draw_pending();
    void place(int j);
    void redraw();
    void forfeit();
    void success(int j);
    void failure(bool forfeited);
    void settle(bool success);
    void end_turn();
    void begin_turn(int seat);
    void game_over(EndReason reason);
    void end_without_cards();
    int draw();  // -1 when deck and discard are empty
    void to_discard(int card);
    void exhaust();
    void setup();
    void clear_bets();
};

constexpr int kObservationSize = 177;

// Helpers shared with the checks (spec §2.7, §6).
int basket_status(const Basket& b, bool same_only);
int fitting_types(const Basket& b, bool same_only);
bool is_valid_basket(const int64_t* cards, size_t size, bool same_only);
int combination_points(const int won[kNumBidNumbers]);
std::string render_event(const Event& e);

}  // namespace bge::cornucopia
