// Wasabi!: the observation tensor of one seat, equal to boardgame_envs/wasabi/encoding.py's
// encode(view) value for value (float32[2197]; the layout table is that module's docstring).
//
//   0-1679     board planes [40, 6, 7] (top kind, kind below, height / 4, covered, anchor,
//              active, empty target, pending selection)
//   1680-2196  features: own hand, menu, marks, tokens and stats; opponents by relative
//              seat; supplies; decision point; turn context; gift; lifted; seating; turn;
//              pending kind
#pragma once

#include "games/wasabi/state.h"

namespace bge::wasabi {

constexpr int NUM_PLANES = 40;
constexpr int OBSERVATION_SIZE = 2197;

// The observation of a seat (0 <= seat < num_players) into out[OBSERVATION_SIZE].
void encode(const State& state, int seat, float* out);

}  // namespace bge::wasabi
