// A batch of single-learner games stepped in one call: the compiled half of
// boardgame_envs.vector (the Python half draws the seeds and the opponents and builds each
// new game exactly as boardgame_envs.core.single_agent.SingleAgentEnv does).
//
// Each slot holds one game in which seat `learner` learns and every other seat is played by
// a native policy (the game's heuristic or uniform random moves), each seat drawing from
// one of the slot's generators (seats played by one agent object share its generator).
// Steps follow SingleAgentEnv with auto_resolve=True: single-option decisions are applied
// without asking anyone, a game is cut after max_steps decisions (the AEC env's cap), and
// the learner's reward is what the AEC env pays it between two of its decisions, summed in
// the same order ("outcome": the result at the end; "score": the change of its score
// potential, from the scores as the learner may know them, at every step, plus the result).
// With a hint, the row ends with the one-hot move of the heuristic in the learner's view
// (agents/hinted.py's HintedEnv).
//
// A game plugs in with a traits struct:
//   using State;  kNumActions;  kObservationSize;  kLowerScoreWins;
//   static void mask(const State&, uint8_t* out);               // kNumActions bytes, 0/1
//   static void encode(const State&, int seat, float* out);     // kObservationSize floats
//   static bool truncated(const State&);                        // ended by a safety cap
//   static int heuristic(const State&, int seat, Pcg64& rng);   // the reference heuristic
//   static int num_players(const State&);
//   static void scores_known_to(const State&, int seat, double* out);
//                                                   // State.scores_known_to(seat)
//   static void score_keys(const State&, double* out);          // State._score_keys()
// and State's current_player(), is_terminal(), apply(action).
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.h"

namespace bge {

enum class OpponentPolicy : uint8_t { kRandom = 0, kHeuristic = 1 };

constexpr int kVecMaxPlayers = 5;

// What every env of a batch shares.
struct VecConfig {
    int num_players = 2;
    bool observe_mask = true;
    bool hint = false;          // append the heuristic's one-hot move in the learner's view
    bool score_reward = false;  // reward="score" (else "outcome")
    double score_scale = 1.0;   // the AEC env's score_reward_scale
    int64_t max_steps = 1;      // the AEC env's cap on decisions
};

// How one game begins: the seats' policies and generators (index into rngs), the hint's.
struct VecStart {
    int learner = 0;
    OpponentPolicy policy[kVecMaxPlayers] = {};
    int rng_index[kVecMaxPlayers] = {};
    Pcg64 rngs[kVecMaxPlayers];
    Pcg64 hint_rng;
};

// The arrays one step writes, row i for env i (owned by the caller, checked by the binding).
struct VecBuffers {
    float* observations;   // num_envs x row: observation, mask (0/1) if observed, hint if any
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

    VecEnv(int num_envs, const VecConfig& config)
        : config_(config), slots_(static_cast<size_t>(num_envs)) {}

    int num_envs() const { return static_cast<int>(slots_.size()); }
    int num_players() const { return config_.num_players; }
    int row_size() const {
        return kObservationSize + (config_.observe_mask ? kNumActions : 0) +
               (config_.hint ? kNumActions : 0);
    }
    bool started(int i) const { return slots_[i].started; }
    int learner(int i) const { return slots_[i].start.learner; }
    const State& state(int i) const { return slots_[i].state; }

    // Env i begins the game `state` (fresh from new_state). Forced moves and the opponents
    // play until the learner is to decide (or the game is over); row i is written. True
    // when the learner is to decide.
    bool start(int i, const State& state, const VecStart& start, const VecBuffers& out) {
        Slot& slot = slots_[i];
        slot.state = state;
        slot.start = start;
        slot.num_steps = 0;
        slot.started = true;
        slot.potential = potential(slot);
        resolve_forced(slot);
        slot.potential = potential(slot);
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
            // SingleAgentEnv.step: the learner's step (its forced sequel included), then
            // the opponents' steps, their rewards summed apart and added.
            apply(slot, static_cast<int>(action));
            resolve_forced(slot);
            const double own = 0.0 + step_reward(slot);
            const double others = play_opponents(slot);
            out.rewards[i] = static_cast<float>(own + others);
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
        VecStart start;
        int64_t num_steps = 0;
        double potential = 0.0;  // the learner's score potential after the last step
        bool started = false;
    };

