// Cornucopia's heuristic (agents/heuristic/cornucopia.py, step for step; see heuristic.h).
//
// Python's float semantics kept here: max() keeps the first of equal values (a later value
// replaces it only when strictly greater), sum() adds left to right from 0, an int mixed into
// a float expression is converted exactly. The reference's memos (per deck composition, per
// basket, per bid price) are pure functions of their keys; here the odds are memoised per
// composition in a per-thread cache, and the rest is recomputed or tabled.
#include "games/cornucopia/heuristic.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace bge::cornucopia {

namespace {

// How much the bettor trusts the turn player to play its odds (SKILL_DISCOUNT).
constexpr double kSkillDiscount = 0.85;
// Confidence |2p - 1| from which the stake is raised to 2, and to 3 (STAKE_STEPS).
constexpr double kStakeSteps[2] = {0.2, 0.4};
// REDRAW is left unvalued when its bound + this <= the best placement (_BOUND_MARGIN).
constexpr double kBoundMargin = 1e-6;
// A value must beat the best so far by this to be played (_card).
constexpr double kCardEpsilon = 1e-9;
// The leaf evaluation's clear lead (SCORE_SCALE["cornucopia"]) and bettor's worth (BET_WORTH).
constexpr double kScoreScale = 15.0;
constexpr double kBetWorth = 1.0;

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kMaxRedraws = kMaxRedDeclared;  // redraws a turn may hold (declared, or one)

// Python's max(a, b): a unless b is strictly greater.
inline double py_max(double a, double b) { return b > a ? b : a; }

// -- the graph of target baskets (the reference's _NODES and _STEPS) -----------------------
// Every basket the odds can meet: (sorted cards, Same basket?), up to full; a drawn crop
// grows it to another node, or misses, or completes it as SAME or DIFFERENT.
constexpr int kMisses = -1;
constexpr int kCompletesSame = -2;
constexpr int kCompletesDifferent = -3;
constexpr int kNumNodes = 924;      // 2 x (1 + 6 + 21 + 56 + 126 + 252) multisets
constexpr int kCodeSpace = 16807;   // 7**5: sorted cards as base-7 digits card + 1

struct NodeGraph {
    int8_t size[kNumNodes];
    int16_t steps[kNumNodes][kNumTypes];
    int16_t id[2][kCodeSpace];  // by Same basket? and the code of the sorted cards
};

int code_of(const int* sorted, int n) {
    int code = 0;
    for (int i = 0; i < n; ++i) code = code * 7 + sorted[i] + 1;
    return code;
}

Basket basket_of(const int* cards, int n) {
    Basket b;
    b.size = n;
    for (int i = 0; i < n; ++i) b.cards[i] = static_cast<int8_t>(cards[i]);
    return b;
}

// completion_type of a full basket: a both-ways basket scores SAME (§2.7).
int completion_type(const Basket& b, bool same_only) {
    return basket_status(b, same_only) == kDifferent ? kDifferent : kSame;
}

NodeGraph build_graph() {
    NodeGraph g;
    for (auto& ids : g.id) {
        for (auto& id : ids) id = -1;
    }
    int cards[kNumNodes][kBasketCapacity];
    int next = 0;
    // combinations_with_replacement(range(6), size), in its (lexicographic) order.
    int seq[kBasketCapacity];
    for (int size = 0; size <= kBasketCapacity; ++size) {
        for (int i = 0; i < size; ++i) seq[i] = 0;
        while (true) {
            for (int same = 0; same < 2; ++same) {
                g.size[next] = static_cast<int8_t>(size);
                for (int i = 0; i < size; ++i) cards[next][i] = seq[i];
                g.id[same][code_of(seq, size)] = static_cast<int16_t>(next);
                ++next;
            }
            int i = size - 1;
            while (i >= 0 && seq[i] == kNumTypes - 1) --i;
            if (i < 0) break;
            seq[i] += 1;
            for (int k = i + 1; k < size; ++k) seq[k] = seq[i];
        }
    }
    for (int node = 0; node < kNumNodes; ++node) {
        const int size = g.size[node];
        const bool same_only = node % 2 == 1;
        const int fits = fitting_types(basket_of(cards[node], size), same_only);
        for (int crop = 0; crop < kNumTypes; ++crop) {
            int grown[kBasketCapacity + 1];
            int n = 0;
            bool inserted = false;
            for (int i = 0; i < size; ++i) {
                if (!inserted && crop < cards[node][i]) {
                    grown[n++] = crop;
                    inserted = true;
                }
                grown[n++] = cards[node][i];
            }
            if (!inserted) grown[n++] = crop;
            int step;
            if (!(fits >> crop & 1)) {
                step = kMisses;
            } else if (n < kBasketCapacity) {
                step = g.id[same_only][code_of(grown, n)];
            } else if (completion_type(basket_of(grown, n), same_only) == kSame) {
                step = kCompletesSame;
            } else {
                step = kCompletesDifferent;
            }
            g.steps[node][crop] = static_cast<int16_t>(step);
        }
    }
    return g;
}

const NodeGraph& graph() {
    static const NodeGraph g = build_graph();
    return g;
}

// The node of a basket (its cards in any order).
int node_of(const Basket& b, bool same_only) {
    int sorted[kBasketCapacity];
    const int n = b.size;
    for (int i = 0; i < n; ++i) {
        int card = b.cards[i];
        int k = i;
        while (k > 0 && sorted[k - 1] > card) {
            sorted[k] = sorted[k - 1];
            --k;
        }
        sorted[k] = card;
    }
    return graph().id[same_only][code_of(sorted, n)];
}

// -- completion odds (the reference's _Odds) -----------------------------------------------
struct Pair {
    double same;
    double diff;
};

// A basket as a target: its node and the types the other baskets fit.
struct Target {
    int node;
    int others;
};

struct Prices {
    double same, diff, fail;
};

struct ValueP {
    double value, p;
};

// Odds keyed by (node, others, left, redraws) packed in 21 bits: open addressing, linear
// probing; an entry counts only when stamped with the current generation, so that clearing
// is a counter step, not a pass over the table.
class Memo {
public:
    Memo() { resize(256); }
    void clear() {
        count_ = 0;
        if (++generation_ == 0) {  // wrapped: stamps of old generations could come back
            for (Entry& e : entries_) e.stamp = 0;
            generation_ = 1;
        }
    }
    bool find(uint32_t key, Pair* out) const {
        for (size_t i = slot(key);; i = (i + 1) & mask_) {
            const Entry& e = entries_[i];
            if (e.stamp != generation_) return false;
            if (e.key == key) {
                *out = e.value;
                return true;
            }
        }
    }
    // Adds an entry that find() does not hold.
    void insert(uint32_t key, const Pair& value) {
        if (2 * (count_ + 1) > entries_.size()) grow();
        size_t i = slot(key);
        while (entries_[i].stamp == generation_) i = (i + 1) & mask_;
        entries_[i] = Entry{key, generation_, value};
        ++count_;
    }

private:
    struct Entry {
        uint32_t key;
        uint32_t stamp;  // the generation that wrote it
        Pair value;
    };
    // Fibonacci hashing: the top bits of the product.
    size_t slot(uint32_t key) const { return (key * 2654435761u) >> shift_; }
    void resize(size_t n) {
        entries_.assign(n, Entry{0, 0, Pair{0.0, 0.0}});
        mask_ = n - 1;
        shift_ = 32;
        for (size_t m = n; m > 1; m >>= 1) --shift_;
        count_ = 0;
    }
    void grow() {
        std::vector<Entry> old = std::move(entries_);
        const uint32_t generation = generation_;
        resize(old.size() * 2);
        for (const Entry& e : old) {
            if (e.stamp == generation) insert(e.key, e.value);
        }
    }
    std::vector<Entry> entries_;
    size_t mask_ = 0;
    int shift_ = 32;
    size_t count_ = 0;
    uint32_t generation_ = 1;
};

class Odds {
public:
    void reset(const int counts[kNumTypes]) {
        int total = 0;
        for (int t = 0; t < kNumTypes; ++t) total += counts[t];
        if (total < 1) total = 1;
        num_probs = 0;
        drawable = 0;
        for (int t = 0; t < kNumTypes; ++t) {
            if (counts[t] == 0) continue;
            crops[num_probs] = t;
            probs[num_probs] = static_cast<double>(counts[t]) / static_cast<double>(total);
            ++num_probs;
            drawable |= 1 << t;
        }
        memo_.clear();
    }

