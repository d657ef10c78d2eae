// Tahiti's Python face: TahitiState, the contract of boardgame_envs/core/native_state.py over
// bge::tahiti::State. What is the game's own lives here: its traits (bindings/bind_game.h binds
// the rest, as for every game), new_state's options, the snapshot both ways, the View's fields
// (with their caches) and its readers' messages. Every value from Python is checked here
// (seats, actions of any size, options, every field of a snapshot) before the engine sees it;
// the engine throws nothing else.
#include <Python.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/bind_game.h"
#include "bindings/common.h"
#include "games/tahiti/heuristic.h"
#include "games/tahiti/sample.h"
#include "games/tahiti/state.h"

namespace nb = nanobind;
using bge::Pcg64;
using namespace bge::tahiti;

namespace {

constexpr int MAX_ROUNDS_LIMIT = 1000000;

[[noreturn]] void invalid(const std::string& message) { throw std::invalid_argument(message); }

// -- values from Python ------------------------------------------------------------------------
using bge_py::is_int;

// An int (not a bool) within [low, high], else ValueError naming the field.
int64_t read_int(nb::handle value, const std::string& field, int64_t low, int64_t high) {
    PyObject* v = value.ptr();
    if (!is_int(v)) invalid(field + ": not an integer");
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow || x < low || x > high) {
        invalid(field + ": out of range " + std::to_string(low) + ".." + std::to_string(high));
    }
    return x;
}

// An action from Python: its value if it is an int in 0..68, else -1 (any other object).
int action_index(nb::handle value) {
    int action;
    return bge_py::action_of(value, NUM_ACTIONS, &action) ? action : -1;
}

int read_seat(nb::handle value, int num_players) {
    PyObject* v = value.ptr();
    if (!is_int(v)) throw std::out_of_range("seat: not an integer");
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (x == -1 && PyErr_Occurred()) throw nb::python_error();
    if (overflow) throw std::out_of_range("seat: out of range");
    bge_py::check_seat(x, num_players);
    return static_cast<int>(x);
}

bool read_bool(nb::handle value, const std::string& field) {
    if (!PyBool_Check(value.ptr())) invalid(field + ": not true or false");
    return value.ptr() == Py_True;
}

std::string read_str(nb::handle value, const std::string& field) {
    if (!PyUnicode_Check(value.ptr())) invalid(field + ": not a string");
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(value.ptr(), &size);
    if (!text) throw nb::python_error();
    return std::string(text, static_cast<size_t>(size));
}

// The items of a list or tuple (borrowed: the container outlives them here).
std::vector<nb::handle> read_list(nb::handle value, const std::string& field, int64_t length = -1,
                                  int64_t most = -1) {
    PyObject* v = value.ptr();
    std::vector<nb::handle> items;
    Py_ssize_t size;
    if (PyList_Check(v)) {
        size = PyList_GET_SIZE(v);
    } else if (PyTuple_Check(v)) {
        size = PyTuple_GET_SIZE(v);
    } else {
        invalid(field + ": not a list");
    }
    if (length >= 0 && size != length) {
        invalid(field + ": " + std::to_string(size) + " entries, not " + std::to_string(length));
    }
    if (most >= 0 && size > most) invalid(field + ": more than " + std::to_string(most) + " entries");
    items.reserve(static_cast<size_t>(size));
    for (Py_ssize_t i = 0; i < size; ++i) {
        items.emplace_back(PyList_Check(v) ? PyList_GET_ITEM(v, i) : PyTuple_GET_ITEM(v, i));
    }
    return items;
}

nb::handle field_of(nb::handle dict, const char* key) {
    if (!PyDict_Check(dict.ptr())) invalid("a snapshot is a dict");
    PyObject* value = PyDict_GetItemString(dict.ptr(), key);
    if (!value) invalid(std::string("missing field ") + key);
    return value;
}

int lookup(const std::string& name, const char* const* names, int count, const std::string& field) {
    for (int i = 0; i < count; ++i) {
        if (name == names[i]) return i;
    }
    invalid(field + ": unknown name " + name);
}

int read_tile(nb::handle value, const std::string& field) {
    return lookup(read_str(value, field), TILE_NAMES, NUM_TILES, field);
}

int read_island(nb::handle value, const std::string& field) {
    const int k = read_tile(value, field);
    if (!is_island(k)) invalid(field + ": not an island tile");
    return k;
}

