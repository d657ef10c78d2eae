// Factors and Multiples: the rule-based player, decision for decision as
// agents/heuristic/factors_multiples.py makes it (see that module's docstring for the
// strategy). Python's max(xs, key=...) keeps the first of equal keys: each search below
// replaces its best only on a strictly greater key, scanning in the reference's order.
#include "games/factors_multiples/heuristic.h"

#include <cmath>

namespace bge::factors_multiples {

namespace {

constexpr int kNumValues = 11;  // VALUES = 2 .. 12

// FOLLOW_COUNT: how many values each normal rank follows (fewer: harder to place).
struct FollowCount {
    int of_rank[kNumRanks] = {};
    constexpr FollowCount() {
        for (int rank = 0; rank < kNumRanks; ++rank) {
            if (is_special(rank)) continue;
            for (int value = 2; value <= 12; ++value) of_rank[rank] += follows(rank, value) ? 1 : 0;
        }
    }
};
constexpr FollowCount kFollowCount{};

// FOLLOWERS: how many normal ranks follow each value (fewer: harder for everybody).
int followers(int value) { return __builtin_popcount(kFollowTable.ranks[value]); }

constexpr int kSpecialPlayOrder[4] = {kAce, kKing, kSeven, kJack};
constexpr int kRiskyOrder[3] = {kJack, kSeven, kKing};
constexpr int kSpecialKeepOrder[4] = {kJack, kSeven, kKing, kAce};  // discarded first to last

uint64_t special_cards() {
    return rank_cards(kAce) | rank_cards(kSeven) | rank_cards(kJack) | rank_cards(kKing);
}

// How many cards of each rank a hand set holds.
void rank_counts(uint64_t hand, int counts[kNumRanks]) {
    for (int rank = 0; rank < kNumRanks; ++rank) {
        counts[rank] = __builtin_popcountll(hand & rank_cards(rank));
    }
}

// view.total: the cards the seat still has to shed (hand + own pile).
int view_total(const State& s, int seat) { return s.hand_size(seat) + s.piles[seat].size; }

int specials_held(const State& s, int seat) {
    return __builtin_popcountll(s.hands[seat] & special_cards());
}

// A lexicographic (first, second) key, as the reference's tuple keys.
struct Key {
    int first;
    int second;
    bool operator>(const Key& o) const {
        return first > o.first || (first == o.first && second > o.second);
    }
    bool operator<(const Key& o) const { return o > *this; }
};

// _play: `ranks` the legal plays (a rank bit set, at least two of them).
int play(const State& s, int seat, uint32_t ranks) {
    int special = -1;
    for (int rank : kSpecialPlayOrder) {
        if ((ranks >> rank) & 1u) {
            special = rank;
            break;
        }
    }
    const uint32_t normals = ranks & kNormalRanks;
    if (special >= 0 && (view_total(s, seat) <= specials_held(s, seat) + 2 || normals == 0)) {
        return kPlayBase + special;
    }
    int counts[kNumRanks];
    rank_counts(s.hands[seat], counts);
    // after_play(rank): the normal cards of the rest of the hand that follow rank's value,
    // then the rank's own FOLLOW_COUNT negated (harder to place later: played first).
    int best = -1;
    Key best_key{0, 0};
    for (int rank = 0; rank < kNumRanks; ++rank) {
        if (!((normals >> rank) & 1u)) continue;
        const uint32_t following = kFollowTable.ranks[nominal(rank)];
        int count = 0;
        for (int r = 0; r < kNumRanks; ++r) {
            if ((following >> r) & 1u) count += counts[r] - (r == rank ? 1 : 0);
        }
        const Key key{count, -kFollowCount.of_rank[rank]};
        if (best < 0 || key > best_key) {
            best = rank;
            best_key = key;
        }
    }
    return kPlayBase + best;
}

// merit(value) of _choose_value: the seat's normal cards that follow it, then its
// FOLLOWERS negated (blocking the others).
Key merit(const int counts[kNumRanks], int value) {
    const uint32_t following = kFollowTable.ranks[value];
    int count = 0;
    for (int r = 0; r < kNumRanks; ++r) {
        if ((following >> r) & 1u) count += counts[r];
    }
    return Key{count, -followers(value)};
}

int choose_value(const State& s, int seat) {
    int counts[kNumRanks];
    rank_counts(s.hands[seat] & ~special_cards(), counts);
    if (s.phase == Phase::kSevenName) {
        int best = 2;
        Key best_key = merit(counts, 2);
        for (int value = 3; value < 2 + kNumValues; ++value) {
            const Key key = merit(counts, value);
            if (key > best_key) {
                best = value;
                best_key = key;
            }
        }
        return kNameBase + best - 2;  // name_action
    }
    // J_DIRECTION, on a determined value
    const Key down = merit(counts, j_step(s.value, -1));
    const Key up = merit(counts, j_step(s.value, +1));
    return up > down ? kJUp : kJDown;
}

// _discard: `ranks` the ranks that may be discarded (never DECLINE, as in the reference).
int discard(const State& s, int seat, uint32_t ranks) {
    for (int rank : kRiskyOrder) {
        if ((ranks >> rank) & 1u) {
            if (view_total(s, seat) <= specials_held(s, seat) + 3) return kDiscardBase + rank;
            break;
        }
    }
    const uint32_t normals = ranks & kNormalRanks;
    if (normals != 0) {
        // min by (FOLLOW_COUNT[r], -r): the hardest to place, the higher rank between equals
        int best = -1;
        Key best_key{0, 0};
        for (int rank = 0; rank < kNumRanks; ++rank) {
            if (!((normals >> rank) & 1u)) continue;
            const Key key{kFollowCount.of_rank[rank], -rank};
            if (best < 0 || key < best_key) {
                best = rank;
                best_key = key;
            }
        }
        return kDiscardBase + best;
    }
    for (int rank : kSpecialKeepOrder) {
        if ((ranks >> rank) & 1u) return kDiscardBase + rank;
    }
    return -1;  // no rank to discard: never with two legal actions
}

}  // namespace

int heuristic_action(const State& state, int seat, Pcg64& /*rng: the reference draws none*/) {
    const uint64_t mask = state.legal_mask();
    const int lowest = __builtin_ctzll(mask);
    if (__builtin_popcountll(mask) == 1) return lowest;
    switch (state.phase) {
        case Phase::kPlay:
            return play(state, seat, static_cast<uint32_t>(mask >> kPlayBase) & kAllRanks);
        case Phase::kADiscard:
        case Phase::kKDiscard: {
            const uint32_t ranks = static_cast<uint32_t>(mask >> kDiscardBase) & kAllRanks;
            const int action = discard(state, seat, ranks);
            return action >= 0 ? action : lowest;
        }
        case Phase::kSevenName:
        case Phase::kJDirection:
            return choose_value(state, seat);
        default:
            return lowest;
    }
}

int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon) {
    int64_t played = 0;
    while (!state.is_terminal() && (depth == 0 || played < depth)) {
        uint64_t mask = state.legal_mask();
        const int count = __builtin_popcountll(mask);
        if (count == 0) break;  // only a corrupt position has no move; never in play
        int action;
        if (count == 1) {
            action = __builtin_ctzll(mask);
        } else if (epsilon > 0 && rng.random() < epsilon) {
            uint64_t pick = rng.integers(static_cast<uint64_t>(count));
            while (pick-- > 0) mask &= mask - 1;
            action = __builtin_ctzll(mask);
        } else {
            action = heuristic_action(state, state.current_player(), rng);
        }
        state.apply(action);
        ++played;
    }
    return played;
}

void leaf_values(const State& state, double* out) {
    const int n = state.num_players;
    double keys[kMaxPlayers];
    for (int seat = 0; seat < n; ++seat) {
        const double total = static_cast<double>(state.match_total(seat));  // scores()
        if (state.is_terminal()) {
            keys[seat] = -1.0 * total;  // _score_keys(): lower totals win
        } else {
            keys[seat] = -((total + state.hand_size(seat)) + state.piles[seat].size);
        }
    }
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;  // Python's sum(): left to right
        for (int j = 0; j < n; ++j) {
            if (j != i) sum += std::tanh((keys[i] - keys[j]) / kLeafScoreScale);
        }
        out[i] = sum / (n - 1);
    }
}

}  // namespace bge::factors_multiples
