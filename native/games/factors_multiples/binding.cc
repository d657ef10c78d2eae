// Factors and Multiples' Python face: FactorsMultiplesState, the compiled engine of
// boardgame_envs/factors_multiples (glue: boardgame_envs/factors_multiples/native.py). What is
// the game's own lives here: its traits (bindings/bind_game.h binds the rest, as for every
// game), new_state's options, the snapshot both ways and the View's fields.
//
// Every value from Python is checked here: options, seeds and every field of a snapshot
// (types, ranges, lengths and the consistency play relies on), so that no Python object can
// make the engine read or write out of bounds. Snapshots come out as the Python engine's
// to_dict() writes them: the same keys, order, types and values.
#include <Python.h>

#include <cstring>
#include <stdexcept>
#include <string>

#include "bindings/bind_game.h"
#include "bindings/common.h"
#include "games/factors_multiples/heuristic.h"
#include "games/factors_multiples/sample.h"
#include "games/factors_multiples/state.h"

namespace nb = nanobind;
namespace fm = bge::factors_multiples;
using fm::State;

namespace {

const char* const kGameName = "factors_multiples";

// -- Python values in ------------------------------------------------------------------------
using bge_py::fail;
using bge_py::fail_type;
using bge_py::get_int;
using bge_py::get_str;
using bge_py::get_seq;
using bge_py::Seq;

bool is_none(nb::handle value) { return value.ptr() == Py_None; }

bool get_bool(nb::handle value, const std::string& field) {
    if (!PyBool_Check(value.ptr())) fail_type(field, "not a bool");
    return value.ptr() == Py_True;
}

// Distinct card ids 0..51, in order.
void get_cards(nb::handle value, const std::string& field, fm::CardList* out) {
    const Seq seq = get_seq(value, field);
    if (seq.size > fm::kNumCards) fail(field, "more than 52 cards");
    uint64_t seen = 0;
    out->clear();
    for (Py_ssize_t i = 0; i < seq.size; ++i) {
        const int card = static_cast<int>(get_int(seq[i], field, 0, fm::kNumCards - 1));
        if (seen >> card & 1u) fail(field, "a card appears twice");
        seen |= uint64_t{1} << card;
        out->push_back(card);
    }
}

// An int >= 0 of up to 256 bits as SeedSequence's words.
fm::Seed get_seed(nb::handle value, const std::string& field) {
    const std::vector<uint32_t> words = bge_py::get_seed_words(value, field, fm::kMaxSeedWords);
    fm::Seed seed;
    seed.count = static_cast<uint8_t>(words.size());
    for (size_t i = 0; i < words.size(); ++i) seed.words[i] = words[i];
    return seed;
}

nb::object seed_int(const fm::Seed& seed) {
    nb::object value = nb::int_(0);
    nb::object shift = nb::int_(32);
    for (int i = seed.count - 1; i >= 0; --i) {
        value = (value << shift) | nb::int_(seed.words[i]);
    }
    return value;
}

// -- Python values out -----------------------------------------------------------------------
using bge_py::list_of;
using bge_py::py_int;
using bge_py::tuple_of;

nb::object py_seat_or_none(int seat) { return seat < 0 ? nb::none() : py_int(seat); }
nb::object py_value(int value) { return value == 0 ? nb::none() : py_int(value); }

template <typename Container>
nb::object cards_tuple(const Container& cards) {
    return tuple_of(cards.size, [&](int i) { return py_int(cards[i]); });
}
template <typename Container>
nb::object cards_list(const Container& cards) {
    return list_of(cards.size, [&](int i) { return py_int(cards[i]); });
}

// The cards of a hand set, ascending.
struct HandCards {
    uint8_t cards[fm::kNumCards];
    int size = 0;
    explicit HandCards(uint64_t hand) {
        for (; hand; hand &= hand - 1) cards[size++] = static_cast<uint8_t>(__builtin_ctzll(hand));
    }
    int operator[](int i) const { return cards[i]; }
};

// The names the snapshots and views are made of, each made into a str once (on first use,
// under the GIL) and kept for the life of the interpreter: immutable, shared objects.
const char* const kNames[] = {
    // 0-21: the snapshot's fields, in to_dict() order
    "game", "version", "num_players", "config", "seed", "round", "round_scores", "went_out",
    "hands", "piles", "play_pile", "hidden_discard", "own_discards", "value", "phase",
    "turn_player", "k_player", "start_player", "reveals", "reveal_marks",
    "reveal_discard_marks", "turns_started",
    // 22-26: the options
    "rounds", "start_draw", "a_needs_discard", "k_discard_optional", "choose_after_refill",
    // 27-33: the phases (Phase order)
    "PLAY", "K_ANSWER", "A_DISCARD", "SEVEN_NAME", "J_DIRECTION", "K_DISCARD", "GAME_OVER",
    // 34-36
    "factors_multiples", "top", "random"};
constexpr int kNumNames = sizeof(kNames) / sizeof(kNames[0]);
constexpr int kFieldName = 0;
constexpr int kOptionName = 22;
constexpr int kPhaseName = 27;
constexpr int kGameNameIndex = 34;
constexpr int kTopName = 35;
constexpr int kRandomName = 36;
const char* const* const kOptionNames = kNames + kOptionName;

nb::object name_str(int index) {
    static PyObject* made[kNumNames] = {};
    if (made[index] == nullptr) {
        made[index] = PyUnicode_InternFromString(kNames[index]);
        if (made[index] == nullptr) throw nb::python_error();
    }
    return nb::borrow(made[index]);
}

nb::object phase_str(fm::Phase phase) { return name_str(kPhaseName + static_cast<int>(phase)); }

// The value of option `index` (kOptionNames).
nb::object option_value(const fm::Config& config, int index) {
    switch (index) {
        case 0: return py_int(config.rounds);
        case 1: return name_str(config.start_draw_random ? kRandomName : kTopName);
        case 2: return nb::bool_(config.a_needs_discard);
        case 3: return nb::bool_(config.k_discard_optional);
        default: return nb::bool_(config.choose_after_refill);
    }
}

nb::dict config_dict(const fm::Config& config) {
    nb::dict out;
    for (int i = 0; i < 5; ++i) {
        if (PyDict_SetItem(out.ptr(), name_str(kOptionName + i).ptr(),
                           option_value(config, i).ptr())) {
            throw nb::python_error();
        }
    }
    return out;
}

// The snapshot's fields, in to_dict() order.
const char* const* const kFields = kNames + kFieldName;
constexpr int kNumFields = 22;

// Field `index` of the snapshot (kFields), as the Python engine's to_dict() writes it.
nb::object snapshot_field(const State& s, int index) {
    const int n = s.num_players;
    switch (index) {
        case 0: return name_str(kGameNameIndex);
        case 1: return py_int(fm::kVersion);
        case 2: return py_int(n);
        case 3: return config_dict(s.config);
        case 4: return seed_int(s.seed);
        case 5: return py_int(s.round);
        case 6:
            return list_of(s.completed, [&](int r) {
                return list_of(n, [&](int seat) { return py_int(s.round_scores[r][seat]); });
            });
        case 7: return list_of(s.completed, [&](int r) { return py_seat_or_none(s.went_out[r]); });
        case 8: return list_of(n, [&](int seat) { return cards_list(HandCards(s.hands[seat])); });
        case 9: return list_of(n, [&](int seat) { return cards_list(s.piles[seat]); });
        case 10:
            return list_of(s.play_cards.size, [&](int i) {
                return list_of(2, [&](int j) {
                    return py_int(j == 0 ? s.play_cards[i] : s.play_seats[i]);
                });
            });
        case 11: return cards_list(s.hidden_discard);
        case 12: return list_of(n, [&](int seat) { return cards_list(s.own_discards[seat]); });
        case 13: return py_value(s.value);
        case 14: return phase_str(s.phase);
        case 15: return py_int(s.turn_player);
        case 16: return py_seat_or_none(s.k_player);
        case 17: return py_int(s.start_player);
        case 18: return list_of(n, [&](int seat) { return cards_list(s.reveals[seat]); });
        case 19: return list_of(n, [&](int seat) { return py_int(s.reveal_marks[seat]); });
        case 20:
            return list_of(n, [&](int seat) { return py_int(s.reveal_discard_marks[seat]); });
        case 21: return list_of(n, [&](int seat) { return py_int(s.turns_started[seat]); });
        default: break;
    }
    throw std::invalid_argument("no snapshot field " + std::to_string(index));
}

nb::dict to_dict(const State& s) {
    nb::dict d;
    for (int i = 0; i < kNumFields; ++i) {
        if (PyDict_SetItem(d.ptr(), name_str(kFieldName + i).ptr(), snapshot_field(s, i).ptr())) {
            throw nb::python_error();
        }
    }
    return d;
}

// One field of the snapshot by name (a fresh copy); KeyError when there is none.
nb::object snapshot_field_named(const State& s, nb::handle name) {
    if (PyUnicode_Check(name.ptr())) {
        const std::string key = get_str(name, "name");
        for (int i = 0; i < kNumFields; ++i) {
            if (key == kFields[i]) return snapshot_field(s, i);
        }
    }
    throw nb::key_error(nb::repr(name).c_str());
}

// -- snapshots in ----------------------------------------------------------------------------

bool known(const std::string& key, const char* const* names, size_t count) {
    for (size_t i = 0; i < count; ++i) {
        if (key == names[i]) return true;
    }
    return false;
}

// The keys of a dict: exact strs among `names`; every name but `optional` present. Lookups
// of exact str keys never run Python code.
void check_keys(nb::handle dict, const std::string& what, const char* const* names, size_t count,
                const char* optional) {
    PyObject* key;
    PyObject* item;
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict.ptr(), &pos, &key, &item)) {
        if (!PyUnicode_CheckExact(key)) fail(what, "a key is not a str");
        const std::string name = get_str(key, what);
        if (!known(name, names, count)) fail(what, "unknown field '" + name + "'");
    }
    for (size_t i = 0; i < count; ++i) {
        if (optional != nullptr && std::strcmp(names[i], optional) == 0) continue;
        if (PyDict_GetItemString(dict.ptr(), names[i]) == nullptr) {
            fail(what, std::string("missing field '") + names[i] + "'");
        }
    }
}

