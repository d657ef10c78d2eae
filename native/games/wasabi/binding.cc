// Wasabi!'s Python face: boardgame_envs._native.WasabiState, wrapped by
// boardgame_envs/wasabi/native.py. What is the game's own lives here: its traits
// (bindings/bind_game.h binds the rest, as for every game), new_state's options, the snapshot
// both ways, the View's fields and its readers' messages. Every value from Python is checked
// here: actions of any int size, seats, options and every field of a snapshot (from_dict
// refuses anything the engine could not play on from, with ValueError or TypeError).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/bind_game.h"
#include "bindings/common.h"
#include "games/wasabi/encoding.h"
#include "games/wasabi/heuristic.h"
#include "games/wasabi/sample.h"
#include "games/wasabi/state.h"

namespace nb = nanobind;
using namespace bge::wasabi;

namespace {

// The fields of a snapshot, in to_dict's order (rules.py SNAPSHOT_FIELDS).
const char* const SNAPSHOT_FIELDS[] = {
    "game",    "version", "num_players", "config",       "stacks",          "anchors",
    "pantry",  "kitchen", "decks",       "tiles",        "cards",           "menus",
    "tokens",  "completed", "cubes",     "start_player", "active",          "phase",
    "turn",    "winner",  "gift",        "card_used",    "card_before",     "stack_on",
    "placements_left", "must_place", "kind", "selected", "lifted",         "marked",
    "picks",   "new_card"};
constexpr int NUM_FIELDS = 32;
const char* const OPTION_NAMES[] = {"style_either_direction", "gift_excludes_maki",
                                    "hide_opponent_hands", "max_turns", "start_player"};

// -- Python objects out -------------------------------------------------------------------------
using bge_py::py_int;
inline nb::object py_opt(int value) { return value == NONE ? nb::none() : py_int(value); }
inline nb::object py_bool(bool value) { return nb::borrow(value ? Py_True : Py_False); }

using bge_py::int_list;
using bge_py::int_tuple;

nb::tuple tuple_of(std::vector<nb::object>& items) {
    PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(items.size()));
    if (!t) throw nb::python_error();
    for (size_t i = 0; i < items.size(); ++i) {
        PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), items[i].release().ptr());
    }
    return nb::steal<nb::tuple>(t);
}

nb::object menu_tuple(const int* menu) {
    std::vector<nb::object> items;
    for (int i = 0; i < MENU_SLOTS; ++i) items.push_back(py_opt(menu[i]));
    return tuple_of(items);
}

// -- Python objects in --------------------------------------------------------------------------
// Ints are stored in int; anything beyond this bound is refused before the range checks.
constexpr long long INT_BOUND = 1LL << 30;

[[noreturn]] void bad(const std::string& field, const std::string& message) {
    throw std::invalid_argument("invalid wasabi snapshot: " + field + ": " + message);
}

using bge_py::is_int;

// An int (not a bool) that fits int64, or false.
bool int64_of(nb::handle value, int64_t& out) { return bge_py::read_int64(value.ptr(), &out); }

int read_int(nb::handle value, const std::string& field, long long low = -INT_BOUND,
             long long high = INT_BOUND) {
    if (!is_int(value)) bad(field, "not an integer");
    int64_t v;
    if (!int64_of(value, v) || v < low || v > high) {
        bad(field, "out of range " + std::to_string(low) + ".." + std::to_string(high));
    }
    return static_cast<int>(v);
}

// An int 0..high or None (NONE).
int read_opt(nb::handle value, const std::string& field, long long high) {
    if (value.is_none()) return NONE;
    return read_int(value, field, 0, high);
}

bool read_bool(nb::handle value, const std::string& field) {
    if (!PyBool_Check(value.ptr())) bad(field, "not true or false");
    return value.ptr() == Py_True;
}

nb::list read_list(nb::handle value, const std::string& field, long long min_len,
                   long long max_len) {
    if (!PyList_Check(value.ptr())) bad(field, "not a list");
    const Py_ssize_t n = PyList_GET_SIZE(value.ptr());
    if (n < min_len || n > max_len) {
        bad(field, "has " + std::to_string(n) + " entries, not " + std::to_string(min_len) +
                       (min_len == max_len ? "" : ".." + std::to_string(max_len)));
    }
    return nb::borrow<nb::list>(value);
}

