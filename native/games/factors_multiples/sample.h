// Factors and Multiples determinization: a full state consistent with one seat's view, the
// same sample as boardgame_envs/factors_multiples/sample.py draws (the reference; its
// docstring says what a seat cannot see and how each part is drawn) from a generator in the
// same state, leaving the generator in the same state.
#pragma once

#include "core/rng.h"
#include "games/factors_multiples/state.h"

namespace bge::factors_multiples {

// Deals tried for the reachability condition before the last one is kept (_MAX_DEALS).
constexpr int kMaxDeals = 200;

// A full State showing `seat` (checked by the caller; any seat, the match may be over)
// exactly its view of `state`; the hidden parts from `rng`. Reads only what that view shows.
// std::invalid_argument with the reference's "inconsistent view: ..." message for a view no
// play reaches (a hand-built position whose revealed cards or zone sizes do not add up).
State sample_state(const State& state, int seat, Pcg64& rng);

}  // namespace bge::factors_multiples