    // (P complete as SAME, P complete as DIFFERENT) of one target, greedy play (_target).
    Pair target(const Target& t, int left, int redraws) {
        if (graph().size[t.node] + left < kBasketCapacity) return Pair{0.0, 0.0};
        if (!(drawable & ~t.others)) redraws = 0;  // no card is ever redrawn
        return get(t.node, t.others, left, redraws);
    }

    // (value, success probability) of the best of `targets` (best_of).
    ValueP best_of(const Target* targets, int n, int left, int redraws, const Prices& prices) {
        double best_value = -prices.fail;
        double best_p = 0.0;
        for (int i = 0; i < n; ++i) {
            const Target& t = targets[i];
            if (graph().size[t.node] + left < kBasketCapacity) continue;
            const int target_redraws = (drawable & ~t.others) ? redraws : 0;
            const Pair odds = get(t.node, t.others, left, target_redraws);
            const double s = odds.same;
            const double d = odds.diff;
            const double value = s * prices.same + d * prices.diff - (1.0 - s - d) * prices.fail;
            if (value > best_value) {
                best_value = value;
                best_p = s + d;
            }
        }
        return ValueP{best_value, best_p};
    }

    int num_probs = 0;
    int crops[kNumTypes] = {};
    double probs[kNumTypes] = {};
    int drawable = 0;

private:
    static uint32_t key_of(int node, int others, int left, int redraws) {
        return static_cast<uint32_t>(((node * 64 + others) * 8 + left) * 4 + redraws);
    }

