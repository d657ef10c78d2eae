// Wasabi!: the observation of one seat (encoding.py). As there, every value is first a small
// integer (a count, a height or a 0/1) and one multiplication by a float32 scale per slot
// gives the observation; the turn fraction and plane 39 are written afterwards.
#include "games/wasabi/encoding.h"

#include <algorithm>
#include <array>
#include <cstring>

namespace bge::wasabi {

namespace {

constexpr int MAX_SEATS = 4;
// board planes
constexpr int BELOW = 17, HEIGHT = 34, COVERED = 35, ANCHOR = 36, ACTIVE = 37;
constexpr int EMPTY_TARGET = 38, SELECTED = 39;
constexpr int BOARD_SIZE = NUM_PLANES * NUM_CELLS;
// features
constexpr int OWN_TILES = BOARD_SIZE;  // 1680
constexpr int OWN_CARDS = OWN_TILES + NUM_KINDS;
constexpr int MENU = OWN_CARDS + NUM_CARD_TYPES;
constexpr int MENU_SLOT_SIZE = 90;
constexpr int MARKED = MENU + MENU_SLOTS * MENU_SLOT_SIZE;
constexpr int OWN_TOKENS = MARKED + MENU_SLOTS;
constexpr int OWN_STATS = OWN_TOKENS + NUM_LENGTHS;
constexpr int OPPONENTS = OWN_STATS + 3;
constexpr int OPPONENT_SIZE = 34;
constexpr int PANTRY = OPPONENTS + (MAX_SEATS - 1) * OPPONENT_SIZE;
constexpr int KITCHEN = PANTRY + NUM_KINDS;
constexpr int DECKS = KITCHEN + NUM_CARD_TYPES;
constexpr int DECISION = DECKS + NUM_LENGTHS;
constexpr int CARD_USED = DECISION + NUM_PHASES;
constexpr int STACK_ON = CARD_USED + NUM_CARD_TYPES + 1;
constexpr int PLACEMENTS = STACK_ON + 1;
constexpr int PICKS = PLACEMENTS + 3;
constexpr int GIFT = PICKS + 1;
constexpr int LIFTED = GIFT + NUM_KINDS;
constexpr int PLAYER_COUNT = LIFTED + NUM_KINDS;
constexpr int SEAT_FROM_START = PLAYER_COUNT + 3;
constexpr int DECIDER = SEAT_FROM_START + MAX_SEATS;
constexpr int TURN = DECIDER + 1;
constexpr int PENDING_KIND = TURN + 1;
static_assert(PENDING_KIND + NUM_KINDS == OBSERVATION_SIZE, "the layout tiles the tensor");
// Opponent block offsets (relative to the block).
constexpr int OPP_TILES = 1, OPP_CARDS = 18, OPP_RECIPES = 23, OPP_TOKENS = 27, OPP_STATS = 31;
// cubes / 20 and score / 50 are clipped at 4, the observation's upper bound.
constexpr int MAX_CUBES = 80, MAX_SCORE = 200;

using Scale = std::array<float, OBSERVATION_SIZE>;

// encoding.SCALE: each slot's scale as float32 (from Python floats, rounded once).
Scale make_scale() {
    Scale scale;
    scale.fill(1.0f);
    auto set = [&](int start, int size, double value) {
        for (int i = 0; i < size; ++i) scale[static_cast<size_t>(start + i)] = static_cast<float>(value);
    };
    const double token_scale[NUM_LENGTHS] = {1.0 / 4, 1.0 / 3, 1.0 / 2, 1.0 / 1};
    const double stats_scale[3] = {1.0 / 20, 1.0 / 50, 1.0 / 10};
    set(HEIGHT * NUM_CELLS, NUM_CELLS, 1.0 / 4);
    set(OWN_TILES, NUM_KINDS, 1.0 / 3);
    for (int i = 0; i < NUM_LENGTHS; ++i) set(OWN_TOKENS + i, 1, token_scale[i]);
    for (int i = 0; i < 3; ++i) set(OWN_STATS + i, 1, stats_scale[i]);
    for (int rel = 0; rel < MAX_SEATS - 1; ++rel) {
        const int base = OPPONENTS + rel * OPPONENT_SIZE;
        set(base + OPP_TILES, NUM_KINDS, 1.0 / 3);
        set(base + OPP_RECIPES, NUM_LENGTHS, 1.0 / 3);
        for (int i = 0; i < NUM_LENGTHS; ++i) set(base + OPP_TOKENS + i, 1, token_scale[i]);
        for (int i = 0; i < 3; ++i) set(base + OPP_STATS + i, 1, stats_scale[i]);
    }
    set(PANTRY, NUM_KINDS, 1.0 / 10);
    set(KITCHEN, NUM_CARD_TYPES, 1.0 / 2);
    set(DECKS, NUM_LENGTHS, 1.0 / 16);
    return scale;
}

// A raw value as the Python encoder's byte (a valid position never exceeds 255).
inline uint8_t byte(int value) { return static_cast<uint8_t>(std::clamp(value, 0, 255)); }

}  // namespace

void encode(const State& s, int seat, float* out) {
    static const Scale scale = make_scale();
    uint8_t raw[OBSERVATION_SIZE];
    std::memset(raw, 0, sizeof raw);
    const int n = s.num_players;
    const bool hide = s.config.hide_opponent_hands;

    // Board planes 0-38.
    const uint64_t active = s.geo().active;
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (!(active & bit(cell))) continue;
        raw[ACTIVE * NUM_CELLS + cell] = 1;
        const int h = s.height[cell];
        if (h) {
            raw[s.stacks[cell][h - 1] * NUM_CELLS + cell] = 1;
            raw[HEIGHT * NUM_CELLS + cell] = static_cast<uint8_t>(std::min(h, 4));
            if (h > 1) raw[(BELOW + s.stacks[cell][h - 2]) * NUM_CELLS + cell] = 1;
        } else if (!(s.covered & bit(cell))) {
            raw[EMPTY_TARGET * NUM_CELLS + cell] = 1;
        }
    }
    for (int anchor = 0; anchor < NUM_CELLS; ++anchor) {
        if (!(s.anchors & bit(anchor))) continue;
        const int cells[4] = {anchor, anchor + 1, anchor + GRID_COLUMNS, anchor + GRID_COLUMNS + 1};
        for (int c : cells) {
            if (c < NUM_CELLS) raw[COVERED * NUM_CELLS + c] = 1;
        }
        raw[ANCHOR * NUM_CELLS + anchor] = 1;
    }