int read_token(nb::handle value, const std::string& field) {
    const int kind = lookup(read_str(value, field), TOKEN_NAMES, 3, field);
    if (kind == 0) invalid(field + ": not a token kind");
    return kind;
}

int read_cell(nb::handle value, const std::string& field) {
    const auto qr = read_list(value, field, 2);
    const int q = static_cast<int>(read_int(qr[0], field + ": q", -GRID_RADIUS, GRID_RADIUS));
    const int r = static_cast<int>(read_int(qr[1], field + ": r", -GRID_RADIUS, GRID_RADIUS));
    const int cell = cell_of(q, r);
    if (cell < 0) invalid(field + ": not within hex distance 9 of home");
    return cell;
}

void read_counts(nb::handle value, const std::string& field, int out[NUM_GOODS]) {
    const auto items = read_list(value, field, NUM_GOODS);
    for (int g = 0; g < NUM_GOODS; ++g) {
        out[g] = static_cast<int>(read_int(items[static_cast<size_t>(g)],
                                           field + "[" + std::to_string(g) + "]", 0, TOTAL_CUBES));
    }
}

int read_favourite(nb::handle value, const std::string& field) {
    const std::string name = read_str(value, field);
    if (name.size() == 2 && name[0] == 'F' && name[1] >= '1' && name[1] <= '7') return name[1] - '0';
    invalid(field + ": unknown favourite " + name);
}

Pcg64 read_rng(nb::handle value) {
    const nb::handle state = field_of(value, "state");
    field_of(state, "state");
    field_of(state, "inc");
    if (PyDict_Size(value.ptr()) != 4 || PyDict_Size(state.ptr()) != 2) {
        invalid("rng: a PCG64 state has the fields bit_generator, state (state, inc), "
                "has_uint32, uinteger");
    }
    if (!PyUnicode_Check(field_of(value, "bit_generator").ptr())) invalid("rng: bit_generator");
    read_int(field_of(value, "has_uint32"), "rng.has_uint32", 0, 1);
    read_int(field_of(value, "uinteger"), "rng.uinteger", 0, 0xFFFFFFFFll);
    return bge_py::rng_from_state_dict(value);
}

// default_rng(seed) for any int seed >= 0 (SeedSequence's 32-bit words of it).
Pcg64 rng_from_seed(nb::handle seed) {
    PyObject* v = seed.ptr();
    if (!is_int(v)) invalid("seed: not an integer");
    if (_PyLong_Sign(v) < 0) invalid("seed: must be >= 0");
    return Pcg64::from_entropy(bge_py::seed_words(seed));
}

// A playout's depth: an int >= 0; one beyond any game's length (48 million decisions at most)
// is no limit (0).
int read_depth(nb::handle depth) {
    if (!is_int(depth.ptr()) || _PyLong_Sign(depth.ptr()) < 0) invalid("depth: an int >= 0");
    int overflow = 0;
    const long long wanted = PyLong_AsLongLongAndOverflow(depth.ptr(), &overflow);
    return !overflow && wanted <= INT32_MAX ? static_cast<int>(wanted) : 0;
}

// A heuristic playout's epsilon: a float (or int, not a bool) from 0 to 1.
double read_epsilon(nb::handle epsilon) {
    PyObject* v = epsilon.ptr();
    if (!PyFloat_Check(v) && !is_int(v)) invalid("epsilon: a number from 0 to 1");
    const double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) {
        PyErr_Clear();
        invalid("epsilon: a number from 0 to 1");
    }
    if (!(x >= 0.0 && x <= 1.0)) invalid("epsilon: a number from 0 to 1");
    return x;
}

// -- values to Python ---------------------------------------------------------------------------
using bge_py::int_list;
using bge_py::int_tuple;

nb::frozenset int_frozenset(const int* values, int n) {
    nb::frozenset out;
    for (int i = 0; i < n; ++i) {
        nb::object item = nb::steal(PyLong_FromLong(values[i]));
        if (PySet_Add(out.ptr(), item.ptr()) != 0) throw nb::python_error();
    }
    return out;
}

nb::list cell_list(int cell) {
    nb::list out;
    out.append(cell_q(cell));
    out.append(cell_r(cell));
    return out;
}

