// Cornucopia's determinizer (boardgame_envs/cornucopia/sample.py, step for step; sample.h).
#include "games/cornucopia/sample.h"

namespace bge::cornucopia {

namespace {

// _SEED_BOUND: seeds are drawn below it, as new_state(seed=None) draws them.
constexpr uint64_t kSeedBound = uint64_t{1} << 63;

// Blue a seat can stake: its blue plus three per yellow (§4.3 DP-2).
int64_t funds(const int64_t chips[3]) { return chips[kBlue] + kBluePerYellow * chips[kYellow]; }

}  // namespace

State sample(const State& state, int seat, Pcg64& rng) {
    const int n = state.num_players;
    const int t = state.turn_player;
    // The bets as the view shows them: a seat's own, and every one once revealed.
    int side[kMaxPlayers], stake[kMaxPlayers];
    bool committed[kMaxPlayers];
    for (int s = 0; s < n; ++s) {
        committed[s] = state.bet_side[s] >= 0;
        const bool seen = committed[s] && (state.bets_revealed || s == seat);
        side[s] = seen ? state.bet_side[s] : -1;
        stake[s] = seen ? state.bet_stake[s] : 0;
    }
    int order[kMaxPlayers - 1];
    int count = 0;
    int hidden[kMaxPlayers - 1];
    int num_hidden = 0;
    int bet_index;
    if (state.phase == kBet) {
        // Eligibility was judged on the chips at BID, which stay put until REVEAL.
        for (int i = 1; i < n; ++i) {
            const int s = (t + i) % n;
            if (funds(state.chips[s]) >= 1) order[count++] = s;
        }
        for (int k = 0; k < count; ++k) {
            if (committed[order[k]] && side[order[k]] < 0) hidden[num_hidden++] = order[k];
        }
        bet_index = 0;
        for (int s = 0; s < n; ++s) bet_index += committed[s] ? 1 : 0;
    } else {
        // After REVEAL the bettors are the seats with a bet; before BID and once the game is
        // over there are none.
        for (int i = 1; i < n; ++i) {
            const int s = (t + i) % n;
            if (side[s] >= 0) order[count++] = s;
        }
        bet_index = count;
    }
    const uint64_t seed = rng.integers(kSeedBound);
    for (int k = 0; k < num_hidden; ++k) {
        // Hidden: another seat's bet, uniform over the (side, stake) it could have chosen.
        const int s = hidden[k];
        const int64_t f = funds(state.chips[s]);
        int stakes = 0;
        for (int st = 1; st <= kMaxStake; ++st) stakes += st <= f ? 1 : 0;
        const int pick = static_cast<int>(rng.integers(static_cast<uint64_t>(2 * stakes)));
        side[s] = pick % 2;
        stake[s] = 1 + pick / 2;  // the stakes within the funds are 1, 2, ...
    }

    // The public parts as the view shows them; the hidden ones replaced below.
    State out = state;
    out.seed = seed;
    out.shuffles = 1 + state.exhaustions;
    // Hidden: the deck order, a uniform permutation of the deck's public composition.
    out.deck.size = 0;
    for (int type = 0; type < kNumTypes; ++type) {
        for (int c = 0; c < state.deck_counts[type]; ++c) out.deck.push(type);
    }
    rng.shuffle(out.deck.cards, out.deck.size);
    for (int s = 0; s < n; ++s) {
        out.bet_side[s] = static_cast<int8_t>(side[s]);
        out.bet_stake[s] = static_cast<int8_t>(side[s] >= 0 ? stake[s] : 0);
    }
    for (int k = 0; k < kMaxPlayers - 1; ++k) out.bet_order[k] = k < count ? order[k] : 0;
    out.bet_count = count;
    out.bet_index = bet_index;
    out.refresh_caches();
    return out;
}

}  // namespace bge::cornucopia
