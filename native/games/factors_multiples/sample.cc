// Factors and Multiples determinization, draw for draw as
// boardgame_envs/factors_multiples/sample.py: each deal is one block of raw 64-bit words
// (rng.bit_generator.random_raw(draws)): the match seed, a sort key per unseen card and a sort
// key per slot of each "mixed" seat (one whose kept reveals may have been discarded since).
#include "games/factors_multiples/sample.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace bge::factors_multiples {

namespace {

// numpy's argsort of the keys [begin, end): indices 0..end-begin-1 in key order. Ties (two
// equal 64-bit random words) are broken by index; numpy's sort is not stable there, but a
// tie has probability about 2**-64 per pair.
std::vector<int> argsort(const uint64_t* begin, const uint64_t* end) {
    std::vector<int> order(static_cast<size_t>(end - begin));
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return begin[a] < begin[b]; });
    return order;
}

// What the view shows, as sample_state reads it, plus what it derives before dealing.
struct Known {
    int seat;
    int reveal_discards[kMaxPlayers];  // view.reveal_discards
    CardList kept[kMaxPlayers];        // other seats' revealed cards not known elsewhere
    bool mixed[kMaxPlayers] = {};
    CardList unseen;                   // ascending
    int leftovers;                     // the 52 mod n cards of the deal in the hidden discard
};

// _deal: the unseen cards (and each seat's kept reveals) into the unseen places of `out`,
// from `keys` (1 + unseen + the mixed seats' slots words).
void deal(const State& view, const Known& k, const uint64_t* keys, State& out) {
    const int n = view.num_players;
    out.seed = Seed::from_uint64(keys[0] >> 1);  // 63 bits, like every match seed
    int end = 1 + k.unseen.size;
    const std::vector<int> order = argsort(keys + 1, keys + end);
    uint8_t pool[kNumCards];
    for (int j = 0; j < k.unseen.size; ++j) pool[j] = static_cast<uint8_t>(k.unseen[order[j]]);
    int i = 0;  // next card of the pool
    CardList discards[kMaxPlayers];
    discards[k.seat] = view.own_discards[k.seat];
    for (int s = 0; s < n; ++s) {
        if (s == k.seat) continue;
        const int size = view.hand_size(s);
        const int after = k.reveal_discards[s];
        const int before = view.own_discards[s].size - after;
        CardList& mine = discards[s];
        mine.clear();
        for (int j = 0; j < before; ++j) mine.push_back(pool[i++]);  // early
        uint64_t hand = 0;
        const CardList& kept = k.kept[s];
        if (k.mixed[s]) {
            int slots[2 * kNumCards];
            const int count = size + after;
            for (int j = 0; j < count; ++j) slots[j] = -1;
            const std::vector<int> slot_order = argsort(keys + end, keys + end + count);
            end += count;
            for (int j = 0; j < kept.size && j < count; ++j) slots[slot_order[j]] = kept[j];
            for (int j = 0; j < count; ++j) {
                if (slots[j] < 0) slots[j] = pool[i++];
            }
            for (int j = 0; j < size; ++j) hand |= uint64_t{1} << slots[j];
            for (int j = size; j < count; ++j) mine.push_back(slots[j]);  // late
        } else {
            const int fill = size - kept.size;
            for (int j = 0; j < kept.size; ++j) hand |= uint64_t{1} << kept[j];
            for (int j = 0; j < fill; ++j) hand |= uint64_t{1} << pool[i++];
            for (int j = 0; j < after; ++j) mine.push_back(pool[i++]);  // late
        }
        out.hands[s] = hand;  // a set: sorted, as hand.sort() leaves it
        out.own_discards[s] = mine;
    }
    for (int s = 0; s < n; ++s) {
        CardList& pile = out.piles[s];
        pile.clear();
        for (int j = 0; j < view.piles[s].size; ++j) pile.push_back(pool[i++]);
    }
    CardList& hidden = out.hidden_discard;
    hidden.clear();
    for (int j = 0; j < k.leftovers; ++j) hidden.push_back(pool[i++]);
    for (int s = 0; s < n; ++s) {
        for (int j = 0; j < discards[s].size; ++j) hidden.push_back(discards[s][j]);
    }
}

bool piles_empty(const State& s) {
    for (int seat = 0; seat < s.num_players; ++seat) {
        if (s.piles[seat].size > 0) return false;
    }
    return true;
}

bool anyone_can_play(const State& s) {
    for (int seat = 0; seat < s.num_players; ++seat) {
        if (s.legal_plays(seat) != 0) return true;
    }
    return false;
}

}  // namespace