// -- the bound class ----------------------------------------------------------------------------
struct TahitiState {
    State state;
    // The board as views show it (tile_cell, rotation, reefs, cell_tile, edge_cells), made on
    // first use and kept while no tile is placed: a board only grows, so within this object's
    // history (and its clones', which start from the same board) the number of placed tiles
    // names it.
    nb::object board_view;
    int board_view_tiles = -1;

    int placed_tiles() const {
        int count = 0;
        for (int t = 0; t < NUM_TILES; ++t) count += state.tile_cell[t] >= 0 ? 1 : 0;
        return count;
    }

    nb::object board_fields() {
        const int tiles = placed_tiles();
        if (tiles == board_view_tiles && board_view.is_valid()) return board_view;
        const State& s = state;
        int edges[NUM_TILES];
        int num_edges = 0;
        for (int t = 0; t < NUM_TILES; ++t) {
            if (s.tile_cell[t] >= 0 && s.edge[t]) edges[num_edges++] = s.tile_cell[t];
        }
        board_view = nb::make_tuple(int_tuple(s.tile_cell, NUM_TILES), int_tuple(s.rotation, NUM_TILES),
                                    int_tuple(s.reefs, NUM_TILES), int_tuple(s.cell_tile, NUM_CELLS),
                                    int_frozenset(edges, num_edges));
        board_view_tiles = tiles;
        return board_view;
    }

    nb::dict to_dict() const {
        const State& s = state;
        nb::dict out;
        out["game"] = "tahiti";
        out["version"] = VERSION;
        out["num_players"] = s.num_players;
        nb::dict config;
        config["max_rounds"] = s.max_rounds;
        out["config"] = config;
        out["rng"] = bge_py::rng_state_dict(s.rng);
        nb::list board;
        for (int t = 0; t < NUM_TILES; ++t) {
            const int cell = s.tile_cell[t];
            if (cell < 0) continue;
            nb::list entry;
            entry.append(TILE_NAMES[t]);
            entry.append(cell_q(cell));
            entry.append(cell_r(cell));
            entry.append(static_cast<int>(s.rotation[t]));
            board.append(entry);
        }
        out["board"] = board;
        out["haumea"] = s.haumea >= 0 ? nb::object(cell_list(s.haumea)) : nb::none();
        nb::dict cubes;
        for (int k = 1; k <= NUM_ISLANDS; ++k) {
            if (!s.island_cubes[k]) continue;
            std::string letters;
            for (int slot = 0; slot < 2; ++slot) {
                if (s.island_cubes[k] >> slot & 1) letters += GOODS_LETTERS[ISLAND_SLOTS[k][slot]];
            }
            cubes[TILE_NAMES[k]] = letters;
        }
        out["island_cubes"] = cubes;
        nb::dict tokens;
        for (int k = 1; k <= NUM_ISLANDS; ++k) {
            if (s.tokens[k]) tokens[TILE_NAMES[k]] = TOKEN_NAMES[s.tokens[k]];
        }
        out["tokens"] = tokens;
        nb::list stacks;
        for (int i = 0; i < 2; ++i) {
            nb::list stack;
            for (int j = 0; j < s.stack_size[i]; ++j) stack.append(TILE_NAMES[s.stacks[i][j]]);
            stacks.append(stack);
        }
        out["stacks"] = stacks;
        nb::list pile;
        for (int i = 0; i < s.token_pile_size; ++i) pile.append(TOKEN_NAMES[s.token_pile[i]]);
        out["token_pile"] = pile;
        nb::list favourites, unused;
        for (int i = 0; i < s.num_players; ++i) {
            favourites.append("F" + std::to_string(s.favourites[i]));
        }
        for (int i = 0; i < s.num_unused_favourites; ++i) {
            unused.append("F" + std::to_string(s.unused_favourites[i]));
        }
        out["favourites"] = favourites;
        out["unused_favourites"] = unused;
        out["bag"] = int_list(s.bag, NUM_GOODS);
        nb::list canoes, cargo, charts;
        for (int seat = 0; seat < s.num_players; ++seat) {
            canoes.append(cell_list(s.canoes[seat]));
            cargo.append(int_list(s.cargo[seat], NUM_GOODS));
            charts.append(int_list(s.charts[seat], NUM_GOODS));
        }
        out["canoes"] = canoes;
        out["cargo"] = cargo;
        out["charts"] = charts;
        out["first_player"] = s.first_player;
        out["turn_player"] = s.turn_player;
        out["round"] = s.round;
        out["phase"] = s.phase_name();
        out["taken"] = s.taken;
        out["hand_tile"] = s.hand_tile ? nb::object(nb::str(TILE_NAMES[s.hand_tile])) : nb::none();
        nb::list bounty;
        for (int i = 0; i < s.bounty_size; ++i) bounty.append(GOODS_NAMES[s.bounty[i]]);
        out["bounty"] = bounty;
        out["aside"] = int_list(s.aside, NUM_GOODS);
        out["revealed_token"] =
            s.revealed_token ? nb::object(nb::str(TOKEN_NAMES[s.revealed_token])) : nb::none();
        out["end_triggered"] = s.end_triggered;
        out["truncated"] = s.truncated;
        out["last_event"] = s.event_text();
        return out;
    }

