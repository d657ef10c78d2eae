// Wasabi!: the rule-based player of agents/heuristic/wasabi.py (the reference), move for
// move, with its board value (what the search's leaf evaluation reads), the heuristic
// playouts and the search's static leaf evaluation (agents/leaf_values.py) built on it.
//
// The player reads only what the deciding seat's view shows: the board (stacks, Wasabi!
// cards), the pantry, its own hand, cards and menu, every seat's tokens, completed recipes
// and menu lengths, the other seats' hands unless hide_opponent_hands, the turn context and
// its legal actions. It draws no random numbers; it takes a generator anyway, like every
// game's heuristic, so that playouts share one signature.
//
// Every float is computed in the reference's order of operations (the build has no fused
// multiply-add), so the scores, and so the choices among near-equal moves, are the same
// doubles. The one place where Python's order is not written in the source is the product
// of the supplies of a recipe's missing kinds (`kind_set.difference(present)`): it follows
// CPython's iteration order of that frozenset, reproduced in heuristic.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "core/rng.h"
#include "games/wasabi/state.h"

namespace bge::wasabi {

// The reference HeuristicAgent's act(state.view(seat)) for `seat`, the seat to decide of a
// non-terminal state (the caller checks both). `rng` is left as the Python agent leaves its
// generator: untouched.
int heuristic_action(const State& state, int seat, Pcg64& rng);

// The reference's board value for `seat` (any seat, any position): planner._setup(
// state.view(seat)) then planner.value_now(), the sum of its live recipes' best windows.
double board_value(const State& state, int seat);

// Heuristic moves from `state` to the end, or for `depth` decisions (0: no limit): a forced
// move as it is; otherwise, when epsilon > 0 and rng.random() < epsilon, a uniform legal move
// (legal[rng.integers(len(legal))]); else the heuristic's. One generator for all the draws.
// The decisions played.
int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon);

// agents/leaf_values.py's leaf_evaluator("wasabi"): per seat, the mean over the other seats
// of tanh((key[i] - key[j]) / 5), with key = the score keys (score, cubes breaking ties)
// plus PROGRESS_WORTH times the seat's board value while the game goes on.
constexpr double kLeafScoreScale = 5.0;  // SCORE_SCALE["wasabi"]
constexpr double kProgressWorth = 0.5;   // PROGRESS_WORTH
std::vector<double> leaf_values(const State& state);

}  // namespace bge::wasabi
