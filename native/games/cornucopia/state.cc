// Cornucopia: legal moves, transitions and scoring (rules.py's State, step for step).
#include "games/cornucopia/state.h"

#include <algorithm>

namespace bge::cornucopia {

namespace {

// The generator of shuffle `index` of the game with `seed`: default_rng((seed, index)).
Pcg64 shuffle_rng(u128 seed, int index) {
    std::vector<uint32_t> words;
    if (seed == 0) words.push_back(0);
    for (u128 v = seed; v > 0; v >>= 32) words.push_back(static_cast<uint32_t>(v & 0xFFFFFFFFu));
    append_entropy_words(words, static_cast<uint64_t>(index));
    return Pcg64::from_entropy(words);
}

int64_t funds(const int64_t chips[3]) { return chips[kBlue] + kBluePerYellow * chips[kYellow]; }

// PAY-ONE-YELLOW (§4.6): a yellow, else three blue, else nothing.
void pay_one_yellow(int64_t chips[3], int64_t bank[3]) {
    if (chips[kYellow] >= 1) {
        chips[kYellow] -= 1;
        bank[kYellow] += 1;
    } else if (chips[kBlue] >= kBluePerYellow) {
        chips[kBlue] -= kBluePerYellow;
        bank[kBlue] += kBluePerYellow;
    }
}

// Best score of disjoint runs from `counts` (the lowest card is in no run or starts one),
// memoised over the sub-multisets of the won cards (index in mixed radix `radix`).
int best_runs(int counts[kNumBidNumbers], const int radix[kNumBidNumbers],
              std::vector<int8_t>& memo) {
    int low = 0;
    while (low < kNumBidNumbers && counts[low] == 0) ++low;
    if (low == kNumBidNumbers) return 0;
    int index = 0;
    for (int i = kNumBidNumbers - 1; i >= 0; --i) index = index * radix[i] + counts[i];
    if (memo[static_cast<size_t>(index)] >= 0) return memo[static_cast<size_t>(index)];
    counts[low] -= 1;
    int best = best_runs(counts, radix, memo);
    counts[low] += 1;
    for (int length = 3; length <= 5; ++length) {
        if (low + length > kNumBidNumbers) break;
        bool all = true;
        for (int i = low; i < low + length; ++i) all = all && counts[i] > 0;
        if (!all) continue;
        for (int i = low; i < low + length; ++i) counts[i] -= 1;
        best = std::max(best, kRunPoints[length] + best_runs(counts, radix, memo));
        for (int i = low; i < low + length; ++i) counts[i] += 1;
    }
    memo[static_cast<size_t>(index)] = static_cast<int8_t>(best);
    return best;
}

void red_majority_points(const int64_t reds[], int n, int out[]) {
    for (int i = 0; i < n; ++i) out[i] = 0;
    int64_t first = 0;
    for (int i = 0; i < n; ++i) first = std::max(first, reds[i]);
    if (first < 1) return;
    int leaders = 0;
    for (int i = 0; i < n; ++i) leaders += reds[i] == first;
    if (leaders >= 2) {
        for (int i = 0; i < n; ++i) {
            if (reds[i] == first) out[i] = kRedTiedFirst;
        }
        return;
    }
    int64_t second = 0;
    for (int i = 0; i < n; ++i) {
        if (reds[i] == first) {
            out[i] = kRedSoleFirst;
        } else if (reds[i] >= 1) {
            second = std::max(second, reds[i]);
        }
    }
    if (second < 1) return;
    int seconds = 0;
    for (int i = 0; i < n; ++i) seconds += reds[i] == second;
    for (int i = 0; i < n; ++i) {
        if (reds[i] == second) out[i] = seconds == 1 ? kRedSoleSecond : kRedTiedSecond;
    }
}

}  // namespace

// -- basket geometry (§2.7) ----------------------------------------------------------------
int basket_status(const Basket& b, bool same_only) {
    if (same_only) return kSame;
    int crops[2];
    int found = 0;
    for (int i = 0; i < b.size && found < 2; ++i) {
        if (b.cards[i] != kWild) crops[found++] = b.cards[i];
    }
    if (found <= 1) return kAmbiguous;
    return crops[0] == crops[1] ? kSame : kDifferent;
}

int fitting_types(const Basket& b, bool same_only) {
    if (b.size >= kBasketCapacity) return 0;
    int crops[kBasketCapacity];
    int found = 0;
    int held = 0;
    for (int i = 0; i < b.size; ++i) {
        if (b.cards[i] != kWild) {
            crops[found++] = b.cards[i];
            held |= 1 << b.cards[i];
        }
    }
    if (found == 0) return kAllTypes;
    if (same_only || (found >= 2 && crops[0] == crops[1])) return (1 << kWild) | (1 << crops[0]);
    if (found == 1) return kAllTypes;
    return kAllTypes & ~held;
}

bool is_valid_basket(const int64_t* cards, size_t size, bool same_only) {
    if (size > static_cast<size_t>(kBasketCapacity)) return false;
    int seen = 0;
    int crops = 0;
    int distinct = 0;
    for (size_t i = 0; i < size; ++i) {
        const int64_t c = cards[i];
        if (c == kWild || c < 0 || c >= kNumTypes) continue;  // ranges are checked apart
        ++crops;
        if (!(seen & (1 << c))) {
            seen |= 1 << c;
            ++distinct;
        }
    }
    if (distinct <= 1) return true;
    return !same_only && distinct == crops;
}

int combination_points(const int won[kNumBidNumbers]) {
    int radix[kNumBidNumbers];
    size_t states = 1;
    for (int i = 0; i < kNumBidNumbers; ++i) {
        radix[i] = won[i] + 1;
        states *= static_cast<size_t>(radix[i]);
    }
    std::vector<int8_t> memo(states, -1);
    // At most one same-number combination (2, 3 or 4 cards) per number; runs from the rest.
    int sets[kNumBidNumbers] = {};
    int best = 0;
    while (true) {
        int counts[kNumBidNumbers];
        int points = 0;
        for (int i = 0; i < kNumBidNumbers; ++i) {
            counts[i] = won[i] - sets[i];
            points += kSetPoints[sets[i]];
        }
        best = std::max(best, points + best_runs(counts, radix, memo));
        // Next choice: sizes 0, 2, 3, 4 (<= the cards held), odometer order.
        int i = 0;
        for (; i < kNumBidNumbers; ++i) {
            int next = sets[i] == 0 ? 2 : sets[i] + 1;
            if (next <= 4 && next <= won[i]) {
                sets[i] = next;
                break;
            }
            sets[i] = 0;
        }
        if (i == kNumBidNumbers) break;
    }
    return best;
}

// -- the contract --------------------------------------------------------------------------
uint32_t State::legal_bits() const {
    uint32_t bits = 0;
    switch (phase) {
        case kCard: {
            const int bit = 1 << pending;
            for (int j = 0; j < kNumBaskets; ++j) {
                if (fits[j] & bit) bits |= 1u << (kPlaceBase + j);
            }
            const bool dead = bits == 0;
            if (can_redraw()) bits |= 1u << kRedraw;
            if (dead) bits |= 1u << kForfeit;
            break;
        }
        case kBet: {
            const int64_t f = funds(chips[current_player()]);
            for (int s = 1; s <= kMaxStake && s <= f; ++s) {
                bits |= 1u << (kYesBase + s - 1);
                bits |= 1u << (kNoBase + s - 1);
            }
            break;
        }
        case kBid:
            for (int i = 0; i < kNumBidNumbers; ++i) {
                if (stacks[i] > 0) bits |= 1u << (kBidBase + i);
            }
            break;
        case kDeclare: {
            const int64_t most = std::min<int64_t>(kMaxRedDeclared, chips[turn_player][kRed]);
            for (int c = 0; c <= most; ++c) bits |= 1u << (kDeclareBase + c);
            break;
        }
        default:
            break;
    }
    return bits;
}

std::array<double, kMaxPlayers> State::scores() const {
    int64_t reds[kMaxPlayers];
    for (int s = 0; s < num_players; ++s) reds[s] = chips[s][kRed];
    int red_points[kMaxPlayers];
    red_majority_points(reds, num_players, red_points);
    std::array<double, kMaxPlayers> out{};
    for (int s = 0; s < num_players; ++s) {
        const int64_t chip_points = chips[s][kYellow] + chips[s][kBlue] / kBluePerYellow;
        out[static_cast<size_t>(s)] =
            static_cast<double>(chip_points + red_points[s] + combination_points(won[s]));
    }
    return out;
}

int64_t State::playout(Pcg64& rng, int64_t depth) {
    int64_t played = 0;
    while (phase != kGameOver && (depth == 0 || played < depth)) {
        uint32_t bits = legal_bits();
        const int count = __builtin_popcount(bits);
        int k = static_cast<int>(rng.integers(static_cast<uint64_t>(count)));
        while (k-- > 0) bits &= bits - 1;
        apply(__builtin_ctz(bits));
        ++played;
    }
    return played;
}

// -- transitions ---------------------------------------------------------------------------
void State::apply(int action) {
    switch (phase) {
        case kCard:
            if (action == kRedraw) {
                redraw();
            } else if (action == kForfeit) {
                forfeit();
            } else {
                place(action - kPlaceBase);
            }
            break;
        case kBet:
            bet(action);
            break;
        case kBid:
            do_bid(action - kBidBase + 1);
            break;
        case kDeclare:
            declare(action - kDeclareBase);
            break;
        default:
            break;
    }
}

void State::declare(int count) {
    const int t = turn_player;
    chips[t][kRed] -= count;
    bank[kRed] += count;
    declared = count;
    Event& e = log_mut().add(kEvDeclare);
    e.v[0] = static_cast<uint8_t>(t);
    e.v[1] = static_cast<uint8_t>(count);
    phase = kBid;
}

void State::do_bid(int number) {
    const int t = turn_player;
    stacks[number - 1] -= 1;
    bid = number;
    Event& e = log_mut().add(kEvBid);
    e.v[0] = static_cast<uint8_t>(t);
    e.v[1] = static_cast<uint8_t>(number);
    bet_count = 0;
    for (int i = 1; i < num_players; ++i) {
        const int s = (t + i) % num_players;
        if (funds(chips[s]) >= 1) bet_order[bet_count++] = s;
    }
    bet_index = 0;
    if (bet_count > 0) {
        phase = kBet;
    } else {
        reveal();
    }
}

void State::bet(int action) {
    const int seat = bet_order[bet_index];
    const int side = action < kNoBase ? kYes : kNo;
    const int stake = action - (side == kYes ? kYesBase : kNoBase) + 1;
    bet_side[seat] = static_cast<int8_t>(side);
    bet_stake[seat] = static_cast<int8_t>(stake);
    bet_index += 1;
    if (bet_index == bet_count) reveal();
}

void State::reveal() {
    for (int i = 0; i < bet_count; ++i) {
        const int seat = bet_order[i];
        const int stake = bet_stake[seat];
        int64_t* c = chips[seat];
        if (stake > c[kBlue]) {  // convert exactly one yellow into three blue
            c[kYellow] -= 1;
            c[kBlue] += kBluePerYellow;
            bank[kYellow] += 1;
            bank[kBlue] -= kBluePerYellow;
        }
        c[kBlue] -= stake;
    }
    bets_revealed = true;
    if (bet_count > 0) {
        Event& e = log_mut().add(kEvBets);
        e.n = static_cast<uint8_t>(bet_count);
        for (int i = 0; i < bet_count; ++i) {
            const int seat = bet_order[i];
            e.v[3 * i] = static_cast<uint8_t>(seat);
            e.v[3 * i + 1] = static_cast<uint8_t>(bet_side[seat]);
            e.v[3 * i + 2] = static_cast<uint8_t>(bet_stake[seat]);
        }
    }
    draw_pending();
}

void State::draw_pending() {
    const int card = draw();
    if (card < 0) {
        end_without_cards();
        return;
    }
    pending = card;
    phase = kCard;
    log_mut().add(kEvDraw).v[0] = static_cast<uint8_t>(card);
}

void State::place(int j) {
    const int card = pending;
    Basket& basket = baskets[j];
    bool bonus = false;
    if (j != kSameBasket && card != kWild && status[j] == kAmbiguous) {
        for (int i = 0; i < basket.size; ++i) bonus = bonus || basket.cards[i] == card;
    }
    const int t = turn_player;
    if (bonus) {
        chips[t][kYellow] += kSameCommitBonus;
        bank[kYellow] -= kSameCommitBonus;
    }
    basket.cards[basket.size++] = static_cast<int8_t>(card);
    refresh_fits(j);
    pending = -1;
    placed += 1;
    Event& e = log_mut().add(kEvPlace);
    e.v[0] = static_cast<uint8_t>(card);
    e.v[1] = static_cast<uint8_t>(j);
    e.v[2] = bonus ? 1 : 0;
    if (basket.size == kBasketCapacity) {
        success(j);
    } else if (placed == bid) {
        failure(false);
    } else {
        draw_pending();
    }
}

void State::redraw() {
    const int t = turn_player;
    if (variant) {
        declared -= 1;
    } else {
        chips[t][kRed] -= 1;
        bank[kRed] += 1;
        red_used = true;
    }
    to_discard(pending);
    log_mut().add(kEvRedraw).v[0] = static_cast<uint8_t>(pending);
    pending = -1;
    draw_pending();
}

void State::forfeit() {
    pay_one_yellow(chips[turn_player], bank);
    to_discard(pending);
    log_mut().add(kEvForfeit).v[0] = static_cast<uint8_t>(pending);
    pending = -1;
    failure(true);
}

void State::success(int j) {
    const int t = turn_player;
    const int number = bid;
    Basket& basket = baskets[j];
    const bool same_only = j == kSameBasket;
    const int kind = basket_status(basket, same_only) == kDifferent ? kDifferent : kSame;
    for (int colour = 0; colour < 3; ++colour) {
        chips[t][colour] += kBidRewards[number - 1][kind][colour];
        bank[colour] -= kBidRewards[number - 1][kind][colour];
    }
    won[t][number - 1] += 1;
    bid = 0;
    Event& e = log_mut().add(kEvSuccess);
    e.v[0] = static_cast<uint8_t>(j);
    e.v[1] = static_cast<uint8_t>(kind);
    e.v[2] = static_cast<uint8_t>(t);
    e.v[3] = static_cast<uint8_t>(number);
    const int keep = same_only ? 1 : 0;  // W* stays in the Same basket
    for (int i = keep; i < basket.size; ++i) to_discard(basket.cards[i]);
    basket.size = keep;
    refresh_fits(j);
    while (basket.size < kSownSize) {
        const int card = draw();
        if (card < 0) {
            end_without_cards();
            return;
        }
        basket.cards[basket.size++] = static_cast<int8_t>(card);
    }
    refresh_fits(j);
    Event& sown = log_mut().add(kEvSown);
    sown.v[0] = static_cast<uint8_t>(j);
    sown.n = static_cast<uint8_t>(basket.size);
    for (int i = 0; i < basket.size; ++i) sown.v[1 + i] = static_cast<uint8_t>(basket.cards[i]);
    settle(true);
    int empty = 0;
    for (int i = 0; i < kNumBidNumbers; ++i) empty += stacks[i] == 0;
    if (empty >= 3) {
        game_over(kEndStacks);
    } else {
        end_turn();
    }
}

void State::failure(bool forfeited) {
    const int t = turn_player;
    if (!forfeited) pay_one_yellow(chips[t], bank);
    stacks[bid - 1] += 1;
    log_mut().add(kEvFailure).v[0] = static_cast<uint8_t>(bid);
    bid = 0;
    settle(false);
    end_turn();
}

void State::settle(bool succeeded) {
    const int winning_side = succeeded ? kYes : kNo;
    for (int i = 0; i < bet_count; ++i) {
        const int seat = bet_order[i];
        const int stake = bet_stake[seat];
        if (bet_side[seat] == winning_side) {
            chips[seat][kBlue] += 2 * stake;
            bank[kBlue] -= stake;
        } else {
            bank[kBlue] += stake;
        }
    }
    clear_bets();
}

void State::clear_bets() {
    for (int s = 0; s < kMaxPlayers; ++s) {
        bet_side[s] = -1;
        bet_stake[s] = 0;
    }
    bets_revealed = false;
}

void State::end_turn() {
    declared = 0;
    if (end_pending) {
        game_over(kEndDeck);
    } else {
        begin_turn((turn_player + 1) % num_players);
    }
}

void State::begin_turn(int seat) {
    turn_player = seat;
    turn += 1;
    bid = 0;
    placed = 0;
    red_used = false;
    declared = 0;
    pending = -1;
    bet_count = 0;
    bet_index = 0;
    clear_bets();
    if (!log().empty()) log_index ^= 1;
    log_mut().clear();
    phase = variant ? kDeclare : kBid;
}

void State::game_over(EndReason reason) {
    bid = 0;
    placed = 0;
    red_used = false;
    declared = 0;
    pending = -1;
    bet_count = 0;
    bet_index = 0;
    clear_bets();
    phase = kGameOver;
    end_reason = reason;
    log_mut().add(kEvGameOver).v[0] = static_cast<uint8_t>(reason);
}

void State::end_without_cards() {
    if (bets_revealed) {
        for (int i = 0; i < bet_count; ++i) {
            const int seat = bet_order[i];
            chips[seat][kBlue] += bet_stake[seat];
        }
    }
    clear_bets();
    if (bid != 0) {
        stacks[bid - 1] += 1;
        bid = 0;
    }
    game_over(kEndNoCards);
}

// -- chance --------------------------------------------------------------------------------
int State::draw() {
    if (deck.size == 0) return -1;
    const int card = deck.pop();
    deck_counts[card] -= 1;
    if (deck.size == 0) exhaust();
    return card;
}

void State::to_discard(int card) {
    discard.push(card);
    discard_counts[card] += 1;
}

void State::exhaust() {
    exhaustions += 1;
    if (discard.size > 0) {
        // permutation(len(discard)) applied to the pile is the pile shuffled in place.
        Pcg64 rng = shuffle_rng(seed, shuffles);
        deck = discard;
        rng.shuffle(deck.cards, deck.size);
        discard.size = 0;
        for (int t = 0; t < kNumTypes; ++t) {
            deck_counts[t] = discard_counts[t];
            discard_counts[t] = 0;
        }
    }
    shuffles += 1;
    if (exhaustions >= 2) end_pending = true;
    log_mut().add(kEvExhausted).v[0] = static_cast<uint8_t>(std::min(exhaustions, 255));
}

void State::setup() {
    Pcg64 rng = shuffle_rng(seed, 0);
    shuffles = 1;
    start_player = static_cast<int>(rng.integers(static_cast<uint64_t>(num_players)));
    deck.size = 0;
    for (int i = 0; i < kCopiesPerType - 1; ++i) deck.push(kWild);
    for (int t = 1; t < kNumTypes; ++t) {
        for (int i = 0; i < kCopiesPerType; ++i) deck.push(t);
    }
    rng.shuffle(deck.cards, deck.size);
    for (int j : kSeedingOrder) {
        Basket& b = baskets[j];
        b.cards[b.size++] = static_cast<int8_t>(deck.pop());
    }
    refresh_caches();
    turn = 0;
    begin_turn(start_player);
}

State State::new_game(int num_players, bool variant, u128 seed) {
    State s;
    s.num_players = num_players;
    s.variant = variant;
    s.seed = seed;
    for (int i = 0; i < kNumBidNumbers; ++i) s.stacks[i] = kBidCopies[i];
    for (int p = 0; p < num_players; ++p) {
        for (int c = 0; c < 3; ++c) s.chips[p][c] = kStartChips[c];
    }
    s.baskets[kSameBasket].cards[0] = kWild;
    s.baskets[kSameBasket].size = 1;
    s.clear_bets();
    s.setup();
    return s;
}

void State::refresh_fits(int j) {
    fits[j] = static_cast<uint8_t>(fitting_types(baskets[j], j == kSameBasket));
    status[j] = static_cast<uint8_t>(basket_status(baskets[j], j == kSameBasket));
}

void State::refresh_caches() {
    for (int j = 0; j < kNumBaskets; ++j) refresh_fits(j);
    for (int t = 0; t < kNumTypes; ++t) deck_counts[t] = discard_counts[t] = 0;
    for (int i = 0; i < deck.size; ++i) deck_counts[deck.cards[i]] += 1;
    for (int i = 0; i < discard.size; ++i) discard_counts[discard.cards[i]] += 1;
}

// -- the log as text -----------------------------------------------------------------------
std::string render_event(const Event& e) {
    auto letter = [](int card) { return std::string(1, kCropLetters[card]); };
    auto num = [](int v) { return std::to_string(v); };
    switch (e.kind) {
        case kEvDeclare:
            return "P" + num(e.v[0]) + " declares " + num(e.v[1]) + " red";
        case kEvBid:
            return "P" + num(e.v[0]) + " bids " + num(e.v[1]);
        case kEvBets: {
            std::string out = "bets: ";
            for (int i = 0; i < e.n; ++i) {
                if (i) out += ", ";
                out += "P" + num(e.v[3 * i]) + " " + kSideNames[e.v[3 * i + 1]] + " " +
                       num(e.v[3 * i + 2]);
            }
            return out;
        }
        case kEvDraw:
            return "draws " + letter(e.v[0]);
        case kEvPlace:
            return "places " + letter(e.v[0]) + " in B" + num(e.v[1]) +
                   (e.v[2] ? " (+" + num(kSameCommitBonus) + " bonus)" : "");
        case kEvRedraw:
            return "redraws (" + letter(e.v[0]) + " discarded)";
        case kEvForfeit:
            return "forfeits the dead " + letter(e.v[0]);
        case kEvSuccess:
            return "SUCCESS: B" + num(e.v[0]) + " complete as " + kCompletionNames[e.v[1]] +
                   ", P" + num(e.v[2]) + " keeps bid " + num(e.v[3]);
        case kEvSown: {
            std::string out = "B" + num(e.v[0]) + " sown:";
            for (int i = 0; i < e.n; ++i) out += " " + letter(e.v[1 + i]);
            return out;
        }
        case kEvFailure:
            return "FAILURE: bid " + num(e.v[0]) + " returns to its stack";
        case kEvGameOver:
            return std::string("game over: ") + kEndReasonTexts[e.v[0]];
        case kEvExhausted:
            return "deck exhausted (" + num(e.v[0]) + "): discard pile reshuffled";
        default:
            return "";
    }
}

std::vector<std::string> State::log_lines(const Log& log) const {
    std::vector<std::string> out;
    if (log.loaded) out = *log.loaded;
    for (int i = 0; i < log.count; ++i) out.push_back(render_event(log.events[i]));
    return out;
}

}  // namespace bge::cornucopia