    static TahitiState from_dict(nb::handle data) {
        if (!PyDict_Check(data.ptr())) invalid("a snapshot is a dict");
        constexpr Py_ssize_t NUM_FIELDS = 29;  // rules.py SNAPSHOT_FIELDS, each read below
        if (PyDict_Size(data.ptr()) != NUM_FIELDS) invalid("a snapshot has 29 fields");
        const std::string game = read_str(field_of(data, "game"), "game");
        if (game != "tahiti") invalid("snapshot is of game " + game + ", not tahiti");
        read_int(field_of(data, "version"), "version", VERSION, VERSION);
        const int n = static_cast<int>(read_int(field_of(data, "num_players"), "num_players", 2, 4));
        const nb::handle config = field_of(data, "config");
        if (PyDict_Size(config.ptr()) != 1) invalid("config: names max_rounds only");
        const int max_rounds = static_cast<int>(
            read_int(field_of(config, "max_rounds"), "config.max_rounds", 1, MAX_ROUNDS_LIMIT));
        TahitiState out;
        State& s = out.state;
        s = State::blank(n, max_rounds, read_rng(field_of(data, "rng")));

        const auto board = read_list(field_of(data, "board"), "board", -1, NUM_TILES);
        bool used_cell[NUM_CELLS] = {};
        for (size_t i = 0; i < board.size(); ++i) {
            const std::string field = "board[" + std::to_string(i) + "]";
            const auto entry = read_list(board[i], field, 4);
            const int tile = read_tile(entry[0], field);
            nb::list qr;
            qr.append(entry[1]);
            qr.append(entry[2]);
            const int cell = read_cell(qr, field);
            const int rotation = static_cast<int>(read_int(entry[3], field + ": rotation", 0, 5));
            if (s.tile_cell[tile] >= 0 || used_cell[cell]) invalid(field + ": placed twice");
            used_cell[cell] = true;
            s.tile_cell[tile] = static_cast<int16_t>(cell);
            s.rotation[tile] = static_cast<uint8_t>(rotation);
        }
        const nb::handle haumea = field_of(data, "haumea");
        s.haumea = haumea.is_none() ? -1 : read_cell(haumea, "haumea");

        const nb::handle cubes = field_of(data, "island_cubes");
        if (!PyDict_Check(cubes.ptr())) invalid("island_cubes: not a dict");
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        while (PyDict_Next(cubes.ptr(), &pos, &key, &value)) {
            const int k = read_island(key, "island_cubes");
            const std::string text = read_str(value, "island_cubes");
            if (text.empty() || text.size() > 2) invalid("island_cubes: one or two goods letters");
            for (char letter : text) {
                int slot = -1;
                for (int sl = 0; sl < 2; ++sl) {
                    if (GOODS_LETTERS[ISLAND_SLOTS[k][sl]] == letter) slot = sl;
                }
                if (slot < 0) invalid("island_cubes: no such goods space");
                if (s.island_cubes[k] >> slot & 1) invalid("island_cubes: a space holds one cube");
                s.island_cubes[k] = static_cast<uint8_t>(s.island_cubes[k] | (1 << slot));
            }
        }
        const nb::handle tokens = field_of(data, "tokens");
        if (!PyDict_Check(tokens.ptr())) invalid("tokens: not a dict");
        pos = 0;
        while (PyDict_Next(tokens.ptr(), &pos, &key, &value)) {
            const int k = read_island(key, "tokens");
            s.tokens[k] = static_cast<uint8_t>(read_token(value, "tokens"));
        }
        const auto stacks = read_list(field_of(data, "stacks"), "stacks", 2);
        for (int i = 0; i < 2; ++i) {
            const std::string field = "stacks[" + std::to_string(i) + "]";
            const auto stack = read_list(stacks[static_cast<size_t>(i)], field, -1, NUM_ISLANDS);
            for (size_t j = 0; j < stack.size(); ++j) {
                s.stacks[i][j] = static_cast<uint8_t>(read_island(stack[j], field));
            }
            s.stack_size[i] = static_cast<uint8_t>(stack.size());
        }
        const auto pile = read_list(field_of(data, "token_pile"), "token_pile", -1, NUM_TOKENS);
        for (size_t i = 0; i < pile.size(); ++i) {
            s.token_pile[i] = static_cast<uint8_t>(read_token(pile[i], "token_pile"));
        }
        s.token_pile_size = static_cast<uint8_t>(pile.size());
        const auto favourites = read_list(field_of(data, "favourites"), "favourites", n);
        for (int i = 0; i < n; ++i) {
            s.favourites[i] = static_cast<uint8_t>(read_favourite(favourites[static_cast<size_t>(i)], "favourites"));
        }
        const auto unused =
            read_list(field_of(data, "unused_favourites"), "unused_favourites", -1, 4);
        for (size_t i = 0; i < unused.size(); ++i) {
            s.unused_favourites[i] = static_cast<uint8_t>(read_favourite(unused[i], "unused_favourites"));
        }
        s.num_unused_favourites = static_cast<uint8_t>(unused.size());
        read_counts(field_of(data, "bag"), "bag", s.bag);
        const auto canoes = read_list(field_of(data, "canoes"), "canoes", n);
        const auto cargo = read_list(field_of(data, "cargo"), "cargo", n);
        const auto charts = read_list(field_of(data, "charts"), "charts", n);
        for (int seat = 0; seat < n; ++seat) {
            const size_t i = static_cast<size_t>(seat);
            const std::string tail = "[" + std::to_string(seat) + "]";
            s.canoes[seat] = read_cell(canoes[i], "canoes" + tail);
            read_counts(cargo[i], "cargo" + tail, s.cargo[seat]);
            read_counts(charts[i], "charts" + tail, s.charts[seat]);
        }
        s.first_player = static_cast<int>(read_int(field_of(data, "first_player"), "first_player", 0, n - 1));
        s.turn_player = static_cast<int>(read_int(field_of(data, "turn_player"), "turn_player", 0, n - 1));
        s.round = static_cast<int>(read_int(field_of(data, "round"), "round", 0, max_rounds));
        s.phase = static_cast<Phase>(
            lookup(read_str(field_of(data, "phase"), "phase"), PHASE_NAMES, NUM_PHASES, "phase"));
        s.taken = static_cast<int>(read_int(field_of(data, "taken"), "taken", 0, MAX_PADDLES));
        const nb::handle hand = field_of(data, "hand_tile");
        s.hand_tile = hand.is_none() ? 0 : read_island(hand, "hand_tile");
        const auto bounty = read_list(field_of(data, "bounty"), "bounty", -1, BOUNTY_WITH_HAUMEA);
        for (size_t i = 0; i < bounty.size(); ++i) {
            s.bounty[i] = static_cast<uint8_t>(
                lookup(read_str(bounty[i], "bounty"), GOODS_NAMES, NUM_GOODS, "bounty"));
        }
        s.bounty_size = static_cast<uint8_t>(bounty.size());
        read_counts(field_of(data, "aside"), "aside", s.aside);
        const nb::handle token = field_of(data, "revealed_token");
        s.revealed_token = token.is_none() ? 0 : read_token(token, "revealed_token");
        s.end_triggered = read_bool(field_of(data, "end_triggered"), "end_triggered");
        s.truncated = read_bool(field_of(data, "truncated"), "truncated");
        s.last_event.kind = Event::Text;
        s.last_event_text = read_str(field_of(data, "last_event"), "last_event");
        s.rebuild();
        s.validate();
        return out;
    }