State sample_state(const State& view, int seat, Pcg64& rng) {
    const int n = view.num_players;
    // The public facts, copied; the seat's own hand and discards.
    State out;
    out.num_players = n;
    out.config = view.config;
    out.round = view.round;
    out.completed = view.completed;
    for (int r = 0; r < view.completed; ++r) {
        out.went_out[r] = view.went_out[r];
        for (int s = 0; s < n; ++s) out.round_scores[r][s] = view.round_scores[r][s];
    }
    out.play_cards = view.play_cards;
    for (int j = 0; j < view.play_cards.size; ++j) out.play_seats[j] = view.play_seats[j];
    out.value = view.value;
    out.phase = view.phase;
    out.turn_player = view.turn_player;
    out.k_player = view.k_player;
    out.start_player = view.start_player;
    for (int s = 0; s < n; ++s) {
        out.reveals[s] = view.reveals[s];
        out.turns_started[s] = view.turns_started[s];
        out.reveal_marks[s] = view.reveal_marks[s];
        out.reveal_discard_marks[s] = view.reveal_discard_marks[s];
    }
    out.hands[seat] = view.hands[seat];
    out.own_discards[seat] = view.own_discards[seat];

    // What the seat knows where it is: its hand, its discards, the play pile; and the other
    // seats' revealed cards still unplayed ("kept"), in their hand or later discards.
    Known k;
    k.seat = seat;
    uint64_t known = view.hands[seat];
    const CardList& own = view.own_discards[seat];
    for (int j = 0; j < own.size; ++j) known |= uint64_t{1} << own[j];
    for (int j = 0; j < view.play_cards.size; ++j) known |= uint64_t{1} << view.play_cards[j];
    for (int s = 0; s < n; ++s) {
        k.kept[s].clear();
        k.reveal_discards[s] = view.own_discards[s].size - view.reveal_discard_marks[s];
        if (s == seat) continue;
        for (int j = 0; j < view.reveals[s].size; ++j) {
            const int card = view.reveals[s][j];
            if (!((known >> card) & 1u)) k.kept[s].push_back(card);
        }
    }
    int kept_total = 0;
    for (int s = 0; s < n; ++s) {
        kept_total += k.kept[s].size;
        for (int j = 0; j < k.kept[s].size; ++j) known |= uint64_t{1} << k.kept[s][j];
    }
    for (int card = 0; card < kNumCards; ++card) {
        if (!((known >> card) & 1u)) k.unseen.push_back(card);
    }

    int discarded = 0;
    int places = 0;
    for (int s = 0; s < n; ++s) {
        discarded += view.own_discards[s].size;
        places += view.piles[s].size;
    }
    k.leftovers = view.hidden_discard.size - discarded;
    places += k.leftovers;
    int slots = 0;  // sort keys for the mixed seats' slots
    for (int s = 0; s < n; ++s) {
        if (s == seat) continue;
        const int size = view.hand_size(s);
        places += size + view.own_discards[s].size;
        if (k.kept[s].size > size + k.reveal_discards[s]) {
            throw std::invalid_argument(
                "inconsistent view: seat " + std::to_string(s) + " keeps " +
                std::to_string(k.kept[s].size) + " revealed cards in " + std::to_string(size) +
                " hand slots and " + std::to_string(k.reveal_discards[s]) + " later discards");
        }
        if (k.kept[s].size > 0 && k.reveal_discards[s] > 0) {
            k.mixed[s] = true;
            slots += size + k.reveal_discards[s];
        }
    }
    if (places != k.unseen.size + kept_total || k.leftovers < 0) {
        throw std::invalid_argument("inconsistent view: " + std::to_string(places) +
                                    " unseen places for " +
                                    std::to_string(k.unseen.size + kept_total) + " unseen cards");
    }

    const bool check_reachable =
        (view.phase == Phase::kPlay || view.phase == Phase::kKAnswer) && piles_empty(view);
    const int draws = 1 + k.unseen.size + slots;
    std::vector<uint64_t> keys(static_cast<size_t>(draws));
    for (int attempt = 0; attempt < kMaxDeals; ++attempt) {
        for (int j = 0; j < draws; ++j) keys[static_cast<size_t>(j)] = rng.next_uint64();
        deal(view, k, keys.data(), out);
        if (!check_reachable || anyone_can_play(out)) break;
    }
    return out;
}

}  // namespace bge::factors_multiples
