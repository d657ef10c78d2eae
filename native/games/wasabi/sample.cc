// Wasabi! determinization (boardgame_envs/wasabi/sample.py): the plan of where each unseen
// component may go (made from the view alone), then one sample drawn from it. The names
// follow the Python; the reference's memo of plans only saves time there and is left out.
#include "games/wasabi/sample.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace bge::wasabi {

namespace {

// (seat, what the view pins in its hand per kind or type, begin, end of its part of the
// shuffled pool) for one hidden hand.
struct Deal {
    int seat = 0;
    int pinned[NUM_KINDS] = {};
    int begin = 0;
    int end = 0;
};

// Where the unseen components of one view go, the same for every sample of it.
struct Plan {
    std::vector<int> pool;     // the unseen recipes (by length), then tiles, then cards
    std::vector<double> part;  // each one's part (length 0..3, tiles 4, cards 5), for the sort
    // Per seat and slot: the pool index of its recipe, or -1 (an empty slot); unused for the
    // seat itself.
    int menu_index[MAX_PLAYERS][MENU_SLOTS] = {};
    int deck_begin[NUM_LENGTHS] = {};
    int deck_end[NUM_LENGTHS] = {};
    std::vector<Deal> tile_deal;  // empty unless hide_opponent_hands
    std::vector<Deal> card_deal;
    bool distinct = false;  // a setup deal: no hidden hand may hold two tiles of one kind
    // At PLACE_TARGET under hidden hands, for another seat's view: the kinds the mover's
    // hidden choice can be (one is drawn, then the plan for it is used); else empty.
    std::vector<int> kind_choices;
};

bool in_setup(Phase phase) { return phase == GIFT_PICK || phase == DRAFT_PICK; }

std::string int_list_text(const int* values, int n) {
    std::string out = "[";
    for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(values[i]);
    return out + "]";
}

// What the view pins in the hidden hands: the unseen components per kind or type, each
// hidden hand's pinned part and how many more it holds.
struct Pins {
    int unseen[NUM_KINDS] = {};
    int hands[MAX_PLAYERS][NUM_KINDS] = {};
    int free[MAX_PLAYERS] = {};
};

// _tile_pins: `kind` is the drawn kind the mover chose at PLACE_TARGET (NONE: not drawn).
Pins tile_pins(const State& s, int seat, int kind) {
    const int n = s.num_players;
    Pins pins;
    for (int k = 0; k < NUM_KINDS; ++k) {
        pins.unseen[k] = TILE_COUNTS[k] - s.pantry[k] - s.tiles[seat][k];
    }
    for (int c = 0; c < NUM_CELLS; ++c) {
        for (int i = 0; i < s.height[c]; ++i) --pins.unseen[s.stacks[c][i]];
    }
    if (s.lifted != NONE) --pins.unseen[s.lifted];
    for (int p = 0; p < n; ++p) {
        if (p != seat) pins.free[p] = s.tiles_held(p);  // public even when hidden
    }
    auto pin = [&](int p, int k) {
        ++pins.hands[p][k];
        --pins.free[p];
        --pins.unseen[k];
    };
    if (in_setup(s.phase)) {
        // The left neighbour holds exactly what this seat gave it (the view's gift_given).
        const int left = (seat + 1) % n;
        for (int k = 0; k < NUM_KINDS; ++k) {
            for (int i = 0; i < s.tiles[left][k]; ++i) pin(left, k);
        }
        const int receiver = (s.active + 1) % n;
        if (s.phase == GIFT_PICK && receiver != seat && receiver != left) {
            for (int i = 0; i < s.gift_size; ++i) pin(receiver, s.gift[i]);
        }
    } else if (s.phase == PLACE_TARGET && s.active != seat && kind != NONE) {
        pin(s.active, kind);
    }
    return pins;
}

// _card_pins: a Wasabi! card being laid and a card just picked are in the mover's hand.
Pins card_pins(const State& s, int seat) {
    const int n = s.num_players;
    Pins pins;
    for (int t = 0; t < NUM_CARD_TYPES; ++t) {
        pins.unseen[t] = CARDS_IN_PLAY[n][t] - s.kitchen[t] - s.cards[seat][t];
    }
    pins.unseen[WASABI] -= __builtin_popcountll(s.anchors);
    for (int p = 0; p < n; ++p) {
        if (p != seat) pins.free[p] = s.cards_held(p);
    }
    int pinned = NONE;
    if (s.active != seat) {
        if (s.phase == WASABI_ANCHOR) {
            pinned = WASABI;
        } else if (s.phase == REWARD_DISCARD && s.new_card != NONE) {
            pinned = s.new_card;
        }
    }
    if (pinned != NONE) {
        ++pins.hands[s.active][pinned];
        --pins.free[s.active];
        --pins.unseen[pinned];
    }
    return pins;
}

// _hand_deal: the unseen components as ids (appended to `part`), and the deal of the hidden
// hands from `start` on.
std::vector<Deal> hand_deal(const Pins& pins, int ids, int start, const char* what,
                            const State& s, int seat, std::vector<int>& part) {
    const int n = s.num_players;
    int unseen_total = 0, free_total = 0;
    bool negative = false;
    for (int k = 0; k < ids; ++k) {
        unseen_total += pins.unseen[k];
        negative = negative || pins.unseen[k] < 0;
    }
    for (int p = 0; p < n; ++p) {
        if (p == seat) continue;
        free_total += pins.free[p];
        negative = negative || pins.free[p] < 0;
    }
    if (negative || unseen_total != free_total) {
        throw std::invalid_argument("view of seat " + std::to_string(seat) + ": unseen " + what +
                                    " " + int_list_text(pins.unseen, ids) +
                                    " do not fill hidden hands");
    }
    std::vector<Deal> deal;
    int at = start;
    for (int p = 0; p < n; ++p) {
        if (p == seat) continue;
        Deal d;
        d.seat = p;
        std::copy(pins.hands[p], pins.hands[p] + ids, d.pinned);
        d.begin = at;
        d.end = at + pins.free[p];
        at = d.end;
        deal.push_back(d);
    }
    for (int k = 0; k < ids; ++k) {
        for (int i = 0; i < pins.unseen[k]; ++i) part.push_back(k);
    }
    return deal;
}

// _make_plan: `kind` is a drawn hidden kind the mover holds (NONE: none drawn).
Plan make_plan(const State& s, int seat, int kind) {
    const int n = s.num_players;
    Plan plan;
    uint64_t known = 0;  // the seat's own recipes and every completed one
    for (int j = 0; j < MENU_SLOTS; ++j) {
        if (s.menus[seat][j] != NONE) known |= uint64_t{1} << s.menus[seat][j];
    }
    for (int p = 0; p < n; ++p) {
        for (int j = 0; j < s.num_completed[p]; ++j) known |= uint64_t{1} << s.completed[p][j];
    }
    int offsets[NUM_LENGTHS + 1] = {};
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        for (int r = DECK_FIRST[i]; r < DECK_FIRST[i] + DECK_SIZE[i]; ++r) {
            if (!(known >> r & 1)) {
                plan.pool.push_back(r);
                plan.part.push_back(i);
            }
        }
        offsets[i + 1] = static_cast<int>(plan.pool.size());
    }
    int taken[NUM_LENGTHS] = {};
    for (int p = 0; p < n; ++p) {
        if (p == seat) continue;
        for (int j = 0; j < MENU_SLOTS; ++j) {
            const int r = s.menus[p][j];  // only its length is read (the view's menu_lengths)
            if (r == NONE) {
                plan.menu_index[p][j] = -1;
            } else {
                const int i = RECIPES[r].length - 2;
                plan.menu_index[p][j] = offsets[i] + taken[i]++;
            }
        }
    }
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        const int unseen = offsets[i + 1] - offsets[i];
        if (unseen != taken[i] + s.deck_size[i]) {
            throw std::invalid_argument(
                "view of seat " + std::to_string(seat) + ": " + std::to_string(unseen) +
                " unseen length-" + std::to_string(i + 2) + " recipes for " +
                std::to_string(taken[i]) + " menu slots and a deck of " +
                std::to_string(s.deck_size[i]));
        }
        plan.deck_begin[i] = offsets[i] + taken[i];
        plan.deck_end[i] = offsets[i + 1];
    }
    if (s.config.hide_opponent_hands) {
        std::vector<int> tiles, cards;
        plan.tile_deal = hand_deal(tile_pins(s, seat, kind), NUM_KINDS, offsets[NUM_LENGTHS],
                                   "tiles", s, seat, tiles);
        // The view hides the kind chosen at PLACE_TARGET from every seat but the mover's.
        const bool hidden_kind = s.phase == PLACE_TARGET && s.active != seat;
        if (hidden_kind && kind == NONE) {
            bool seen[NUM_KINDS] = {};
            for (const int k : tiles) seen[k] = true;
            for (int k = 0; k < NUM_KINDS; ++k) {
                if (seen[k]) plan.kind_choices.push_back(k);
            }
            if (plan.kind_choices.empty()) {
                throw std::invalid_argument("view of seat " + std::to_string(seat) +
                                            ": no unseen tile to be placed");
            }
        }
        plan.card_deal = hand_deal(card_pins(s, seat), NUM_CARD_TYPES,
                                   offsets[NUM_LENGTHS] + static_cast<int>(tiles.size()), "cards",
                                   s, seat, cards);
        for (const int k : tiles) {
            plan.pool.push_back(k);
            plan.part.push_back(NUM_LENGTHS);
        }
        for (const int t : cards) {
            plan.pool.push_back(t);
            plan.part.push_back(NUM_LENGTHS + 1);
        }
        plan.distinct = in_setup(s.phase);
    }
    return plan;
}

