// Determinization (spec §7): a full state drawn from what one seat knows, the twin of
// boardgame_envs/carcassonne_castle/sample.py: the same numbers drawn from a bge::Pcg64 in
// the same order as the Python code draws them from its numpy Generator, so that the same
// generator state gives the same position.
//
// Nothing in this game belongs to one player only; what nobody sees is the order of the
// draw stack (its composition, `unseen`, is public) and the kinds of the face-down wall
// tiles (on the stocked corners and in the box; the unseen kinds are the 18 wall tiles
// minus those held and used, all public). One key per tile of the stack and per unseen wall
// tile, rng.random() each, in that order (the stack's tiles by type, then the wall kinds
// ascending); the wall tiles' keys raised by 1; one argsort: the stack is the first part,
// then the stocked corners in corner order, then the box. Every other fact is copied.
#pragma once

#include "core/rng.h"
#include "games/carcassonne_castle/state.h"

namespace bge::carcassonne_castle {

// rules.sample_state(state.view(seat), rng): any seat (every fact but the hidden ones is
// public, so the seat changes nothing), terminal states too.
State sample_state(const State& s, int seat, Pcg64& rng);

}  // namespace bge::carcassonne_castle
