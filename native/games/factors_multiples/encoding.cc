// Factors and Multiples: the observation of one seat, float for float as
// boardgame_envs/factors_multiples/encoding.py writes it (its docstring has the layout).
// Every entry is a count of quarters (exact in float32) or one quotient computed in double and
// rounded once to float32, as the Python engine's float32 array stores a Python float.
#include <algorithm>

#include "games/factors_multiples/state.h"

namespace bge::factors_multiples {

namespace {

constexpr int kMaxSeats = 5;
constexpr int kHand = 0;
constexpr int kHandSizes = 13;
constexpr int kPileSizes = 18;
constexpr int kPresent = 23;
constexpr int kValue = 28;
constexpr int kLastRank = 40;
constexpr int kLastSeat = 53;
constexpr int kPhase = 58;
constexpr int kPlayed = 64;
constexpr int kOwnDiscards = 77;
constexpr int kHiddenDiscard = 90;
constexpr int kReveals = 91;
constexpr int kRevealAges = 143;
constexpr int kPlayerCount = 147;
constexpr int kRoundsLeft = 151;
constexpr int kMatchTotals = 154;
static_assert(kMatchTotals + kMaxSeats == kObservationSize, "the layout adds up");

constexpr float kQuarter = 0.25f;

float quotient(double x, double scale) { return static_cast<float>(x / scale); }

}  // namespace

void State::encode(int seat, float* obs) const {
    std::fill(obs, obs + kObservationSize, 0.0f);
    const int n = num_players;
    const int me = seat;
    for (uint64_t rest = hands[me]; rest; rest &= rest - 1) {
        obs[kHand + (__builtin_ctzll(rest) >> 2)] += kQuarter;
    }
    for (int i = 0; i < play_cards.size; ++i) obs[kPlayed + (play_cards[i] >> 2)] += kQuarter;
    const CardList& mine = own_discards[me];
    for (int i = 0; i < mine.size; ++i) obs[kOwnDiscards + (mine[i] >> 2)] += kQuarter;
    // The divisor of the match totals: 30 up to 3 rounds, 10 per round beyond.
    const double total_scale = 10.0 * std::max(config.rounds, 3);
    for (int rel = 0; rel < n; ++rel) {
        const int other = (me + rel) % n;
        obs[kHandSizes + rel] = quotient(hand_size(other), 26);
        obs[kPileSizes + rel] = quotient(piles[other].size, 26);
        obs[kPresent + rel] = 1.0f;
        obs[kMatchTotals + rel] = quotient(static_cast<double>(match_total(other)), total_scale);
        if (rel) {
            const int base = kReveals + (rel - 1) * kNumRanks;
            const CardList& shown = reveals[other];
            for (int i = 0; i < shown.size; ++i) obs[base + (shown[i] >> 2)] += kQuarter;
            const int64_t age = turns_started[other] - reveal_marks[other];
            obs[kRevealAges + rel - 1] = quotient(static_cast<double>(std::min<int64_t>(age, 10)), 10);
        }
    }
    obs[kValue + (value == 0 ? 11 : value - 2)] = 1.0f;
    if (play_cards.size > 0) {
        const int last = play_cards.size - 1;
        obs[kLastRank + (play_cards[last] >> 2)] = 1.0f;
        obs[kLastSeat + (play_seats[last] - me + n) % n] = 1.0f;
    }
    if (phase != Phase::kGameOver) obs[kPhase + static_cast<int>(phase)] = 1.0f;
    obs[kPlayerCount + n - 2] = 1.0f;
    obs[kRoundsLeft + std::min(config.rounds - round, 3) - 1] = 1.0f;
    obs[kHiddenDiscard] = quotient(hidden_discard.size, 52);
}

}  // namespace bge::factors_multiples