    Pair get(int node, int others, int left, int redraws) {
        const uint32_t key = key_of(node, others, left, redraws);
        Pair odds;
        if (memo_.find(key, &odds)) return odds;
        return compute(node, others, left, redraws, key);
    }

    // _odds: the basket can still be filled (size + left >= capacity).
    Pair compute(int node, int others, int left, int redraws, uint32_t key) {
        const NodeGraph& g = graph();
        const int16_t* steps = g.steps[node];
        const bool dumps_can_complete = g.size[node] + left - 1 >= kBasketCapacity;
        double p_same = 0.0;
        double p_diff = 0.0;
        bool have_dumped = false, have_redrawn = false;
        Pair dumped{0.0, 0.0}, redrawn{0.0, 0.0};
        for (int k = 0; k < num_probs; ++k) {
            const int crop = crops[k];
            const double p = probs[k];
            const int step = steps[crop];
            double s, d;
            if (step == kMisses) {
                if (others >> crop & 1) {
                    if (!dumps_can_complete) continue;
                    if (!have_dumped) {
                        dumped = get(node, others, left - 1, redraws);
                        have_dumped = true;
                    }
                    s = dumped.same;
                    d = dumped.diff;
                } else if (redraws) {
                    if (!have_redrawn) {
                        redrawn = get(node, others, left, redraws - 1);
                        have_redrawn = true;
                    }
                    s = redrawn.same;
                    d = redrawn.diff;
                } else {
                    continue;
                }
            } else if (step >= 0) {
                const Pair grown = get(step, others, left - 1, redraws);
                s = grown.same;
                d = grown.diff;
            } else if (step == kCompletesSame) {
                p_same += p;
                continue;
            } else {
                p_diff += p;
                continue;
            }
            p_same += p * s;
            p_diff += p * d;
        }
        const Pair odds{p_same, p_diff};
        memo_.insert(key, odds);
        return odds;
    }

