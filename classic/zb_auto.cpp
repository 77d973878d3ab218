// The zero-bubble repository's heuristic scheduler under a memory limit
// (sail-sg/zero-bubble-pipeline-parallelism,
// megatron/core/pipeline_parallel/zerobubble/scheduler/zb.py:
// Graph.manual_order, initial_solution, create_scheduled_nodes; the limit is
// --zero-bubble-max-pending-backward times the forward's memory, runtime.py).
// One stage per rank, every backward split into B (input) and W (weight).
// Rewritten from this description:
//
// A simulation places work stage by stage ("put": start when the stage is
// free and, for F, the previous stage's F is done, for B the next stage's B;
// the bubble it leaves is added to the stage's bubble count once the stage
// has run a forward). Micro-batch 0: one F on every stage, then, from the
// last stage up, as many extra warmup F's as fit under the limit and before
// the first B arrives (allow_bubble_before_first_b: an F may end past that
// arrival, else it must start before it), trimmed so that a stage never
// warms up more than the stage before it; then the B's from the last stage
// up. Every later micro-batch i: each stage wants one F, unless
// (prioritize_b) it is two F's ahead of the next stage and waiting for that
// stage's F+B would cost no more bubble than the worst stage already has; a
// stage only gets its F if every later stage does. Before an F (and before
// a B): W's while memory would pass the limit (none left: "cannot fit
// memory"), W's that end before the input arrives, and one more W if the
// remaining wait is more than the worst bubble allows, or always
// (no_bubble_greedy); the first stage empties its W's before its last B's.
// Finally the remaining W's. All eight settings of the three flags are run
// and the shortest (max over stages of last W end - first F start) wins,
// the first on ties. A stage's order is its order of completion, which is
// its put order. No communication cost (cost_comm 0).
#include <algorithm>
#include <stdexcept>

#include "classic/schemes.hpp"

namespace tessel::classic {

namespace {

enum Kind { kF = 0, kB = 1, kW = 2 };

struct Heuristic {
  int stages = 0, micros = 0;
  long long cost[3] = {1, 1, 1};
  long long memory[3] = {1, 0, -1};
  std::vector<long long> limit;

  // Simulation state.
  std::vector<int> count[3];  // per kind: next micro-batch per stage
  std::vector<long long> end, held, bubble;
  std::vector<std::vector<long long>> finish[3];  // per kind, stage, micro
  RankOrders orders;

  void reset() {
    for (int k = 0; k < 3; ++k) {
      count[k].assign(stages, 0);
      finish[k].assign(stages, std::vector<long long>(micros, 0));
    }
    end.assign(stages, 0);
    held.assign(stages, 0);
    bubble.assign(stages, 0);
    orders.assign(stages, {});
  }
  long long worst_bubble() const { return std::max(0LL, *std::max_element(bubble.begin(), bubble.end())); }

  void put(int stage, int kind) {
    int micro = count[kind][stage];
    long long at = end[stage] + cost[kind], unhindered = at;
    if (stage > 0 && kind == kF) at = std::max(at, finish[kF][stage - 1][micro] + cost[kind]);
    if (stage < stages - 1 && kind == kB) at = std::max(at, finish[kB][stage + 1][micro] + cost[kind]);
    if (count[kF][stage] > 0) bubble[stage] += at - unhindered;
    end[stage] = at;
    finish[kind][stage][micro] = at;
    held[stage] += memory[kind];
    ++count[kind][stage];
    orders[stage].push_back({kind == kF ? 'F' : kind == kB ? 'I' : 'W', stage, micro});
  }

  void first_micro(bool allow_bubble_before_first_b) {
    for (int j = 0; j < stages; ++j) put(j, kF);
    std::vector<int> extra(stages, 0);
    long long arrival = 0;
    for (int j = stages - 1; j >= 0; --j) {
      if (j == stages - 1) {
        arrival = finish[kF][j][0] + cost[kB];
        continue;
      }
      long long mem = held[j], time = end[j];
      while (count[kF][j] + extra[j] < micros && mem + memory[kF] <= limit[j]) {
        if (allow_bubble_before_first_b ? time + cost[kF] > arrival : time >= arrival) break;
        mem += memory[kF];
        time += cost[kF];
        ++extra[j];
      }
      arrival = std::max(time, arrival) + cost[kB];
    }
    for (int j = 1; j < stages; ++j)
      while (extra[j] > 0 && extra[j] >= extra[j - 1] && count[kF][j] + extra[j] < micros) --extra[j];
    for (int j = 0; j < stages; ++j)
      for (int k = 0; k < extra[j]; ++k) put(j, kF);
    for (int j = stages - 1; j >= 0; --j) put(j, kB);
  }

