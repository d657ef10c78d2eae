// Wasabi! determinization: a full state consistent with one seat's view, the same sample as
// boardgame_envs/wasabi/sample.py draws (the reference; its docstring says what a seat cannot
// see and how each part is drawn) from a generator in the same state, leaving the generator
// in the same state.
//
// The draws, in the reference's order: at PLACE_TARGET under hide_opponent_hands, for a seat
// that is not placing, the hidden kind (rng.integers over the kinds of the unseen tiles);
// then one rng.random() per unseen component (the recipes of the other menus and the decks,
// then under hide_opponent_hands the hidden tiles and cards), which sorted with the
// components' parts deal each part in uniform order; during the setup under
// hide_opponent_hands, rng.permutation of the hidden tiles until no hidden hand holds two
// tiles of one kind.
#pragma once

#include "core/rng.h"
#include "games/wasabi/state.h"

namespace bge::wasabi {

// A full State showing `seat` (checked by the caller; any seat, the game may be over)
// exactly its view of `state`; the hidden parts from `rng`. Reads only what that view shows.
// std::invalid_argument with the reference's message for a view whose unseen components do
// not fill the hidden places (not reachable from a validated position).
State sample_state(const State& state, int seat, Pcg64& rng);

}  // namespace bge::wasabi
