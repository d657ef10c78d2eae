// The deck of Factors and Multiples (boardgame_envs/factors_multiples/data.py): 52
// French-suited cards, no jokers, and the small tables the rules read.
//
// Card ids: card = 4 * rank + suit, with
//   rank index k: A=0, 2=1, 3=2, ... 10=9, J=10, Q=11, K=12 (k = nominal number - 1);
//   suit index:   clubs=0, diamonds=1, hearts=2, spades=3 (the start-player tie-break order).
// A hand is a 52-bit set of card ids (bit c = card c), so that it is always sorted by id, as
// the Python engine keeps it, and the lowest-suit card of a rank is the lowest bit of that
// rank's nibble.
#pragma once

#include <cstdint>

namespace bge::factors_multiples {

constexpr int kNumRanks = 13;
constexpr int kNumSuits = 4;
constexpr int kNumCards = kNumRanks * kNumSuits;
constexpr int kHandLimit = 3;

constexpr int kAce = 0;
constexpr int kSeven = 6;
constexpr int kJack = 10;
constexpr int kKing = 12;

// Rank bit sets (bit k = rank index k).
constexpr uint32_t kSpecialRanks = (1u << kAce) | (1u << kSeven) | (1u << kJack) | (1u << kKing);
constexpr uint32_t kAllRanks = (1u << kNumRanks) - 1;
constexpr uint32_t kNormalRanks = kAllRanks & ~kSpecialRanks;

constexpr int rank_of(int card) { return card / kNumSuits; }
constexpr int suit_of(int card) { return card % kNumSuits; }
// A=1 ... K=13; only a normal card's nominal number ever becomes the value.
constexpr int nominal(int rank) { return rank + 1; }
constexpr bool is_special(int rank) { return (kSpecialRanks >> rank) & 1u; }

// Whether normal `rank` may be played on `value` (2..12; 0 stands for the undetermined *):
// a factor or a multiple (spec 2.4).
constexpr bool follows(int rank, int value) {
    if (value == 0) return true;
    const int number = nominal(rank);
    return value % number == 0 || number % value == 0;
}

// The normal ranks that may be played on each value 0 (*) .. 12, as rank bit sets.
struct FollowTable {
    uint32_t ranks[13] = {};
    constexpr FollowTable() {
        for (int value = 0; value <= 12; ++value) {
            if (value == 1) continue;  // never a value
            for (int rank = 0; rank < kNumRanks; ++rank) {
                if (!is_special(rank) && follows(rank, value)) ranks[value] |= 1u << rank;
            }
        }
    }
};
constexpr FollowTable kFollowTable{};

// One step around the ring 2-3-...-12-2 (spec 2.5); direction is +1 or -1.
constexpr int j_step(int value, int direction) { return (value - 2 + direction + 11) % 11 + 2; }

// Start-player comparison (spec 3.2): rank A > K > ... > 2, then suit spades > ... > clubs.
constexpr int strength(int card) {
    const int rank_order = (rank_of(card) + kNumRanks - 1) % kNumRanks;  // 2->0 ... K->11, A->12
    return kNumSuits * rank_order + suit_of(card);
}

// The nibble mask of a rank's four cards in a hand set.
constexpr uint64_t rank_cards(int rank) { return uint64_t{0xF} << (kNumSuits * rank); }
constexpr uint64_t kAllCards = (uint64_t{1} << kNumCards) - 1;

}  // namespace bge::factors_multiples