    Memo memo_;
};

// The odds of the last compositions seen, per thread. The reference keeps 1,024; any number
// gives the same values, and few keep the tables in cache (a playout meets a new composition
// at every draw: 32 slots ran at 5 us a decision, 64 slots of larger tables at 13-19 us).
class OddsCache {
public:
    Odds& get(const int counts[kNumTypes]) {
        uint64_t key = 0;
        for (int t = 0; t < kNumTypes; ++t) key = key << 8 | static_cast<uint64_t>(counts[t]);
        ++tick_;
        auto found = where_.find(key);
        if (found != where_.end()) {
            used_[found->second] = tick_;
            return *slots_[found->second];
        }
        size_t slot;
        if (slots_.size() < kSlots) {
            slot = slots_.size();
            slots_.push_back(std::make_unique<Odds>());
            keys_.push_back(key);
            used_.push_back(tick_);
        } else {
            slot = 0;
            for (size_t i = 1; i < slots_.size(); ++i) {
                if (used_[i] < used_[slot]) slot = i;
            }
            where_.erase(keys_[slot]);
            keys_[slot] = key;
            used_[slot] = tick_;
        }
        where_[key] = slot;
        slots_[slot]->reset(counts);
        return *slots_[slot];
    }

private:
    static constexpr size_t kSlots = 32;
    std::vector<std::unique_ptr<Odds>> slots_;
    std::vector<uint64_t> keys_, used_;
    std::unordered_map<uint64_t, size_t> where_;
    uint64_t tick_ = 0;
};

// _odds_of: the cards the next draws come from (the discard pile when the deck is empty: it
// is about to be rebuilt from it).
Odds& odds_of(const State& s) {
    thread_local OddsCache cache;
    int total = 0;
    for (int t = 0; t < kNumTypes; ++t) total += s.deck_counts[t];
    return cache.get(total == 0 ? s.discard_counts : s.deck_counts);
}

// -- what the view shows, as the reference reads it ---------------------------------------
// _targets: per basket as a target, its node and the types the other baskets fit.
void targets_of(const State& s, Target out[kNumBaskets], int fits[kNumBaskets]) {
    for (int j = 0; j < kNumBaskets; ++j) {
        fits[j] = fitting_types(s.baskets[j], j == kSameBasket);
    }
    for (int j = 0; j < kNumBaskets; ++j) {
        int others = 0;
        for (int i = 0; i < kNumBaskets; ++i) {
            if (i != j) others |= fits[i];
        }
        out[j] = Target{node_of(s.baskets[j], j == kSameBasket), others};
    }
}

int others_of(int j, const int fits[kNumBaskets]) {
    int others = 0;
    for (int i = 0; i < kNumBaskets; ++i) {
        if (i != j) others |= fits[i];
    }
    return others;
}

// _fit_twice_besides: the types at least two baskets other than basket j fit.
int fit_twice_besides(int j, const int fits[kNumBaskets]) {
    int once = 0, twice = 0;
    for (int i = 0; i < kNumBaskets; ++i) {
        if (i != j) {
            twice |= once & fits[i];
            once |= fits[i];
        }
    }
    return twice;
}

// combination_points of won bid cards, tabled by the counts (3 bits each, per thread).
int combination_points_of(const int won[kNumBidNumbers]) {
    thread_local std::vector<int8_t> table(size_t{1} << (3 * kNumBidNumbers), -1);
    size_t index = 0;
    for (int i = 0; i < kNumBidNumbers; ++i) {
        if (won[i] < 0 || won[i] > 7) return combination_points(won);
        index = index << 3 | static_cast<size_t>(won[i]);
    }
    if (table[index] < 0) table[index] = static_cast<int8_t>(combination_points(won));
    return table[index];
}

// _bid_prices / HeuristicAgent._prices: (SAME reward, DIFFERENT reward, failure cost) of bid
// `number` in points for `seat`: yellow 1, blue 1/3, plus the combination points the card adds.
Prices prices_of(const State& s, int seat, int number) {
    int won[kNumBidNumbers];
    for (int i = 0; i < kNumBidNumbers; ++i) won[i] = s.won[seat][i];
    const int before = combination_points_of(won);
    won[number - 1] += 1;
    const double combo = static_cast<double>(combination_points_of(won) - before);
    const int* different = kBidRewards[number - 1][kDifferent];
    const int* same = kBidRewards[number - 1][kSame];
    const auto points = [](const int* chips) {
        return static_cast<double>(chips[kYellow]) +
               static_cast<double>(chips[kBlue]) / static_cast<double>(kBluePerYellow);
    };
    const bool can_pay = s.chips[seat][kYellow] >= 1 || s.chips[seat][kBlue] >= kBluePerYellow;
    return Prices{points(same) + combo, points(different) + combo, can_pay ? 1.0 : 0.0};
}

// red_majority_points (§6.3) of red counts (some may be -1: a chip spent that one lacks).
void red_majority(const int64_t reds[], int n, int out[]) {
    for (int i = 0; i < n; ++i) out[i] = 0;
    int64_t first = 0;
    bool any = false;
    for (int i = 0; i < n; ++i) {
        if (reds[i] >= 1 && (!any || reds[i] > first)) {
            first = reds[i];
            any = true;
        }
    }
    if (!any) return;
    int leaders = 0;
    for (int i = 0; i < n; ++i) leaders += reds[i] == first;
    if (leaders >= 2) {
        for (int i = 0; i < n; ++i) {
            if (reds[i] == first) out[i] = kRedTiedFirst;
        }
        return;
    }
    int leader = 0;
    while (reds[leader] != first) ++leader;
    out[leader] = kRedSoleFirst;
    int64_t second = 0;
    bool rest = false;
    for (int i = 0; i < n; ++i) {
        if (reds[i] >= 1 && reds[i] < first && (!rest || reds[i] > second)) {
            second = reds[i];
            rest = true;
        }
    }
    if (!rest) return;
    int seconds = 0;
    for (int i = 0; i < n; ++i) seconds += reds[i] == second;
    for (int i = 0; i < n; ++i) {
        if (reds[i] == second) out[i] = seconds == 1 ? kRedSoleSecond : kRedTiedSecond;
    }
}

// _red_cost: what losing `chips` red chips costs `seat` in red-majority standing (its points
// minus the best opponent's).
int red_cost(const State& s, int seat, int chips) {
    const int n = s.num_players;
    int64_t reds[kMaxPlayers];
    for (int i = 0; i < n; ++i) reds[i] = s.chips[i][kRed];
    const auto standing = [&](const int64_t counts[]) {
        int points[kMaxPlayers];
        red_majority(counts, n, points);
        bool any = false;
        int best = 0;
        for (int i = 0; i < n; ++i) {
            if (i != seat && (!any || points[i] > best)) {
                best = points[i];
                any = true;
            }
        }
        return points[seat] - best;
    };
    int64_t after[kMaxPlayers];
    for (int i = 0; i < n; ++i) after[i] = reds[i];
    after[seat] -= chips;
    return standing(reds) - standing(after);
}

// _redraws: the redraws `seat` holds this turn (declared chips, or one red chip unused).
int redraws_of(const State& s, int seat) {
    if (s.variant) return s.declared;
    return s.chips[seat][kRed] >= 1 && !s.red_used ? 1 : 0;
}

// -- decisions -----------------------------------------------------------------------------
// _bid: (best bid action, its value, its success probability) among the bids in `bids`.
struct BidChoice {
    int action;
    double value, p;
};

BidChoice best_bid(const State& s, int seat, uint32_t bids, Odds& odds, int redraws) {
    Target targets[kNumBaskets];
    int fits[kNumBaskets];
    targets_of(s, targets, fits);
    BidChoice best{bids ? __builtin_ctz(bids) : -1, -kInf, 0.0};
    for (uint32_t rest = bids; rest; rest &= rest - 1) {
        const int action = __builtin_ctz(rest);
        const int number = action + 1;
        const ValueP v =
            odds.best_of(targets, kNumBaskets, number, redraws, prices_of(s, seat, number));
        if (v.value > best.value) best = BidChoice{action, v.value, v.p};
    }
    return best;
}

// _open_bids: the bid actions whose stack holds a card.
uint32_t open_bids(const State& s) {
    uint32_t bits = 0;
    for (int i = 0; i < kNumBidNumbers; ++i) {
        if (s.stacks[i] > 0) bits |= 1u << (kBidBase + i);
    }
    return bits;
}

int declare(const State& s, int seat, uint32_t legal) {
    Odds& odds = odds_of(s);
    const uint32_t bids = open_bids(s);
    int best_action = __builtin_ctz(legal);
    double best_value = -kInf;
    for (uint32_t rest = legal; rest; rest &= rest - 1) {
        const int action = __builtin_ctz(rest);
        const int count = action - kDeclareBase;
        const double value = best_bid(s, seat, bids, odds, count).value -
                             static_cast<double>(red_cost(s, seat, count));
        if (value > best_value) {
            best_action = action;
            best_value = value;
        }
    }
    return best_action;
}

int bet(const State& s, uint32_t legal) {
    const int turn = s.turn_player;
    int redraws;
    if (s.variant) {
        redraws = s.declared;
    } else {
        redraws = s.chips[turn][kRed] >= 1 && !s.red_used ? 1 : 0;
    }
    Odds& odds = odds_of(s);
    Target targets[kNumBaskets];
    int fits[kNumBaskets];
    targets_of(s, targets, fits);
    double p = 0.0;
    for (int j = 0; j < kNumBaskets; ++j) {
        const Pair odds_j = odds.target(targets[j], s.bid - s.placed, redraws);
        const double sum = 0.0 + odds_j.same + odds_j.diff;
        if (j == 0 || sum > p) p = sum;
    }
    p *= kSkillDiscount;
    const int side = p >= 0.5 ? kYes : kNo;
    const double confidence = std::fabs(2.0 * p - 1.0);
    int stake = 1;
    for (double step : kStakeSteps) stake += confidence >= step ? 1 : 0;
    const int base = side == kYes ? kYesBase : kNoBase;
    while (stake > 1 && !(legal >> (base + stake - 1) & 1u)) --stake;
    return base + stake - 1;
}

// _CardValues: the values of one CARD decision's actions, for the pending card or, valuing
// REDRAW, for each card that could be drawn instead.
class CardValues {
public:
    CardValues(const State& s, Odds& odds, int left, const Prices& prices, double red_cost)
        : s_(s), odds_(odds), left_(left), prices_(prices), red_cost_(red_cost) {
        targets_of(s, targets_, fits_);
        for (int j = 0; j < kNumBaskets; ++j) {
            // _lone_crop: the crop of a basket holding exactly one besides wilds, else none.
            const Basket& b = s.baskets[j];
            int crops = 0, crop = -1;
            for (int i = 0; i < b.size; ++i) {
                if (b.cards[i] != kWild) {
                    if (crops == 0) crop = b.cards[i];
                    ++crops;
                }
            }
            lone_[j] = crops == 1 ? crop : -1;
        }
    }

