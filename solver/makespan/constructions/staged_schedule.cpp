// The staged schedule (see the header): memory-free all-device blocks of
// every micro-batch first and last, the repetend of the rest in between.
//
// Valid by construction: within the prefix (and the suffix) one instance
// runs at a time, in each micro-batch's dependency order, and the whole
// layout is then timed in that order with the edges' delays; the prefix holds
// every ancestor it needs (it is closed under predecessors) and ends before
// the middle starts, the middle ends before the suffix (closed under
// successors) starts; prefix and suffix blocks change no memory, so every
// device's memory curve is the middle's, which its own search kept within
// the limit. The caller still sends the result through the verifier.
#include "solver/makespan/constructions/staged_schedule.hpp"

#include <algorithm>

#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/strategies/repetend_search.hpp"

namespace tessel {
namespace {

bool batchable(const Placement& placement, const Block& block) {
  return block.memory == 0 && static_cast<int>(block.devices.size()) == placement.ndevs;
}

enum class Part { Middle, Prefix, Suffix };

// The blocks batched first and last, and the placement of the rest.
struct Split {
  std::vector<int> order;     // a topological order of the blocks
  std::vector<Part> part;     // per block
  Placement middle;           // the Middle blocks and the edges among them
  std::vector<int> original;  // middle block -> placement block
};

std::optional<Split> split_for_staging(const Placement& placement) {
  const int nblocks = static_cast<int>(placement.blocks.size());
  Split split;
  split.order = topological_order(placement);
  const std::vector<std::vector<int>> preds = predecessors(placement), succs = successors(placement);
  std::vector<Part>& part = split.part;
  part.assign(nblocks, Part::Middle);
  for (int block : split.order) {
    if (!batchable(placement, placement.blocks[block])) continue;
    bool after_prefix_only = true;
    for (int pred : preds[block]) after_prefix_only = after_prefix_only && part[pred] == Part::Prefix;
    if (after_prefix_only) part[block] = Part::Prefix;
  }
  for (auto it = split.order.rbegin(); it != split.order.rend(); ++it) {
    if (part[*it] != Part::Middle || !batchable(placement, placement.blocks[*it])) continue;
    bool before_suffix_only = true;
    for (int next : succs[*it]) before_suffix_only = before_suffix_only && part[next] == Part::Suffix;
    if (before_suffix_only) part[*it] = Part::Suffix;
  }
  const int batched = static_cast<int>(std::count(part.begin(), part.end(), Part::Prefix) +
                                       std::count(part.begin(), part.end(), Part::Suffix));
  if (batched == 0 || batched == nblocks) return std::nullopt;

  Placement& middle = split.middle;
  middle.name = placement.name + " (middle)";
  middle.ndevs = placement.ndevs;
  middle.time_decimals = placement.time_decimals;  // the same ticks, and their delays
  middle.memory_decimals = placement.memory_decimals;
  std::vector<int> middle_index(nblocks, -1);
  for (int b = 0; b < nblocks; ++b)
    if (part[b] == Part::Middle) {
      middle_index[b] = static_cast<int>(middle.blocks.size());
      middle.blocks.push_back(placement.blocks[b]);
      split.original.push_back(b);
    }
  for (const Edge& edge : placement.edges)
    if (middle_index[edge.from] >= 0 && middle_index[edge.to] >= 0)
      middle.edges.push_back({middle_index[edge.from], middle_index[edge.to], edge.delay});
  return split;
}

// The steps of one micro-batch's blocks of `which` (all devices, one at a time).
Time batched_steps(const Placement& placement, const Split& split, Part which) {
  Time steps = 0;
  for (size_t b = 0; b < split.part.size(); ++b)
    if (split.part[b] == which) steps += placement.blocks[b].span;
  return steps;
}

}  // namespace

long long staged_lower_bound(const Placement& placement, const std::vector<Memory>& limits, int total_micros) {
  const std::optional<Split> split = split_for_staging(placement);
  if (!split) return 0;
  const Time batched = batched_steps(placement, *split, Part::Prefix) + batched_steps(placement, *split, Part::Suffix);
  return static_cast<long long>(total_micros) * batched + makespan_lower_bound(split->middle, total_micros, limits);
}

std::optional<StagedSchedule> staged_schedule(const Placement& placement, const SearchOptions& options,
                                              int total_micros) {
  const std::optional<Split> split = split_for_staging(placement);
  if (!split) return std::nullopt;
  const std::vector<int>& order = split->order;
  const std::vector<Part>& part = split->part;
  const Placement& middle = split->middle;

  SearchOptions quiet = options;
  quiet.progress = nullptr;
  std::optional<Schedule> unrolled;
  int middle_period = 0;
  try {
    SearchResult found = search_repetend(middle, quiet);
    if (found.status != SearchStatus::Found || !found.schedule || !found.schedule->repetend) return std::nullopt;
    if (total_micros < smallest_unroll(*found.schedule)) return std::nullopt;
    unrolled = unroll(*found.schedule, total_micros);
    middle_period = found.period;
  } catch (const InputError&) {
    return std::nullopt;  // the middle has no steady state, or N is not reachable
  }

  StagedSchedule staged{empty_schedule(placement, options.memory_limit, total_micros), middle_period, 0, 0};
  staged.prefix_blocks = static_cast<int>(std::count(part.begin(), part.end(), Part::Prefix));
  staged.suffix_blocks = static_cast<int>(std::count(part.begin(), part.end(), Part::Suffix));
  Time step = 0;
  for (int micro = 0; micro < total_micros; ++micro)
    for (int block : order)
      if (part[block] == Part::Prefix) {
        staged.schedule.instances.push_back({block, micro, step});
        step += placement.blocks[block].span;
      }
  for (const Instance& instance : unrolled->instances)
    staged.schedule.instances.push_back({split->original[instance.block], instance.micro, step + instance.start});
  step += makespan(*unrolled);
  for (int micro = 0; micro < total_micros; ++micro)
    for (int block : order)
      if (part[block] == Part::Suffix) {
        staged.schedule.instances.push_back({block, micro, step});
        step += placement.blocks[block].span;
      }
  // The layout above keeps every device's order and every dependency's
  // direction but not the edges' delays (a prefix block's successor right
  // after it, the suffix right after the middle): each instance is timed
  // again as early as its dependencies plus their delays and its devices'
  // previous instances allow, in the same order per device, which keeps
  // every memory curve (solver/makespan/improvements/neighbourhood.hpp, compacted).
  staged.schedule = compacted(staged.schedule);
  staged.schedule.search = {{"strategy", "staged"}, {"middle_period", middle_period}};
  return staged;
}

}  // namespace tessel