    // Own hand and menu.
    for (int k = 0; k < NUM_KINDS; ++k) raw[OWN_TILES + k] = byte(s.tiles[seat][k]);
    for (int t = 0; t < NUM_CARD_TYPES; ++t) raw[OWN_CARDS + t] = byte(s.cards[seat][t]);
    for (int slot = 0; slot < MENU_SLOTS; ++slot) {
        const int r = s.menus[seat][slot];
        if (r == NONE) continue;
        uint8_t* block = raw + MENU + slot * MENU_SLOT_SIZE;
        const Recipe& recipe = RECIPES[r];
        block[0] = 1;
        block[1 + recipe.length - 2] = 1;
        for (int pos = 0; pos < recipe.length; ++pos) block[5 + pos * NUM_KINDS + recipe.kinds[pos]] = 1;
    }
    // The marks are the active player's; an observer sees only its own.
    if (s.active == seat) {
        for (int i = 0; i < s.marked_size; ++i) raw[MARKED + s.marked[i]] = 1;
    }

    // Tokens and stats, own then the opponents from the observer's left.
    int cubes[MAX_SEATS], scores[MAX_SEATS];
    for (int p = 0; p < n; ++p) {
        cubes[p] = std::min(s.cubes[p], MAX_CUBES);
        scores[p] = std::min(s.points(p) + s.cubes[p], MAX_SCORE);
    }
    for (int i = 0; i < NUM_LENGTHS; ++i) raw[OWN_TOKENS + i] = byte(s.tokens[seat][i]);
    raw[OWN_STATS] = byte(cubes[seat]);
    raw[OWN_STATS + 1] = byte(scores[seat]);
    raw[OWN_STATS + 2] = byte(s.num_completed[seat]);
    for (int rel = 1; rel < n; ++rel) {
        const int p = (seat + rel) % n;
        uint8_t* block = raw + OPPONENTS + (rel - 1) * OPPONENT_SIZE;
        block[0] = 1;
        if (!hide) {
            for (int k = 0; k < NUM_KINDS; ++k) block[OPP_TILES + k] = byte(s.tiles[p][k]);
            for (int t = 0; t < NUM_CARD_TYPES; ++t) block[OPP_CARDS + t] = byte(s.cards[p][t]);
        }
        for (int slot = 0; slot < MENU_SLOTS; ++slot) {
            const int r = s.menus[p][slot];
            if (r != NONE) ++block[OPP_RECIPES + RECIPES[r].length - 2];
        }
        for (int i = 0; i < NUM_LENGTHS; ++i) block[OPP_TOKENS + i] = byte(s.tokens[p][i]);
        block[OPP_STATS] = byte(cubes[p]);
        block[OPP_STATS + 1] = byte(scores[p]);
        block[OPP_STATS + 2] = byte(s.num_completed[p]);
    }

    // Supplies.
    for (int k = 0; k < NUM_KINDS; ++k) raw[PANTRY + k] = byte(s.pantry[k]);
    for (int t = 0; t < NUM_CARD_TYPES; ++t) raw[KITCHEN + t] = byte(s.kitchen[t]);
    for (int i = 0; i < NUM_LENGTHS; ++i) raw[DECKS + i] = byte(s.deck_size[i]);

    // Decision point and turn context.
    if (s.phase != GAME_OVER) raw[DECISION + s.phase] = 1;
    raw[CARD_USED + (s.card_used == NONE ? NUM_CARD_TYPES : s.card_used)] = 1;
    raw[STACK_ON] = s.stack_on ? 1 : 0;
    if (s.placements_left >= 0 && s.placements_left < 3) raw[PLACEMENTS + s.placements_left] = 1;
    raw[PICKS] = byte(s.picks);
    for (int i = 0; i < s.gift_size; ++i) raw[GIFT + s.gift[i]] = 1;
    if (s.lifted != NONE) raw[LIFTED + s.lifted] = 1;

    // Seating.
    raw[PLAYER_COUNT + n - 2] = 1;
    raw[SEAT_FROM_START + ((seat - s.start_player) % n + n) % n] = 1;
    raw[DECIDER] = s.current_player() == seat ? 1 : 0;
    // The kind chosen for the pending placement, hidden from the others under hidden hands.
    if (s.kind != NONE && (!hide || seat == s.active)) raw[PENDING_KIND + s.kind] = 1;

    for (int i = 0; i < OBSERVATION_SIZE; ++i) {
        out[i] = static_cast<float>(raw[i]) * scale[static_cast<size_t>(i)];
    }
    out[TURN] = static_cast<float>(
        std::min(static_cast<double>(s.turn) / static_cast<double>(s.config.max_turns), 1.0));
    if (s.selected != NONE) out[SELECTED * NUM_CELLS + s.selected] = 1.0f;
}

}  // namespace bge::wasabi