nb::object field(nb::handle dict, const char* key) {
    PyObject* item = PyDict_GetItemString(dict.ptr(), key);
    return item == nullptr ? nb::object() : nb::borrow(item);
}

fm::Config get_config(nb::handle value) {
    if (!PyDict_Check(value.ptr())) fail_type("config", "not a dict of options");
    check_keys(value, "config", kOptionNames, 5, nullptr);
    fm::Config config;
    config.rounds = static_cast<int>(get_int(field(value, "rounds"), "config.rounds", 1, fm::kMaxRounds));
    const std::string draw = get_str(field(value, "start_draw"), "config.start_draw");
    if (!PyUnicode_CheckExact(field(value, "start_draw").ptr()) || (draw != "top" && draw != "random")) {
        fail("config.start_draw", "not 'top' or 'random'");
    }
    config.start_draw_random = draw == "random";
    config.a_needs_discard = get_bool(field(value, "a_needs_discard"), "config.a_needs_discard");
    config.k_discard_optional =
        get_bool(field(value, "k_discard_optional"), "config.k_discard_optional");
    config.choose_after_refill =
        get_bool(field(value, "choose_after_refill"), "config.choose_after_refill");
    return config;
}

int get_seat(nb::handle value, const std::string& field_name, int n, bool none_ok) {
    if (none_ok && is_none(value)) return -1;
    return static_cast<int>(get_int(value, field_name, 0, n - 1));
}

