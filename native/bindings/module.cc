// boardgame_envs._native: the compiled engines. The bindings/ folder is the only code that
// knows Python; each game's file binds its State, and this one gathers them.
#include <nanobind/nanobind.h>

namespace nb = nanobind;

void bind_core(nb::module_& m);
#define BGE_GAME(name) void bind_##name(nb::module_& m);
BGE_GAME(factors_multiples)
BGE_GAME(cornucopia)
BGE_GAME(carcassonne_castle)
BGE_GAME(tahiti)
BGE_GAME(wasabi)
#undef BGE_GAME

NB_MODULE(_native, m) {
    m.doc() = "boardgame-envs native engines (C++17); see docs/architecture.md";
    bind_core(m);
    nb::list games;
#ifdef BGE_HAVE_factors_multiples
    bind_factors_multiples(m);
    games.append("factors_multiples");
#endif
#ifdef BGE_HAVE_cornucopia
    bind_cornucopia(m);
    games.append("cornucopia");
#endif
#ifdef BGE_HAVE_carcassonne_castle
    bind_carcassonne_castle(m);
    games.append("carcassonne_castle");
#endif
#ifdef BGE_HAVE_tahiti
    bind_tahiti(m);
    games.append("tahiti");
#endif
#ifdef BGE_HAVE_wasabi
    bind_wasabi(m);
    games.append("wasabi");
#endif
    m.attr("GAMES") = nb::tuple(games);
#ifdef NDEBUG
    m.attr("BUILD") = "release";
#else
    m.attr("BUILD") = "debug";
#endif
}