    bool over(const Slot& slot) const {
        return slot.state.is_terminal() || slot.num_steps >= config_.max_steps;
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

    // SingleAgentEnv._play_opponents: the other seats move until the learner decides; the
    // learner's rewards over those steps, summed from 0.0 in order.
    double play_opponents(Slot& slot) {
        double reward = 0.0;
        while (!over(slot) && slot.state.current_player() != slot.start.learner) {
            apply(slot, opponent_action(slot));
            resolve_forced(slot);
            reward += step_reward(slot);
        }
        return reward;
    }

    // The learner's reward for the AEC step just taken (TurnBasedEnv._step_rewards):
    // its potential's change under reward="score", plus the result once the game is over.
    double step_reward(Slot& slot) {
        double reward = 0.0;
        if (config_.score_reward) {
            const double now = potential(slot);
            reward = now - slot.potential;
            slot.potential = now;
        }
        if (slot.state.is_terminal()) reward = reward + result(slot);
        return reward;
    }

    // score_potentials()'s entry for the learner: scale * sign * (own score - mean of the
    // others'), the scores as the learner may know them (another seat's secret left out).
    double potential(const Slot& slot) const {
        if (!config_.score_reward) return 0.0;
        double scores[kVecMaxPlayers];
        Game::scores_known_to(slot.state, slot.start.learner, scores);
        const int n = config_.num_players;
        double total = 0.0;
        for (int p = 0; p < n; ++p) total += scores[p];
        const double sign = Game::kLowerScoreWins ? -1.0 : 1.0;
        const double own = scores[slot.start.learner];
        return config_.score_scale * sign * (own - (total - own) / (n - 1));
    }

    // outcome_returns(): (seats beaten - seats beaten by) / (n - 1), for the learner.
    double result(const Slot& slot) const {
        double keys[kVecMaxPlayers];
        Game::score_keys(slot.state, keys);
        const int n = config_.num_players;
        const double own = keys[slot.start.learner];
        int beaten = 0, beaten_by = 0;
        for (int p = 0; p < n; ++p) {
            beaten += own > keys[p];
            beaten_by += own < keys[p];
        }
        return static_cast<double>(beaten - beaten_by) / (n - 1);
    }

    int opponent_action(Slot& slot) {
        const int seat = slot.state.current_player();
        Pcg64& rng = slot.start.rngs[slot.start.rng_index[seat]];
        if (slot.start.policy[seat] == OpponentPolicy::kHeuristic) {
            return Game::heuristic(slot.state, seat, rng);
        }
        // RandomAgent: rng.choice(np.flatnonzero(mask)), i.e. legal[rng.integers(count)]
        uint8_t legal[kNumActions];
        Game::mask(slot.state, legal);
        int actions[kNumActions];
        int count = 0;
        for (int a = 0; a < kNumActions; ++a) {
            if (legal[a]) actions[count++] = a;
        }
        return actions[rng.integers(static_cast<uint64_t>(count))];
    }

    // The learner's row as SingleAgentEnv's observe() has it (its view's mask appended: its
    // legal actions while it is to decide), HintedEnv's hint (none once the episode is
    // over), and its action_masks() (none once the episode is over).
    void write_row(int i, const VecBuffers& out) {
        Slot& slot = slots_[i];
        const int learner = slot.start.learner;
        float* row = out.observations + static_cast<size_t>(i) * row_size();
        uint8_t* mask = out.masks + static_cast<size_t>(i) * kNumActions;
        Game::encode(slot.state, learner, row);
        uint8_t view_mask[kNumActions] = {};
        if (!slot.state.is_terminal() && slot.state.current_player() == learner) {
            Game::mask(slot.state, view_mask);
        }
        float* tail = row + kObservationSize;
        if (config_.observe_mask) {
            for (int a = 0; a < kNumActions; ++a) tail[a] = view_mask[a];
            tail += kNumActions;
        }
        const bool running = slot.started && !over(slot);
        if (config_.hint) {
            for (int a = 0; a < kNumActions; ++a) tail[a] = 0.0f;
            if (running) tail[Game::heuristic(slot.state, learner, slot.start.hint_rng)] = 1.0f;
        }
        if (running) {
            std::memcpy(mask, view_mask, kNumActions);
        } else {
            std::memset(mask, 0, kNumActions);
        }
    }

    VecConfig config_;
    std::vector<Slot> slots_;
};

}  // namespace bge
