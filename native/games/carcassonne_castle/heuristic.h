// The rule-based player of agents/heuristic/carcassonne_castle.py in C++: the same move in
// every position, the same random numbers drawn in the same order (bge::Pcg64 for the
// agent's numpy Generator), reading only what the seat's view shows (the public castle,
// scores, supplies, stocked corners, the drawn tile, the stack's size; never the stack order
// or the face-down wall tiles). See the Python module for the strategy; the functions here
// carry its names (_place, _values, _placement_value, _follower, _order, _surroundings,
// _lay, _merge).
//
// Float arithmetic is done in the reference's order (the build has -ffp-contract=off). The
// one order the reference does not spell out is the iteration order of a Python set of
// feature roots, over which it sums the values of unfinished features: PySetOrder below
// reproduces CPython 3.11's set table for small ints.
//
// Also here: heuristic playouts (the loop the search's rollouts play) and the search's
// static leaf evaluation (agents/leaf_values.py: _carcassonne_expected through
// pairwise_evaluator, scale 25).
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "games/carcassonne_castle/state.h"

namespace bge::carcassonne_castle {

// HeuristicAgent.act(state.view(seat)) with the agent's rng: the seat must be the seat to
// decide of a non-terminal state (checked by the caller). -1 where there is no legal action
// (no loaded position is left without one).
int heuristic_action(const State& s, int seat, Pcg64& rng);

// HeuristicAgent.placement_values(state.view(seat)): the legal placements (ascending) and
// the value _place gives each, without the random tie-break; returns how many (0 where the
// seat has no placement to choose: another phase, or not its turn).
int placement_values(const State& s, int seat, int actions[NUM_PLACEMENTS],
                     double values[NUM_PLACEMENTS]);

// Plays from s, as the Python loop does with one generator for the epsilon draws and the
// heuristic's own: while not terminal and (depth == 0 or played < depth): a single legal
// action is played; else with epsilon > 0 and rng.random() < epsilon a uniform one
// (rng.integers(n)); else heuristic_action. Returns the decisions played.
int64_t heuristic_playout(State& s, Pcg64& rng, int64_t depth, double epsilon);

// leaf_evaluator("carcassonne_castle")(state): per seat, the tanh of the difference of the
// expected final scores over 25; s is not changed.
void leaf_values(const State& s, double out[NUM_PLAYERS]);

}  // namespace bge::carcassonne_castle
