// Carcassonne: The Castle's Python face: CarcassonneCastleState, the compiled engine of
// boardgame_envs/carcassonne_castle (glue: boardgame_envs/carcassonne_castle/native.py). What
// is the game's own lives here: its traits (bindings/bind_game.h binds the rest, as for every
// game), new_state's options, the snapshot both ways, the View's fields and the castle's
// buffers for the Python engine.
//
// Every value from Python is checked here: seats, options, seeds and every field of a
// snapshot (types, ranges, lengths, the components conserved and the consistency play relies
// on), so that no Python object can make the engine read or write out of bounds. Snapshots
// come out as the Python engine's to_dict() writes them: the same keys, order, types and
// values.
#include <Python.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "bindings/bind_game.h"
#include "bindings/common.h"
#include "games/carcassonne_castle/heuristic.h"
#include "games/carcassonne_castle/sample.h"
#include "games/carcassonne_castle/state.h"

namespace nb = nanobind;
namespace cc = bge::carcassonne_castle;
using cc::State;

namespace {

constexpr int kMaxSeedWords = 8;  // seeds up to 2**256 - 1

// -- Python values in ------------------------------------------------------------------------
using bge_py::fail;
using bge_py::fail_type;
using bge_py::get_int;
using bge_py::get_str;
using bge_py::is_int;
using bge_py::read_int64;
using bge_py::Seq;

bool is_none(nb::handle value) { return value.ptr() == Py_None; }

// A list or tuple of at most max_length entries, or of exactly length (bge_py::get_seq with
// its two bounds in this file's order).
Seq get_seq(nb::handle value, const std::string& field, Py_ssize_t max_length = -1,
            Py_ssize_t length = -1) {
    return bge_py::get_seq(value, field, length, max_length);
}

nb::handle get_field(nb::handle dict, const char* name) {
    PyObject* item = PyDict_GetItemString(dict.ptr(), name);  // borrowed
    if (item == nullptr) fail(name, "missing");
    return item;
}

// An int >= 0 of up to 256 bits as SeedSequence's words (least significant first).
std::vector<uint32_t> get_seed(nb::handle value, const std::string& field) {
    return bge_py::get_seed_words(value, field, kMaxSeedWords);
}

int checked_seat(nb::handle seat) {
    int64_t s;
    if (!read_int64(seat.ptr(), &s)) fail_type("seat", "not an int");
    bge_py::check_seat(s, cc::NUM_PLAYERS);
    return static_cast<int>(s);
}

cc::Config make_config(nb::handle keep_bonus_tiles, nb::handle wall9_points) {
    cc::Config config;
    config.keep_bonus_tiles =
        static_cast<int>(get_int(keep_bonus_tiles, "keep_bonus_tiles", 0, cc::KEEP_BONUS_MAX));
    config.wall9_points =
        static_cast<int>(get_int(wall9_points, "wall9_points", 0, cc::WALL9_POINTS_MAX));
    return config;
}

// -- Python values out -----------------------------------------------------------------------
using bge_py::list_of;
using bge_py::py_int;
using bge_py::tuple_of;

nb::object py_opt(int x) { return x < 0 ? nb::none() : py_int(x); }
nb::object py_bool(bool x) { return nb::borrow(x ? Py_True : Py_False); }
nb::object py_str(const std::string& s) {
    PyObject* o = PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
    if (o == nullptr) throw nb::python_error();
    return nb::steal(o);
}

// An event of the log: its text.
nb::object py_event(const State& s, const cc::Text& event) { return py_str(s.text(event)); }

nb::dict config_dict(const cc::Config& config) {
    nb::dict out;
    out["keep_bonus_tiles"] = py_int(config.keep_bonus_tiles);
    out["wall9_points"] = py_int(config.wall9_points);
    return out;
}

nb::object keep_obj(const cc::Keep& keep, bool as_list) {
    if (!keep.has) return nb::none();
    auto locations = [&](int i) { return py_int(keep.locations[i]); };
    if (as_list) return list_of(2, [&](int i) {
        return i == 0 ? py_int(keep.size) : list_of(keep.locations.size(), locations);
    });
    return tuple_of(2, [&](int i) {
        return i == 0 ? py_int(keep.size) : tuple_of(keep.locations.size(), locations);
    });
}

template <typename Group>
nb::object names_list(const Group& names) {
    return list_of(names.size(), [&](int i) { return py_int(names[i]); });
}

nb::dict to_dict(const State& s) {
    const cc::Tables& t = cc::tables();
    const cc::Castle& castle = s.castle;
    nb::dict out;
    out["game"] = "carcassonne_castle";
    out["version"] = py_int(1);
    out["num_players"] = py_int(cc::NUM_PLAYERS);
    out["config"] = config_dict(s.config);
    out["placements"] = list_of(castle.num_placed, [&](int i) {
        const cc::Placement& p = castle.history[i];
        return list_of(4, [&](int j) {
            const int v[4] = {p.cell, p.code / 4, p.code % 4, p.seat};
            return py_int(v[j]);
        });
    });
    int follower_cells[cc::NUM_CELLS];
    int num_followers = 0;
    for (int cell = 0; cell < cc::NUM_CELLS; ++cell) {
        if (castle.follower_seat[t.cell_grid[cell]] >= 0) follower_cells[num_followers++] = cell;
    }
    out["followers"] = list_of(num_followers, [&](int i) {
        const int g = t.cell_grid[follower_cells[i]];
        return list_of(3, [&](int j) {
            return py_int(j == 0 ? follower_cells[i]
                                 : j == 1 ? castle.follower_seat[g] : castle.follower_slot[g]);
        });
    });
    out["stack"] =
        list_of(s.stack_size(), [&](int i) { return py_int(s.stack[s.stack_head + i]); });
    out["tile"] = py_opt(s.tile);
    out["discards"] = list_of(s.discards.size(), [&](int i) { return py_int(s.discards[i]); });
    out["corners"] = list_of(cc::NUM_STOCKED, [&](int i) { return py_int(s.corners[i]); });
    out["boxed"] = list_of(s.boxed.size(), [&](int i) { return py_int(s.boxed[i]); });
    out["held"] = list_of(cc::NUM_PLAYERS, [&](int seat) {
        const auto& held = s.held[seat];
        return list_of(held.size(), [&](int i) {
            return list_of(2, [&](int j) { return py_int(j == 0 ? held[i].kind : held[i].taken); });
        });
    });
    out["used"] = list_of(s.used.size(), [&](int i) {
        return list_of(2, [&](int j) { return py_int(j == 0 ? s.used[i].kind : s.used[i].seat); });
    });
    out["scores"] = list_of(cc::NUM_PLAYERS, [&](int i) { return py_int(s.scores[i]); });
    out["supply"] = list_of(cc::NUM_PLAYERS, [&](int i) { return py_int(s.supply[i]); });
    out["keeps"] = list_of(cc::NUM_PLAYERS, [&](int i) { return keep_obj(s.keeps[i], true); });
    out["start_player"] = py_int(s.start_player);
    out["active"] = py_int(s.active);
    out["turn"] = py_int(s.turn);
    out["extra_turn"] = py_bool(s.extra_turn);
    out["phase"] = cc::PHASE_NAMES[s.phase];
    out["last_cell"] = py_opt(s.last_cell);
    out["completed"] = names_list(s.completed);
    out["groups"] = list_of(2, [&](int i) { return names_list(s.groups[i]); });
    out["doubling"] = py_opt(s.doubling);
    out["final"] = list_of(cc::NUM_PLAYERS, [&](int seat) {
        const auto& items = s.final_[seat];
        return list_of(static_cast<int>(items.size()), [&](int i) {
            return list_of(2, [&](int j) {
                return j == 0 ? py_str(s.text(items[size_t(i)].label))
                              : py_int(items[size_t(i)].points);
            });
        });
    });
    out["events"] = list_of(static_cast<int>(s.events.size()),
                            [&](int i) { return py_event(s, s.events[size_t(i)]); });
    return out;
}

// -- snapshots in ------------------------------------------------------------------------------
int get_name(nb::handle value, const std::string& field) {
    const int64_t name = get_int(value, field, cc::SLOT_BASE, cc::NUM_ACTIONS - 1);
    if (name == cc::PASS || name == cc::YES) fail(field, "not an ORDER name");
    return static_cast<int>(name);
}

template <typename Group>
void get_names(nb::handle value, const std::string& field, Group* out) {
    const Seq seq = get_seq(value, field, cc::MAX_COMPLETED);
    out->clear();
    for (Py_ssize_t i = 0; i < seq.size; ++i) out->push_back(int16_t(get_name(seq[i], field)));
}

State from_dict(nb::handle data) {
    const cc::Tables& t = cc::tables();
    if (!PyDict_Check(data.ptr())) fail_type("snapshot", "not a dict");
    if (get_str(get_field(data, "game"), "game") != "carcassonne_castle") {
        fail("game", "not carcassonne_castle");
    }
    get_int(get_field(data, "version"), "version", 1, 1);
    get_int(get_field(data, "num_players"), "num_players", cc::NUM_PLAYERS, cc::NUM_PLAYERS);
    nb::handle config = get_field(data, "config");
    if (!PyDict_Check(config.ptr())) fail_type("config", "not a dict");
    if (PyDict_Size(config.ptr()) != 2) fail("config", "not the game's two options");
    State s = State::blank(
        make_config(get_field(config, "keep_bonus_tiles"), get_field(config, "wall9_points")));
    // the castle, replayed: every placement legal when made
    int tile_count[cc::NUM_TILE_TYPES] = {};
    int last_names[cc::MAX_COMPLETED];
    int num_last = 0;
    {
        const Seq rows = get_seq(get_field(data, "placements"), "placements", cc::NUM_CASTLE_TILES);
        for (Py_ssize_t i = 0; i < rows.size; ++i) {
            const Seq row = get_seq(rows[i], "placements", -1, 4);
            const int cell = int(get_int(row[0], "placements", 0, cc::NUM_CELLS - 1));
            const int tile = int(get_int(row[1], "placements", 0, cc::NUM_TILE_TYPES - 1));
            const int rotation = int(get_int(row[2], "placements", 0, 3));
            const int seat = int(get_int(row[3], "placements", 0, cc::NUM_PLAYERS - 1));
            if (!s.castle.is_empty(cell)) fail("placements", "two tiles on one cell");
            if (!s.castle.placement_fits(tile, cell, rotation)) {
                fail("placements", "a placement that was not legal");
            }
            num_last = s.place_tile(cell, tile, rotation, seat, last_names);
            tile_count[tile] += 1;
        }
    }
    int on_board[cc::NUM_PLAYERS] = {0, 0};
    {
        const Seq rows = get_seq(get_field(data, "followers"), "followers", cc::NUM_CELLS);
        for (Py_ssize_t i = 0; i < rows.size; ++i) {
            const Seq row = get_seq(rows[i], "followers", -1, 3);
            const int cell = int(get_int(row[0], "followers", 0, cc::NUM_CELLS - 1));
            const int seat = int(get_int(row[1], "followers", 0, cc::NUM_PLAYERS - 1));
            const int slot = int(get_int(row[2], "followers", 0, cc::NUM_SLOTS - 1));
            const int g = t.cell_grid[cell];
            if (s.castle.is_empty(cell)) fail("followers", "a follower on an empty cell");
            if (s.castle.follower_seat[g] >= 0) fail("followers", "two followers on one cell");
            const int code = s.castle.code[g];
            bool named = false;
            for (int k = 0; k < t.num_segments[code]; ++k) named |= t.lowest[code][k] == slot;
            if (!named) fail("followers", "a slot that names no segment");
            s.castle.add_follower(cell, slot, seat);
            on_board[seat] += 1;
        }
    }
    {
        const Seq stack = get_seq(get_field(data, "stack"), "stack", cc::NUM_CASTLE_TILES);
        s.stack_head = 0;
        s.stack_end = int(stack.size);
        std::fill(s.unseen, s.unseen + cc::NUM_TILE_TYPES, 0);
        for (Py_ssize_t i = 0; i < stack.size; ++i) {
            const int tile = int(get_int(stack[i], "stack", 0, cc::NUM_TILE_TYPES - 1));
            s.stack[i] = uint8_t(tile);
            s.unseen[tile] += 1;
            tile_count[tile] += 1;
        }
    }
    nb::handle tile = get_field(data, "tile");
    s.tile = is_none(tile) ? -1 : int(get_int(tile, "tile", 0, cc::NUM_TILE_TYPES - 1));
    if (s.tile >= 0) tile_count[s.tile] += 1;
    {
        const Seq discards = get_seq(get_field(data, "discards"), "discards", cc::NUM_CASTLE_TILES);
        for (Py_ssize_t i = 0; i < discards.size; ++i) {
            const int tile = int(get_int(discards[i], "discards", 0, cc::NUM_TILE_TYPES - 1));
            s.discards.push_back(uint8_t(tile));
            tile_count[tile] += 1;
        }
    }
    for (int type = 0; type < cc::NUM_TILE_TYPES; ++type) {
        if (tile_count[type] != cc::TILE_TYPES[type].count) {
            fail("stack, tile, placements, discards", "the 60 castle tiles are not conserved");
        }
    }
    int wall_count[cc::NUM_WALL_KINDS + 1] = {};
    {
        const Seq corners = get_seq(get_field(data, "corners"), "corners", -1, cc::NUM_STOCKED);
        for (int i = 0; i < cc::NUM_STOCKED; ++i) {
            s.corners[i] = uint8_t(get_int(corners[i], "corners", 0, cc::NUM_WALL_KINDS));
            wall_count[s.corners[i]] += 1;
        }
        const Seq boxed = get_seq(get_field(data, "boxed"), "boxed", cc::NUM_WALL_TILES);
        for (Py_ssize_t i = 0; i < boxed.size; ++i) {
            const int kind = int(get_int(boxed[i], "boxed", 1, cc::NUM_WALL_KINDS));
            s.boxed.push_back(uint8_t(kind));
            wall_count[kind] += 1;
        }
        const Seq held = get_seq(get_field(data, "held"), "held", -1, cc::NUM_PLAYERS);
        for (int seat = 0; seat < cc::NUM_PLAYERS; ++seat) {
            const Seq rows = get_seq(held[seat], "held", cc::NUM_WALL_TILES);
            for (Py_ssize_t i = 0; i < rows.size; ++i) {
                const Seq row = get_seq(rows[i], "held", -1, 2);
                const int kind = int(get_int(row[0], "held", 1, cc::NUM_WALL_KINDS));
                const int64_t taken = get_int(row[1], "held", 0, cc::MAX_NUMBER);
                s.held[seat].push_back(cc::HeldTile{kind, taken});
                wall_count[kind] += 1;
            }
        }
        const Seq used = get_seq(get_field(data, "used"), "used", cc::NUM_WALL_TILES);
        for (Py_ssize_t i = 0; i < used.size; ++i) {
            const Seq row = get_seq(used[i], "used", -1, 2);
            const int kind = int(get_int(row[0], "used", cc::EXTRA_TURN, cc::HOUSE_X2));
            const int seat = int(get_int(row[1], "used", 0, cc::NUM_PLAYERS - 1));
            s.used.push_back(cc::UsedTile{kind, seat});
            wall_count[kind] += 1;
        }
    }
    for (int kind = 1; kind <= cc::NUM_WALL_KINDS; ++kind) {
        if (wall_count[kind] != cc::WALL_COPIES) {
            fail("corners, boxed, held, used", "the 18 wall tiles are not conserved");
        }
    }
    {
        const Seq scores = get_seq(get_field(data, "scores"), "scores", -1, cc::NUM_PLAYERS);
        const Seq supply = get_seq(get_field(data, "supply"), "supply", -1, cc::NUM_PLAYERS);
        for (int seat = 0; seat < cc::NUM_PLAYERS; ++seat) {
            s.scores[seat] = get_int(scores[seat], "scores", 0, cc::MAX_NUMBER);
            s.supply[seat] =
                int(get_int(supply[seat], "supply", 0, cc::FOLLOWERS_PER_PLAYER));
            if (s.supply[seat] + on_board[seat] != cc::FOLLOWERS_PER_PLAYER) {
                fail("supply", "followers in supply and on the board do not add up to 6");
            }
        }
    }
    {
        const Seq keeps = get_seq(get_field(data, "keeps"), "keeps", -1, cc::NUM_PLAYERS);
        for (int seat = 0; seat < cc::NUM_PLAYERS; ++seat) {
            if (is_none(keeps[seat])) continue;
            const Seq keep = get_seq(keeps[seat], "keeps", -1, 2);
            cc::Keep& k = s.keeps[seat];
            k.has = true;
            k.size = int(get_int(keep[0], "keeps", 1, cc::NUM_CELLS));
            const Seq locations = get_seq(keep[1], "keeps", cc::NUM_CELLS);
            for (Py_ssize_t i = 0; i < locations.size; ++i) {
                k.locations.push_back(uint8_t(get_int(locations[i], "keeps", 0, cc::NUM_GRID - 1)));
            }
        }
    }
    s.start_player = int(get_int(get_field(data, "start_player"), "start_player", 0, 1));
    s.active = int(get_int(get_field(data, "active"), "active", 0, 1));
    s.turn = get_int(get_field(data, "turn"), "turn", 1, cc::MAX_NUMBER);
    nb::handle extra = get_field(data, "extra_turn");
    if (!PyBool_Check(extra.ptr())) fail_type("extra_turn", "not a bool");
    s.extra_turn = extra.ptr() == Py_True;
    const std::string phase = get_str(get_field(data, "phase"), "phase");
    int found = -1;
    for (int p = 0; p < 6; ++p) {
        if (phase == cc::PHASE_NAMES[p]) found = p;
    }
    if (found < 0) fail("phase", "unknown phase");
    s.phase = cc::Phase(found);
    nb::handle last_cell = get_field(data, "last_cell");
    s.last_cell =
        is_none(last_cell) ? -1 : int(get_int(last_cell, "last_cell", 0, cc::NUM_CELLS - 1));
    get_names(get_field(data, "completed"), "completed", &s.completed);
    const Seq groups = get_seq(get_field(data, "groups"), "groups", -1, 2);
    get_names(groups[0], "groups", &s.groups[0]);
    get_names(groups[1], "groups", &s.groups[1]);
    nb::handle doubling = get_field(data, "doubling");
    s.doubling = is_none(doubling) ? -1 : get_name(doubling, "doubling");
    // texts: kept as written (RAW) in one shared pool
    auto pool = std::make_shared<std::vector<std::string>>();
    auto raw = [&](nb::handle value, const std::string& field) {
        cc::Text text;
        text.type = cc::Text::RAW;
        text.a = int32_t(pool->size());
        pool->push_back(get_str(value, field));
        return text;
    };
    const Seq final = get_seq(get_field(data, "final"), "final", -1, cc::NUM_PLAYERS);
    for (int seat = 0; seat < cc::NUM_PLAYERS; ++seat) {
        const Seq items = get_seq(final[seat], "final", 1 << 20);
        for (Py_ssize_t i = 0; i < items.size; ++i) {
            const Seq item = get_seq(items[i], "final", -1, 2);
            const cc::Text label = raw(item[0], "final");
            const int64_t points = get_int(item[1], "final", 0, cc::MAX_NUMBER);
            s.final_[seat].push_back(cc::FinalItem{label, points});
        }
    }
    const Seq events = get_seq(get_field(data, "events"), "events", 1 << 20);
    for (Py_ssize_t i = 0; i < events.size; ++i) s.events.push_back(raw(events[i], "events"));
    s.pool = std::move(pool);
    if (PyDict_Size(data.ptr()) != 27) fail("snapshot", "unknown fields");
    // the consistency play relies on
    if (s.phase == cc::PLACE && (s.tile < 0 || !s.castle.has_placement(s.tile))) {
        fail("tile", "phase PLACE needs a drawn tile with a legal placement");
    }
    if (s.phase != cc::PLACE && s.phase != cc::GAME_OVER &&
        (s.last_cell < 0 || s.castle.is_empty(s.last_cell))) {
        fail("last_cell", "the phase needs the just-placed tile's cell");
    }
    if (s.phase == cc::ORDER && s.groups[0].empty() && s.groups[1].empty()) {
        fail("groups", "phase ORDER needs pending features");
    }
    if (s.phase == cc::DOUBLE && s.doubling < 0) {
        fail("doubling", "phase DOUBLE needs the feature under the decision");
    }
    (void)num_last;
    return s;
}

nb::object view_fields(const State& s, int seat, nb::handle mask, nb::handle record_class) {
    auto sorted_kinds = [](auto begin, auto end, auto kind_of) {
        int kinds[cc::NUM_WALL_TILES];
        int n = 0;
        for (auto it = begin; it != end; ++it) kinds[n++] = kind_of(*it);
        std::sort(kinds, kinds + n);
        return tuple_of(n, [&](int i) { return py_int(kinds[i]); });
    };
    auto held_kinds = [&](int p) {
        return sorted_kinds(s.held[p].begin(), s.held[p].end(),
                            [](const cc::HeldTile& h) { return h.kind; });
    };
    const int usable = s.held[seat].empty() ? 0 : s.usable_kinds(seat);
    int usable_list[4];
    int num_usable = 0;
    for (int k = 1; k <= 3; ++k) {
        if (usable >> k & 1) usable_list[num_usable++] = k;
    }
    nb::object config_items = tuple_of(2, [&](int i) {
        return tuple_of(2, [&](int j) -> nb::object {
            if (j == 0) return py_str(i == 0 ? "keep_bonus_tiles" : "wall9_points");
            return py_int(i == 0 ? s.config.keep_bonus_tiles : s.config.wall9_points);
        });
    });
    nb::object taken = tuple_of(cc::NUM_PLAYERS, [&](int p) {
        return tuple_of(s.held[p].size(), [&](int i) {
            return tuple_of(2, [&](int j) {
                return py_int(j == 0 ? s.held[p][i].kind : s.held[p][i].taken);
            });
        });
    });
    nb::object used_by = tuple_of(s.used.size(), [&](int i) {
        return tuple_of(2, [&](int j) { return py_int(j == 0 ? s.used[i].kind : s.used[i].seat); });
    });
    nb::object final = tuple_of(cc::NUM_PLAYERS, [&](int p) {
        const auto& items = s.final_[p];
        return tuple_of(static_cast<int>(items.size()), [&](int i) {
            return tuple_of(2, [&](int j) {
                return j == 0 ? py_str(s.text(items[size_t(i)].label))
                              : py_int(items[size_t(i)].points);
            });
        });
    });
    nb::object record = record_class(config_items, py_int(s.start_player), taken, used_by, final);
    nb::object fields[] = {
        py_int(seat),
        nb::str(cc::PHASE_NAMES[s.phase]),
        py_int(s.current_player()),
        py_int(s.active),
        py_int(s.turn),
        py_bool(s.extra_turn),
        py_opt(s.tile),
        py_opt(s.last_cell),
        nb::none(),  // castle: built by the glue when read
        tuple_of(2, [&](int p) { return py_int(s.scores[p]); }),
        tuple_of(2, [&](int p) { return py_int(s.supply[p]); }),
        tuple_of(2, [&](int p) { return keep_obj(s.keeps[p], false); }),
        tuple_of(2, held_kinds),
        tuple_of(num_usable, [&](int i) { return py_int(usable_list[i]); }),
        tuple_of(cc::NUM_STOCKED, [&](int i) { return py_bool(s.corners[i] != 0); }),
        sorted_kinds(s.used.begin(), s.used.end(), [](const cc::UsedTile& u) { return u.kind; }),
        tuple_of(cc::NUM_TILE_TYPES, [&](int i) { return py_int(s.unseen[i]); }),
        py_int(s.stack_size()),
        tuple_of(s.discards.size(), [&](int i) { return py_int(s.discards[i]); }),
        tuple_of(2, [&](int g) {
            return tuple_of(s.groups[g].size(), [&](int i) { return py_int(s.groups[g][i]); });
        }),
        py_opt(s.doubling),
        nb::borrow(mask),
        record,
        tuple_of(s.completed.size(), [&](int i) { return py_int(s.completed[i]); }),
        tuple_of(static_cast<int>(s.events.size()),
                 [&](int i) { return py_event(s, s.events[size_t(i)]); }),
    };
    const int n = static_cast<int>(sizeof fields / sizeof fields[0]);
    return tuple_of(n, [&](int i) { return fields[i]; });
}

// The facts the Python engine's Castle.replay rebuilds a castle from: the placements
// (cell, code, seat) in order and the followers {grid: (seat, slot)}.
nb::object castle_facts(const State& s) {
    const cc::Castle& castle = s.castle;
    nb::object history = list_of(castle.num_placed, [&](int i) {
        const cc::Placement& p = castle.history[i];
        return tuple_of(3, [&](int j) {
            return py_int(j == 0 ? p.cell : j == 1 ? p.code : p.seat);
        });
    });
    nb::dict followers;
    for (int g = 0; g < cc::NUM_GRID; ++g) {
        if (castle.follower_seat[g] < 0) continue;
        followers[py_int(g)] = tuple_of(2, [&](int j) {
            return py_int(j == 0 ? castle.follower_seat[g] : castle.follower_slot[g]);
        });
    }
    return tuple_of(2, [&](int i) { return i == 0 ? history : nb::object(followers); });
}

// Little-endian bytes of n values of `values`, each converted to T (the item type of the
// Python castle's array.array / bytearray of that buffer).
template <typename T, typename U>
nb::object castle_bytes(const U* values, int n, int size) {
    PyObject* out = PyBytes_FromStringAndSize(nullptr, Py_ssize_t(sizeof(T)) * size);
    if (out == nullptr) throw nb::python_error();
    T* data = reinterpret_cast<T*>(PyBytes_AS_STRING(out));
    if constexpr (std::is_same_v<T, U>) {
        std::memcpy(data, values, sizeof(T) * size_t(n));
    } else {
        for (int i = 0; i < n; ++i) data[i] = static_cast<T>(values[i]);
    }
    for (int i = n; i < size; ++i) data[i] = T(0);
    return nb::steal(out);
}

// A set of grid positions as the Python castle's int (bit g: location g). Most segments
// (every one but a feature's root) hold one location: those ints are made once.
nb::object locs_int(const cc::Locs& locs) {
    static const nb::object* singles = [] {
        auto* out = new nb::object[cc::NUM_GRID];  // kept for the life of the module
        for (int g = 0; g < cc::NUM_GRID; ++g) {
            nb::object one = py_int(1);
            out[g] = nb::steal(PyNumber_Lshift(one.ptr(), py_int(g).ptr()));
            if (!out[g].is_valid()) throw nb::python_error();
        }
        return out;
    }();
    for (int i = 0; i < 3; ++i) {
        const uint64_t w = locs.w[i];
        if (w == 0) continue;
        bool single = (w & (w - 1)) == 0;
        for (int j = i + 1; j < 3; ++j) single = single && locs.w[j] == 0;
        if (single) return singles[64 * i + __builtin_ctzll(w)];
        break;
    }
    if (locs.w[1] == 0 && locs.w[2] == 0) {
        return nb::steal(PyLong_FromUnsignedLongLong(locs.w[0]));
    }
    unsigned char raw[sizeof locs.w];
    for (int i = 0; i < 3; ++i) {
        for (int b = 0; b < 8; ++b) {
            raw[8 * i + b] = static_cast<unsigned char>(locs.w[i] >> (8 * b));
        }
    }
    PyObject* value = _PyLong_FromByteArray(raw, sizeof raw, /*little_endian=*/1, /*is_signed=*/0);
    if (value == nullptr) throw nb::python_error();
    return nb::steal(value);
}

// Every buffer of the Python engine's Castle (castle.py, Castle._build) for this position,
// raw, in its item types: parent, next_seg, seg_grid (bytes of int64), seg_offsets (a list:
// per segment the entry of `slot_offsets`, a tuple of 4096, for its slot set), kind, open, count
// (uint8, seat-major), size (int16), fountain, markets (uint8), locs (list of int), seg_at,
// root_at, code (int64), key (int64, `key_size` entries: the 76 then zeros), num_segments,
// followers ({grid: (seat, slot)}, by grid), history ([(cell, code, seat)]) and board
// (float32: channels 0-97 of seat 0's observation). The glue makes the Castle of them.
nb::object castle_state(const State& s, int key_size, nb::handle slot_offsets) {
    const cc::Castle& c = s.castle;
    if (!PyTuple_Check(slot_offsets.ptr()) ||
        PyTuple_GET_SIZE(slot_offsets.ptr()) != (1 << cc::NUM_SLOTS)) {
        fail_type("slot_offsets", "not a tuple of 4096");
    }
    constexpr int M = cc::MAX_SEGMENTS;
    std::vector<float> observation(cc::OBSERVATION_SIZE);
    s.observation(0, observation.data());
    constexpr int board_size = (cc::STATIC_PLANES + 4 * cc::NUM_SLOTS) * cc::NUM_GRID;
    nb::object history = list_of(c.num_placed, [&](int i) {
        const cc::Placement& p = c.history[i];
        return tuple_of(3, [&](int j) {
            return py_int(j == 0 ? p.cell : j == 1 ? p.code : p.seat);
        });
    });
    nb::dict followers;
    for (int g = 0; g < cc::NUM_GRID; ++g) {
        if (c.follower_seat[g] < 0) continue;
        followers[py_int(g)] = tuple_of(2, [&](int j) {
            return py_int(j == 0 ? c.follower_seat[g] : c.follower_slot[g]);
        });
    }
    nb::object fields[] = {
        castle_bytes<int64_t>(c.parent, M, M),
        castle_bytes<int64_t>(c.next_seg, M, M),
        castle_bytes<int64_t>(c.seg_grid, M, M),
        list_of(M, [&](int i) {
            const int slots = i < c.num_segments ? c.seg_slots[i] & 0xfff : 0;
            return nb::borrow(PyTuple_GET_ITEM(slot_offsets.ptr(), slots));
        }),
        castle_bytes<uint8_t>(c.kind, M, M),
        castle_bytes<int16_t>(c.open, M, M),
        castle_bytes<uint8_t>(&c.count[0][0], cc::NUM_PLAYERS * M, cc::NUM_PLAYERS * M),
        castle_bytes<int16_t>(c.size, M, M),
        castle_bytes<uint8_t>(c.fountain, M, M),
        castle_bytes<uint8_t>(c.markets, M, M),
        list_of(M, [&](int i) { return locs_int(c.locs[i]); }),
        castle_bytes<int64_t>(c.seg_at, cc::NUM_PORTS, cc::NUM_PORTS),
        castle_bytes<int64_t>(c.root_at, cc::NUM_PORTS, cc::NUM_PORTS),
        castle_bytes<int64_t>(c.code, cc::NUM_GRID, cc::NUM_GRID),
        castle_bytes<int64_t>(c.key, cc::NUM_CELLS, std::max(key_size, cc::NUM_CELLS)),
        py_int(c.num_segments),
        followers,
        history,
        castle_bytes<float>(observation.data(), board_size, board_size),
    };
    const int n = static_cast<int>(sizeof fields / sizeof fields[0]);
    return tuple_of(n, [&](int i) { return fields[i]; });
}

// -- the arguments, with the game's own messages (tests/native/test_carcassonne_castle_agents.py)
// A float (or int, not a bool) in 0..1: TypeError "epsilon: not a float", ValueError
// "epsilon: out of range 0..1" (NaN included).
double get_epsilon(nb::handle value) {
    PyObject* v = value.ptr();
    double x;
    if (PyFloat_Check(v)) {
        x = PyFloat_AS_DOUBLE(v);
    } else if (is_int(v)) {
        int64_t i;
        x = read_int64(v, &i) ? double(i) : -1.0;
    } else {
        fail_type("epsilon", "not a float");
    }
    if (!(x >= 0.0 && x <= 1.0)) fail("epsilon", "out of range 0..1");
    return x;
}

// The game's traits: bindings/bind_game.h binds CarcassonneCastleState and its VecEnv from
// them (two players only).
struct CarcassonneCastleTraits : bge_py::GameTraits<CarcassonneCastleTraits> {
    static constexpr const char* kGameName = "carcassonne_castle";
    static constexpr const char* kClassName = "CarcassonneCastleState";
    static constexpr const char* kClassDoc =
        "One position of Carcassonne: The Castle (the compiled engine)";
    using State = cc::State;
    using PyState = cc::State;
    static constexpr int kNumActions = cc::NUM_ACTIONS;
    static constexpr int kObservationSize = cc::OBSERVATION_SIZE;
    static constexpr int kMinPlayers = cc::NUM_PLAYERS;
    static constexpr int kMaxPlayers = cc::NUM_PLAYERS;
    static constexpr bool kLowerScoreWins = false;

