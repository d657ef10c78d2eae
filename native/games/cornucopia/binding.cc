// Cornucopia's Python face: CornucopiaState, the compiled engine of boardgame_envs/cornucopia
// (glue: boardgame_envs/cornucopia/native.py). What is the game's own lives here: its traits
// (bindings/bind_game.h binds the rest, as for every game), new_state's options, the snapshot
// both ways, the View's fields and its readers' messages.
//
// Every value from Python is checked: seats, actions of any int size, options, seeds, and
// every field of a snapshot (exact JSON types here; ranges, lengths and consistency in
// State::load), so that no Python object can make the engine read or write out of bounds.
// Snapshots come out as the Python engine's to_dict() writes them (keys, order, types).
#include <Python.h>

#include <stdexcept>
#include <string>

#include "bindings/bind_game.h"
#include "bindings/common.h"
#include "games/cornucopia/heuristic.h"
#include "games/cornucopia/sample.h"
#include "games/cornucopia/state.h"

namespace nb = nanobind;
namespace cc = bge::cornucopia;
using cc::State;

namespace {

const char* const kGameName = "cornucopia";
constexpr int64_t kVersion = 1;

const char* const kFields[] = {
    "game", "version", "num_players", "config", "seed", "shuffles", "deck", "discard",
    "baskets", "exhaustions", "end_pending", "stacks", "won", "chips", "bank",
    "start_player", "turn_player", "turn", "phase", "bid", "placed", "red_used",
    "declared", "pending", "bet_order", "bet_index", "bets", "bets_revealed",
    "end_reason", "log", "last_log",
};

// -- Python values in ----------------------------------------------------------------------
[[noreturn]] void fail(const std::string& field, const std::string& problem) {
    throw std::invalid_argument("invalid cornucopia snapshot: " + field + ": " + problem);
}

using bge_py::is_int;
using bge_py::read_int64;

int64_t get_int(nb::handle value, const std::string& field) {
    int64_t x;
    if (!read_int64(value.ptr(), &x)) fail(field, "not an int of 64 bits");
    return x;
}

std::optional<int64_t> get_int_or_none(nb::handle value, const std::string& field) {
    if (value.is_none()) return std::nullopt;
    return get_int(value, field);
}

bool get_bool(nb::handle value, const std::string& field) {
    if (!PyBool_Check(value.ptr())) fail(field, "not true or false");
    return value.ptr() == Py_True;
}

std::string get_str(nb::handle value, const std::string& field) {
    if (!PyUnicode_Check(value.ptr())) fail(field, "not a string");
    std::string text;
    if (!bge_py::utf8_of(value.ptr(), &text)) fail(field, "not a UTF-8 string");
    return text;
}

nb::list get_list(nb::handle value, const std::string& field) {
    if (!PyList_Check(value.ptr())) fail(field, "not a list");
    return nb::borrow<nb::list>(value);
}

std::vector<int64_t> get_ints(nb::handle value, const std::string& field) {
    nb::list list = get_list(value, field);
    std::vector<int64_t> out;
    const size_t size = nb::len(list);
    if (size > 1000) fail(field, "too long");
    out.reserve(size);
    for (size_t i = 0; i < size; ++i) out.push_back(get_int(list[i], field));
    return out;
}

std::vector<std::vector<int64_t>> get_rows(nb::handle value, const std::string& field) {
    nb::list list = get_list(value, field);
    const size_t size = nb::len(list);
    if (size > 1000) fail(field, "too long");
    std::vector<std::vector<int64_t>> out;
    for (size_t i = 0; i < size; ++i) out.push_back(get_ints(list[i], field));
    return out;
}

std::vector<std::string> get_strs(nb::handle value, const std::string& field) {
    nb::list list = get_list(value, field);
    std::vector<std::string> out;
    const size_t size = nb::len(list);
    out.reserve(size);
    for (size_t i = 0; i < size; ++i) out.push_back(get_str(list[i], field));
    return out;
}

// A non-negative int below 2**128 (a seed).
bge::u128 get_seed(nb::handle value, const std::string& field) {
    if (!is_int(value.ptr())) throw std::invalid_argument(field + ": not an int");
    return bge_py::u128_from_int(value, field.c_str());
}

bool get_variant(nb::handle config) {
    if (!PyDict_Check(config.ptr())) fail("config", "not a dict of options");
    nb::dict d = nb::borrow<nb::dict>(config);
    bool variant = false;
    for (auto item : d) {
        if (!PyUnicode_Check(item.first.ptr()) || get_str(item.first, "config") != "variant_red3") {
            fail("config", "unknown option; known: variant_red3");
        }
        variant = get_bool(item.second, "config.variant_red3");
    }
    return variant;
}

State from_dict(nb::handle data) {
    if (!PyDict_Check(data.ptr())) throw std::invalid_argument("a cornucopia snapshot is a dict");
    nb::dict d = nb::borrow<nb::dict>(data);
    for (auto item : d) {
        bool known = false;
        if (PyUnicode_Check(item.first.ptr())) {
            const std::string key = get_str(item.first, "key");
            for (const char* f : kFields) known = known || key == f;
        }
        if (!known) throw std::invalid_argument("not a cornucopia snapshot: unknown field");
    }
    for (const char* f : kFields) {
        if (!d.contains(f)) {
            throw std::invalid_argument(std::string("not a cornucopia snapshot: missing ") + f);
        }
    }
    if (!PyUnicode_Check(d["game"].ptr()) || get_str(d["game"], "game") != kGameName) {
        fail("game", "not cornucopia");
    }
    if (get_int(d["version"], "version") != kVersion) fail("version", "not 1");
    cc::Snapshot s;
    s.num_players = get_int(d["num_players"], "num_players");
    s.variant = get_variant(d["config"]);
    s.seed = get_seed(d["seed"], "seed");
    s.shuffles = get_int(d["shuffles"], "shuffles");
    s.deck = get_ints(d["deck"], "deck");
    s.discard = get_ints(d["discard"], "discard");
    s.baskets = get_rows(d["baskets"], "baskets");
    s.exhaustions = get_int(d["exhaustions"], "exhaustions");
    s.end_pending = get_bool(d["end_pending"], "end_pending");
    s.stacks = get_ints(d["stacks"], "stacks");
    s.won = get_rows(d["won"], "won");
    s.chips = get_rows(d["chips"], "chips");
    s.bank = get_ints(d["bank"], "bank");
    s.start_player = get_int(d["start_player"], "start_player");
    s.turn_player = get_int(d["turn_player"], "turn_player");
    s.turn = get_int(d["turn"], "turn");
    s.phase = get_str(d["phase"], "phase");
    s.bid = get_int_or_none(d["bid"], "bid");
    s.placed = get_int(d["placed"], "placed");
    s.red_used = get_bool(d["red_used"], "red_used");
    s.declared = get_int(d["declared"], "declared");
    s.pending = get_int_or_none(d["pending"], "pending");
    s.bet_order = get_ints(d["bet_order"], "bet_order");
    s.bet_index = get_int(d["bet_index"], "bet_index");
    nb::list bets = get_list(d["bets"], "bets");
    if (nb::len(bets) > 1000) fail("bets", "too long");
    for (size_t i = 0; i < nb::len(bets); ++i) {
        nb::handle b = bets[i];
        if (b.is_none()) {
            s.bets.emplace_back(std::nullopt);
        } else {
            s.bets.emplace_back(get_ints(b, "bets"));
        }
    }
    s.bets_revealed = get_bool(d["bets_revealed"], "bets_revealed");
    if (d["end_reason"].is_none()) {
        s.end_reason = std::nullopt;
    } else {
        s.end_reason = get_str(d["end_reason"], "end_reason");
    }
    s.log = get_strs(d["log"], "log");
    s.last_log = get_strs(d["last_log"], "last_log");
    return State::load(s);
}

// -- Python values out ---------------------------------------------------------------------
nb::object seed_object(bge::u128 seed) {
    if (seed >> 64 == 0) return nb::int_(static_cast<uint64_t>(seed));
    return bge_py::int_from_u128(seed);
}

// Lists and tuples built with the C API (these are most of a snapshot's and a view's cost).
PyObject* checked(PyObject* object) {
    if (object == nullptr) throw nb::python_error();
    return object;
}

using bge_py::int_list;
using bge_py::int_tuple;

PyObject* new_str(const std::string& line) {
    return checked(PyUnicode_FromStringAndSize(line.data(), static_cast<Py_ssize_t>(line.size())));
}

nb::list str_list(const std::vector<std::string>& lines) {
    const int n = static_cast<int>(lines.size());
    PyObject* list = checked(PyList_New(n));
    nb::list out = nb::steal<nb::list>(list);
    for (int i = 0; i < n; ++i) PyList_SET_ITEM(list, i, new_str(lines[static_cast<size_t>(i)]));
    return out;
}

nb::tuple str_tuple(const std::vector<std::string>& lines) {
    const int n = static_cast<int>(lines.size());
    PyObject* tuple = checked(PyTuple_New(n));
    nb::tuple out = nb::steal<nb::tuple>(tuple);
    for (int i = 0; i < n; ++i) PyTuple_SET_ITEM(tuple, i, new_str(lines[static_cast<size_t>(i)]));
    return out;
}

nb::object end_reason(const State& s) {
    if (s.end_reason == cc::kNotOver) return nb::none();
    return nb::str(cc::kEndReasonTexts[s.end_reason]);
}

nb::object optional_int(int value, int none) {
    if (value == none) return nb::none();
    return nb::int_(value);
}

nb::dict to_dict(const State& s) {
    const int n = s.num_players;
    nb::dict d;
    d["game"] = kGameName;
    d["version"] = kVersion;
    d["num_players"] = n;
    nb::dict config;
    config["variant_red3"] = nb::bool_(s.variant);
    d["config"] = config;
    d["seed"] = seed_object(s.seed);
    d["shuffles"] = s.shuffles;
    d["deck"] = int_list(s.deck.cards, s.deck.size);
    d["discard"] = int_list(s.discard.cards, s.discard.size);
    nb::list baskets;
    for (const auto& b : s.baskets) baskets.append(int_list(b.cards, b.size));
    d["baskets"] = baskets;
    d["exhaustions"] = s.exhaustions;
    d["end_pending"] = nb::bool_(s.end_pending);
    d["stacks"] = int_list(s.stacks, cc::kNumBidNumbers);
    nb::list won, chips;
    for (int p = 0; p < n; ++p) {
        won.append(int_list(s.won[p], cc::kNumBidNumbers));
        chips.append(int_list(s.chips[p], 3));
    }
    d["won"] = won;
    d["chips"] = chips;
    d["bank"] = int_list(s.bank, 3);
    d["start_player"] = s.start_player;
    d["turn_player"] = s.turn_player;
    d["turn"] = s.turn;
    d["phase"] = s.phase_name();
    d["bid"] = optional_int(s.bid, 0);
    d["placed"] = s.placed;
    d["red_used"] = nb::bool_(s.red_used);
    d["declared"] = s.declared;
    d["pending"] = optional_int(s.pending, -1);
    d["bet_order"] = int_list(s.bet_order, s.bet_count);
    d["bet_index"] = s.bet_index;
    nb::list bets;
    for (int p = 0; p < n; ++p) {
        if (s.bet_side[p] < 0) {
            bets.append(nb::none());
        } else {
            nb::list b;
            b.append(static_cast<int>(s.bet_side[p]));
            b.append(static_cast<int>(s.bet_stake[p]));
            bets.append(b);
        }
    }
    d["bets"] = bets;
    d["bets_revealed"] = nb::bool_(s.bets_revealed);
    d["end_reason"] = end_reason(s);
    d["log"] = str_list(s.log_lines(s.log()));
    d["last_log"] = str_list(s.log_lines(s.last_log()));
    return d;
}

// The View's fields after `seat`, in its order, without `mask` (the glue adds it).
nb::tuple view_fields(const State& s, int seat) {
    const int n = s.num_players;
    nb::list f;
    f.append(n);
    f.append(nb::bool_(s.variant));
    f.append(s.phase_name());
    f.append(s.current_player());
    f.append(s.turn_player);
    f.append(s.turn);
    f.append(int_tuple(s.stacks, cc::kNumBidNumbers));
    f.append(optional_int(s.bid, 0));
    f.append(s.placed);
    f.append(nb::bool_(s.red_used));
    f.append(s.declared);
    f.append(nb::bool_(s.phase == cc::kCard && s.can_redraw()));
    f.append(optional_int(s.pending, -1));
    nb::list baskets;
    for (const auto& b : s.baskets) baskets.append(int_tuple(b.cards, b.size));
    f.append(nb::tuple(baskets));
    f.append(int_tuple(s.status, cc::kNumBaskets));
    f.append(s.deck.size);
    f.append(int_tuple(s.deck_counts, cc::kNumTypes));
    f.append(int_tuple(s.discard_counts, cc::kNumTypes));
    f.append(s.exhaustions);
    f.append(nb::bool_(s.end_pending));
    nb::list chips, won, committed, bets;
    for (int p = 0; p < n; ++p) {
        chips.append(int_tuple(s.chips[p], 3));
        won.append(int_tuple(s.won[p], cc::kNumBidNumbers));
        committed.append(nb::bool_(s.bet_side[p] >= 0));
        if (s.bet_side[p] >= 0 && (s.bets_revealed || p == seat)) {
            bets.append(nb::make_tuple(static_cast<int>(s.bet_side[p]),
                                       static_cast<int>(s.bet_stake[p])));
        } else {
            bets.append(nb::none());
        }
    }
    f.append(nb::tuple(chips));
    f.append(nb::tuple(won));
    f.append(nb::tuple(committed));
    f.append(nb::tuple(bets));
    f.append(nb::bool_(s.bets_revealed));
    f.append(s.start_player);
    f.append(int_tuple(s.discard.cards, s.discard.size));
    f.append(int_tuple(s.bank, 3));
    f.append(end_reason(s));
    f.append(str_tuple(s.log_lines(s.log())));
    f.append(str_tuple(s.log_lines(s.last_log())));
    return nb::tuple(f);
}

// -- the arguments, with Cornucopia's own messages (tests/native/test_cornucopia_agents.py) --
// A playout's depth: ValueError "depth: not an int >= 0".
int64_t get_depth(nb::handle depth) {
    int64_t d;
    if (!read_int64(depth.ptr(), &d) || d < 0) {
        throw std::invalid_argument("depth: not an int >= 0");
    }
    return d;
}

// A playout's epsilon: a float or an int (not a bool) from 0 to 1.
double get_epsilon(nb::handle value) {
    PyObject* v = value.ptr();
    double e = -1.0;
    if (PyFloat_Check(v)) {
        e = PyFloat_AS_DOUBLE(v);
    } else if (is_int(v)) {
        int64_t x;
        if (read_int64(v, &x)) e = static_cast<double>(x);
    } else {
        throw nb::type_error("epsilon: not a number from 0 to 1");
    }
    if (!(e >= 0.0 && e <= 1.0)) throw std::invalid_argument("epsilon: not a number from 0 to 1");
    return e;
}

// A seat for observation and view_fields: IndexError for anything but a seat.
int checked_seat(const State& s, nb::handle seat) {
    int64_t x;
    if (!read_int64(seat.ptr(), &x)) throw std::out_of_range("seat: not an int");
    bge_py::check_seat(x, s.num_players);
    return static_cast<int>(x);
}

// The game's traits: bindings/bind_game.h binds CornucopiaState and its VecEnv from them.
struct CornucopiaTraits : bge_py::GameTraits<CornucopiaTraits> {
    static constexpr const char* kGameName = "cornucopia";
    static constexpr const char* kClassName = "CornucopiaState";
    static constexpr const char* kClassDoc = "one position of Cornucopia (compiled engine)";
    using State = cc::State;
    using PyState = cc::State;
    static constexpr int kNumActions = cc::kNumActions;
    static constexpr int kObservationSize = cc::kObservationSize;
    static constexpr int kMinPlayers = cc::kMinPlayers;
    static constexpr int kMaxPlayers = cc::kMaxPlayers;
    static constexpr bool kLowerScoreWins = false;