  // W's before an F or B of `stage` whose input arrives at `arrival`.
  void weights_before(int stage, long long arrival, bool no_bubble_greedy) {
    while (count[kW][stage] < count[kB][stage] && end[stage] + cost[kW] <= arrival) put(stage, kW);
    if (count[kW][stage] < count[kB][stage] && end[stage] < arrival) {
      if (arrival - end[stage] > worst_bubble() - bubble[stage] || no_bubble_greedy) put(stage, kW);
    }
  }
  void weights_for_memory(int stage, long long need) {
    while (held[stage] + need > limit[stage]) {
      if (count[kW][stage] >= count[kB][stage]) throw std::invalid_argument("cannot fit memory");
      put(stage, kW);
    }
  }

  bool skip_forward(int j) {
    if (!(j + 1 < stages && count[kF][j] >= count[kF][j + 1] + 2)) return false;
    long long next_free = end[j + 1] + cost[kF] + cost[kB];
    if (end[j] >= next_free) return true;
    long long weight_cost = 0, mem = held[j] + memory[kF];
    for (int w = count[kW][j]; mem > limit[j] && w < count[kB][j]; ++w) {
      weight_cost += cost[kW];
      mem += memory[kW];
    }
    if (end[j] + cost[kF] + weight_cost <= next_free) return false;
    return next_free - end[j] <= worst_bubble() - bubble[j];
  }

  void later_micro(int i, bool prioritize_b, bool no_bubble_greedy) {
    std::vector<int> wants(stages, 0);
    for (int j = 0; j < stages; ++j) {
      if (count[kF][j] >= micros) continue;
      wants[j] = prioritize_b && skip_forward(j) ? 0 : 1;
    }
    for (int j = stages - 2; j >= 0; --j) wants[j] = std::min(wants[j], wants[j + 1]);
    for (int j = 0; j < stages; ++j) {
      if (!wants[j]) continue;
      weights_for_memory(j, memory[kF]);
      if (j > 0) weights_before(j, finish[kF][j - 1][count[kF][j]], no_bubble_greedy);
      put(j, kF);
    }
    for (int j = stages - 1; j >= 0; --j) {
      if (count[kB][j] != i) throw std::logic_error("zb heuristic: backward out of step");
      weights_for_memory(j, memory[kB]);
      if (j + 1 < stages) weights_before(j, finish[kB][j + 1][i], no_bubble_greedy);
      if (j == 0 && count[kF][j] == micros)
        while (count[kW][j] < count[kB][j]) put(j, kW);
      put(j, kB);
    }
  }

  long long run(bool allow_bubble, bool prioritize_b, bool no_bubble_greedy) {
    reset();
    for (int i = 0; i < micros; ++i) {
      if (i == 0)
        first_micro(allow_bubble);
      else
        later_micro(i, prioritize_b, no_bubble_greedy);
    }
    for (int j = 0; j < stages; ++j)
      while (count[kW][j] < micros) put(j, kW);
    long long best = 0;
    for (int j = 0; j < stages; ++j)
      best = std::max(best, finish[kW][j][micros - 1] - finish[kF][j][0] + cost[kF]);
    return best;
  }
};

}  // namespace

RankOrders zb_auto_orders(const StageGraph& graph, int nmicros, long long memory_limit) {
  const StageCosts& costs = graph.costs;
  if (costs.forward_memory + costs.input_memory + costs.weight_memory != 0)
    throw std::invalid_argument("the zero-bubble heuristic needs F + B + W memory = 0 (a micro-batch frees what it holds)");
  Heuristic heuristic;
  heuristic.stages = graph.stages();
  heuristic.micros = nmicros;
  heuristic.cost[kF] = costs.forward_span;
  heuristic.cost[kB] = costs.input_span;
  heuristic.cost[kW] = costs.weight_span;
  heuristic.memory[kF] = costs.forward_memory;
  heuristic.memory[kB] = costs.input_memory;
  heuristic.memory[kW] = costs.weight_memory;
  heuristic.limit.assign(heuristic.stages, memory_limit);
  long long best = -1;
  RankOrders orders;
  for (bool allow_bubble : {true, false})
    for (bool prioritize_b : {true, false})
      for (bool no_bubble_greedy : {true, false}) {
        long long time = heuristic.run(allow_bubble, prioritize_b, no_bubble_greedy);
        if (best < 0 || time < best) {
          best = time;
          orders = heuristic.orders;
        }
      }
  return orders;
}

}  // namespace tessel::classic