// n ints in [low, high] into out.
template <typename T>
void read_ints(nb::handle value, const std::string& field, int n, T* out, long long low,
               long long high) {
    nb::list list = read_list(value, field, n, n);
    for (int i = 0; i < n; ++i) {
        out[i] = static_cast<T>(read_int(list[static_cast<size_t>(i)], field, low, high));
    }
}

// A list of up to max_len ints in [low, high]; its length.
template <typename T>
int read_var_ints(nb::handle value, const std::string& field, int max_len, T* out, long long low,
                  long long high) {
    nb::list list = read_list(value, field, 0, max_len);
    const int n = static_cast<int>(list.size());
    for (int i = 0; i < n; ++i) {
        out[i] = static_cast<T>(read_int(list[static_cast<size_t>(i)], field, low, high));
    }
    return n;
}

// The options: exactly the five, each of its type and range.
Config read_config(nb::handle value) {
    if (!PyDict_Check(value.ptr())) bad("config", "not an object");
    nb::dict d = nb::borrow<nb::dict>(value);
    if (d.size() != 5) bad("config", "expected the five options");
    for (const char* name : OPTION_NAMES) {
        if (!d.contains(name)) bad("config", std::string("missing option ") + name);
    }
    Config c;
    c.style_either_direction = read_bool(d["style_either_direction"], "config");
    c.gift_excludes_maki = read_bool(d["gift_excludes_maki"], "config");
    c.hide_opponent_hands = read_bool(d["hide_opponent_hands"], "config");
    c.max_turns = read_int(d["max_turns"], "config", 1, MAX_TURNS_LIMIT);
    nb::object start = d["start_player"];
    if (PyUnicode_Check(start.ptr())) {
        if (nb::cast<std::string>(start) != "random") bad("config", "start_player");
        c.start_player = NONE;
    } else {
        c.start_player = read_int(start, "config", 0, MAX_PLAYERS - 1);
    }
    return c;
}