    // Placing `card` in basket j, `redraws` left.
    double place_value(int card, int j, int redraws) {
        double settled;
        if (settled_value(card, j, &settled)) return settled;
        return static_cast<double>(bonus(card, j)) + after_value(j, card, redraws);
    }

    // Best handling of a freshly drawn `card` with `redraws` left.
    double card_value(int card, int redraws) {
        bool any = false;
        double best = 0.0;
        for (int j = 0; j < kNumBaskets; ++j) {
            if (fits_[j] >> card & 1) {
                const double v = place_value(card, j, redraws);
                best = any ? py_max(best, v) : v;
                any = true;
            }
        }
        if (redraws) {
            const double v = redraw_value(redraws);
            best = any ? py_max(best, v) : v;
            any = true;
        }
        return any ? best : -prices_.fail;
    }

    // REDRAW with `redraws` left (this one included): the average next card's value.
    double redraw_value(int redraws) {
        if (!has_redraw_value_[redraws]) {
            double sum = 0.0;
            for (int k = 0; k < odds_.num_probs; ++k) {
                sum += odds_.probs[k] * card_value(odds_.crops[k], redraws - 1);
            }
            redraw_values_[redraws] = -red_cost_ + sum;
            has_redraw_value_[redraws] = true;
        }
        return redraw_values_[redraws];
    }