// The checks of snapshot.py's _check_phase_context: what the current decision needs. Not
// strict (hand-built positions): only what the engine itself relies on, a K player exactly
// when a K is pending and a seat able to make the discard a discard phase asks for.
void check_phase_context(const State& s, bool strict) {
    const int n = s.num_players;
    const fm::Phase phase = s.phase;
    const int turn = s.turn_player;
    const int k = s.k_player;
    if (phase == fm::Phase::kKAnswer || phase == fm::Phase::kKDiscard) {
        if (k != (turn + n - 1) % n) fail("k_player", "not the seat before the turn player");
    } else if (k >= 0) {
        fail("k_player", "only K_ANSWER and K_DISCARD have a K player");
    }
    const int discarding =
        phase == fm::Phase::kADiscard ? turn : phase == fm::Phase::kKDiscard ? k : -1;
    if (discarding >= 0 && s.hand_size(discarding) < 2) {
        fail("hands", "the discarding seat would discard its last card");
    }
    if (phase == fm::Phase::kJDirection && s.value == 0) {
        fail("value", "J_DIRECTION needs a determined value");
    }
    if (!strict) return;
    const bool turn_start = phase == fm::Phase::kPlay || phase == fm::Phase::kKAnswer;
    for (int seat = 0; seat < n; ++seat) {
        const int hand = s.hand_size(seat);
        if (hand == 0) fail("hands", "a seat holds no card in a live round");
        if (turn_start && s.piles[seat].size > 0 && hand < fm::kHandLimit) {
            fail("hands", "a seat holds fewer than 3 cards with a pile at a turn's start");
        }
        if (hand > fm::kHandLimit && s.reveals[seat].size == 0) {
            fail("reveals", "a seat holds more than 3 cards but never showed");
        }
    }
    if (s.turns_started[turn] < 1) fail("turns_started", "the turn player has begun no turn");
    const int size = s.play_cards.size;
    int top_rank = -1;
    switch (phase) {
        case fm::Phase::kADiscard:
        case fm::Phase::kKDiscard:
            top_rank = fm::kAce;
            break;
        case fm::Phase::kSevenName:
            top_rank = fm::kSeven;
            break;
        case fm::Phase::kJDirection:
            top_rank = fm::kJack;
            break;
        default:
            break;
    }
    if (top_rank >= 0 && (size == 0 || fm::rank_of(s.play_cards[size - 1]) != top_rank ||
                          s.play_seats[size - 1] != turn)) {
        fail("play_pile", std::string(fm::phase_name(phase)) + " follows a card by the turn player");
    }
    if (phase == fm::Phase::kKDiscard &&
        (size < 2 || fm::rank_of(s.play_cards[size - 2]) != fm::kKing || s.play_seats[size - 2] != k)) {
        fail("play_pile", "K_DISCARD follows a K by the K player under the A");
    }
    if (size > 0 && !fm::is_special(fm::rank_of(s.play_cards[size - 1])) &&
        s.value != fm::nominal(fm::rank_of(s.play_cards[size - 1]))) {
        fail("value", "not the value of the last card played, a normal card");
    }
    int sevens = phase == fm::Phase::kSevenName ? -1 : 0;
    bool normal = false;
    for (int i = 0; i < size; ++i) {
        const int rank = fm::rank_of(s.play_cards[i]);
        sevens += rank == fm::kSeven;
        normal = normal || !fm::is_special(rank);
    }
    if (s.value == 0 && (normal || sevens > 0)) {
        fail("value", "undetermined after a normal card or a named 7 this round");
    }
}

