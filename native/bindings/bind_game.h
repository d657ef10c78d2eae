// One binding for every game: bind_game<Game>(m) makes the game's state class with the rules
// contract's methods (the ones boardgame_envs/core/native_state.py, the agents and the tests
// call), its heuristic, playouts, determinizer and leaf values, and its batched env. A game's
// own file, native/games/<game>/binding.cc, holds only what is its own: a traits struct (its
// names, types, engine calls, snapshot, extra methods) and BGE_REGISTER_GAME. module.cc binds
// every registered game; nothing here or there names one.
//
// A game's traits struct derives from bge_py::GameTraits<itself> (the defaults below) and has:
//   names      kGameName (its entry of _native.GAMES), kClassName, kClassDoc
//   types      State (the engine's state), PyState (what Python holds: State itself by
//              default; a game may wrap it with caches and give unwrap / wrap)
//   sizes      kNumActions, kObservationSize, kMinPlayers, kMaxPlayers, kLowerScoreWins
//   the engine num_players, mask (kNumActions bytes, 0/1), encode, scores, heuristic,
//              playout, heuristic_playout, sample, leaf_values; phase_name, truncated,
//              score_keys and scores_known_to where the defaults are not the game's;
//              and State's current_player(), is_terminal(), is_legal(a), apply(a)
//   snapshots  to_dict(const PyState&)
//   the rest   bind_extras(nb::class_<PyState>&): new_state and from_dict (their arguments are
//              the game's options), view_fields (the layout of the game's View), and any
//              method only that game's glue calls
// core/vec_env.h's batched env reads the same struct.
//
// Every value from Python is checked before an engine sees it: by the readers below (a game
// replaces one where its messages differ; tests/native pin them), and by the game's own
// readers in bind_extras. The nanobind type name of a traits struct must be unique (name it
// after the game): nanobind tells bound classes apart by their type names.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings/common.h"
#include "bindings/vec_env.h"
#include "core/rng.h"

namespace bge_py {

namespace nb = nanobind;

// The defaults of a game's traits (CRTP: Game is the traits struct deriving from this one).
// A function the traits declare under the same name hides the default.
template <class Game>
struct GameTraits {
    // -- the state Python holds -----------------------------------------------------------
    template <class PyState>
    static PyState& unwrap(PyState& state) {
        return state;
    }
    template <class State>
    static State wrap(const State& state) {
        return state;
    }

    // -- the engine -----------------------------------------------------------------------
    template <class State>
    static std::string phase_name(const State& s) {
        return s.phase_name();
    }
    // Ended by a safety cap (a round limit) rather than by the rules' end.
    template <class State>
    static bool truncated(const State&) {
        return false;
    }
    // State._score_keys(): the scores oriented so that higher is better.
    template <class State>
    static void score_keys(const State& s, double* out) {
        Game::scores(s, out);
        const double sign = Game::kLowerScoreWins ? -1.0 : 1.0;
        for (int p = 0; p < Game::num_players(s); ++p) out[p] = sign * out[p];
    }
    // State.scores_known_to(seat): the scores as `seat` may know them, for the env's score
    // shaping. The scores themselves where every part of them is public.
    template <class State>
    static void scores_known_to(const State& s, int /*seat*/, double* out) {
        Game::scores(s, out);
    }

    // -- the readers of the contract's arguments ---------------------------------------------
    // An action for is_legal: true and its index for an int (any size, not a bool) in range;
    // false for any other object, which is simply not legal.
    static bool queried_action(nb::handle action, int* out) {
        return action_of(action, Game::kNumActions, out);
    }

    // An action for apply, which must be legal: TypeError "action: not an int", else
    // ValueError "action is not legal in phase <phase>".
    template <class State>
    static int applied_action(const State& s, nb::handle action) {
        if (!is_int(action)) fail_type("action", "not an int");
        int a;
        if (!action_of(action, Game::kNumActions, &a) || !s.is_legal(a)) {
            throw std::invalid_argument("action is not legal in phase " + Game::phase_name(s));
        }
        return a;
    }

    // The seat of observation(seat): seat_of's TypeError and IndexError.
    template <class State>
    static int observed_seat(const State& s, nb::handle seat) {
        return seat_of(seat, Game::num_players(s));
    }

    // default_rng(seed) of a playout, for an int seed 0 <= seed < 2**256.
    static bge::Pcg64 playout_rng(nb::handle seed) {
        return bge::Pcg64::from_entropy(get_seed_words(seed, "seed", 8));
    }

    // A playout's depth: an int >= 0 (0: to the end).
    static int64_t depth(nb::handle depth) { return get_int(depth, "depth", 0, INT64_MAX); }