    // What views show of the stacks and the token pile (stack_sizes, stack_tops, unplaced,
    // tokens_left), kept like the board: stacks and pile only shrink, so their sizes name them.
    nb::object piles_view;
    int piles_view_key = -1;

    nb::object piles_fields() {
        const State& s = state;
        const int key = (s.stack_size[0] * 32 + s.stack_size[1]) * 32 + s.token_pile_size;
        if (key == piles_view_key && piles_view.is_valid()) return piles_view;
        int unplaced[NUM_ISLANDS];
        int num_unplaced = 0;
        for (int i = 0; i < 2; ++i) {
            for (int j = 0; j < s.stack_size[i]; ++j) unplaced[num_unplaced++] = s.stacks[i][j];
        }
        const int sizes[2] = {s.stack_size[0], s.stack_size[1]};
        const int tops[2] = {s.stack_top(0), s.stack_top(1)};
        const int left[2] = {s.tokens_left(PLAIN), s.tokens_left(FISHING)};
        piles_view = nb::make_tuple(int_tuple(sizes, 2), int_tuple(tops, 2),
                                    int_frozenset(unplaced, num_unplaced), int_tuple(left, 2));
        piles_view_key = key;
        return piles_view;
    }

    // The fields of rules.View after `rules`, up to `mask`, in their order.
    nb::tuple view_fields(int seat) {
        const State& s = state;
        const nb::tuple board = nb::borrow<nb::tuple>(board_fields());
        const nb::tuple piles = nb::borrow<nb::tuple>(piles_fields());
        const int n = s.num_players;
        constexpr int NUM_FIELDS = 35;
        PyObject* out = PyTuple_New(NUM_FIELDS);
        if (!out) throw nb::python_error();
        nb::tuple owner = nb::steal<nb::tuple>(out);
        int at = 0;
        auto put = [&](nb::handle value) {
            if (!value.ptr()) throw nb::python_error();
            PyTuple_SET_ITEM(out, at++, value.ptr());  // steals the reference
        };
        auto put_int = [&](long value) { put(PyLong_FromLong(value)); };
        auto put_bool = [&](bool value) { put(nb::bool_(value).release()); };
        auto put_str = [&](const char* text) { put(PyUnicode_FromString(text)); };
        put_int(seat);
        put_int(n);
        put_str(s.phase_name());
        put_int(s.current_player());
        put_int(s.turn_player);
        put_int(s.first_player);
        put_int(s.round);
        put_int(s.max_rounds);
        put_str(SIDE_NAMES[s.side]);
        for (int i = 0; i < 5; ++i) put(nb::borrow(board[static_cast<size_t>(i)]).release());
        put(int_tuple(s.island_cubes, NUM_ISLANDS + 1).release());
        put(int_tuple(s.tokens, NUM_ISLANDS + 1).release());
        put_int(s.haumea);
        put(nb::borrow(piles[0]).release());  // stack_sizes
        put(nb::borrow(piles[1]).release());  // stack_tops
        put_int(s.hand_tile);
        put(nb::borrow(piles[2]).release());  // unplaced
        put(int_tuple(s.bounty, s.bounty_size).release());
        put(int_tuple(s.aside, NUM_GOODS).release());
        put_int(s.revealed_token);
        put_int(s.taken);
        put(int_tuple(s.canoes, n).release());
        for (const auto* counts : {&s.cargo, &s.charts}) {
            PyObject* per_seat = PyTuple_New(n);
            if (!per_seat) throw nb::python_error();
            put(per_seat);
            for (int i = 0; i < n; ++i) {
                PyTuple_SET_ITEM(per_seat, i, int_tuple((*counts)[i], NUM_GOODS).release().ptr());
            }
        }
        put_int(s.favourites[seat]);
        put(int_tuple(s.bag, NUM_GOODS).release());
        put(nb::borrow(piles[3]).release());  // tokens_left
        put_bool(s.end_triggered);
        put_int(s.turns_left());
        put_bool(s.truncated);
        const std::string event = s.event_text();
        put(PyUnicode_FromStringAndSize(event.data(), static_cast<Py_ssize_t>(event.size())));
        if (at != NUM_FIELDS) throw std::logic_error("view_fields: wrong field count");
        return owner;
    }
};