// A snapshot's state. Strict (the default): every check of snapshot.py's load, so that
// exactly the Python engine's valid snapshots load. Not strict: hand-built positions
// (rules.position) that play cannot reach, with only the checks the engine needs: types,
// ranges, lengths, the 52 cards each once, and a consistent decision.
State from_dict(nb::handle data, bool strict) {
    if (!PyDict_Check(data.ptr())) fail_type("snapshot", "not a dict");
    nb::object keep = nb::borrow(data);
    check_keys(data, "snapshot", kFields, kNumFields,
               "reveal_discard_marks");
    if (get_str(field(data, "game"), "game") != kGameName) fail("game", "not factors_multiples");
    if (get_int(field(data, "version"), "version", fm::kVersion, fm::kVersion) != fm::kVersion) {
        fail("version", "not this rules version");
    }
    State s;
    const int n = static_cast<int>(
        get_int(field(data, "num_players"), "num_players", fm::kMinPlayers, fm::kMaxPlayers));
    s.num_players = n;
    s.config = get_config(field(data, "config"));
    s.seed = get_seed(field(data, "seed"), "seed");

    const std::string phase = get_str(field(data, "phase"), "phase");
    if (!fm::phase_from_name(phase.c_str(), &s.phase) || phase.size() != std::strlen(phase.c_str())) {
        fail("phase", "not a phase name");
    }
    const bool over = s.phase == fm::Phase::kGameOver;
    const int rounds = s.config.rounds;
    s.round = static_cast<int>(get_int(field(data, "round"), "round", 0, rounds - 1));
    if (over && s.round != rounds - 1) fail("round", "a finished match ends in its last round");

    // Completed rounds (spec 6.3).
    s.completed = s.round + (over ? 1 : 0);
    const Seq scores = get_seq(field(data, "round_scores"), "round_scores", s.completed);
    const Seq outs = get_seq(field(data, "went_out"), "went_out", s.completed);
    const int most = fm::kNumCards / n;
    for (int r = 0; r < s.completed; ++r) {
        const int out = get_seat(outs[r], "went_out", n, true);
        s.went_out[r] = static_cast<int8_t>(out);
        const Seq row = get_seq(scores[r], "round_scores", n);
        for (int seat = 0; seat < n; ++seat) {
            const int64_t low = !strict ? n - 6 : seat == out ? n - 6 : 1;
            const int64_t high = !strict ? fm::kNumCards : seat == out ? n - 6 : most;
            s.round_scores[r][seat] = static_cast<int8_t>(get_int(row[seat], "round_scores", low, high));
        }
    }

    // The table, then conservation: each of the 52 cards in exactly one zone.
    const Seq hands = get_seq(field(data, "hands"), "hands", n);
    const Seq piles = get_seq(field(data, "piles"), "piles", n);
    const Seq own = get_seq(field(data, "own_discards"), "own_discards", n);
    fm::CardList cards;
    uint64_t seen = 0;
    bool twice = false;
    auto place = [&](int card) {
        twice = twice || (seen >> card & 1u);
        seen |= uint64_t{1} << card;
    };
    for (int seat = 0; seat < n; ++seat) {
        get_cards(hands[seat], "hands", &cards);
        s.hands[seat] = 0;
        for (int i = 0; i < cards.size; ++i) {
            s.hands[seat] |= uint64_t{1} << cards[i];
            place(cards[i]);
        }
        get_cards(piles[seat], "piles", &s.piles[seat]);
        for (int i = 0; i < s.piles[seat].size; ++i) place(s.piles[seat][i]);
        get_cards(own[seat], "own_discards", &s.own_discards[seat]);
    }
    const Seq play = get_seq(field(data, "play_pile"), "play_pile");
    if (play.size > fm::kNumCards) fail("play_pile", "more than 52 cards");
    s.play_cards.clear();
    for (Py_ssize_t i = 0; i < play.size; ++i) {
        const Seq entry = get_seq(play[i], "play_pile entry", 2);
        const int card = static_cast<int>(get_int(entry[0], "play_pile", 0, fm::kNumCards - 1));
        s.play_seats[s.play_cards.size] = static_cast<uint8_t>(get_seat(entry[1], "play_pile seat", n, false));
        s.play_cards.push_back(card);
        place(card);
    }
    get_cards(field(data, "hidden_discard"), "hidden_discard", &s.hidden_discard);
    uint64_t hidden = 0;
    for (int i = 0; i < s.hidden_discard.size; ++i) {
        place(s.hidden_discard[i]);
        hidden |= uint64_t{1} << s.hidden_discard[i];
    }
    if (twice || seen != fm::kAllCards) {
        fail("cards", "the 52 cards are not each in exactly one zone");
    }
    uint64_t discarded = 0;
    for (int seat = 0; seat < n; ++seat) {
        for (int i = 0; i < s.own_discards[seat].size; ++i) {
            const uint64_t bit = uint64_t{1} << s.own_discards[seat][i];
            if ((discarded & bit) || (strict && !(hidden & bit))) {
                fail("own_discards", "each seat's discards must be distinct cards of hidden_discard");
            }
            discarded |= bit;
        }
    }

    // Reveals and the counts that date them.
    const Seq started = get_seq(field(data, "turns_started"), "turns_started", n);
    const Seq marks = get_seq(field(data, "reveal_marks"), "reveal_marks", n);
    const int64_t kMostTurns = int64_t{1} << 62;  // far beyond any match; no overflow later
    for (int seat = 0; seat < n; ++seat) {
        s.turns_started[seat] = get_int(started[seat], "turns_started", 0, kMostTurns);
        s.reveal_marks[seat] = get_int(marks[seat], "reveal_marks", 0, s.turns_started[seat]);
    }
    nb::object discard_marks = field(data, "reveal_discard_marks");
    for (int seat = 0; seat < n; ++seat) s.reveal_discard_marks[seat] = 0;
    if (discard_marks.is_valid()) {
        const Seq dm = get_seq(discard_marks, "reveal_discard_marks", n);
        for (int seat = 0; seat < n; ++seat) {
            s.reveal_discard_marks[seat] = static_cast<int>(
                get_int(dm[seat], "reveal_discard_marks", 0, s.own_discards[seat].size));
        }
    }
    const Seq reveals = get_seq(field(data, "reveals"), "reveals", n);
    for (int seat = 0; seat < n; ++seat) {
        get_cards(reveals[seat], "reveals", &s.reveals[seat]);
        uint64_t whereabouts = s.hands[seat];
        const fm::CardList& mine = s.own_discards[seat];
        for (int i = s.reveal_discard_marks[seat]; i < mine.size; ++i) {
            whereabouts |= uint64_t{1} << mine[i];
        }
        for (int i = 0; i < s.play_cards.size; ++i) {
            if (s.play_seats[i] == seat) whereabouts |= uint64_t{1} << s.play_cards[i];
        }
        for (int i = 0; strict && i < s.reveals[seat].size; ++i) {
            if (!(whereabouts >> s.reveals[seat][i] & 1u)) {
                fail("reveals", "a seat showed cards neither in its hand, played or discarded since");
            }
        }
    }

    nb::object value = field(data, "value");
    s.value = is_none(value) ? 0 : static_cast<int>(get_int(value, "value", 2, 12));
    s.start_player = get_seat(field(data, "start_player"), "start_player", n, false);
    if (over) {
        if (get_int(field(data, "turn_player"), "turn_player", -1, -1) != -1) {
            fail("turn_player", "a finished match has -1");
        }
        if (!is_none(field(data, "k_player"))) fail("k_player", "a finished match has None");
        s.turn_player = -1;
        s.k_player = -1;
        const int out = s.went_out[s.completed - 1];
        for (int seat = 0; seat < n; ++seat) {
            const int total = s.total(seat);
            const int score = seat == out ? n - 6 : total;
            if (strict && ((seat == out && total != 0) || s.round_scores[s.completed - 1][seat] != score)) {
                fail("round_scores", "the last round's scores are not those of the final table");
            }
        }
    } else {
        s.turn_player = get_seat(field(data, "turn_player"), "turn_player", n, false);
        s.k_player = get_seat(field(data, "k_player"), "k_player", n, true);
        check_phase_context(s, strict);
    }
    return s;
}

