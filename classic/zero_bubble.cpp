// The zero-bubble schedules (Qi et al., "Zero Bubble Pipeline Parallelism",
// ICLR 2024) by list scheduling: the backward is split into B (gradient of
// the input, on the critical path) and W (gradient of the weights, needed by
// nobody downstream), and W is deferred to fill what would be a bubble.
//
// All three are built by the same simulation, differing in the stage map,
// the number of activations a rank may hold and which chunk goes first:
// whenever a rank is free it starts a ready B; else a ready F if that keeps
// its memory within the cap; else its oldest deferred W; else it waits.
//   ZB-H1: one stage per rank, cap p - r activations (1F1B's peak).
//   ZB-H2: cap 2p - 1 - r: more warmup forwards, and the Ws the extra
//          memory leaves pending drain into the cooldown, so that every rank
//          is busy from its first step to its last (the paper's
//          "parallelogram") when F = B = W.
//   ZB-V:  two chunks per rank on a "v" stage map, cap 2p chunk activations
//          on every rank (1F1B's peak, a chunk being half a stage); forwards
//          of the later chunk first, backwards of the earlier chunk first.
// The simulation's own start steps are what running its order as soon as
// possible gives again (a rank only waits when nothing in its order could
// start), so the order is the output. Memory is in the model of docs/algorithms.md, "Classic schedules":
// W frees the unit F allocated; the paper's smaller W-memory is not modelled,
// which is why ZB-H1 at 1F1B's memory keeps 2/3 of 1F1B's bubble here
// instead of the paper's 1/3 (see the tests).
#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>

#include "classic/schemes.hpp"

namespace tessel::classic {

namespace {

struct ListPolicy {
  std::vector<long long> memory_cap;  // per rank
  bool forward_later_stage_first = true;
  bool backward_later_stage_first = true;
};

int span_of(const StageGraph& graph, char kind, int stage) {
  const StageCosts& costs = graph.costs;
  if (kind == 'F') return costs.forward_span;
  if (kind == 'W') return costs.weight_span;
  return graph.split[stage] ? costs.input_span : costs.backward_span;
}

long long memory_of(const StageGraph& graph, char kind, int stage) {
  const StageCosts& costs = graph.costs;
  if (kind == 'F') return costs.forward_memory;
  if (kind == 'W') return costs.weight_memory;
  return graph.split[stage] ? costs.input_memory : costs.backward_memory;
}

RankOrders list_schedule(const StageGraph& graph, int nmicros, const ListPolicy& policy) {
  int ranks = graph.ranks;
  int stages = graph.stages();
  std::vector<std::vector<int>> stages_of(ranks);
  for (int s = 0; s < stages; ++s) stages_of[graph.stage_rank[s]].push_back(s);

  // End step of every action, -1 until it is started: [kind][stage * nmicros + micro].
  std::map<char, std::vector<long long>> finish;
  for (char kind : {'F', 'B', 'W'}) finish[kind].assign(static_cast<size_t>(stages) * nmicros, -1);
  auto done_by = [&](char kind, int stage, int micro, long long now) {
    long long end = finish[kind][static_cast<size_t>(stage) * nmicros + micro];
    return end >= 0 && end <= now;
  };
  std::vector<int> next_forward(stages, 0), next_backward(stages, 0);
  std::vector<std::deque<Action>> deferred(ranks);
  std::vector<long long> memory(ranks, 0), free_at(ranks, 0);
  RankOrders orders(ranks);
  long long total = 0, placed = 0;
  for (int s = 0; s < stages; ++s) total += static_cast<long long>(nmicros) * (graph.split[s] ? 3 : 2);

  long long now = 0;
  bool ignore_cap = false;  // set only if the cap alone would stop every rank
  while (placed < total) {
    bool started = false;
    for (int rank = 0; rank < ranks; ++rank) {
      if (free_at[rank] > now) continue;
      std::optional<Action> choice;
      // B first: it is on the critical path of the micro-batch.
      for (int s : stages_of[rank]) {
        int micro = next_backward[s];
        if (micro >= nmicros) continue;
        bool ready = s + 1 < stages ? done_by('B', s + 1, micro, now) : done_by('F', s, micro, now);
        if (!ready) continue;
        if (!choice || (policy.backward_later_stage_first ? s > choice->stage : s < choice->stage))
          choice = Action{'B', s, micro};
      }
      if (!choice)
        for (int s : stages_of[rank]) {
          int micro = next_forward[s];
          if (micro >= nmicros) continue;
          if (s > 0 && !done_by('F', s - 1, micro, now)) continue;
          if (!ignore_cap && memory[rank] + memory_of(graph, 'F', s) > policy.memory_cap[rank]) continue;
          if (!choice || (policy.forward_later_stage_first ? s > choice->stage : s < choice->stage))
            choice = Action{'F', s, micro};
        }
      if (!choice && !deferred[rank].empty()) {
        choice = deferred[rank].front();
        deferred[rank].pop_front();
      }
      if (!choice) continue;
      const Action& action = *choice;
      long long end = now + span_of(graph, action.kind, action.stage);
      finish[action.kind][static_cast<size_t>(action.stage) * nmicros + action.micro] = end;
      free_at[rank] = end;
      memory[rank] += memory_of(graph, action.kind, action.stage);
      orders[rank].push_back(action);
      if (action.kind == 'B' && graph.split[action.stage]) orders[rank].back().kind = 'I';
      ++placed;
      started = true;
      if (action.kind == 'F') ++next_forward[action.stage];
      if (action.kind == 'B') {
        ++next_backward[action.stage];
        if (graph.split[action.stage]) deferred[rank].push_back({'W', action.stage, action.micro});
      }
    }
    long long next_event = std::numeric_limits<long long>::max();
    for (long long at : free_at)
      if (at > now) next_event = std::min(next_event, at);
    if (next_event == std::numeric_limits<long long>::max()) {
      // Every rank is idle and none could start: only the memory cap can
      // cause that. Keep the schedule complete rather than fail.
      if (started) continue;
      if (ignore_cap) throw std::logic_error("list scheduling cannot progress");
      ignore_cap = true;
      continue;
    }
    now = next_event;
  }
  return orders;
}

std::vector<long long> caps(const StageGraph& graph, const std::vector<long long>& activations) {
  std::vector<long long> result;
  long long unit = graph.costs.forward_memory;
  for (long long count : activations)
    result.push_back(unit > 0 ? count * unit : std::numeric_limits<long long>::max() / 4);
  return result;
}

}  // namespace

RankOrders zb_h1_orders(const StageGraph& graph, int nmicros) {
  std::vector<long long> activations;
  for (int rank = 0; rank < graph.ranks; ++rank) activations.push_back(graph.ranks - rank);
  return list_schedule(graph, nmicros, {caps(graph, activations), true, true});
}

RankOrders zb_h2_orders(const StageGraph& graph, int nmicros) {
  std::vector<long long> activations;
  for (int rank = 0; rank < graph.ranks; ++rank) activations.push_back(2 * graph.ranks - 1 - rank);
  return list_schedule(graph, nmicros, {caps(graph, activations), true, true});
}

RankOrders zb_v_orders(const StageGraph& graph, int nmicros) {
  std::vector<long long> activations(graph.ranks, 2LL * graph.ranks);
  return list_schedule(graph, nmicros, {caps(graph, activations), true, false});
}

}  // namespace tessel::classic
