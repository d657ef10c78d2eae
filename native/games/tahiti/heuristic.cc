// Tahiti's heuristic, line for line as agents/heuristic/tahiti.py decides (see heuristic.h).
#include "games/tahiti/heuristic.h"

#include <cmath>
#include <limits>

namespace bge::tahiti {

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

int sum_goods(const int counts[NUM_GOODS]) {
    int total = 0;
    for (int g = 0; g < NUM_GOODS; ++g) total += counts[g];
    return total;
}

bool contains(const ActionList& legal, int action) {
    for (int i = 0; i < legal.size; ++i) {
        if (legal.actions[i] == action) return true;
    }
    return false;
}

// -- what things are worth (_worth, _fish_chance) ------------------------------------------------
// The worth of one more cube of each kind for `seat`.
void worth_of(const State& s, int seat, double worth[NUM_GOODS]) {
    int mine[NUM_GOODS];
    for (int g = 0; g < NUM_GOODS; ++g) {
        mine[g] = s.charts[seat][g] + s.cargo[seat][g];
        worth[g] = 1.0;
    }
    for (int g : FAVOURITES[s.favourites[seat]]) {
        if (g < 0) break;
        // the two highest distinct counts of the other seats (the reference's sorted set)
        int distinct = 0, best = 0, second = 0;
        for (int other = 0; other < s.num_players; ++other) {
            if (other == seat) continue;
            const int count = s.charts[other][g] + s.cargo[other][g];
            if (distinct == 0) {
                best = count;
                distinct = 1;
            } else if (count > best) {
                second = best;
                best = count;
                distinct = 2;
            } else if (count < best && (distinct == 1 || count > second)) {
                second = count;
                distinct = 2;
            }
        }
        if (mine[g] + 1 >= best) {
            worth[g] += 2.0;
        } else if (distinct < 2 || mine[g] + 1 >= second) {
            worth[g] += 1.0;
        }
    }
    int low = mine[0];
    for (int g = 1; g < NUM_GOODS; ++g) low = mine[g] < low ? mine[g] : low;
    int num_short = 0;
    for (int g = 0; g < NUM_GOODS; ++g) num_short += mine[g] == low ? 1 : 0;
    const int next = low + 1 < CUBES_PER_KIND ? low + 1 : CUBES_PER_KIND;
    const int step = set_bonus(next) - set_bonus(low);
    for (int g = 0; g < NUM_GOODS; ++g) {
        if (mine[g] == low) worth[g] += static_cast<double>(step) / static_cast<double>(num_short);
    }
}

// The chance that `draws` cubes from the bag hold a fish.
double fish_chance(const State& s, int draws) {
    const int total = sum_goods(s.bag);
    if (total == 0) return 0.0;
    double miss = 1.0;
    const int others = total - s.bag[FISH];
    const int n = draws < total ? draws : total;
    for (int i = 0; i < n; ++i) {
        const int left = others - i > 0 ? others - i : 0;
        miss *= static_cast<double>(left) / static_cast<double>(total - i);
    }
    return 1.0 - miss;
}

// -- routes (_costs) -----------------------------------------------------------------------------
// heapq's entries (cost, cell, first direction), compared as Python compares the tuples.
struct Entry {
    double c;
    int cell;
    int d0;
};

bool entry_less(const Entry& a, const Entry& b) {
    if (a.c != b.c) return a.c < b.c;
    if (a.cell != b.cell) return a.cell < b.cell;
    return a.d0 < b.d0;
}

// A binary heap with heapq's sift rules (heappush: _siftdown; heappop: _siftup), so entries
// come out in the reference's order. (They are distinct in (cost, cell), a cell being pushed
// again only at a strictly lower cost, so any exact priority queue would do as well.)
struct Heap {
    // Each cell is settled once and pushes at most 6 entries: 6 per tile and the start.
    static constexpr int CAPACITY = 6 * NUM_TILES + 1;
    Entry items[CAPACITY];
    int size = 0;