State from_dict(nb::handle data) {
    if (!PyDict_Check(data.ptr())) throw nb::type_error("not a wasabi snapshot: not a dict");
    nb::dict d = nb::borrow<nb::dict>(data);
    for (const char* name : SNAPSHOT_FIELDS) {
        if (!d.contains(name)) bad(name, "missing field");
    }
    if (d.size() != NUM_FIELDS) bad("snapshot", "unknown fields");
    nb::object game = d["game"];
    if (!PyUnicode_Check(game.ptr()) || nb::cast<std::string>(game) != "wasabi") {
        bad("game", "not wasabi");
    }
    if (read_int(d["version"], "version") != 1) bad("version", "not 1");
    const int n = read_int(d["num_players"], "num_players", MIN_PLAYERS, MAX_PLAYERS);
    const Config config = read_config(d["config"]);
    State s(n, config);

    nb::list stacks = read_list(d["stacks"], "stacks", NUM_CELLS, NUM_CELLS);
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        s.height[cell] = static_cast<uint8_t>(read_var_ints(
            stacks[static_cast<size_t>(cell)], "stacks", NUM_TILES, s.stacks[cell], 0, NUM_KINDS - 1));
    }
    int anchors[NUM_CELLS];
    const int num_anchors = read_var_ints(d["anchors"], "anchors", NUM_CELLS, anchors, 0, NUM_CELLS - 1);
    s.anchors = 0;
    for (int i = 0; i < num_anchors; ++i) {
        if (s.anchors & bit(anchors[i])) bad("anchors", "a card listed twice");
        s.anchors |= bit(anchors[i]);
    }
    s.covered = 0;
    for (int i = 0; i < num_anchors; ++i) s.covered |= block_of(anchors[i]);
    read_ints(d["pantry"], "pantry", NUM_KINDS, s.pantry, -INT_BOUND, INT_BOUND);
    read_ints(d["kitchen"], "kitchen", NUM_CARD_TYPES, s.kitchen, -INT_BOUND, INT_BOUND);
    nb::list decks = read_list(d["decks"], "decks", NUM_LENGTHS, NUM_LENGTHS);
    for (int i = 0; i < NUM_LENGTHS; ++i) {
        s.deck_size[i] = read_var_ints(decks[static_cast<size_t>(i)], "decks", MAX_DECK, s.decks[i],
                                       0, NUM_RECIPES - 1);
    }
    nb::list tiles = read_list(d["tiles"], "tiles", n, n);
    nb::list cards = read_list(d["cards"], "cards", n, n);
    nb::list menus = read_list(d["menus"], "menus", n, n);
    nb::list tokens = read_list(d["tokens"], "tokens", n, n);
    nb::list completed = read_list(d["completed"], "completed", n, n);
    for (int p = 0; p < n; ++p) {
        const size_t i = static_cast<size_t>(p);
        read_ints(tiles[i], "tiles", NUM_KINDS, s.tiles[p], -INT_BOUND, INT_BOUND);
        read_ints(cards[i], "cards", NUM_CARD_TYPES, s.cards[p], -INT_BOUND, INT_BOUND);
        nb::list menu = read_list(menus[i], "menus", MENU_SLOTS, MENU_SLOTS);
        for (int j = 0; j < MENU_SLOTS; ++j) {
            s.menus[p][j] = read_opt(menu[static_cast<size_t>(j)], "menus", NUM_RECIPES - 1);
        }
        read_ints(tokens[i], "tokens", NUM_LENGTHS, s.tokens[p], -INT_BOUND, INT_BOUND);
        nb::list done = read_list(completed[i], "completed", 0, MAX_COMPLETED);
        s.num_completed[p] = static_cast<int>(done.size());
        for (int j = 0; j < s.num_completed[p]; ++j) {
            nb::list pair = read_list(done[static_cast<size_t>(j)], "completed", 2, 2);
            s.completed[p][j] =
                static_cast<uint8_t>(read_int(pair[0], "completed", 0, NUM_RECIPES - 1));
            s.completed_ideal[p][j] = read_bool(pair[1], "completed");
        }
    }
    read_ints(d["cubes"], "cubes", n, s.cubes, -INT_BOUND, INT_BOUND);
    s.start_player = read_int(d["start_player"], "start_player", 0, n - 1);
    s.active = read_int(d["active"], "active", 0, n - 1);
    nb::object phase = d["phase"];
    if (!PyUnicode_Check(phase.ptr())) bad("phase", "not a string");
    const int phase_index = phase_from_name(nb::cast<std::string>(phase));
    if (phase_index < 0) bad("phase", "unknown phase");
    s.phase = static_cast<Phase>(phase_index);
    s.turn = read_int(d["turn"], "turn");
    s.winner = read_opt(d["winner"], "winner", n - 1);
    s.gift_size = read_var_ints(d["gift"], "gift", NUM_KINDS, s.gift, 0, NUM_KINDS - 1);
    s.card_used = read_opt(d["card_used"], "card_used", NUM_CARD_TYPES - 1);
    s.card_before = read_bool(d["card_before"], "card_before");
    s.stack_on = read_bool(d["stack_on"], "stack_on");
    s.placements_left = read_int(d["placements_left"], "placements_left");
    s.must_place = read_bool(d["must_place"], "must_place");
    s.kind = read_opt(d["kind"], "kind", NUM_KINDS - 1);
    s.selected = read_opt(d["selected"], "selected", NUM_CELLS - 1);
    s.lifted = read_opt(d["lifted"], "lifted", NUM_KINDS - 1);
    s.marked_size = read_var_ints(d["marked"], "marked", MENU_SLOTS, s.marked, 0, MENU_SLOTS - 1);
    s.picks = read_int(d["picks"], "picks");
    s.new_card = read_opt(d["new_card"], "new_card", NUM_CARD_TYPES - 1);
    s.validate();
    return s;
}

nb::dict config_dict(const Config& c) {
    nb::dict d;
    d["style_either_direction"] = py_bool(c.style_either_direction);
    d["gift_excludes_maki"] = py_bool(c.gift_excludes_maki);
    d["hide_opponent_hands"] = py_bool(c.hide_opponent_hands);
    d["max_turns"] = py_int(c.max_turns);
    if (c.start_player == NONE) {
        d["start_player"] = nb::str("random");
    } else {
        d["start_player"] = py_int(c.start_player);
    }
    return d;
}