    static int num_players(const State& s) { return s.num_players; }
    static void mask(const State& s, uint8_t* out) {
        const uint64_t bits = s.legal_bits();
        for (int a = 0; a < kNumActions; ++a) out[a] = (bits >> a) & 1u;
    }
    static void encode(const State& s, int seat, float* out) { s.observation(seat, out); }
    static void scores(const State& s, double* out) {
        const auto values = s.scores();
        for (int p = 0; p < s.num_players; ++p) out[p] = values[static_cast<size_t>(p)];
    }
    static int64_t playout(State& s, bge::Pcg64& rng, int64_t depth) {
        return s.playout(rng, depth);
    }
    static int heuristic(const State& s, int seat, bge::Pcg64& rng) {
        return cc::heuristic_action(s, seat, rng);
    }
    static int64_t heuristic_playout(State& s, bge::Pcg64& rng, int64_t depth, double epsilon) {
        return cc::heuristic_playout(s, rng, depth, epsilon);
    }
    static State sample(const State& s, int seat, bge::Pcg64& rng) {
        return cc::sample(s, seat, rng);
    }
    static void leaf_values(const State& s, double* out) { cc::leaf_values(s, out); }
    static nb::dict to_dict(const State& s) { return ::to_dict(s); }

    // Cornucopia's own readers and messages
    static int applied_action(const State& s, nb::handle action) {
        int a;
        if (!bge_py::action_of(action, kNumActions, &a) || !s.is_legal(a)) {
            throw std::invalid_argument("action is not legal in this position");
        }
        return a;
    }
    static int observed_seat(const State& s, nb::handle seat) { return checked_seat(s, seat); }
    // default_rng(seed) for an int seed 0 <= seed < 2**128.
    static bge::Pcg64 playout_rng(nb::handle seed) {
        get_seed(seed, "seed");  // checked: an int in 0 .. 2**128 - 1
        return bge::Pcg64::from_entropy(bge_py::seed_words(seed));
    }
    static int64_t depth(nb::handle value) { return get_depth(value); }
    static double epsilon(nb::handle value) { return get_epsilon(value); }

