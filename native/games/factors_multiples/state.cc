// Factors and Multiples: the rules (legal moves, transitions, dealing, scoring), move for move
// as boardgame_envs/factors_multiples/rules.py plays them.
#include "games/factors_multiples/state.h"

#include <cstring>

namespace bge::factors_multiples {

namespace {

const char* const kPhaseNames[kNumPhases] = {"PLAY",        "K_ANSWER",  "A_DISCARD", "SEVEN_NAME",
                                             "J_DIRECTION", "K_DISCARD", "GAME_OVER"};

// The rank bit set of the cards in a hand set.
uint32_t ranks_held(uint64_t hand) {
    // Fold each rank's nibble onto its lowest bit, then gather one bit per rank.
    uint64_t folded = hand | (hand >> 1) | (hand >> 2) | (hand >> 3);
    uint32_t ranks = 0;
    for (int rank = 0; rank < kNumRanks; ++rank) {
        ranks |= static_cast<uint32_t>((folded >> (kNumSuits * rank)) & 1u) << rank;
    }
    return ranks;
}

}  // namespace

const char* phase_name(Phase phase) { return kPhaseNames[static_cast<int>(phase)]; }

bool phase_from_name(const char* name, Phase* out) {
    for (int i = 0; i < kNumPhases; ++i) {
        if (std::strcmp(name, kPhaseNames[i]) == 0) {
            *out = static_cast<Phase>(i);
            return true;
        }
    }
    return false;
}

Seed Seed::from_uint64(uint64_t value) {
    Seed seed;
    seed.count = 0;
    if (value == 0) {
        seed.words[0] = 0;
        seed.count = 1;
    }
    while (value > 0) {
        seed.words[seed.count++] = static_cast<uint32_t>(value & 0xFFFFFFFFu);
        value >>= 32;
    }
    return seed;
}

uint64_t round_seed(const Seed& seed, int round_index) {
    Pcg64 rng = Pcg64::from_entropy(seed.entropy());
    uint64_t drawn = 0;
    for (int i = 0; i <= round_index; ++i) drawn = rng.integers(uint64_t{1} << 63);
    return drawn;
}

State State::new_game(int num_players, const Seed& seed, const Config& config) {
    State state;
    state.num_players = num_players;
    state.config = config;
    state.seed = seed;
    state.start_round();
    return state;
}

int64_t State::match_total(int seat) const {
    int64_t sum = 0;
    for (int r = 0; r < completed; ++r) sum += round_scores[r][seat];
    return sum;
}

// -- legal moves ---------------------------------------------------------------------------
uint32_t State::legal_plays(int seat) const {
    const uint32_t held = ranks_held(hands[seat]);
    const int left = total(seat);
    uint32_t playable = kFollowTable.ranks[value];
    if (left >= 2) {
        playable |= kSpecialRanks;
        if (config.a_needs_discard && left < 3) playable &= ~(1u << kAce);
    }
    return held & playable;
}

bool State::can_answer_king(int seat) const {
    return total(seat) >= 2 && (hands[seat] & rank_cards(kAce)) != 0;
}

uint64_t State::legal_discards(int seat) const {
    return static_cast<uint64_t>(ranks_held(hands[seat])) << kDiscardBase;
}

uint64_t State::legal_mask() const {
    switch (phase) {
        case Phase::kPlay: {
            const uint32_t ranks = legal_plays(turn_player);
            return ranks ? static_cast<uint64_t>(ranks) << kPlayBase : uint64_t{1} << kShowAndDraw;
        }
        case Phase::kKAnswer:
            return uint64_t{1} << (can_answer_king(turn_player) ? kPlayBase + kAce : kShowAndDraw);
        case Phase::kADiscard:
            return legal_discards(turn_player);
        case Phase::kKDiscard:
            return legal_discards(k_player) |
                   (config.k_discard_optional ? uint64_t{1} << kDecline : uint64_t{0});
        case Phase::kSevenName:
            return ((uint64_t{1} << 11) - 1) << kNameBase;
        case Phase::kJDirection:
            return (uint64_t{1} << kJDown) | (uint64_t{1} << kJUp);
        case Phase::kGameOver:
            break;
    }
    return 0;
}

// -- transitions ---------------------------------------------------------------------------
void State::apply(int action) {
    switch (phase) {
        case Phase::kPlay:
            apply_play(action);
            break;
        case Phase::kKAnswer:
            apply_king_answer(action);
            break;
        case Phase::kADiscard:
            discard(turn_player, action - kDiscardBase);
            end_turn();
            break;
        case Phase::kSevenName:
            value = action - kNameBase + 2;
            end_turn();
            break;
        case Phase::kJDirection:
            value = j_step(value, action == kJDown ? -1 : +1);
            end_turn();
            break;
        case Phase::kKDiscard:
            apply_king_discard(action);
            break;
        case Phase::kGameOver:
            break;
    }
}

void State::apply_play(int action) {
    const int p = turn_player;
    if (action == kShowAndDraw) {
        show_and_draw(p);
        end_turn();
        return;
    }
    const int rank = action - kPlayBase;
    play_card(p, rank);
    if (!is_special(rank)) {
        value = nominal(rank);
        if (total(p) == 0) {
            end_round(p);
        } else {
            end_turn();
        }
    } else if (rank == kSeven) {
        choose_next(Phase::kSevenName);
    } else if (rank == kJack && value != 0) {
        choose_next(Phase::kJDirection);
    } else if (rank == kJack) {  // on the undetermined value a J changes nothing (R4)
        end_turn();
    } else if (rank == kAce) {
        refill(p);  // before the discard (R6)
        if (hand_size(p) >= 2) {
            phase = Phase::kADiscard;
        } else {  // never discard the last card (R8)
            end_turn();
        }
    } else {  // King
        k_player = p;
        end_turn();
    }
}

void State::choose_next(Phase next) {
    if (config.choose_after_refill) refill(turn_player);
    phase = next;
}

void State::apply_king_answer(int action) {
    const int q = turn_player;
    const int k = k_player;
    if (action == kShowAndDraw) {
        show_and_draw(q);
        k_player = -1;
        end_turn();
        return;
    }
    play_card(q, kAce);  // the answerer does not discard
    if (hand_size(k) >= 2) {
        phase = Phase::kKDiscard;
    } else {  // never discard the last card (R8)
        refill(k);
        k_player = -1;
        end_turn();
    }
}

void State::apply_king_discard(int action) {
    const int k = k_player;
    if (action != kDecline) discard(k, action - kDiscardBase);
    refill(k);
    k_player = -1;
    end_turn();
}

int State::take_card(int seat, int rank) {
    const uint64_t of_rank = hands[seat] & rank_cards(rank);
    const int card = __builtin_ctzll(of_rank);  // the lowest suit (spec 11.2)
    hands[seat] &= ~(uint64_t{1} << card);
    return card;
}

void State::play_card(int seat, int rank) {
    const int card = take_card(seat, rank);
    play_seats[play_cards.size] = static_cast<uint8_t>(seat);
    play_cards.push_back(card);
}

void State::discard(int seat, int rank) {
    const int card = take_card(seat, rank);
    hidden_discard.push_back(card);
    own_discards[seat].push_back(card);
}

void State::draw(int seat) { hands[seat] |= uint64_t{1} << piles[seat].pop_at(0); }

void State::refill(int seat) {
    while (hand_size(seat) < kHandLimit && piles[seat].size > 0) draw(seat);
}

void State::show_and_draw(int seat) {
    reveal_hand(seat);
    if (piles[seat].size > 0) draw(seat);
}

void State::reveal_hand(int seat) {
    CardList& shown = reveals[seat];
    shown.clear();
    for (uint64_t rest = hands[seat]; rest; rest &= rest - 1) shown.push_back(__builtin_ctzll(rest));
    reveal_marks[seat] = turns_started[seat];
    reveal_discard_marks[seat] = own_discards[seat].size;
}

void State::end_turn() {
    const int t = turn_player;
    refill(t);
    if (is_blocked()) {
        end_round(-1);
    } else {
        begin_turn((t + 1) % num_players);
    }
}

bool State::is_blocked() const {
    for (int seat = 0; seat < num_players; ++seat) {
        if (piles[seat].size > 0) return false;
    }
    for (int seat = 0; seat < num_players; ++seat) {
        if (legal_plays(seat) != 0) return false;
    }
    return true;
}

void State::begin_turn(int seat) {
    turn_player = seat;
    turns_started[seat] += 1;
    phase = k_player < 0 ? Phase::kPlay : Phase::kKAnswer;
}

void State::end_round(int went_out_seat) {
    const int n = num_players;
    for (int seat = 0; seat < n; ++seat) {
        round_scores[completed][seat] =
            static_cast<int8_t>(seat == went_out_seat ? n - 6 : total(seat));
    }
    went_out[completed] = static_cast<int8_t>(went_out_seat);
    ++completed;
    if (completed < config.rounds) {
        ++round;
        start_round();
    } else {
        // A finished match keeps the last round's table, but no turn context.
        phase = Phase::kGameOver;
        turn_player = -1;
        k_player = -1;
    }
}

void State::start_round() {
    Pcg64 rng = Pcg64::from_seed(round_seed(seed, round));
    uint8_t deck[kNumCards];
    for (int i = 0; i < kNumCards; ++i) deck[i] = static_cast<uint8_t>(i);
    rng.shuffle(deck, kNumCards);  // rng.permutation(52)

    const int n = num_players;
    const int per_player = kNumCards / n;
    for (int seat = 0; seat < n; ++seat) {
        piles[seat].clear();
        for (int i = 0; i < per_player; ++i) piles[seat].push_back(deck[seat * per_player + i]);
    }
    hidden_discard.clear();
    for (int i = n * per_player; i < kNumCards; ++i) hidden_discard.push_back(deck[i]);
    play_cards.clear();
    value = 0;
    k_player = -1;
    int best_seat = 0;
    int best_strength = -1;
    for (int seat = 0; seat < n; ++seat) {
        hands[seat] = 0;
        own_discards[seat].clear();
        turns_started[seat] = 0;
    }
    for (int seat = 0; seat < n; ++seat) {
        CardList& pile = piles[seat];
        const int index =
            config.start_draw_random ? static_cast<int>(rng.integers(pile.size)) : 0;
        const int selection = pile.pop_at(index);
        hands[seat] = uint64_t{1} << selection;
        reveal_hand(seat);
        if (strength(selection) > best_strength) {
            best_strength = strength(selection);
            best_seat = seat;
        }
    }
    start_player = best_seat;
    for (int seat = 0; seat < n; ++seat) refill(seat);
    begin_turn(start_player);
}

int64_t State::playout(Pcg64& rng, int64_t depth) {
    int64_t played = 0;
    while (!is_terminal() && (depth == 0 || played < depth)) {
        uint64_t mask = legal_mask();
        const int count = __builtin_popcountll(mask);
        if (count == 0) break;  // only a corrupt position has no move; never in play
        uint64_t pick = rng.integers(static_cast<uint64_t>(count));
        while (pick-- > 0) mask &= mask - 1;
        apply(__builtin_ctzll(mask));
        ++played;
    }
    return played;
}

}  // namespace bge::factors_multiples