    // An upper bound of redraw_value that computes no odds.
    double redraw_bound(int redraws) {
        if (!has_redraw_bound_[redraws]) {
            double sum = 0.0;
            for (int k = 0; k < odds_.num_probs; ++k) {
                sum += odds_.probs[k] * card_bound(odds_.crops[k], redraws - 1);
            }
            redraw_bounds_[redraws] = -red_cost_ + sum;
            has_redraw_bound_[redraws] = true;
        }
        return redraw_bounds_[redraws];
    }

private:
    double card_bound(int card, int redraws) {
        const double top = py_max(py_max(prices_.same, prices_.diff), -prices_.fail);
        bool any = false;
        double best = 0.0;
        for (int j = 0; j < kNumBaskets; ++j) {
            if (fits_[j] >> card & 1) {
                double v;
                if (!settled_value(card, j, &v)) v = static_cast<double>(bonus(card, j)) + top;
                best = any ? py_max(best, v) : v;
                any = true;
            }
        }
        if (redraws) {
            const double v = redraw_bound(redraws);
            best = any ? py_max(best, v) : v;
            any = true;
        }
        return any ? best : -prices_.fail;
    }

    // The same-commit bonus of placing `card` in basket j.
    int bonus(int card, int j) const {
        const bool lone = j != kSameBasket && card != kWild && lone_[j] == card;
        return lone ? kSameCommitBonus : 0;
    }

