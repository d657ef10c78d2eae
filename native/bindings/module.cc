// boardgame_envs._native: the compiled engines. Each game's binding file
// (native/games/<game>/binding.cc) registers its traits with BGE_REGISTER_GAME; this module
// binds the shared core and then every game registered in this build, so that the games
// compiled in (CMake finds them; a development build may pick some) are the games it has.
#include <nanobind/nanobind.h>

#include "bindings/bind_game.h"

namespace nb = nanobind;

void bind_core(nb::module_& m);

NB_MODULE(_native, m) {
    m.doc() = "boardgame-envs native engines (C++17); see docs/architecture.md";
    bind_core(m);
    nb::list games;
    for (const bge_py::RegisteredGame& game : bge_py::registered_games()) {
        game.bind(m);
        games.append(game.name);
    }
    m.attr("GAMES") = nb::tuple(games);
    m.attr("__version__") = BGE_VERSION;
#ifdef NDEBUG
    m.attr("BUILD") = "release";
#else
    m.attr("BUILD") = "debug";
#endif
}