    void sift_down(int start, int pos) {
        const Entry item = items[pos];
        while (pos > start) {
            const int parent = (pos - 1) >> 1;
            if (!entry_less(item, items[parent])) break;
            items[pos] = items[parent];
            pos = parent;
        }
        items[pos] = item;
    }

    void sift_up(int pos) {
        const int start = pos;
        const Entry item = items[pos];
        int child = 2 * pos + 1;
        while (child < size) {
            const int right = child + 1;
            if (right < size && !entry_less(items[child], items[right])) child = right;
            items[pos] = items[child];
            pos = child;
            child = 2 * pos + 1;
        }
        items[pos] = item;
        sift_down(start, pos);
    }

    void push(const Entry& entry) {
        items[size++] = entry;
        sift_down(0, size - 1);
    }

    Entry pop() {
        const Entry last = items[--size];
        if (size == 0) return last;
        const Entry top = items[0];
        items[0] = last;
        sift_up(0);
        return top;
    }
};

// The reference's cost and first dicts, by tile (every cell they hold has a tile): INF and
// -1 for a tile the dict lacks.
struct Routes {
    double cost[NUM_TILES];
    int first[NUM_TILES];
};

// Dijkstra from `start`: the cost of each reachable tile and the first direction there.
void costs(const State& s, int seat, int start, const double worth[NUM_GOODS], Routes& out) {
    const int* cargo = s.cargo[seat];
    const int total = sum_goods(s.bag);
    double risk = 0.0;
    if (sum_goods(cargo) && total) {
        for (int g = 0; g < NUM_GOODS; ++g) {
            if (cargo[g]) {
                risk += static_cast<double>(s.bag[g]) / static_cast<double>(total) * worth[g];
            }
        }
    }
    for (int t = 0; t < NUM_TILES; ++t) {
        out.cost[t] = INF;
        out.first[t] = -1;
    }
    out.cost[s.cell_tile[start]] = 0.0;
    Heap queue;
    queue.push({0.0, start, -1});
    while (queue.size) {
        const Entry e = queue.pop();
        if (e.c > out.cost[s.cell_tile[e.cell]]) continue;
        for (int d = 0; d < 6; ++d) {
            const int nb = GRID.neighbours[e.cell][d];
            if (nb < 0 || s.cell_tile[nb] < 0) continue;
            const double step =
                1.0 + 1.5 * risk * static_cast<double>(s.reefs_between(e.cell, d));
            const int tile = s.cell_tile[nb];
            if (e.c + step < out.cost[tile]) {
                out.cost[tile] = e.c + step;
                out.first[tile] = e.d0 < 0 ? d : e.d0;
                queue.push({e.c + step, nb, out.first[tile]});
            }
        }
    }
}

// -- the action step (_action) --------------------------------------------------------------------
int action_step(const State& s, int seat, const ActionList& legal) {
    const int cell = s.canoes[seat];
    const int tile = s.cell_tile[cell];
    const int* cargo = s.cargo[seat];
    const int n = sum_goods(cargo);
    const int left = paddles(n) - s.taken;
    double worth[NUM_GOODS];
    worth_of(s, seat, worth);
    if (contains(legal, DELIVER)) return DELIVER;
    int harvest = -1;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        if (a >= HARVEST_BASE && a < HARVEST_BASE + 4 &&
            (harvest < 0 || worth[a - HARVEST_BASE] > worth[harvest - HARVEST_BASE])) {
            harvest = a;
        }
    }
    if (harvest >= 0) return harvest;
    Routes routes;
    costs(s, seat, cell, worth, routes);
    const int home = s.tile_cell[HOME];
    const bool go_home = n >= 3 || (n && s.end_triggered) ||
                         (n >= 2 && routes.cost[HOME] <= static_cast<double>(left - 1));
    if (n && go_home && cell != home) return routes.first[HOME];
    // the best island to harvest: worth of its cubes per step of the route
    int best = -1;  // an island
    double best_value = 0.0;
    const int room = CANOE_CAPACITY - n;
    for (int k = 1; k <= NUM_ISLANDS; ++k) {
        const int where = s.tile_cell[k];
        const int cubes = s.island_cubes[k];
        if (where < 0 || !cubes || where == cell || routes.cost[k] == INF) continue;
        double values[2];
        int count = 0;
        for (int slot = 0; slot < 2; ++slot) {
            if (cubes >> slot & 1) values[count++] = worth[ISLAND_SLOTS[k][slot]];
        }
        if (count == 2 && values[1] > values[0]) {
            const double high = values[1];
            values[1] = values[0];
            values[0] = high;
        }
        double sum = 0.0;
        for (int i = 0; i < count && i < room; ++i) sum += values[i];
        const double value = sum / (1.0 + routes.cost[k]);
        if (value > best_value) {
            best = k;
            best_value = value;
        }
    }
    if (contains(legal, FISH_ACTION)) {
        const bool bonus = is_island(tile) && s.tokens[tile] == FISHING;
        const int draws = bonus ? FISH_DRAWS_WITH_BONUS : FISH_DRAWS;
        const double fish_value = fish_chance(s, draws) * worth[FISH];
        if (fish_value >= best_value) return FISH_ACTION;
    }
    if (best >= 0) return routes.first[best];
    if (n && cell != home) return routes.first[HOME];
    if (cell == home) {  // an empty canoe at home with nothing to harvest: go fishing
        int first_move = -1, first_safe = -1;
        for (int i = 0; i < legal.size; ++i) {
            const int a = legal.actions[i];
            if (a >= 6) continue;
            if (first_move < 0) first_move = a;
            if (first_safe < 0 && s.reefs_between(cell, a) == 0) first_safe = a;
        }
        if (first_safe >= 0) return first_safe;
        if (first_move >= 0) return first_move;
    }
    return contains(legal, END) ? END : legal.actions[0];
}