    Basket grown(int j, int card) const {
        Basket b = s_.baskets[j];
        b.cards[b.size++] = static_cast<int8_t>(card);
        return b;
    }

    // _settled: a completion pays its reward, a last placement without one fails; false when
    // the turn goes on.
    bool settled_value(int card, int j, double* out) const {
        const Basket b = grown(j, card);
        if (b.size == kBasketCapacity) {
            const int kind = completion_type(b, j == kSameBasket);
            *out = static_cast<double>(bonus(card, j)) +
                   (kind == kSame ? prices_.same : prices_.diff);
            return true;
        }
        if (left_ == 1) {
            *out = static_cast<double>(bonus(card, j)) - prices_.fail;
            return true;
        }
        return false;
    }

    // _after_value: the best target's value with basket j grown by `card`, one placement fewer.
    double after_value(int j, int card, int redraws) {
        const int left = left_ - 1;
        const Basket b = grown(j, card);
        const bool same_only = j == kSameBasket;
        const int grown_fits = fitting_types(b, same_only);
        const Target grown_target{node_of(b, same_only), targets_[j].others};
        if ((fits_[j] ^ grown_fits) & ~fit_twice_besides(j, fits_)) {
            // Another basket's `others` changes: every target is valued afresh.
            int fits_after[kNumBaskets];
            for (int i = 0; i < kNumBaskets; ++i) fits_after[i] = fits_[i];
            fits_after[j] = grown_fits;
            Target after[kNumBaskets];
            for (int i = 0; i < kNumBaskets; ++i) {
                after[i] = Target{targets_[i].node, others_of(i, fits_after)};
            }
            after[j] = grown_target;
            return odds_.best_of(after, kNumBaskets, left, redraws, prices_).value;
        }
        if (!has_rest_best_[j][redraws]) {
            Target rest[kNumBaskets - 1];
            int n = 0;
            for (int i = 0; i < kNumBaskets; ++i) {
                if (i != j) rest[n++] = targets_[i];
            }
            rest_best_[j][redraws] = odds_.best_of(rest, n, left, redraws, prices_).value;
            has_rest_best_[j][redraws] = true;
        }
        const double grown_value = odds_.best_of(&grown_target, 1, left, redraws, prices_).value;
        return py_max(rest_best_[j][redraws], grown_value);
    }