// The game's traits: bindings/bind_game.h binds TahitiState (a State with the views' caches)
// and its VecEnv from them.
struct TahitiTraits : bge_py::GameTraits<TahitiTraits> {
    static constexpr const char* kGameName = "tahiti";
    static constexpr const char* kClassName = "TahitiState";
    static constexpr const char* kClassDoc = "A position of Tahiti (the compiled engine)";
    using State = bge::tahiti::State;
    using PyState = TahitiState;
    static constexpr int kNumActions = NUM_ACTIONS;
    static constexpr int kObservationSize = OBSERVATION_SIZE;
    static constexpr int kMinPlayers = 2;
    static constexpr int kMaxPlayers = 4;
    static constexpr bool kLowerScoreWins = false;

    static const State& unwrap(const PyState& s) { return s.state; }
    static State& unwrap(PyState& s) { return s.state; }
    static PyState wrap(const State& s) {
        PyState out;
        out.state = s;
        return out;
    }

    static int num_players(const State& s) { return s.num_players; }
    static bool truncated(const State& s) { return s.truncated; }
    static void mask(const State& s, uint8_t* out) { s.legal_mask(out); }
    static void encode(const State& s, int seat, float* out) { encode_observation(s, seat, out); }
    static void scores(const State& s, double* out) {
        int values[4];
        s.scores(values);
        for (int p = 0; p < s.num_players; ++p) out[p] = static_cast<double>(values[p]);
    }
    static void scores_known_to(const State& s, int seat, double* out) {
        int values[4];
        s.scores_known_to(seat, values);
        for (int p = 0; p < s.num_players; ++p) out[p] = static_cast<double>(values[p]);
    }
    static int64_t playout(State& s, Pcg64& rng, int64_t depth) {
        return s.playout(rng, static_cast<int>(depth));
    }
    static int heuristic(const State& s, int seat, Pcg64& rng) {
        return heuristic_action(s, seat, rng);
    }
    static int64_t heuristic_playout(State& s, Pcg64& rng, int64_t depth, double epsilon) {
        return bge::tahiti::heuristic_playout(s, rng, static_cast<int>(depth), epsilon);
    }
    static State sample(const State& s, int seat, Pcg64& rng) { return sample_state(s, seat, rng); }
    static void leaf_values(const State& s, double* out) { bge::tahiti::leaf_values(s, out); }
    static nb::dict to_dict(const PyState& s) { return s.to_dict(); }