// -- explore (_closeness, _haumea, _stack, _place) ------------------------------------------------
double closeness(const State& s, int seat, int cell) {
    const int home = s.tile_cell[HOME];
    return static_cast<double>(cell_distance(cell, home)) +
           0.5 * static_cast<double>(cell_distance(cell, s.canoes[seat]));
}

int haumea_move(const State& s, int seat, const ActionList& legal) {
    int best = -1;
    double best_key = 0.0;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        const int target = a == PASS ? s.haumea : GRID.neighbours[s.haumea][a];
        const double key = closeness(s, seat, target);
        if (best < 0 || key < best_key) {
            best = a;
            best_key = key;
        }
    }
    return best;
}

int take_stack(const State& s, int seat, const ActionList& legal) {
    double worth[NUM_GOODS];
    worth_of(s, seat, worth);
    int best = -1;
    double best_value = 0.0;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        const int k = s.stack_top(a - STACK_A);
        const double value = worth[ISLAND_SLOTS[k][0]] + worth[ISLAND_SLOTS[k][1]];
        if (best < 0 || value > best_value) {
            best = a;
            best_value = value;
        }
    }
    return best;
}

int place_tile(const State& s, int seat, const ActionList& legal) {
    int best = -1;
    double best_merit = 0.0;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        const int d = (a - PLACE_BASE) / 6, rho = (a - PLACE_BASE) % 6;
        const int cell = GRID.neighbours[s.haumea][d];
        const int reefs = reef_mask(s.hand_tile, rho, s.side);
        int facing = 0;
        for (int e = 0; e < 6; ++e) {
            const int nb = GRID.neighbours[cell][e];
            if ((reefs >> e & 1) && nb >= 0 && s.cell_tile[nb] >= 0) ++facing;
        }
        const double merit = closeness(s, seat, cell) + 0.7 * static_cast<double>(facing);
        if (best < 0 || merit < best_merit) {
            best = a;
            best_merit = merit;
        }
    }
    return best;
}