    const State& s_;
    Odds& odds_;
    int left_;
    Prices prices_;
    double red_cost_;
    int fits_[kNumBaskets];
    int lone_[kNumBaskets];
    Target targets_[kNumBaskets];
    bool has_rest_best_[kNumBaskets][kMaxRedraws + 1] = {};
    double rest_best_[kNumBaskets][kMaxRedraws + 1] = {};
    bool has_redraw_value_[kMaxRedraws + 1] = {};
    double redraw_values_[kMaxRedraws + 1] = {};
    bool has_redraw_bound_[kMaxRedraws + 1] = {};
    double redraw_bounds_[kMaxRedraws + 1] = {};
};

int card(const State& s, int seat, uint32_t legal) {
    const Prices prices = prices_of(s, seat, s.bid);
    const double cost = s.variant ? 0.0 : static_cast<double>(red_cost(s, seat, 1));
    CardValues values(s, odds_of(s), s.bid - s.placed, prices, cost);
    const int redraws = redraws_of(s, seat);
    int best_action = __builtin_ctz(legal);
    double best_value = -kInf;
    for (uint32_t rest = legal; rest; rest &= rest - 1) {
        const int action = __builtin_ctz(rest);
        double value;
        if (action == kForfeit) {
            value = -prices.fail;
        } else if (action == kRedraw) {
            if (values.redraw_bound(redraws) + kBoundMargin <= best_value) continue;
            value = values.redraw_value(redraws);
        } else {
            value = values.place_value(s.pending, action - kPlaceBase, redraws);
        }
        if (value > best_value + kCardEpsilon) {
            best_action = action;
            best_value = value;
        }
    }
    return best_action;
}

}  // namespace

int heuristic_action(const State& state, int seat, Pcg64& /*rng*/) {
    const uint32_t legal = state.legal_bits();
    if (__builtin_popcount(legal) == 1) return __builtin_ctz(legal);
    switch (state.phase) {
        case kCard:
            return card(state, seat, legal);
        case kBet:
            return bet(state, legal);
        case kBid:
            return best_bid(state, seat, legal, odds_of(state), redraws_of(state, seat)).action;
        case kDeclare:
            return declare(state, seat, legal);
        default:
            return __builtin_ctz(legal);
    }
}

TurnOutlook turn_outlook(const State& state, int seat) {
    const uint32_t bids = open_bids(state);
    if (bids == 0) throw std::invalid_argument("no bid stack holds a card");
    const BidChoice best = best_bid(state, seat, bids, odds_of(state), redraws_of(state, seat));
    return TurnOutlook{best.value, best.p};
}

int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon) {
    int64_t played = 0;
    while (!state.is_terminal() && (depth == 0 || played < depth)) {
        uint32_t legal = state.legal_bits();
        const int count = __builtin_popcount(legal);
        int action;
        if (count == 1) {
            action = __builtin_ctz(legal);
        } else if (epsilon > 0 && rng.random() < epsilon) {
            int k = static_cast<int>(rng.integers(static_cast<uint64_t>(count)));
            while (k-- > 0) legal &= legal - 1;
            action = __builtin_ctz(legal);
        } else {
            action = heuristic_action(state, state.current_player(), rng);
        }
        state.apply(action);
        ++played;
    }
    return played;
}

void leaf_values(const State& state, double out[kMaxPlayers]) {
    const int n = state.num_players;
    double keys[kMaxPlayers];
    if (state.is_terminal()) {
        const auto scores = state.scores();
        for (int i = 0; i < n; ++i) keys[i] = 1.0 * scores[static_cast<size_t>(i)];
    } else {
        int64_t reds[kMaxPlayers];
        for (int i = 0; i < n; ++i) reds[i] = state.chips[i][kRed];
        int red_points[kMaxPlayers];
        red_majority(reds, n, red_points);
        for (int i = 0; i < n; ++i) {
            const int64_t* chips = state.chips[i];
            keys[i] = static_cast<double>(chips[kYellow]) +
                      static_cast<double>(chips[kBlue]) / static_cast<double>(kBluePerYellow) +
                      static_cast<double>(red_points[i]) +
                      static_cast<double>(combination_points_of(state.won[i]));
        }
        if (state.phase == kBid || state.phase == kDeclare) {
            const int turn = state.turn_player;
            const TurnOutlook outlook = turn_outlook(state, turn);
            keys[turn] += outlook.value;
            for (int i = 0; i < n; ++i) {
                const int64_t* chips = state.chips[i];
                if (i != turn && chips[kBlue] + kBluePerYellow * chips[kYellow] >= 1) {
                    keys[i] += kBetWorth * std::fabs(2.0 * outlook.p - 1.0);
                }
            }
        }
    }
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int j = 0; j < n; ++j) {
            if (j != i) sum += std::tanh((keys[i] - keys[j]) / kScoreScale);
        }
        out[i] = sum / static_cast<double>(n - 1);
    }
}

}  // namespace bge::cornucopia