nb::dict to_dict(const State& s) {
    const int n = s.num_players;
    nb::dict d;
    d["game"] = nb::str("wasabi");
    d["version"] = py_int(1);
    d["num_players"] = py_int(n);
    d["config"] = config_dict(s.config);
    nb::list stacks;
    for (int cell = 0; cell < NUM_CELLS; ++cell) stacks.append(int_list(s.stacks[cell], s.height[cell]));
    d["stacks"] = stacks;
    nb::list anchors;
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (s.anchors & bit(cell)) anchors.append(py_int(cell));
    }
    d["anchors"] = anchors;
    d["pantry"] = int_list(s.pantry, NUM_KINDS);
    d["kitchen"] = int_list(s.kitchen, NUM_CARD_TYPES);
    nb::list decks;
    for (int i = 0; i < NUM_LENGTHS; ++i) decks.append(int_list(s.decks[i], s.deck_size[i]));
    d["decks"] = decks;
    nb::list tiles, cards, menus, tokens, completed;
    for (int p = 0; p < n; ++p) {
        tiles.append(int_list(s.tiles[p], NUM_KINDS));
        cards.append(int_list(s.cards[p], NUM_CARD_TYPES));
        nb::list menu;
        for (int j = 0; j < MENU_SLOTS; ++j) menu.append(py_opt(s.menus[p][j]));
        menus.append(menu);
        tokens.append(int_list(s.tokens[p], NUM_LENGTHS));
        nb::list done;
        for (int j = 0; j < s.num_completed[p]; ++j) {
            nb::list pair;
            pair.append(py_int(s.completed[p][j]));
            pair.append(py_bool(s.completed_ideal[p][j]));
            done.append(pair);
        }
        completed.append(done);
    }
    d["tiles"] = tiles;
    d["cards"] = cards;
    d["menus"] = menus;
    d["tokens"] = tokens;
    d["completed"] = completed;
    d["cubes"] = int_list(s.cubes, n);
    d["start_player"] = py_int(s.start_player);
    d["active"] = py_int(s.active);
    d["phase"] = nb::str(s.phase_name());
    d["turn"] = py_int(s.turn);
    d["winner"] = py_opt(s.winner);
    d["gift"] = int_list(s.gift, s.gift_size);
    d["card_used"] = py_opt(s.card_used);
    d["card_before"] = py_bool(s.card_before);
    d["stack_on"] = py_bool(s.stack_on);
    d["placements_left"] = py_int(s.placements_left);
    d["must_place"] = py_bool(s.must_place);
    d["kind"] = py_opt(s.kind);
    d["selected"] = py_opt(s.selected);
    d["lifted"] = py_opt(s.lifted);
    d["marked"] = int_list(s.marked, s.marked_size);
    d["picks"] = py_int(s.picks);
    d["new_card"] = py_opt(s.new_card);
    return d;
}

// The fields of rules.View for a seat, in its order, without rules and mask: the first 35
// come before mask, the last 7 after it (native.py puts them together).
nb::tuple view_fields(const State& s, int seat) {
    const int n = s.num_players;
    const bool hide = s.config.hide_opponent_hands;
    std::vector<nb::object> f;
    f.reserve(42);
    f.push_back(py_int(seat));
    f.push_back(py_int(n));
    f.push_back(py_int(s.columns));
    f.push_back(nb::str(s.phase_name()));
    f.push_back(py_int(s.current_player()));
    f.push_back(py_int(s.active));
    f.push_back(py_int(s.start_player));
    f.push_back(py_int(s.turn));
    f.push_back(py_int(s.config.max_turns));
    f.push_back(py_bool(s.config.style_either_direction));
    std::vector<nb::object> stacks;
    stacks.reserve(NUM_CELLS);
    for (int cell = 0; cell < NUM_CELLS; ++cell) stacks.push_back(int_tuple(s.stacks[cell], s.height[cell]));
    f.push_back(tuple_of(stacks));
    int anchors[NUM_CELLS];
    int num_anchors = 0;
    for (int cell = 0; cell < NUM_CELLS; ++cell) {
        if (s.anchors & bit(cell)) anchors[num_anchors++] = cell;
    }
    f.push_back(int_tuple(anchors, num_anchors));
    f.push_back(int_tuple(s.pantry, NUM_KINDS));
    f.push_back(int_tuple(s.kitchen, NUM_CARD_TYPES));
    f.push_back(int_tuple(s.deck_size, NUM_LENGTHS));
    std::vector<nb::object> tiles, cards, lengths, tokens, completed;
    for (int p = 0; p < n; ++p) {
        const bool shown = !hide || p == seat;
        tiles.push_back(shown ? nb::object(int_tuple(s.tiles[p], NUM_KINDS)) : nb::none());
        cards.push_back(shown ? nb::object(int_tuple(s.cards[p], NUM_CARD_TYPES)) : nb::none());
        int menu_lengths[MENU_SLOTS];
        for (int j = 0; j < MENU_SLOTS; ++j) {
            menu_lengths[j] = s.menus[p][j] == NONE ? 0 : RECIPES[s.menus[p][j]].length;
        }
        lengths.push_back(int_tuple(menu_lengths, MENU_SLOTS));
        tokens.push_back(int_tuple(s.tokens[p], NUM_LENGTHS));
        std::vector<nb::object> done;
        for (int j = 0; j < s.num_completed[p]; ++j) {
            std::vector<nb::object> pair{py_int(s.completed[p][j]), py_bool(s.completed_ideal[p][j])};
            done.push_back(tuple_of(pair));
        }
        completed.push_back(tuple_of(done));
    }
    f.push_back(tuple_of(tiles));
    f.push_back(tuple_of(cards));
    f.push_back(menu_tuple(s.menus[seat]));
    f.push_back(tuple_of(lengths));
    f.push_back(tuple_of(tokens));
    f.push_back(tuple_of(completed));
    f.push_back(int_tuple(s.cubes, n));
    int scores[MAX_PLAYERS];
    for (int p = 0; p < n; ++p) scores[p] = s.points(p) + s.cubes[p];
    f.push_back(int_tuple(scores, n));
    f.push_back(int_tuple(s.gift, s.gift_size));
    f.push_back(py_opt(s.card_used));
    f.push_back(py_bool(s.card_before));
    f.push_back(py_bool(s.stack_on));
    f.push_back(py_int(s.placements_left));
    f.push_back(py_bool(s.must_place));
    f.push_back(py_opt(hide && seat != s.active ? NONE : s.kind));
    f.push_back(py_opt(s.selected));
    f.push_back(py_opt(s.lifted));
    f.push_back(int_tuple(s.marked, s.marked_size));
    f.push_back(py_int(s.picks));
    f.push_back(py_opt(s.winner));
    // -- mask goes here --
    f.push_back(py_opt(s.new_card));
    int held[MAX_PLAYERS];
    for (int p = 0; p < n; ++p) held[p] = s.tiles_held(p);
    f.push_back(int_tuple(held, n));
    for (int p = 0; p < n; ++p) held[p] = s.cards_held(p);
    f.push_back(int_tuple(held, n));
    if (s.phase == GIFT_PICK || s.phase == DRAFT_PICK) {
        f.push_back(int_tuple(s.tiles[(seat + 1) % n], NUM_KINDS));
    } else {
        f.push_back(nb::none());
    }
    f.push_back(py_bool(s.config.gift_excludes_maki));
    f.push_back(py_bool(s.config.hide_opponent_hands));
    if (s.config.start_player == NONE) {
        f.push_back(nb::str("random"));
    } else {
        f.push_back(py_int(s.config.start_player));
    }
    return tuple_of(f);
}

