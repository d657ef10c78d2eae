// Factors and Multiples: the rule-based player of agents/heuristic/factors_multiples.py (the
// reference), move for move, with the heuristic playouts and the search's static leaf
// evaluation (agents/leaf_values.py) built on it.
//
// The heuristic reads only what the deciding seat's view shows: its own hand, its own pile's
// size, the phase, the value and its legal actions. It draws no random numbers; it takes a
// generator anyway, like every game's heuristic, so that playouts share one signature.
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "games/factors_multiples/state.h"

namespace bge::factors_multiples {

// The reference HeuristicAgent's action for `seat`, the seat to decide of a non-terminal
// state (the caller checks both). `rng` is left as the Python agent leaves its generator:
// untouched. Under k_discard_optional the K player never declines: like the reference, it
// always discards.
int heuristic_action(const State& state, int seat, Pcg64& rng);

// Heuristic moves from `state` to the end, or for `depth` decisions (0: no limit): a forced
// move as it is; otherwise, when epsilon > 0 and rng.random() < epsilon, a uniform legal move
// (legal[rng.integers(len(legal))]); else the heuristic's. One generator for all the draws.
// The decisions played.
int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon);

// agents/leaf_values.py's leaf_evaluator("factors_multiples"): per seat, the mean over the
// other seats of tanh((key[i] - key[j]) / 6), with key = -(match total + cards still to
// shed this round), or minus the match total once the match is over. Writes num_players
// values to `out`.
constexpr double kLeafScoreScale = 6.0;  // SCORE_SCALE["factors_multiples"]
void leaf_values(const State& state, double* out);

}  // namespace bge::factors_multiples
