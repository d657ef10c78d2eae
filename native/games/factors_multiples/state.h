// Factors and Multiples: one position of a match, its legal moves and transitions, the same
// game as boardgame_envs/factors_multiples/rules.py (the reference; section numbers refer to
// shared/rules/factors_multiples.md). A State is a plain value: copying it is a clone.
//
// Actions (one Discrete(40) space, spec 11.2; rank index k: A=0, 2=1 ... K=12):
//   0-12   PLAY one card of rank k (its lowest suit)                PLAY, K_ANSWER
//   13     SHOW_AND_DRAW; DECLINE the K discard (k_discard_optional) PLAY, K_ANSWER, K_DISCARD
//   14-26  DISCARD one card of rank k = index - 14 (its lowest suit) A_DISCARD, K_DISCARD
//   27-37  NAME value index - 25 (2 ... 12)                           SEVEN_NAME
//   38     J_DOWN (-1; 2 wraps to 12)                                 J_DIRECTION
//   39     J_UP (+1; 12 wraps to 2)                                   J_DIRECTION
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "games/factors_multiples/data.h"

namespace bge::factors_multiples {

constexpr int kMinPlayers = 2;
constexpr int kMaxPlayers = 5;
constexpr int kMaxRounds = 100;  // the ``rounds`` option's range, 1..100
constexpr int kVersion = 1;      // FactorsMultiplesRules.version

constexpr int kPlayBase = 0;
constexpr int kShowAndDraw = 13;
constexpr int kDecline = 13;
constexpr int kDiscardBase = 14;
constexpr int kNameBase = 27;
constexpr int kJDown = 38;
constexpr int kJUp = 39;
constexpr int kNumActions = 40;

// Decision types (spec 4.2), in the order of the observation's phase one-hot.
enum class Phase : uint8_t { kPlay, kKAnswer, kADiscard, kSevenName, kJDirection, kKDiscard, kGameOver };
constexpr int kNumPhases = 7;
const char* phase_name(Phase phase);
// The phase called `name` ("PLAY" ... "GAME_OVER"); false when there is none.
bool phase_from_name(const char* name, Phase* out);

// An ordered list of at most 52 card ids (a pile top first, a discard pile oldest first).
struct CardList {
    uint8_t cards[kNumCards];
    uint8_t size = 0;

    int operator[](int i) const { return cards[i]; }
    bool full() const { return size >= kNumCards; }
    void push_back(int card) { cards[size++] = static_cast<uint8_t>(card); }
    int pop_at(int index) {
        const int card = cards[index];
        for (int i = index + 1; i < size; ++i) cards[i - 1] = cards[i];
        --size;
        return card;
    }
    void clear() { size = 0; }
};

struct Config {
    int rounds = 3;
    bool start_draw_random = false;  // start_draw: "top" (false) or "random" (true)
    bool a_needs_discard = false;
    bool k_discard_optional = false;
    bool choose_after_refill = false;
};

// The match seed, an int >= 0 kept as numpy's SeedSequence sees it: 32-bit words, least
// significant first ([0] for zero). Up to 256 bits.
constexpr int kMaxSeedWords = 8;
struct Seed {
    uint32_t words[kMaxSeedWords] = {0};
    uint8_t count = 1;

    static Seed from_uint64(uint64_t value);
    std::vector<uint32_t> entropy() const { return std::vector<uint32_t>(words, words + count); }
};

// The seed of round `round_index`: the round_index-th draw of integers(2**63) of the match
// seed's generator (rules.round_seed).
uint64_t round_seed(const Seed& seed, int round_index);

struct State {
    int num_players = 2;
    Config config;
    Seed seed;
    int round = 0;
    int completed = 0;                              // rows of round_scores / went_out
    int8_t round_scores[kMaxRounds][kMaxPlayers] = {};  // per completed round, per seat
    int8_t went_out[kMaxRounds] = {};               // the seat that went out, -1 when blocked
    uint64_t hands[kMaxPlayers] = {};               // card sets (sorted by id)
    CardList piles[kMaxPlayers];                    // top card first
    CardList play_cards;                            // the play pile, oldest first ...
    uint8_t play_seats[kNumCards] = {};             // ... and who played each card
    CardList hidden_discard;
    CardList own_discards[kMaxPlayers];
    int value = 0;                                  // 2..12, 0 for the undetermined *
    Phase phase = Phase::kPlay;
    int turn_player = 0;                            // -1 once the match is over
    int k_player = -1;                              // -1: no K restriction pending
    int start_player = 0;
    CardList reveals[kMaxPlayers];                  // per seat, its latest reveal this round
    int reveal_discard_marks[kMaxPlayers] = {};
    int64_t reveal_marks[kMaxPlayers] = {};
    int64_t turns_started[kMaxPlayers] = {};

    // A new match, its first round dealt (num_players and config already checked).
    static State new_game(int num_players, const Seed& seed, const Config& config);

    int current_player() const {
        if (phase == Phase::kGameOver) return -1;
        return phase == Phase::kKDiscard ? k_player : turn_player;
    }
    bool is_terminal() const { return phase == Phase::kGameOver; }
    // Bit a set when action a is legal now; 0 once the match is over.
    uint64_t legal_mask() const;
    bool is_legal(int64_t action) const {
        return action >= 0 && action < kNumActions && ((legal_mask() >> action) & 1u);
    }
    // Carries out a legal action (the caller checks it: is_legal).
    void apply(int action);
    // Random legal moves to the end, or for `depth` decisions (0: no limit), drawn as
    // State.playout does: legal[rng.integers(len(legal))]. The decisions played.
    int64_t playout(Pcg64& rng, int64_t depth);

    int total(int seat) const { return __builtin_popcountll(hands[seat]) + piles[seat].size; }
    int hand_size(int seat) const { return __builtin_popcountll(hands[seat]); }
    // Match totals over the completed rounds (lower is better).
    int64_t match_total(int seat) const;
    // The observation of `seat` (encoding.py), kObservationSize floats.
    void encode(int seat, float* out) const;

    // -- legal-move generation, one function per decision type ----------------------------
    uint32_t legal_plays(int seat) const;  // L(seat) as a rank bit set (spec 4.1)
    bool can_answer_king(int seat) const;  // L_K(seat) = {A}
    uint64_t legal_discards(int seat) const;  // discard actions

private:
    void apply_play(int action);
    void apply_king_answer(int action);
    void apply_king_discard(int action);
    void choose_next(Phase next);
    int take_card(int seat, int rank);
    void play_card(int seat, int rank);
    void discard(int seat, int rank);
    void draw(int seat);
    void refill(int seat);
    void show_and_draw(int seat);
    void reveal_hand(int seat);
    void end_turn();
    bool is_blocked() const;
    void begin_turn(int seat);
    void end_round(int went_out_seat);
    void start_round();
};

constexpr int kObservationSize = 159;

}  // namespace bge::factors_multiples
