// Tahiti: the rule-based player of agents/heuristic/tahiti.py (the reference), move for move,
// the static leaf evaluation of agents/leaf_values.py, and playouts with the heuristic.
//
// The heuristic reads only what the deciding seat's view shows (the board, every canoe, cargo
// and chart, the bag's counts, the stack tops, its own favourite tile) and draws no random
// numbers. Its arithmetic is done on doubles in the reference's order, so that every float it
// compares rounds as Python's does (the build compiles with -ffp-contract=off):
//
//   worth      one more cube of each kind: 1, +2 / +1 for a favourite that reaches the top /
//              second count, + the kind's share of the next set bonus step
//   routes     Dijkstra over the placed tiles, a step costing 1 + 1.5 risk reefs, popped in
//              heapq's order of (cost, cell, first direction)
//   phases     ACTION (deliver, harvest, head home / to the best island, fish, end), Haumea
//              (closest to home and canoe), STACK (the top worth more), PLACE (closest, fewest
//              reefs facing tiles), BOUNTY_PLACE / DEPLETE (by route cost from the canoe)
#pragma once

#include "core/rng.h"
#include "games/tahiti/state.h"

namespace bge::tahiti {

// The reference HeuristicAgent's action for `seat`, the seat to decide of a non-terminal state
// (checked by the caller). The reference draws nothing from its generator, so neither does
// this: `rng` is left as it is.
int heuristic_action(const State& state, int seat, Pcg64& rng);

// Plays in place, to the end or for `depth` decisions (0: no limit): a single legal action is
// played as it is; otherwise, with probability `epsilon` (rng.random() < epsilon), a uniformly
// random legal action (rng.integers), else the heuristic's. The decisions played.
int heuristic_playout(State& state, Pcg64& rng, int depth, double epsilon);

// leaf_evaluator("tahiti")(state): per seat, the mean over the other seats of
// tanh((key - other key) / 5), the keys being the mean of the final scoring of the charts with
// and without the cargo aboard (the scores themselves once the game is over).
void leaf_values(const State& state, double out[4]);

}  // namespace bge::tahiti