// _hands: each hidden hand its pinned part plus its slice of the shuffled pool.
// Hands of tiles (per kind) and of cards (per type) alike: NUM_KINDS counts wide.
void deal_hands(const std::vector<Deal>& deal, const std::vector<int>& perm, int ids,
                int hands[][NUM_KINDS]) {
    for (const Deal& d : deal) {
        std::copy(d.pinned, d.pinned + ids, hands[d.seat]);
        for (int i = d.begin; i < d.end; ++i) ++hands[d.seat][perm[static_cast<size_t>(i)]];
    }
}

}  // namespace

State sample_state(const State& s, int seat, Pcg64& rng) {
    const int n = s.num_players;
    const bool hidden = s.config.hide_opponent_hands;
    Plan plan = make_plan(s, seat, NONE);
    int kind = hidden && seat != s.active ? NONE : s.kind;  // the view's kind
    if (!plan.kind_choices.empty()) {  // the kind the mover chose is hidden: draw it
        kind = plan.kind_choices[rng.integers(plan.kind_choices.size())];
        plan = make_plan(s, seat, kind);
    }
    // pool[argsort(part + rng.random(len(pool)))]: each part in uniform random order. The
    // keys are distinct (equal ones have probability about 2**-50), so a stable sort orders
    // them as numpy's argsort does.
    const size_t size = plan.pool.size();
    std::vector<double> keys(size);
    for (size_t i = 0; i < size; ++i) keys[i] = plan.part[i] + rng.random();
    std::vector<int> order(size);
    for (size_t i = 0; i < size; ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&keys](int a, int b) {
        return keys[static_cast<size_t>(a)] < keys[static_cast<size_t>(b)];
    });
    std::vector<int> perm(size);
    for (size_t i = 0; i < size; ++i) perm[i] = plan.pool[static_cast<size_t>(order[i])];

    int tiles[MAX_PLAYERS][NUM_KINDS] = {};
    int cards[MAX_PLAYERS][NUM_KINDS] = {};  // per type: the first NUM_CARD_TYPES counts
    for (int p = 0; p < n; ++p) {  // the hands the view shows (all without hidden hands)
        if (!hidden || p == seat) {
            std::copy(s.tiles[p], s.tiles[p] + NUM_KINDS, tiles[p]);
            std::copy(s.cards[p], s.cards[p] + NUM_CARD_TYPES, cards[p]);
        }
    }
    if (hidden) {
        deal_hands(plan.tile_deal, perm, NUM_KINDS, tiles);
        if (plan.distinct && !plan.tile_deal.empty()) {
            // _redeal_distinct: deal the hidden tiles again until each hidden hand is a gift.
            const int start = plan.tile_deal.front().begin, end = plan.tile_deal.back().end;
            auto repeated = [&] {
                for (const Deal& d : plan.tile_deal) {
                    const int* hand = tiles[d.seat];
                    if (*std::max_element(hand, hand + NUM_KINDS) > 1) return true;
                }
                return false;
            };
            std::vector<int> again(static_cast<size_t>(end), 0);
            while (repeated()) {
                const std::vector<int> shuffled = rng.permutation(end - start);
                for (int i = 0; i < end - start; ++i) {
                    again[static_cast<size_t>(start + i)] =
                        plan.pool[static_cast<size_t>(start + shuffled[static_cast<size_t>(i)])];
                }
                deal_hands(plan.tile_deal, again, NUM_KINDS, tiles);
            }
        }
        deal_hands(plan.card_deal, perm, NUM_CARD_TYPES, cards);
    }

    State out(n, s.config);
    // The public facts, as the view shows them.
    std::copy(s.height, s.height + NUM_CELLS, out.height);
    for (int c = 0; c < NUM_CELLS; ++c) {
        std::copy(s.stacks[c], s.stacks[c] + s.height[c], out.stacks[c]);
    }
    out.anchors = s.anchors;
    out.covered = s.covered;
    std::copy(s.pantry, s.pantry + NUM_KINDS, out.pantry);
    std::copy(s.kitchen, s.kitchen + NUM_CARD_TYPES, out.kitchen);
    for (int p = 0; p < n; ++p) {
        std::copy(s.tokens[p], s.tokens[p] + NUM_LENGTHS, out.tokens[p]);
        out.num_completed[p] = s.num_completed[p];
        std::copy(s.completed[p], s.completed[p] + s.num_completed[p], out.completed[p]);
        std::copy(s.completed_ideal[p], s.completed_ideal[p] + s.num_completed[p],
                  out.completed_ideal[p]);
        out.cubes[p] = s.cubes[p];
    }
    out.start_player = s.start_player;
    out.active = s.active;
    out.phase = s.phase;
    out.turn = s.turn;
    out.winner = s.winner;
    out.gift_size = s.gift_size;
    std::copy(s.gift, s.gift + s.gift_size, out.gift);
    out.card_used = s.card_used;
    out.card_before = s.card_before;
    out.stack_on = s.stack_on;
    out.placements_left = s.placements_left;
    out.must_place = s.must_place;
    out.kind = kind;
    out.selected = s.selected;
    out.lifted = s.lifted;
    out.marked_size = s.marked_size;
    std::copy(s.marked, s.marked + s.marked_size, out.marked);
    out.picks = s.picks;
    out.new_card = s.new_card;
    // The drawn ones: the other menus, the decks, the hidden hands.
    for (int p = 0; p < n; ++p) {
        for (int j = 0; j < MENU_SLOTS; ++j) {
            if (p == seat) {
                out.menus[p][j] = s.menus[seat][j];
            } else {
                const int index = plan.menu_index[p][j];
                out.menus[p][j] = index < 0 ? NONE : perm[static_cast<size_t>(index)];
            }
        }
        std::copy(tiles[p], tiles[p] + NUM_KINDS, out.tiles[p]);
        std::copy(cards[p], cards[p] + NUM_CARD_TYPES, out.cards[p]);
    }
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        out.deck_size[i] = plan.deck_end[i] - plan.deck_begin[i];
        for (int j = plan.deck_begin[i]; j < plan.deck_end[i]; ++j) {
            const int recipe = perm[static_cast<size_t>(j)];
            out.decks[i][j - plan.deck_begin[i]] = static_cast<uint8_t>(recipe);
        }
    }
    return out;
}

}  // namespace bge::wasabi