    // Tahiti's own readers and messages (tests/native/test_tahiti*.py)
    static int applied_action(const State& s, nb::handle action) {
        const int a = action_index(action);
        if (a < 0 || !s.is_legal(a)) {
            const std::string text = nb::cast<std::string>(nb::repr(action));
            invalid("action " + text + " is not legal in phase " + s.phase_name());
        }
        return a;
    }
    static int observed_seat(const State& s, nb::handle seat) {
        return read_seat(seat, s.num_players);
    }
    static Pcg64 playout_rng(nb::handle seed) { return rng_from_seed(seed); }
    static int64_t depth(nb::handle value) { return read_depth(value); }
    static double epsilon(nb::handle value) { return read_epsilon(value); }

    static void bind_extras(nb::class_<TahitiState>& cls) {
        cls.def_static(
               "new_state",
               [](nb::handle num_players, nb::handle seed, nb::handle max_rounds) {
                   const int n = static_cast<int>(read_int(num_players, "num_players", 2, 4));
                   const int rounds = static_cast<int>(
                       read_int(max_rounds, "max_rounds", 1, MAX_ROUNDS_LIMIT));
                   const Pcg64 rng = rng_from_seed(seed);
                   TahitiState out;
                   out.state = State::new_game(n, rounds, rng);
                   return out;
               },
               nb::arg("num_players").none(), nb::arg("seed").none(),
               nb::arg("max_rounds").none() = 1000, "a new game: default_rng(seed) deals it")
            .def_static("from_dict", &TahitiState::from_dict, nb::arg("data").none(),
                        "a position from State.to_dict(), every value checked")
            .def(
                "view_fields",
                [](TahitiState& s, nb::handle seat) {
                    return s.view_fields(read_seat(seat, s.state.num_players));
                },
                nb::arg("seat").none())
            .def(
                "scores_known_to",
                [](const TahitiState& s, nb::handle seat) {
                    double values[4];
                    scores_known_to(s.state, bge_py::seat_of(seat, s.state.num_players), values);
                    return bge_py::float_list(values, s.state.num_players);
                },
                nb::arg("seat").none(),
                "State.scores_known_to(seat): the scores, another seat's favourite bonus left "
                "out until the game is over");
    }
};

}  // namespace

BGE_REGISTER_GAME(TahitiTraits, 4);
