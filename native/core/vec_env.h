// A batch of single-learner games stepped in one call: the compiled half of
// boardgame_envs.vector (the Python half draws the seeds, builds each new game and pays the
// outcome rewards, exactly as boardgame_envs.core.single_agent.SingleAgentEnv does).
//
// Each slot holds one game in which seat `learner` learns and every other seat is played
// by the opponent policy (the game's heuristic or uniform random moves, one generator
// shared by the opponent seats, as one agent object seated in each of them is). Steps
// follow SingleAgentEnv with auto_resolve=True: single-option decisions are applied
// without asking anyone, and a game is cut after max_steps decisions (the AEC env's cap).
//
// A game plugs in with a traits struct:
//   using State;  kNumActions;  kObservationSize;
//   static void mask(const State&, uint8_t* out);               // kNumActions bytes, 0/1
//   static void encode(const State&, int seat, float* out);     // kObservationSize floats
//   static bool truncated(const State&);                        // ended by a safety cap
//   static int heuristic(const State&, int seat, Pcg64& rng);   // the reference heuristic
//   static int num_players(const State&);
// and State's current_player(), is_terminal(), apply(action).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.h"

namespace bge {

enum class OpponentPolicy : uint8_t { kRandom, kHeuristic };

// The arrays one step writes, row i for env i (owned by the caller, checked by the binding).
struct VecBuffers {
    float* observations;   // num_envs x row (observation, then the mask as 0/1 if observed)
    uint8_t* masks;        // num_envs x kNumActions: the learner's legal actions
    float* rewards;        // num_envs
    uint8_t* terminated;   // num_envs
    uint8_t* truncated;    // num_envs
    uint8_t* illegal;      // num_envs: the learner's action was not legal (reward -1)
};

template <class Game>
class VecEnv {
public:
    using State = typename Game::State;
    static constexpr int kNumActions = Game::kNumActions;
    static constexpr int kObservationSize = Game::kObservationSize;

    VecEnv(int num_envs, int num_players, OpponentPolicy opponent, bool observe_mask,
           int64_t max_steps)
        : num_players_(num_players),
          opponent_(opponent),
          observe_mask_(observe_mask),
          max_steps_(max_steps),
          slots_(static_cast<size_t>(num_envs)) {}

    int num_envs() const { return static_cast<int>(slots_.size()); }
    int num_players() const { return num_players_; }
    int row_size() const { return kObservationSize + (observe_mask_ ? kNumActions : 0); }
    bool started(int i) const { return slots_[i].started; }
    int learner(int i) const { return slots_[i].learner; }
    const State& state(int i) const { return slots_[i].state; }

    // Env i begins a game: `state` fresh from new_state, seat `learner` learns, the
    // opponents draw from `opponent_rng`. Forced moves and the opponents play until the
    // learner is to decide (or the game is over); row i is written. True when the learner
    // is to decide.
    bool start(int i, const State& state, int learner, const Pcg64& opponent_rng,
               const VecBuffers& out) {
        Slot& slot = slots_[i];
        slot.state = state;
        slot.learner = learner;
        slot.rng = opponent_rng;
        slot.num_steps = 0;
        slot.started = true;
        resolve_forced(slot);
        play_opponents(slot);
        if (over(slot)) slot.started = false;  // over before the learner's first decision
        write_row(i, out);
        return slot.started;
    }

    // One learner action per started env (actions[i]); every started env is stepped and its
    // row written. An env whose game ends is left over: the caller starts a new one.
    void step(const int64_t* actions, const VecBuffers& out) {
        for (int i = 0; i < num_envs(); ++i) {
            Slot& slot = slots_[i];
            out.rewards[i] = 0.0f;
            out.terminated[i] = out.truncated[i] = out.illegal[i] = 0;
            if (!slot.started) continue;
            if (over(slot)) throw std::logic_error("env " + std::to_string(i) + " is over");
            const int64_t action = actions[i];
            uint8_t legal[kNumActions];
            Game::mask(slot.state, legal);
            if (action < 0 || action >= kNumActions || !legal[action]) {
                // SingleAgentEnv's illegal_action="lose": the episode ends, reward -1
                out.rewards[i] = -1.0f;
                out.terminated[i] = out.illegal[i] = 1;
                slot.started = false;
                write_row(i, out);
                continue;
            }
            apply(slot, static_cast<int>(action));
            resolve_forced(slot);
            play_opponents(slot);
            if (over(slot)) {
                const bool ended = slot.state.is_terminal() && !Game::truncated(slot.state);
                out.terminated[i] = ended;
                out.truncated[i] = !ended;
                slot.started = false;
            }
            write_row(i, out);
        }
    }

private:
    struct Slot {
        State state;
        Pcg64 rng;
        int learner = 0;
        int64_t num_steps = 0;
        bool started = false;
    };

    bool over(const Slot& slot) const {
        return slot.state.is_terminal() || slot.num_steps >= max_steps_;
    }

    void apply(Slot& slot, int action) {
        slot.state.apply(action);
        ++slot.num_steps;
    }

    // TurnBasedEnv._resolve_forced: single-option decisions, until a choice or the end.
    void resolve_forced(Slot& slot) {
        uint8_t legal[kNumActions];
        while (!over(slot)) {
            Game::mask(slot.state, legal);
            int count = 0, only = -1;
            for (int a = 0; a < kNumActions && count < 2; ++a) {
                if (legal[a]) {
                    ++count;
                    only = a;
                }
            }
            if (count != 1) return;
            apply(slot, only);
        }
    }

    // SingleAgentEnv._play_opponents: the other seats move until the learner decides.
    void play_opponents(Slot& slot) {
        while (!over(slot) && slot.state.current_player() != slot.learner) {
            apply(slot, opponent_action(slot));
            resolve_forced(slot);
        }
    }

    int opponent_action(Slot& slot) {
        const int seat = slot.state.current_player();
        if (opponent_ == OpponentPolicy::kHeuristic) {
            return Game::heuristic(slot.state, seat, slot.rng);
        }
        // RandomAgent: rng.choice(np.flatnonzero(mask)), i.e. legal[rng.integers(count)]
        uint8_t legal[kNumActions];
        Game::mask(slot.state, legal);
        int actions[kNumActions];
        int count = 0;
        for (int a = 0; a < kNumActions; ++a) {
            if (legal[a]) actions[count++] = a;
        }
        return actions[slot.rng.integers(static_cast<uint64_t>(count))];
    }

    // The learner's observation of env i as SingleAgentEnv's observe() has it (its view's
    // mask appended: its legal actions while it is to decide), and its action_masks() (none
    // once the episode is over).
    void write_row(int i, const VecBuffers& out) {
        const Slot& slot = slots_[i];
        float* row = out.observations + static_cast<size_t>(i) * row_size();
        uint8_t* mask = out.masks + static_cast<size_t>(i) * kNumActions;
        Game::encode(slot.state, slot.learner, row);
        uint8_t view_mask[kNumActions] = {};
        if (!slot.state.is_terminal() && slot.state.current_player() == slot.learner) {
            Game::mask(slot.state, view_mask);
        }
        if (observe_mask_) {
            for (int a = 0; a < kNumActions; ++a) row[kObservationSize + a] = view_mask[a];
        }
        if (slot.started && !over(slot)) {
            std::memcpy(mask, view_mask, kNumActions);
        } else {
            std::memset(mask, 0, kNumActions);
        }
    }

    int num_players_;
    OpponentPolicy opponent_;
    bool observe_mask_;
    int64_t max_steps_;
    std::vector<Slot> slots_;
};

}  // namespace bge