// A seed of any size as numpy's SeedSequence words (least significant first; [0] for 0).
std::vector<uint32_t> entropy_words(nb::handle seed) {
    return bge_py::get_seed_words(seed, "seed");
}

// An action from Python (an int of any size), or -1 when it is no action index.
int64_t action_index(nb::handle action) {
    if (!is_int(action)) throw nb::type_error("action: not an int");
    int64_t v;
    if (!int64_of(action, v) || v < 0 || v >= NUM_ACTIONS) return -1;
    return v;
}

// The game's traits: bindings/bind_game.h binds WasabiState and its VecEnv from them.
struct WasabiTraits : bge_py::GameTraits<WasabiTraits> {
    static constexpr const char* kGameName = "wasabi";
    static constexpr const char* kClassName = "WasabiState";
    static constexpr const char* kClassDoc = "One position of Wasabi! (native engine)";
    using State = bge::wasabi::State;
    using PyState = bge::wasabi::State;
    static constexpr int kNumActions = NUM_ACTIONS;
    static constexpr int kObservationSize = OBSERVATION_SIZE;
    static constexpr int kMinPlayers = MIN_PLAYERS;
    static constexpr int kMaxPlayers = MAX_PLAYERS;
    static constexpr bool kLowerScoreWins = false;

    static int num_players(const State& s) { return s.num_players; }
    static void mask(const State& s, uint8_t* out) {
        Mask mask;
        s.legal_mask(mask);
        for (int a = 0; a < kNumActions; ++a) out[a] = mask[a];
    }
    static void encode(const State& s, int seat, float* out) { bge::wasabi::encode(s, seat, out); }
    static void scores(const State& s, double* out) {
        const std::vector<double> values = s.scores();
        for (int p = 0; p < s.num_players; ++p) out[p] = values[p];
    }
    // The scores with the rules' tie-breaks folded in (State._score_keys()).
    static void score_keys(const State& s, double* out) {
        const std::vector<double> values = s.score_keys();
        for (int p = 0; p < s.num_players; ++p) out[p] = values[p];
    }
    static int64_t playout(State& s, bge::Pcg64& rng, int64_t depth) {
        // the engine counts in int: a depth beyond any game's length is no limit (0)
        return s.playout(rng, depth > (1 << 30) ? 0 : static_cast<int>(depth));
    }
    static int heuristic(const State& s, int seat, bge::Pcg64& rng) {
        return heuristic_action(s, seat, rng);
    }
    static int64_t heuristic_playout(State& s, bge::Pcg64& rng, int64_t depth, double epsilon) {
        return bge::wasabi::heuristic_playout(s, rng, depth, epsilon);
    }
    static State sample(const State& s, int seat, bge::Pcg64& rng) {
        return sample_state(s, seat, rng);
    }
    static void leaf_values(const State& s, double* out) {
        const std::vector<double> values = bge::wasabi::leaf_values(s);
        for (int p = 0; p < s.num_players; ++p) out[p] = values[p];
    }
    static nb::dict to_dict(const State& s) { return ::to_dict(s); }