    // A heuristic playout's epsilon: an int or float (not a bool) from 0 to 1.
    static double epsilon(nb::handle value) {
        PyObject* v = value.ptr();
        double x = -1.0;
        if (PyFloat_Check(v)) {
            x = PyFloat_AS_DOUBLE(v);
        } else if (is_int(v)) {
            x = PyLong_AsDouble(v);
            if (x == -1.0 && PyErr_Occurred()) {
                PyErr_Clear();
                x = -1.0;
            }
        } else {
            fail_type("epsilon", "not a number");
        }
        if (!(x >= 0.0 && x <= 1.0)) fail("epsilon", "out of range 0..1");
        return x;
    }
};

// The seat to decide of a position that is not over, for the heuristic: seat_of's TypeError /
// IndexError for what is not a seat, ValueError "the game is over" or "seat N is not the seat
// to decide (M)".
template <class Game, class State>
int deciding_seat(const State& s, nb::handle seat) {
    const int checked = seat_of(seat, Game::num_players(s));
    if (s.is_terminal()) throw std::invalid_argument("the game is over");
    if (checked != s.current_player()) {
        throw std::invalid_argument("seat " + std::to_string(checked) +
                                    " is not the seat to decide (" +
                                    std::to_string(s.current_player()) + ")");
    }
    return checked;
}

// n doubles as a list of floats.
inline nb::list float_list(const double* values, int n) {
    nb::object out = list_of(n, [&](int i) {
        PyObject* value = PyFloat_FromDouble(values[i]);
        if (value == nullptr) throw nb::python_error();
        return nb::steal(value);
    });
    return nb::steal<nb::list>(out.release());
}

template <class Game>
void bind_game(nb::module_& m) {
    using PyState = typename Game::PyState;
    // Game::unwrap(p) is the engine's state in what Python holds (const where p is).
    nb::class_<PyState> cls(m, Game::kClassName, Game::kClassDoc);
    cls.def_prop_ro("num_players",
                    [](const PyState& p) { return Game::num_players(Game::unwrap(p)); })
        .def_prop_ro(
            "current_player", [](const PyState& p) { return Game::unwrap(p).current_player(); },
            "the seat to decide; -1 once the game is over")
        .def_prop_ro(
            "truncated", [](const PyState& p) { return Game::truncated(Game::unwrap(p)); },
            "over by a safety cap rather than by the rules")
        .def("is_terminal", [](const PyState& p) { return Game::unwrap(p).is_terminal(); })
        .def("phase_name", [](const PyState& p) { return Game::phase_name(Game::unwrap(p)); })
        .def(
            "is_legal",
            [](const PyState& p, nb::handle action) {
                int a;
                return Game::queried_action(action, &a) && Game::unwrap(p).is_legal(a);
            },
            nb::arg("action").none())
        .def("legal_mask",
             [](const PyState& p) {
                 uint8_t mask[Game::kNumActions];
                 Game::mask(Game::unwrap(p), mask);
                 return bool_array(mask, Game::kNumActions);
             })
        .def(
            "legal_actions",
            [](const PyState& p) {
                uint8_t mask[Game::kNumActions];
                Game::mask(Game::unwrap(p), mask);
                int legal[Game::kNumActions];
                int count = 0;
                for (int a = 0; a < Game::kNumActions; ++a) {
                    if (mask[a]) legal[count++] = a;
                }
                return int_list(legal, count);
            },
            "the legal actions, ascending (a list)")
        .def(
            "apply",
            [](PyState& p, nb::handle action) {
                auto& s = Game::unwrap(p);
                s.apply(Game::applied_action(s, action));
            },
            nb::arg("action").none(), "play `action`, which must be legal")
        .def(
            "try_apply",
            [](PyState& p, nb::handle action) {
                auto& s = Game::unwrap(p);
                int a;
                if (!action_of(action, Game::kNumActions, &a) || !s.is_legal(a)) return false;
                s.apply(a);
                return true;
            },
            nb::arg("action").none(),
            "apply(action) if it is a legal int; whether it was (nothing changes otherwise)")
        .def("clone", [](const PyState& p) { return PyState(p); }, "an independent copy")
        .def("scores",
             [](const PyState& p) {
                 const auto& s = Game::unwrap(p);
                 double values[Game::kMaxPlayers];
                 Game::scores(s, values);
                 return float_list(values, Game::num_players(s));
             })
        .def(
            "observation",
            [](const PyState& p, nb::handle seat) {
                const auto& s = Game::unwrap(p);
                const int checked = Game::observed_seat(s, seat);
                float* data;
                auto array = new_array<float>(Game::kObservationSize, &data);
                Game::encode(s, checked, data);
                return array;
            },
            nb::arg("seat").none(), "the observation tensor of `seat` (a new float32 array)")
        .def(
            "to_dict", [](const PyState& p) { return Game::to_dict(p); },
            "the snapshot, as the Python engine's to_dict() writes it")
        // Playouts run without the GIL: other Python threads go on meanwhile.
        .def(
            "playout",
            [](PyState& p, nb::handle seed, nb::handle depth) {
                bge::Pcg64 rng = Game::playout_rng(seed);
                const int64_t limit = Game::depth(depth);
                nb::gil_scoped_release release;
                return Game::playout(Game::unwrap(p), rng, limit);
            },
            nb::arg("seed").none(), nb::arg("depth").none() = 0,
            "random legal moves from default_rng(seed) as State.playout plays them, to the end "
            "or for `depth` decisions (0: no limit); the decisions played")
        // -- the agents' hot paths: the heuristic, its playouts, the determinizer, leaf values
        .def(
            "heuristic_action",
            [](const PyState& p, nb::handle seat, nb::handle rng) {
                const auto& s = Game::unwrap(p);
                const int checked = deciding_seat<Game>(s, seat);
                const int action = Game::heuristic(s, checked, pcg64_ref(rng, "rng"));
                if (action < 0) throw std::invalid_argument("the position has no legal action");
                return action;
            },
            nb::arg("seat").none(), nb::arg("rng").none(),
            "the move of the game's reference HeuristicAgent for `seat`, the seat to decide; "
            "`rng` (a Pcg64) advanced in place as the agent's generator would be")
        .def(
            "heuristic_playout",
            [](PyState& p, nb::handle seed, nb::handle depth, nb::handle epsilon) {
                bge::Pcg64 rng = Game::playout_rng(seed);
                const int64_t limit = Game::depth(depth);
                const double eps = Game::epsilon(epsilon);
                nb::gil_scoped_release release;
                return Game::heuristic_playout(Game::unwrap(p), rng, limit, eps);
            },
            nb::arg("seed").none(), nb::arg("depth").none() = 0, nb::arg("epsilon").none() = 0.0,
            "heuristic moves for every seat (a uniform legal move with probability epsilon), "
            "one generator seeded as playout's, to the end or for `depth` decisions; the "
            "decisions played")
        .def(
            "sample",
            [](const PyState& p, nb::handle seat, nb::handle rng) {
                const auto& s = Game::unwrap(p);
                const int checked = seat_of(seat, Game::num_players(s));
                return Game::wrap(Game::sample(s, checked, pcg64_ref(rng, "rng")));
            },
            nb::arg("seat").none(), nb::arg("rng").none(),
            "rules.sample_state(view of `seat`, rng): a full position consistent with the "
            "view, drawn from `rng` (a Pcg64, advanced in place) as the Python determinizer "
            "draws from a numpy Generator")
        .def(
            "leaf_values",
            [](const PyState& p) {
                const auto& s = Game::unwrap(p);
                double values[Game::kMaxPlayers];
                Game::leaf_values(s, values);
                return float_list(values, Game::num_players(s));
            },
            "agents.leaf_values.leaf_evaluator(game)(state): per seat, a value in [-1, 1]; "
            "self unchanged");
    Game::bind_extras(cls);
    bind_vec_env<Game>(cls);
}

// -- registration (OpenSpiel's REGISTER_SPIEL_GAME) --------------------------------------------
// Each game's binding file registers its traits with BGE_REGISTER_GAME(Traits, position);
// module.cc binds the registered games in the order of their positions, which is the order
// of _native.GAMES (the order the games joined the project). Static objects register before
// the module initialises; the list is read, never changed, after that.
struct RegisteredGame {
    const char* name;
    int position;
    void (*bind)(nb::module_&);
};

inline std::vector<RegisteredGame>& game_registry() {
    static std::vector<RegisteredGame> games;  // built during static initialisation
    return games;
}

// The registered games, by position.
inline std::vector<RegisteredGame> registered_games() {
    std::vector<RegisteredGame> games = game_registry();
    std::stable_sort(games.begin(), games.end(),
                     [](const RegisteredGame& a, const RegisteredGame& b) {
                         return a.position < b.position;
                     });
    return games;
}

struct GameRegistrar {
    GameRegistrar(const char* name, int position, void (*bind)(nb::module_&)) {
        game_registry().push_back({name, position, bind});
    }
};

}  // namespace bge_py

// In a game's binding file, at namespace scope: registers bind_game<Traits> under
// Traits::kGameName, at `position` in _native.GAMES.
#define BGE_REGISTER_GAME(Traits, position)                                              \
    static const ::bge_py::GameRegistrar bge_game_registrar_##Traits(                    \
        Traits::kGameName, position, &::bge_py::bind_game<Traits>)
