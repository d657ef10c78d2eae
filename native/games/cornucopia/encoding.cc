// Cornucopia: the observation tensor of one seat (encoding.py's encode(view), the same floats:
// every value is computed in double as Python does, then stored as float32).
//
// offset size content (see encoding.py's table)
//   0  4  player count one-hot     4  1 variant          5  4 decision one-hot
//   9  5  turn player (relative)  14  5 acting player    19  6 bid stacks / copies
//  25  6  pending bid one-hot     31  1 k / 6           32  1 (N - k) / 6
//  33  1  REDRAW legal            34  1 declared / 3    35  6 drawn card one-hot
//  41 50  baskets (types / 5, status AMBIGUOUS SAME DIFFERENT, size / 5)
//  91  1  deck size / 65          92  3 exhaustions     95  6 deck by type / 11
// 101  6  discard by type / 11   107 70 seats (present, chips / 10 clipped, won / copies,
//                                        committed, YES, NO, stake / 3)
#include <algorithm>
#include <cstring>

#include "games/cornucopia/state.h"

namespace bge::cornucopia {

namespace {
constexpr int kPhaseSlot = 5, kTurnSeat = 9, kActingSeat = 14, kStacks = 19, kBidNumber = 25;
constexpr int kPlaced = 31, kPlacementsLeft = 32, kRedrawAvailable = 33, kDeclared = 34;
constexpr int kPendingSlot = 35, kBaskets = 41, kBasketSize = 10, kDeckSize = 91;
constexpr int kExhaustions = 92, kDeckCounts = 95, kDiscardCounts = 101, kSeats = 107;
constexpr int kSeatSize = 14;
constexpr int64_t kChipClip = 100;
constexpr int kStatusSlot[3] = {2, 1, 0};  // DIFFERENT, SAME, AMBIGUOUS -> slot
}  // namespace

void State::observation(int seat, float* out) const {
    std::memset(out, 0, sizeof(float) * kObservationSize);
    const int n = num_players;
    const int me = seat;
    out[n - 2] = 1.0f;
    out[kTurnSeat + (turn_player - me + n) % n] = 1.0f;
    if (variant) out[4] = 1.0f;
    if (phase != kGameOver) {
        out[kPhaseSlot + phase] = 1.0f;
        out[kActingSeat + (current_player() - me + n) % n] = 1.0f;
    }
    for (int i = 0; i < kNumBidNumbers; ++i) {
        out[kStacks + i] = static_cast<float>(stacks[i] * (1.0 / kBidCopies[i]));
    }
    if (bid != 0) {
        out[kBidNumber + bid - 1] = 1.0f;
        out[kPlacementsLeft] = static_cast<float>((bid - placed) / 6.0);
    }
    out[kPlaced] = static_cast<float>(placed / 6.0);
    out[kRedrawAvailable] = phase == kCard && can_redraw() ? 1.0f : 0.0f;
    out[kDeclared] = static_cast<float>(declared / 3.0);
    if (pending >= 0) out[kPendingSlot + pending] = 1.0f;
    for (int j = 0; j < kNumBaskets; ++j) {
        float* block = out + kBaskets + kBasketSize * j;
        const Basket& b = baskets[j];
        double per_type[kNumTypes] = {};
        for (int i = 0; i < b.size; ++i) per_type[b.cards[i]] += 0.2;
        for (int c = 0; c < kNumTypes; ++c) block[c] = static_cast<float>(per_type[c]);
        block[6 + kStatusSlot[status[j]]] = 1.0f;
        block[9] = static_cast<float>(b.size / 5.0);
    }
    out[kDeckSize] = static_cast<float>(deck.size / 65.0);
    out[kExhaustions + std::min(exhaustions, 2)] = 1.0f;
    for (int c = 0; c < kNumTypes; ++c) {
        out[kDeckCounts + c] = static_cast<float>(deck_counts[c] / 11.0);
        out[kDiscardCounts + c] = static_cast<float>(discard_counts[c] / 11.0);
    }
    for (int relative = 0; relative < n; ++relative) {
        const int s = (me + relative) % n;
        float* block = out + kSeats + kSeatSize * relative;
        block[0] = 1.0f;
        for (int c = 0; c < 3; ++c) {
            const double held = static_cast<double>(std::min(chips[s][c], kChipClip));
            block[1 + c] = static_cast<float>(held / 10);
        }
        for (int i = 0; i < kNumBidNumbers; ++i) {
            block[4 + i] = static_cast<float>(won[s][i] * (1.0 / kBidCopies[i]));
        }
        if (bet_side[s] >= 0) {
            block[10] = 1.0f;
            if (bets_revealed || s == me) {
                block[11 + bet_side[s]] = 1.0f;
                block[13] = static_cast<float>(bet_stake[s] / 3.0);
            }
        }
    }
}

}  // namespace bge::cornucopia
