// Cornucopia: the rule-based player of agents/heuristic/cornucopia.py (the reference), move
// for move, the turn outlook search reads from it, playouts with the heuristic, and the static
// leaf evaluation of agents/leaf_values.py.
//
// The heuristic reads only what the deciding seat's view shows (baskets, the deck's and the
// discard pile's compositions, stacks, chips, bid cards won, the turn's bid, placements,
// declared and used red chips, the pending card) and draws no random numbers. Its one tool is
// the completion odds of a target basket (the reference's _Odds): an exact recursion over the
// draws from the deck's composition, memoised per composition. Its arithmetic is done on
// doubles in the reference's order, so that every float it compares rounds as Python's does
// (the build compiles with -ffp-contract=off); the memos only spare work: a value is the same
// whether it was cached or not.
//
//   DECLARE   the red count whose best bid value, less the chips' red-majority cost, is best
//   BID       the bid number whose best target's value (rewards, combination points, the
//             failure penalty) is best
//   BET       the turn player's odds for its bid, shaded by 0.85: YES from one half, a stake
//             of 1-3 by the confidence |2p - 1|
//   CARD      each placement valued by what follows (a completion, a failure, or the best
//             target with one placement fewer), REDRAW by the average next card (skipped
//             when a bound shows it cannot win), FORFEIT by the penalty
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "games/cornucopia/state.h"

namespace bge::cornucopia {

// The reference HeuristicAgent's action for `seat`, the seat to decide of a non-terminal
// state (checked by the caller). The reference draws nothing from its generator, so neither
// does this: `rng` is left as it is.
int heuristic_action(const State& state, int seat, Pcg64& rng);

// HeuristicAgent.turn_outlook(state.view(seat)): (value, success probability) of the best
// bid among the open stacks, as `seat` reckons it (its chips, its bid cards, its redraws).
// Any seat and phase, as the reference allows; search reads it at BID and DECLARE for the
// turn player. Throws std::invalid_argument when no bid stack holds a card (the reference
// fails there too).
struct TurnOutlook {
    double value;
    double p;
};
TurnOutlook turn_outlook(const State& state, int seat);

// Plays in place, to the end or for `depth` decisions (0: no limit): a single legal action is
// played as it is; otherwise, with probability `epsilon` (rng.random() < epsilon), a uniformly
// random legal action (rng.integers), else the heuristic's. The decisions played.
int64_t heuristic_playout(State& state, Pcg64& rng, int64_t depth, double epsilon);

// leaf_evaluator("cornucopia")(state): per seat, the mean over the other seats of
// tanh((key - other key) / 15), the keys being points in hand (blue at a third), red-majority
// and combination points, plus at BID / DECLARE the turn's worth (turn_outlook's value to its
// player, |2p - 1| to each seat that can bet); the scores once the game is over.
void leaf_values(const State& state, double out[kMaxPlayers]);

}  // namespace bge::cornucopia