// -- the class -------------------------------------------------------------------------------
nb::object view_fields(const State& s, int seat, nb::handle mask) {
    const int n = s.num_players;
    const HandCards hand(s.hands[seat]);
    const fm::CardList& mine = s.own_discards[seat];
    nb::object fields[27];
    int i = 0;
    fields[i++] = py_int(seat);
    fields[i++] = py_int(n);
    fields[i++] = py_int(s.config.rounds);
    fields[i++] = py_int(s.round);
    fields[i++] = phase_str(s.phase);
    fields[i++] = py_int(s.current_player());
    fields[i++] = py_int(s.turn_player);
    fields[i++] = py_seat_or_none(s.k_player);
    fields[i++] = py_value(s.value);
    fields[i++] = cards_tuple(hand);
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.hand_size(p)); });
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.piles[p].size); });
    fields[i++] = tuple_of(s.play_cards.size, [&](int k) {
        return tuple_of(2, [&](int j) { return py_int(j == 0 ? s.play_cards[k] : s.play_seats[k]); });
    });
    fields[i++] = cards_tuple(mine);
    fields[i++] = py_int(s.hidden_discard.size);
    fields[i++] = tuple_of(n, [&](int p) { return cards_tuple(s.reveals[p]); });
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.turns_started[p] - s.reveal_marks[p]); });
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.match_total(p)); });
    fields[i++] = nb::borrow(mask);
    fields[i++] = tuple_of(5, [&](int k) {  // tuple(config.items())
        return tuple_of(2, [&](int j) {
            return j == 0 ? name_str(kOptionName + k) : option_value(s.config, k);
        });
    });
    fields[i++] = py_int(s.start_player);
    fields[i++] = tuple_of(s.completed, [&](int r) {
        return tuple_of(n, [&](int p) { return py_int(s.round_scores[r][p]); });
    });
    fields[i++] = tuple_of(s.completed, [&](int r) { return py_seat_or_none(s.went_out[r]); });
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.turns_started[p]); });
    fields[i++] = tuple_of(n, [&](int p) { return py_int(s.own_discards[p].size); });
    fields[i++] = tuple_of(n, [&](int p) {
        return py_int(s.own_discards[p].size - s.reveal_discard_marks[p]);
    });
    return tuple_of(i, [&](int k) { return fields[k]; });
}

