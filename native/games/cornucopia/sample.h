// Cornucopia's determinizer: boardgame_envs/cornucopia/sample.py (the reference), draw for
// draw. A full position showing `seat` exactly its view, the hidden parts drawn from `rng`
// in the reference's order:
//
//   1. the generator of later reshuffles: a fresh seed, rng.integers(2**63)
//      (shuffles = 1 + exhaustions, as a dealt game has);
//   2. each bet of another seat that `seat` cannot see yet (BET phase, before REVEAL), in the
//      bet order: rng.integers(2 * stakes) over (side, stake), stakes 1..3 within its funds;
//   3. the deck order: rng.shuffle of its composition laid out by type (W, C, P, T, E, G).
//
// Everything else is the view's; the bet order follows from it (the eligible bettors while
// betting, the seats with a bet in sight after).
#pragma once

#include "core/rng.h"
#include "games/cornucopia/state.h"

namespace bge::cornucopia {

// rules.sample_state(state.view(seat), rng): any seat in 0..num_players-1 (checked by the
// caller), terminal positions included.
State sample(const State& state, int seat, Pcg64& rng);

}  // namespace bge::cornucopia