    static int num_players(const State&) { return cc::NUM_PLAYERS; }
    static std::string phase_name(const State& s) { return cc::PHASE_NAMES[s.phase]; }
    static void mask(const State& s, uint8_t* out) { s.legal_mask(out); }
    static void encode(const State& s, int seat, float* out) { s.observation(seat, out); }
    static void scores(const State& s, double* out) {
        for (int p = 0; p < cc::NUM_PLAYERS; ++p) out[p] = static_cast<double>(s.scores[p]);
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
        return cc::sample_state(s, seat, rng);
    }
    static void leaf_values(const State& s, double* out) { cc::leaf_values(s, out); }
    static nb::dict to_dict(const State& s) { return ::to_dict(s); }

    // the game's own messages
    static int observed_seat(const State&, nb::handle seat) { return checked_seat(seat); }
    static double epsilon(nb::handle value) { return get_epsilon(value); }

    static void bind_extras(nb::class_<State>& cls) {
        cls.def_static(
               "new_state",
               [](nb::handle num_players, nb::handle seed, nb::handle keep_bonus_tiles,
                  nb::handle wall9_points) {
                   get_int(num_players, "num_players", cc::NUM_PLAYERS, cc::NUM_PLAYERS);
                   const cc::Config config = make_config(keep_bonus_tiles, wall9_points);
                   return State::deal(config, bge::Pcg64::from_entropy(get_seed(seed, "seed")));
               },
               nb::arg("num_players"), nb::arg("seed"),
               nb::arg("keep_bonus_tiles") = cc::KEEP_BONUS_TILES,
               nb::arg("wall9_points") = cc::WALL9_POINTS,
               "A new game (the Python engine's seed and options, checked)")
            .def_static("from_dict", &from_dict, nb::arg("data"),
                        "The state of a to_dict() snapshot, every value checked")
            .def_prop_ro("stack_size", [](const State& s) { return s.stack_size(); })
            .def(
                "view_fields",
                [](const State& s, nb::handle seat, nb::handle mask, nb::handle record_class) {
                    return view_fields(s, checked_seat(seat), mask, record_class);
                },
                nb::arg("seat"), nb::arg("mask"), nb::arg("record_class"),
                "The fields of the Python View after `rules`, in order: `mask` in its place, "
                "the record made by `record_class`, None for the castle")
            .def("castle_facts", &castle_facts,
                 "(placements as (cell, code, seat), followers as {grid: (seat, slot)})")
            .def(
                "castle_state",
                [](const State& s, nb::handle key_size, nb::handle slot_offsets) {
                    return castle_state(s, int(get_int(key_size, "key_size", 0, 1024)),
                                        slot_offsets);
                },
                nb::arg("key_size"), nb::arg("slot_offsets"),
                "Every buffer of the Python engine's Castle, raw (see castle_from_native)")
            .def(
                "placement_values",
                [](const State& s, nb::handle seat) {
                    const int checked = bge_py::seat_of(seat, cc::NUM_PLAYERS);
                    int actions[cc::NUM_PLACEMENTS];
                    double values[cc::NUM_PLACEMENTS];
                    const int n = cc::placement_values(s, checked, actions, values);
                    nb::dict out;
                    for (int i = 0; i < n; ++i) {
                        nb::object value = nb::steal(PyFloat_FromDouble(values[i]));
                        if (!value.is_valid()) throw nb::python_error();
                        out[py_int(actions[i])] = value;
                    }
                    return out;
                },
                nb::arg("seat").none(),
                "HeuristicAgent.placement_values(view of seat): {placement: value}, ascending; "
                "{} where the seat has no placement to choose");
    }
};

}  // namespace

BGE_REGISTER_GAME(CarcassonneCastleTraits, 3);