State new_state(nb::handle num_players, nb::handle seed, nb::handle rounds, nb::handle start_draw,
                nb::handle a_needs_discard, nb::handle k_discard_optional,
                nb::handle choose_after_refill) {
    const int n = static_cast<int>(
        get_int(num_players, "num_players", fm::kMinPlayers, fm::kMaxPlayers));
    fm::Config config;
    config.rounds = static_cast<int>(get_int(rounds, "rounds", 1, fm::kMaxRounds));
    const std::string draw = get_str(start_draw, "start_draw");
    if (draw != "top" && draw != "random") fail("start_draw", "not 'top' or 'random'");
    config.start_draw_random = draw == "random";
    config.a_needs_discard = get_bool(a_needs_discard, "a_needs_discard");
    config.k_discard_optional = get_bool(k_discard_optional, "k_discard_optional");
    config.choose_after_refill = get_bool(choose_after_refill, "choose_after_refill");
    return State::new_game(n, get_seed(seed, "seed"), config);
}

// The game's traits: bindings/bind_game.h binds FactorsMultiplesState and its VecEnv from
// them, with the default argument readers.
struct FactorsMultiplesTraits : bge_py::GameTraits<FactorsMultiplesTraits> {
    static constexpr const char* kGameName = "factors_multiples";
    static constexpr const char* kClassName = "FactorsMultiplesState";
    static constexpr const char* kClassDoc =
        "One position of a Factors and Multiples match (the compiled engine)";
    using State = fm::State;
    using PyState = fm::State;
    static constexpr int kNumActions = fm::kNumActions;
    static constexpr int kObservationSize = fm::kObservationSize;
    static constexpr int kMinPlayers = fm::kMinPlayers;
    static constexpr int kMaxPlayers = fm::kMaxPlayers;
    static constexpr bool kLowerScoreWins = true;

