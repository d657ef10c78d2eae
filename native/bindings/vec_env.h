// The Python face of bge::VecEnv (core/vec_env.h): `<Game>State.VecEnv`, the compiled half of
// boardgame_envs.vector. bind_game (bindings/bind_game.h) adds it to every game's state class
// with bind_vec_env<Traits>(state_class), Traits being the game's traits: what core/vec_env.h
// asks of a game, plus PyState (the class Python holds) and unwrap / wrap between the two.
// Every game's VecEnv is a class of its own (bge::VecEnv<Traits>), told apart by nanobind by
// its traits' type name.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "bindings/common.h"
#include "core/rng.h"
#include "core/vec_env.h"

namespace bge_py {

namespace nb = nanobind;

template <typename T, typename... Shape>
using CArray = nb::ndarray<T, nb::c_contig, nb::device::cpu, Shape...>;

// The rows of the caller's arrays, checked: shapes (num_envs x row, num_envs x actions,
// num_envs) and dtypes (float32, uint8) exactly as boardgame_envs.vector allocates them.
template <class Env>
bge::VecBuffers checked_buffers(const Env& env, CArray<float, nb::ndim<2>> observations,
                                CArray<uint8_t, nb::ndim<2>> masks,
                                CArray<float, nb::ndim<1>> rewards,
                                CArray<uint8_t, nb::ndim<1>> terminated,
                                CArray<uint8_t, nb::ndim<1>> truncated,
                                CArray<uint8_t, nb::ndim<1>> illegal) {
    const size_t n = static_cast<size_t>(env.num_envs());
    auto check = [&](bool ok, const char* name, const std::string& want) {
        if (!ok) throw std::invalid_argument(std::string(name) + ": must have shape " + want);
    };
    const std::string rows = "(" + std::to_string(n) + ", ";
    check(observations.shape(0) == n &&
              observations.shape(1) == static_cast<size_t>(env.row_size()),
          "observations", rows + std::to_string(env.row_size()) + ")");
    check(masks.shape(0) == n && masks.shape(1) == static_cast<size_t>(Env::kNumActions), "masks",
          rows + std::to_string(Env::kNumActions) + ")");
    const std::string flat = "(" + std::to_string(n) + ",)";
    check(rewards.shape(0) == n, "rewards", flat);
    check(terminated.shape(0) == n, "terminated", flat);
    check(truncated.shape(0) == n, "truncated", flat);
    check(illegal.shape(0) == n, "illegal", flat);
    return {observations.data(), masks.data(), rewards.data(),
            terminated.data(),   truncated.data(), illegal.data()};
}

inline bool get_flag(nb::handle value, const char* field) {
    if (!PyBool_Check(value.ptr())) fail_type(field, "not a bool");
    return value.ptr() == Py_True;
}

template <class Traits>
void bind_vec_env(nb::handle state_class) {
    using Env = bge::VecEnv<Traits>;
    using PyState = typename Traits::PyState;
    nb::class_<Env>(state_class, "VecEnv",
                    "A batch of single-learner games stepped in one call (boardgame_envs.vector)")
        .def(
            "__init__",
            [](Env* self, nb::handle num_envs, nb::handle num_players, nb::handle observe_mask,
               nb::handle hint, nb::handle score_reward, nb::handle score_scale,
               nb::handle max_steps) {
                const int n = static_cast<int>(get_int(num_envs, "num_envs", 1, 1 << 20));
                bge::VecConfig config;
                config.num_players = static_cast<int>(
                    get_int(num_players, "num_players", Traits::kMinPlayers, Traits::kMaxPlayers));
                config.observe_mask = get_flag(observe_mask, "observe_mask");
                config.hint = get_flag(hint, "hint");
                config.score_reward = get_flag(score_reward, "score_reward");
                if (!PyFloat_Check(score_scale.ptr())) fail_type("score_scale", "not a float");
                config.score_scale = PyFloat_AsDouble(score_scale.ptr());
                config.max_steps = get_int(max_steps, "max_steps", 1, INT64_MAX);
                new (self) Env(n, config);
            },
            nb::arg("num_envs").none(), nb::arg("num_players").none(),
            nb::arg("observe_mask").none(), nb::arg("hint").none(), nb::arg("score_reward").none(),
            nb::arg("score_scale").none(), nb::arg("max_steps").none())
        .def_prop_ro("num_envs", &Env::num_envs)
        .def_prop_ro("row_size", &Env::row_size)
        .def(
            "start",
            [](Env& env, nb::handle index, const PyState& state, nb::handle learner,
               nb::handle policies, nb::handle rng_index, nb::handle rngs, nb::handle hint_rng,
               CArray<float, nb::ndim<2>> observations, CArray<uint8_t, nb::ndim<2>> masks,
               CArray<float, nb::ndim<1>> rewards, CArray<uint8_t, nb::ndim<1>> terminated,
               CArray<uint8_t, nb::ndim<1>> truncated, CArray<uint8_t, nb::ndim<1>> illegal) {
                const int i = static_cast<int>(get_int(index, "index", 0, env.num_envs() - 1));
                const bge::VecBuffers out = checked_buffers(env, observations, masks, rewards,
                                                            terminated, truncated, illegal);
                const typename Traits::State& s = Traits::unwrap(state);
                const int n = env.num_players();
                if (Traits::num_players(s) != n) {
                    fail("state", "has " + std::to_string(Traits::num_players(s)) +
                                      " players, not " + std::to_string(n));
                }
                bge::VecStart start;
                start.learner = static_cast<int>(get_int(learner, "learner", 0, n - 1));
                const Seq generators = get_seq(rngs, "rngs", -1, n);
                for (Py_ssize_t k = 0; k < generators.size; ++k) {
                    start.rngs[k] = pcg64_ref(generators[k], "rngs");
                }
                const Seq kinds = get_seq(policies, "policies", n);
                const Seq indices = get_seq(rng_index, "rng_index", n);
                for (int seat = 0; seat < n; ++seat) {
                    start.policy[seat] =
                        static_cast<bge::OpponentPolicy>(get_int(kinds[seat], "policies", 0, 1));
                    const int64_t last = std::max<Py_ssize_t>(generators.size, 1) - 1;
                    start.rng_index[seat] =
                        static_cast<int>(get_int(indices[seat], "rng_index", 0, last));
                }
                if (hint_rng.ptr() != Py_None) start.hint_rng = pcg64_ref(hint_rng, "hint_rng");
                return env.start(i, s, start, out);
            },
            nb::arg("index").none(), nb::arg("state"), nb::arg("learner").none(),
            nb::arg("policies").none(), nb::arg("rng_index").none(), nb::arg("rngs").none(),
            nb::arg("hint_rng").none(), nb::arg("observations"), nb::arg("masks"),
            nb::arg("rewards"), nb::arg("terminated"), nb::arg("truncated"), nb::arg("illegal"),
            "Env `index` begins the game `state` (copied), seat `learner` learning, seat s "
            "played by policies[s] (0 random, 1 heuristic) drawing from rngs[rng_index[s]]; "
            "True when the learner is to decide")
        .def(
            "step",
            [](Env& env, CArray<const int64_t, nb::ndim<1>> actions,
               CArray<float, nb::ndim<2>> observations, CArray<uint8_t, nb::ndim<2>> masks,
               CArray<float, nb::ndim<1>> rewards, CArray<uint8_t, nb::ndim<1>> terminated,
               CArray<uint8_t, nb::ndim<1>> truncated, CArray<uint8_t, nb::ndim<1>> illegal) {
                if (actions.shape(0) != static_cast<size_t>(env.num_envs())) {
                    fail("actions", "must have shape (" + std::to_string(env.num_envs()) + ",)");
                }
                const bge::VecBuffers out = checked_buffers(env, observations, masks, rewards,
                                                            terminated, truncated, illegal);
                for (int i = 0; i < env.num_envs(); ++i) {
                    if (!env.started(i)) {
                        fail("step", "env " + std::to_string(i) +
                                         " has no game under way: start one first");
                    }
                }
                env.step(actions.data(), out);
            },
            nb::arg("actions"), nb::arg("observations"), nb::arg("masks"), nb::arg("rewards"),
            nb::arg("terminated"), nb::arg("truncated"), nb::arg("illegal"),
            "One learner action per env; every env stepped, its row written")
        .def(
            "state",
            [](const Env& env, nb::handle index) {
                const int i = static_cast<int>(get_int(index, "index", 0, env.num_envs() - 1));
                return Traits::wrap(env.state(i));
            },
            nb::arg("index").none(), "A copy of env `index`'s game")
        .def(
            "learner",
            [](const Env& env, nb::handle index) {
                return env.learner(
                    static_cast<int>(get_int(index, "index", 0, env.num_envs() - 1)));
            },
            nb::arg("index").none());
}

}  // namespace bge_py
