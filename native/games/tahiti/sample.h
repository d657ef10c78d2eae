// Tahiti: determinization, the twin of boardgame_envs/tahiti/sample.py (spec §7).
//
// sample_state(state, seat, rng) is a full position consistent with what `seat` knows, drawn
// with the same numbers in the same order as the Python determinizer draws them from its numpy
// Generator, so that one generator state gives one sample on both engines. It reads only what
// the seat's view shows: the map, canoes, cargo, charts, the bag's counts, the stack tops and
// sizes, the islands still in the stacks (as a set), the counts of the face-down tokens and the
// seat's own favourite tile. What the seat cannot see is drawn from `rng`:
//
//   keys     rng.random(m + f + p): one uniform key per island below the two stack tops (in
//            ascending id order), per favourite tile not the seat's (in the set's order) and
//            per face-down token (plain ones first); each part is sorted by (key, item)
//   stacks   A: its top, then the first size_A - 1 sorted islands; B: its top, then the rest
//   tiles    the sorted favourites dealt to the other seats in seat order, the rest unused
//   pile     the sorted tokens, top first
//   bag      a new PCG64 seeded with four raw 64-bit draws (rng.bit_generator.random_raw(4)):
//            state (w0 << 64 | w1) and increment (w2 << 64 | w3) as pcg64_set_seed takes them
#pragma once

#include "core/rng.h"
#include "games/tahiti/state.h"

namespace bge::tahiti {

// Any state, terminal ones too; `seat` in 0 .. num_players - 1 (checked by the caller).
State sample_state(const State& state, int seat, Pcg64& rng);

}  // namespace bge::tahiti