    // Wasabi!'s own readers and messages
    static bool queried_action(nb::handle action, int* out) {
        const int64_t a = action_index(action);  // TypeError for what is not an int
        *out = static_cast<int>(a);
        return a >= 0;
    }
    static int applied_action(const State& s, nb::handle action) {
        const int64_t a = action_index(action);
        if (a < 0) {
            throw std::invalid_argument("action out of range 0.." +
                                        std::to_string(NUM_ACTIONS - 1));
        }
        if (!s.is_legal(a)) {
            throw std::invalid_argument("action " + std::to_string(a) +
                                        " is not legal in phase " + s.phase_name());
        }
        return static_cast<int>(a);
    }
    // default_rng(seed) for any int seed >= 0.
    static bge::Pcg64 playout_rng(nb::handle seed) {
        return bge::Pcg64::from_entropy(entropy_words(seed));
    }

    static void bind_extras(nb::class_<State>& cls) {
        cls.def_static(
               "new_state",
               [](int64_t num_players, nb::handle seed, bool style_either_direction,
                  bool gift_excludes_maki, bool hide_opponent_hands, int64_t max_turns,
                  nb::handle start_player) {
                   if (num_players < MIN_PLAYERS || num_players > MAX_PLAYERS) {
                       throw std::invalid_argument("num_players: not 2 to 4");
                   }
                   if (max_turns < 1 || max_turns > MAX_TURNS_LIMIT) {
                       throw std::invalid_argument("max_turns: not 1 to 1,000,000");
                   }
                   Config c;
                   c.style_either_direction = style_either_direction;
                   c.gift_excludes_maki = gift_excludes_maki;
                   c.hide_opponent_hands = hide_opponent_hands;
                   c.max_turns = static_cast<int>(max_turns);
                   if (PyUnicode_Check(start_player.ptr()) &&
                       nb::cast<std::string>(start_player) == "random") {
                       c.start_player = NONE;
                   } else {
                       int64_t v;
                       if (!is_int(start_player) || !int64_of(start_player, v) || v < 0 ||
                           v >= num_players) {
                           throw std::invalid_argument("start_player: 'random' or a seat");
                       }
                       c.start_player = static_cast<int>(v);
                   }
                   return State::new_game(static_cast<int>(num_players), entropy_words(seed), c);
               },
               nb::arg("num_players"), nb::arg("seed"), nb::arg("style_either_direction"),
               nb::arg("gift_excludes_maki"), nb::arg("hide_opponent_hands"),
               nb::arg("max_turns"), nb::arg("start_player"),
               "a new game seeded as np.random.default_rng(seed) (seed: an int >= 0)")
            .def_static("from_dict", [](nb::handle data) { return from_dict(data); },
                        nb::arg("data"),
                        "a position from a snapshot, every value checked (ValueError, "
                        "TypeError)")
            .def("score_keys", &State::score_keys)
            .def(
                "view_fields",
                [](const State& s, nb::handle seat) {
                    return view_fields(s, bge_py::seat_of(seat, s.num_players));
                },
                nb::arg("seat"))
            .def(
                "board_value",
                [](const State& s, nb::handle seat) {
                    return board_value(s, bge_py::seat_of(seat, s.num_players));
                },
                nb::arg("seat").none(),
                "The heuristic's board value for `seat` (planner._setup(state.view(seat)); "
                "planner.value_now()): its live recipes' best windows, summed");
    }
};

}  // namespace

BGE_REGISTER_GAME(WasabiTraits, 5);
