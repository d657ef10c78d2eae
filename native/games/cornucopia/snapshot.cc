// Cornucopia: loading a snapshot (rules.py's from_dict and _check). Every value is checked
// before it is stored, so that any accepted snapshot is a position play can continue from;
// the Python engine's checks run first on the usual path and give the messages users see.
#include <algorithm>
#include <stdexcept>

#include "games/cornucopia/state.h"

namespace bge::cornucopia {

namespace {

[[noreturn]] void fail(const std::string& field, const std::string& message) {
    throw std::invalid_argument("invalid cornucopia snapshot: " + field + ": " + message);
}

bool in_range(int64_t v, int64_t lo, int64_t hi) { return lo <= v && v <= hi; }

void check_cards(const std::string& field, const std::vector<int64_t>& cards) {
    if (cards.size() > static_cast<size_t>(kNumCropCards)) fail(field, "more than 66 cards");
    for (int64_t c : cards) {
        if (!in_range(c, 0, kNumTypes - 1)) fail(field, "a crop type is outside 0..5");
    }
}

int64_t snapshot_funds(const std::vector<int64_t>& chips) {
    return chips[kBlue] + kBluePerYellow * chips[kYellow];
}

}  // namespace

State State::load(const Snapshot& d) {
    if (!in_range(d.num_players, kMinPlayers, kMaxPlayers)) fail("num_players", "not 2..5");
    const int n = static_cast<int>(d.num_players);

    Phase phase;
    if (d.phase == "DECLARE") {
        phase = kDeclare;
    } else if (d.phase == "BID") {
        phase = kBid;
    } else if (d.phase == "BET") {
        phase = kBet;
    } else if (d.phase == "CARD") {
        phase = kCard;
    } else if (d.phase == "GAME_OVER") {
        phase = kGameOver;
    } else {
        fail("phase", "unknown phase");
    }
    if (phase == kDeclare && !d.variant) fail("phase", "DECLARE happens only with variant_red3");
    const bool live = phase != kGameOver;

    // Crop cards: 66, 11 per type; 5 legal incomplete baskets of >= 2 cards, W* in B4.
    check_cards("deck", d.deck);
    check_cards("discard", d.discard);
    if (d.baskets.size() != static_cast<size_t>(kNumBaskets)) fail("baskets", "not 5 baskets");
    for (const auto& b : d.baskets) check_cards("baskets", b);
    if (d.pending && !in_range(*d.pending, 0, kNumTypes - 1)) fail("pending", "not a crop type");
    int counts[kNumTypes] = {};
    for (int64_t c : d.deck) ++counts[c];
    for (int64_t c : d.discard) ++counts[c];
    for (const auto& b : d.baskets) {
        for (int64_t c : b) ++counts[c];
    }
    if (d.pending) ++counts[*d.pending];
    for (int t = 0; t < kNumTypes; ++t) {
        if (counts[t] != kCopiesPerType) fail("deck, discard, baskets, pending", "not 11 per type");
    }
    if (d.baskets[kSameBasket].empty() || d.baskets[kSameBasket][0] != kWild) {
        fail("baskets", "B4 must start with its W*");
    }
    for (int j = 0; j < kNumBaskets; ++j) {
        const auto& b = d.baskets[static_cast<size_t>(j)];
        if (!is_valid_basket(b.data(), b.size(), j == kSameBasket) ||
            b.size() >= static_cast<size_t>(kBasketCapacity)) {
            fail("baskets", "not a legal incomplete basket");
        }
        if (b.size() < static_cast<size_t>(kSownSize)) fail("baskets", "fewer than 2 cards");
    }
    if (d.deck.empty()) fail("deck", "the deck is empty");

    // Deck exhaustions.
    if (!in_range(d.exhaustions, 0, 2)) fail("exhaustions", "not 0, 1 or 2");
    if (d.end_pending != (d.exhaustions == 2)) fail("end_pending", "inconsistent");
    if (d.shuffles != 1 + d.exhaustions) fail("shuffles", "not 1 + exhaustions");

    // Bid cards: 30 across stacks, hands and the pending bid.
    if (d.bid && !in_range(*d.bid, 1, kNumBidNumbers)) fail("bid", "not a number 1..6");
    const int bid = d.bid ? static_cast<int>(*d.bid) : 0;
    if (d.stacks.size() != static_cast<size_t>(kNumBidNumbers)) fail("stacks", "not 6 counts");
    for (int64_t v : d.stacks) {
        if (!in_range(v, 0, kNumBidNumbers)) fail("stacks", "a count out of range");
    }
    if (d.won.size() != static_cast<size_t>(n)) fail("won", "not one list per seat");
    for (const auto& w : d.won) {
        if (w.size() != static_cast<size_t>(kNumBidNumbers)) fail("won", "not 6 counts");
        for (int64_t v : w) {
            if (!in_range(v, 0, kNumBidNumbers)) fail("won", "a count out of range");
        }
    }
    int empty = 0;
    for (int i = 0; i < kNumBidNumbers; ++i) {
        int64_t held = d.stacks[static_cast<size_t>(i)] + (bid == i + 1);
        for (const auto& w : d.won) held += w[static_cast<size_t>(i)];
        if (held != kBidCopies[i]) fail("stacks", "bid cards not conserved");
        empty += d.stacks[static_cast<size_t>(i)] + (bid == i + 1) == 0;
    }

    // Seats and chips.
    if (d.chips.size() != static_cast<size_t>(n)) fail("chips", "not one row per seat");
    for (const auto& c : d.chips) {
        if (c.size() != 3) fail("chips", "not (yellow, blue, red)");
        for (int64_t v : c) {
            if (!in_range(v, 0, kMaxChipValue)) fail("chips", "a count out of range");
        }
    }
    if (d.bank.size() != 3) fail("bank", "not one balance per colour");
    for (int64_t v : d.bank) {
        if (!in_range(v, -kMaxChipValue * kMaxPlayers, kMaxChipValue)) fail("bank", "out of range");
    }
    if (!in_range(d.turn_player, 0, n - 1)) fail("turn_player", "not a seat");
    if (!in_range(d.start_player, 0, n - 1)) fail("start_player", "not a seat");
    const int t = static_cast<int>(d.turn_player);
    if (!in_range(d.turn, 1, kMaxTurns)) fail("turn", "not 1..121");
    if ((d.start_player + d.turn - 1) % n != t) fail("turn", "not the turn player's turn");

    // The phase context.
    const bool needs_bid = phase == kBet || phase == kCard;
    if (needs_bid != d.bid.has_value()) fail("bid", "pending bid against the phase");
    if ((phase == kCard) != d.pending.has_value()) fail("pending", "pending card against phase");
    if (phase == kCard && !in_range(d.placed, 0, bid - 1)) fail("placed", "out of range");
    if (phase != kCard && d.placed != 0) fail("placed", "cards are placed only in phase CARD");
    if (d.red_used && (d.variant || phase != kCard)) fail("red_used", "against the phase");
    if (!in_range(d.declared, 0, kMaxRedDeclared)) fail("declared", "not 0..3");
    if (d.declared && (!d.variant || phase == kDeclare || phase == kGameOver)) {
        fail("declared", "declared red chips exist only with variant_red3, after DECLARE");
    }
    if (d.bets_revealed != (phase == kCard)) fail("bets_revealed", "against the phase");

    // Bets and bettors.
    if (d.bets.size() != static_cast<size_t>(n)) fail("bets", "not one entry per seat");
    for (const auto& b : d.bets) {
        if (b && (b->size() != 2 || !in_range((*b)[0], 0, 1) || !in_range((*b)[1], 1, kMaxStake))) {
            fail("bets", "bets must be null or [side 0/1, stake 1..3] per seat");
        }
    }
    for (int64_t s : d.bet_order) {
        if (!in_range(s, 0, n - 1)) fail("bet_order", "a seat out of range");
    }
    std::vector<int> clockwise;
    for (int i = 1; i < n; ++i) clockwise.push_back((t + i) % n);
    std::vector<int64_t> betting;
    for (int s = 0; s < n; ++s) {
        if (d.bets[static_cast<size_t>(s)]) betting.push_back(s);
    }
    const auto& order = d.bet_order;
    auto in_order = [&](int s) { return std::find(order.begin(), order.end(), s) != order.end(); };
    if (phase == kBet) {
        std::vector<int64_t> eligible;
        for (int s : clockwise) {
            if (snapshot_funds(d.chips[static_cast<size_t>(s)]) >= 1) eligible.push_back(s);
        }
        if (order != eligible) fail("bet_order", "not the eligible bettors");
        if (!in_range(d.bet_index, 0, static_cast<int64_t>(order.size()) - 1)) {
            fail("bet_index", "no bettor left");
        }
        std::vector<int64_t> done(order.begin(), order.begin() + d.bet_index);
        std::sort(done.begin(), done.end());
        if (betting != done) fail("bets", "not the seats that have bet");
        for (int64_t s : betting) {
            const auto& b = *d.bets[static_cast<size_t>(s)];
            if (b[1] > snapshot_funds(d.chips[static_cast<size_t>(s)])) {
                fail("bets", "a stake exceeds its funds");
            }
        }
    } else if (phase == kCard) {
        std::vector<int64_t> kept;
        for (int s : clockwise) {
            if (in_order(s)) kept.push_back(s);
        }
        std::vector<int64_t> sorted = order;
        std::sort(sorted.begin(), sorted.end());
        if (order != kept || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
            fail("bet_order", "not other seats in clockwise order");
        }
        if (d.bet_index != static_cast<int64_t>(order.size())) fail("bet_index", "not all bet");
        if (betting != sorted) fail("bets", "the bettors do not hold the revealed bets");
        for (int s : clockwise) {
            if (!in_order(s) && snapshot_funds(d.chips[static_cast<size_t>(s)]) >= 1) {
                fail("bet_order", "a seat could fund a stake but did not bet");
            }
        }
    } else if (!order.empty() || d.bet_index != 0 || !betting.empty()) {
        fail("bet_order", "this phase has no bettors, bet index or bets");
    }

    // The turn against the cards drawn.
    const int64_t drew = phase == kCard || phase == kGameOver;
    const int64_t deck_size = static_cast<int64_t>(d.deck.size());
    if (d.exhaustions == 0 && d.turn - 1 + drew > kDeckAfterSetup - deck_size) {
        fail("turn", "more turns than cards drawn");
    }
    if (phase != kGameOver && d.exhaustions == 1 && d.turn + deck_size - 1 + drew > kMaxTurns) {
        fail("turn", "could go beyond turn 121");
    }

    // Chips are conserved.
    for (int colour = 0; colour < 3; ++colour) {
        int64_t total = d.bank[static_cast<size_t>(colour)];
        for (const auto& c : d.chips) total += c[static_cast<size_t>(colour)];
        if (colour == kBlue && d.bets_revealed) {
            for (int64_t s : order) total += (*d.bets[static_cast<size_t>(s)])[1];
        }
        if (total != n * kStartChips[colour]) fail("bank", "chips are not conserved");
    }

    // How the game ended.
    EndReason reason = kNotOver;
    if (d.end_reason) {
        if (*d.end_reason == kEndReasonTexts[kEndDeck]) {
            reason = kEndDeck;
        } else if (*d.end_reason == kEndReasonTexts[kEndStacks]) {
            reason = kEndStacks;
        } else {
            fail("end_reason", "unknown end reason");
        }
    }
    if (live) {
        if (reason != kNotOver) fail("end_reason", "set while the game goes on");
        if (empty >= 3) fail("stacks", "three bid stacks are empty: the game would be over");
    } else if (reason == kEndDeck) {
        if (!d.end_pending) fail("end_reason", "the deck ran out twice, but no end is pending");
        if (empty >= 3) fail("end_reason", "three stacks are empty: the game ended by them");
    } else if (reason == kEndStacks) {
        if (empty < 3) fail("end_reason", "fewer than 3 bid stacks are empty");
    } else {
        fail("end_reason", "a finished game ends by the deck or the stacks");
    }

    // Everything checked: build the state.
    State s;
    s.num_players = n;
    s.variant = d.variant;
    s.seed = d.seed;
    s.shuffles = static_cast<int>(d.shuffles);
    for (int64_t c : d.deck) s.deck.push(static_cast<int>(c));
    for (int64_t c : d.discard) s.discard.push(static_cast<int>(c));
    for (int j = 0; j < kNumBaskets; ++j) {
        Basket& b = s.baskets[j];
        for (int64_t c : d.baskets[static_cast<size_t>(j)]) {
            b.cards[b.size++] = static_cast<int8_t>(c);
        }
    }
    s.exhaustions = static_cast<int>(d.exhaustions);
    s.end_pending = d.end_pending;
    for (int i = 0; i < kNumBidNumbers; ++i) {
        s.stacks[i] = static_cast<int>(d.stacks[static_cast<size_t>(i)]);
    }
    for (int p = 0; p < n; ++p) {
        for (int i = 0; i < kNumBidNumbers; ++i) {
            s.won[p][i] = static_cast<int>(d.won[static_cast<size_t>(p)][static_cast<size_t>(i)]);
        }
        for (int c = 0; c < 3; ++c) {
            s.chips[p][c] = d.chips[static_cast<size_t>(p)][static_cast<size_t>(c)];
        }
    }
    for (int c = 0; c < 3; ++c) s.bank[c] = d.bank[static_cast<size_t>(c)];
    s.start_player = static_cast<int>(d.start_player);
    s.turn_player = t;
    s.turn = static_cast<int>(d.turn);
    s.phase = phase;
    s.bid = bid;
    s.placed = static_cast<int>(d.placed);
    s.red_used = d.red_used;
    s.declared = static_cast<int>(d.declared);
    s.pending = d.pending ? static_cast<int>(*d.pending) : -1;
    s.bet_count = static_cast<int>(order.size());
    for (int i = 0; i < s.bet_count; ++i) {
        s.bet_order[i] = static_cast<int>(order[static_cast<size_t>(i)]);
    }
    s.bet_index = static_cast<int>(d.bet_index);
    s.clear_bets();
    for (int p = 0; p < n; ++p) {
        const auto& b = d.bets[static_cast<size_t>(p)];
        if (b) {
            s.bet_side[p] = static_cast<int8_t>((*b)[0]);
            s.bet_stake[p] = static_cast<int8_t>((*b)[1]);
        }
    }
    s.bets_revealed = d.bets_revealed;
    s.end_reason = reason;
    s.log_index = 0;
    if (!d.log.empty()) s.logs[0].loaded = std::make_shared<const std::vector<std::string>>(d.log);
    if (!d.last_log.empty()) {
        s.logs[1].loaded = std::make_shared<const std::vector<std::string>>(d.last_log);
    }
    s.refresh_caches();
    return s;
}

}  // namespace bge::cornucopia
