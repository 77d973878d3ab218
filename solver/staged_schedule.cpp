// The staged schedule (see the header): memory-free all-device blocks of
// every micro-batch first and last, the repetend of the rest in between.
//
// Valid by construction: within the prefix (and the suffix) one instance
// runs at a time, in each micro-batch's dependency order; the prefix holds
// every ancestor it needs (it is closed under predecessors) and ends before
// the middle starts, the middle ends before the suffix (closed under
// successors) starts; prefix and suffix blocks change no memory, so every
// device's memory curve is the middle's, which its own search kept within
// the limit. The caller still sends the result through the verifier.
#include "solver/staged_schedule.hpp"

#include <algorithm>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/repetend_search.hpp"

namespace tessel {
namespace {

bool batchable(const Placement& placement, const Block& block) {
  return block.memory == 0 && static_cast<int>(block.devices.size()) == placement.ndevs;
}

}  // namespace

std::optional<StagedSchedule> staged_schedule(const Placement& placement, const SearchOptions& options,
                                              int nmicros) {
  const int nblocks = static_cast<int>(placement.blocks.size());
  const std::vector<int> order = topological_order(placement);
  const std::vector<std::vector<int>> preds = predecessors(placement), succs = successors(placement);
  enum Part { Middle, Prefix, Suffix };
  std::vector<Part> part(nblocks, Middle);
  for (int block : order) {
    if (!batchable(placement, placement.blocks[block])) continue;
    bool after_prefix_only = true;
    for (int pred : preds[block]) after_prefix_only = after_prefix_only && part[pred] == Prefix;
    if (after_prefix_only) part[block] = Prefix;
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if (part[*it] != Middle || !batchable(placement, placement.blocks[*it])) continue;
    bool before_suffix_only = true;
    for (int next : succs[*it]) before_suffix_only = before_suffix_only && part[next] == Suffix;
    if (before_suffix_only) part[*it] = Suffix;
  }
  const int batched = static_cast<int>(std::count_if(part.begin(), part.end(), [](Part p) { return p != Middle; }));
  if (batched == 0 || batched == nblocks) return std::nullopt;

  // The middle placement: the remaining blocks and the edges among them.
  Placement middle;
  middle.name = placement.name + " (middle)";
  middle.ndevs = placement.ndevs;
  middle.time_decimals = placement.time_decimals;  // the same ticks, and their delays
  middle.memory_decimals = placement.memory_decimals;
  std::vector<int> middle_index(nblocks, -1);
  for (int b = 0; b < nblocks; ++b)
    if (part[b] == Middle) {
      middle_index[b] = static_cast<int>(middle.blocks.size());
      middle.blocks.push_back(placement.blocks[b]);
    }
  for (const Edge& edge : placement.edges)
    if (middle_index[edge.from] >= 0 && middle_index[edge.to] >= 0)
      middle.edges.push_back({middle_index[edge.from], middle_index[edge.to], edge.delay});

  SearchOptions quiet = options;
  quiet.progress = nullptr;
  std::optional<Schedule> unrolled;
  int middle_period = 0;
  try {
    SearchResult found = search_repetend(middle, quiet);
    if (found.status != SearchStatus::Found || !found.schedule || !found.schedule->repetend) return std::nullopt;
    if (nmicros < smallest_unroll(*found.schedule)) return std::nullopt;
    unrolled = unroll(*found.schedule, nmicros);
    middle_period = found.period;
  } catch (const InputError&) {
    return std::nullopt;  // the middle has no steady state, or N is not reachable
  }

  StagedSchedule staged{empty_schedule(placement, options.memory_limit, nmicros), middle_period, 0, 0};
  for (Part p : part) {
    if (p == Prefix) ++staged.prefix_blocks;
    if (p == Suffix) ++staged.suffix_blocks;
  }
  int step = 0;
  for (int micro = 0; micro < nmicros; ++micro)
    for (int block : order)
      if (part[block] == Prefix) {
        staged.schedule.instances.push_back({block, micro, step});
        step += placement.blocks[block].span;
      }
  std::vector<int> original(middle.blocks.size());
  for (int b = 0; b < nblocks; ++b)
    if (middle_index[b] >= 0) original[middle_index[b]] = b;
  for (const Instance& instance : unrolled->instances)
    staged.schedule.instances.push_back({original[instance.block], instance.micro, step + instance.start});
  step += makespan(*unrolled);
  for (int micro = 0; micro < nmicros; ++micro)
    for (int block : order)
      if (part[block] == Suffix) {
        staged.schedule.instances.push_back({block, micro, step});
        step += placement.blocks[block].span;
      }
  sort_instances(staged.schedule);
  staged.schedule.search = {{"strategy", "staged"}, {"middle_period", middle_period}};
  return staged;
}

}  // namespace tessel