    static void bind_extras(nb::class_<State>& cls) {
        cls.def_static(
               "new_state",
               [](nb::handle num_players, nb::handle seed, nb::handle variant_red3) {
                   int64_t n;
                   if (!read_int64(num_players.ptr(), &n) || n < cc::kMinPlayers ||
                       n > cc::kMaxPlayers) {
                       throw std::invalid_argument("num_players: not 2..5");
                   }
                   if (!PyBool_Check(variant_red3.ptr())) {
                       throw std::invalid_argument("variant_red3: not a bool");
                   }
                   return State::new_game(static_cast<int>(n), variant_red3.ptr() == Py_True,
                                          get_seed(seed, "seed"));
               },
               nb::arg("num_players").none(), nb::arg("seed").none(),
               nb::arg("variant_red3").none())
            .def_static("from_dict", &from_dict, nb::arg("data").none())
            .def(
                "view_fields",
                [](const State& s, nb::handle seat) {
                    return view_fields(s, checked_seat(s, seat));
                },
                nb::arg("seat").none())
            .def(
                "turn_outlook",
                [](const State& s, nb::handle seat) {
                    const cc::TurnOutlook o =
                        cc::turn_outlook(s, bge_py::seat_of(seat, s.num_players));
                    return nb::make_tuple(o.value, o.p);
                },
                nb::arg("seat").none(),
                "HeuristicAgent.turn_outlook(view(seat)): (value, p) of the turn about to start");
    }
};

}  // namespace

BGE_REGISTER_GAME(CornucopiaTraits, 2);