// -- bounty and depletion (_bounty, _deplete) -----------------------------------------------------
constexpr double UNIT_WORTH[NUM_GOODS] = {1.0, 1.0, 1.0, 1.0, 1.0};

int place_bounty(const State& s, int seat, const ActionList& legal) {
    Routes routes;
    costs(s, seat, s.canoes[seat], UNIT_WORTH, routes);
    int best = -1;
    double best_cost = 0.0;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        const double cost = routes.cost[a - ISLAND_BASE];
        if (best < 0 || cost < best_cost) {
            best = a;
            best_cost = cost;
        }
    }
    return best;
}

int place_token(const State& s, int seat, const ActionList& legal) {
    Routes routes;
    costs(s, seat, s.canoes[seat], UNIT_WORTH, routes);
    const bool nearest = s.revealed_token == FISHING;
    int best = -1;
    double best_cost = 0.0;
    for (int i = 0; i < legal.size; ++i) {
        const int a = legal.actions[i];
        const double cost = routes.cost[a - ISLAND_BASE];
        if (best < 0 || (nearest ? cost < best_cost : cost > best_cost)) {
            best = a;
            best_cost = cost;
        }
    }
    return best;
}

// -- leaf values (_tahiti_keys) -------------------------------------------------------------------
constexpr double CARGO_WORTH = 0.5;
constexpr double SCORE_SCALE = 5.0;

}  // namespace

int heuristic_action(const State& s, int seat, Pcg64& /*rng: the reference draws nothing*/) {
    const ActionList legal = s.legal_actions();
    if (legal.size == 1) return legal.actions[0];
    switch (s.phase) {
        case Phase::Action:
            return action_step(s, seat, legal);
        case Phase::BountyPlace:
            return place_bounty(s, seat, legal);
        case Phase::HaumeaMove:
        case Phase::HaumeaStep:
            return haumea_move(s, seat, legal);
        case Phase::Stack:
            return take_stack(s, seat, legal);
        case Phase::Place:
            return place_tile(s, seat, legal);
        case Phase::Deplete:
            return place_token(s, seat, legal);
        default:
            return legal.actions[0];
    }
}

int heuristic_playout(State& s, Pcg64& rng, int depth, double epsilon) {
    int played = 0;
    while (!s.is_terminal() && (depth == 0 || played < depth)) {
        const ActionList legal = s.legal_actions();
        if (legal.size == 0) break;  // never in a valid position
        int action;
        if (legal.size == 1) {
            action = legal.actions[0];
        } else if (epsilon > 0 && rng.random() < epsilon) {
            action = legal.actions[rng.integers(static_cast<uint64_t>(legal.size))];
        } else {
            action = heuristic_action(s, s.current_player(), rng);
        }
        s.apply(action);
        ++played;
    }
    return played;
}

void leaf_values(const State& s, double out[4]) {
    const int n = s.num_players;
    double keys[4];
    int with_cargo[4], without[4];
    s.scores(without);
    if (s.is_terminal()) {
        for (int i = 0; i < n; ++i) keys[i] = static_cast<double>(without[i]);
    } else {
        int unloaded[4][NUM_GOODS];
        for (int i = 0; i < n; ++i) {
            for (int g = 0; g < NUM_GOODS; ++g) unloaded[i][g] = s.charts[i][g] + s.cargo[i][g];
        }
        score_charts(unloaded, s.favourites, n, with_cargo);
        for (int i = 0; i < n; ++i) {
            keys[i] = CARGO_WORTH * static_cast<double>(with_cargo[i]) +
                      (1 - CARGO_WORTH) * static_cast<double>(without[i]);
        }
    }
    for (int i = 0; i < n; ++i) {
        double sum = 0.0;
        for (int j = 0; j < n; ++j) {
            if (j != i) sum += std::tanh((keys[i] - keys[j]) / SCORE_SCALE);
        }
        out[i] = sum / static_cast<double>(n - 1);
    }
}

}  // namespace bge::tahiti
