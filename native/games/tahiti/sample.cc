// Tahiti's determinizer, draw for draw as boardgame_envs/tahiti/sample.py samples (sample.h).
#include "games/tahiti/sample.h"

#include <algorithm>
#include <cstring>
#include <utility>

namespace bge::tahiti {

namespace {

using Keyed = std::pair<double, int>;

// `items` sorted by (key, item) with their keys from keys[0 .. count), as Python sorts the
// zipped pairs.
void sort_by_keys(const double* keys, int* items, int count) {
    Keyed pairs[NUM_ISLANDS + NUM_TOKENS];
    for (int i = 0; i < count; ++i) pairs[i] = {keys[i], items[i]};
    std::sort(pairs, pairs + count);
    for (int i = 0; i < count; ++i) items[i] = pairs[i].second;
}

// np.random.PCG64(_Words(rng.bit_generator.random_raw(4))): the words are pcg64_set_seed's
// state (high, low) and sequence (high, low), with no SeedSequence hashing.
Pcg64 generator_from_words(Pcg64& rng) {
    uint64_t words[4];
    for (uint64_t& word : words) word = rng.next_uint64();
    const u128 initstate = (static_cast<u128>(words[0]) << 64) | words[1];
    const u128 initseq = (static_cast<u128>(words[2]) << 64) | words[3];
    const u128 inc = (initseq << 1) | 1u;
    u128 state = inc;  // pcg64_srandom_r: state 0, one step, + initstate, one step
    state += initstate;
    state = state * Pcg64::kMultiplier + inc;
    return Pcg64::from_state(state, inc, false, 0);
}

}  // namespace

State sample_state(const State& state, int seat, Pcg64& rng) {
    const int n = state.num_players;
    const int own = state.favourites[seat];
    const int top_a = state.stack_top(0), top_b = state.stack_top(1);
    const int size_a = state.stack_size[0], size_b = state.stack_size[1];

    // view.unplaced (the islands in the stacks, as a set) less the two tops, ascending
    bool in_stacks[NUM_ISLANDS + 1] = {};
    for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < state.stack_size[i]; ++j) in_stacks[state.stacks[i][j]] = true;
    }
    int below[NUM_ISLANDS];
    int m = 0;
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        if (in_stacks[k] && k != top_a && k != top_b) below[m++] = k;
    }
    int others[4];
    int num_others = 0;
    const int first = favourite_set_first(n);
    for (int f = first; f < first + favourite_set_size(n); ++f) {
        if (f != own) others[num_others++] = f;
    }
    const int plain = state.tokens_left(PLAIN), fishing = state.tokens_left(FISHING);
    int pile[NUM_TOKENS];
    int num_tokens = 0;
    for (int i = 0; i < plain; ++i) pile[num_tokens++] = PLAIN;
    for (int i = 0; i < fishing; ++i) pile[num_tokens++] = FISHING;

    // one call for every shuffle: each part is sorted by its own slice of uniform keys
    double keys[NUM_ISLANDS + 4 + NUM_TOKENS];
    const int num_keys = m + num_others + num_tokens;
    for (int i = 0; i < num_keys; ++i) keys[i] = rng.random();
    sort_by_keys(keys, below, m);
    sort_by_keys(keys + m, others, num_others);
    sort_by_keys(keys + m + num_others, pile, num_tokens);

    // Everything public is the state's own; what the seat cannot see is replaced below.
    State out = state;
    out.rng = generator_from_words(rng);
    std::memset(out.stacks, 0, sizeof out.stacks);
    int at = 0;  // A takes the first size_A - 1 islands below the tops, B the rest
    if (size_a) {
        out.stacks[0][0] = static_cast<uint8_t>(top_a);
        for (int j = 1; j < size_a; ++j) out.stacks[0][j] = static_cast<uint8_t>(below[at++]);
    }
    if (size_b) {
        out.stacks[1][0] = static_cast<uint8_t>(top_b);
        for (int j = 1; at < m; ++j) out.stacks[1][j] = static_cast<uint8_t>(below[at++]);
    }
    std::memset(out.token_pile, 0, sizeof out.token_pile);
    for (int i = 0; i < num_tokens; ++i) out.token_pile[i] = static_cast<uint8_t>(pile[i]);
    out.token_pile_size = static_cast<uint8_t>(num_tokens);
    int dealt = 0;
    for (int s = 0; s < n; ++s) {
        out.favourites[s] = static_cast<uint8_t>(s == seat ? own : others[dealt++]);
    }
    std::memset(out.unused_favourites, 0, sizeof out.unused_favourites);
    out.num_unused_favourites = static_cast<uint8_t>(num_others - dealt);
    for (int i = 0; dealt < num_others; ++i) {
        out.unused_favourites[i] = static_cast<uint8_t>(others[dealt++]);
    }
    return out;
}

}  // namespace bge::tahiti