    static int num_players(const State& s) { return s.num_players; }
    static std::string phase_name(const State& s) { return fm::phase_name(s.phase); }
    static void mask(const State& s, uint8_t* out) {
        const uint64_t bits = s.legal_mask();
        for (int a = 0; a < kNumActions; ++a) out[a] = (bits >> a) & 1u;
    }
    static void encode(const State& s, int seat, float* out) { s.encode(seat, out); }
    static void scores(const State& s, double* out) {
        for (int p = 0; p < s.num_players; ++p) out[p] = static_cast<double>(s.match_total(p));
    }
    static int64_t playout(State& s, bge::Pcg64& rng, int64_t depth) {
        return s.playout(rng, depth);
    }
    static int heuristic(const State& s, int seat, bge::Pcg64& rng) {
        return fm::heuristic_action(s, seat, rng);
    }
    static int64_t heuristic_playout(State& s, bge::Pcg64& rng, int64_t depth, double epsilon) {
        return fm::heuristic_playout(s, rng, depth, epsilon);
    }
    static State sample(const State& s, int seat, bge::Pcg64& rng) {
        return fm::sample_state(s, seat, rng);
    }
    static void leaf_values(const State& s, double* out) { fm::leaf_values(s, out); }
    static nb::dict to_dict(const State& s) { return ::to_dict(s); }

    static void bind_extras(nb::class_<State>& cls) {
        cls.def_static("new_state", &new_state, nb::arg("num_players").none(),
                       nb::arg("seed").none(), nb::arg("rounds").none() = 3,
                       nb::arg("start_draw").none() = "top",
                       nb::arg("a_needs_discard").none() = false,
                       nb::arg("k_discard_optional").none() = false,
                       nb::arg("choose_after_refill").none() = false,
                       "A new match (the Python engine's seed and options, checked)")
            .def_static("from_dict", &from_dict, nb::arg("data").none(),
                        nb::arg("strict") = true,
                        "The state of a to_dict() snapshot, every value checked; strict=False "
                        "also loads hand-built positions play cannot reach")
            .def(
                "view_fields",
                [](const State& s, nb::handle seat, nb::handle mask) {
                    return view_fields(s, bge_py::seat_of(seat, s.num_players), mask);
                },
                nb::arg("seat").none(), nb::arg("mask").none(),
                "The fields of the Python View after `rules`, in order, with `mask` in its "
                "place")
            .def("snapshot_field", &snapshot_field_named, nb::arg("name").none(),
                 "to_dict()[name], built alone");
    }
};

}  // namespace

BGE_REGISTER_GAME(FactorsMultiplesTraits, 1);
