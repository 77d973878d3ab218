// A quick validity test for schedules under construction (see the header).
//
// Event-based: per device the intervals sorted by start and the memory deltas
// by time, so that the cost grows with the number of instances, not with the
// time values (a span of 10^6 ticks costs what a span of 1 costs).
#include "solver/modulo/schedule_check.hpp"

#include <algorithm>
#include <map>

namespace tessel {

namespace {

using Intervals = std::vector<std::vector<std::pair<Time, Time>>>;  // per device: (start, end)
using Deltas = std::vector<std::vector<std::pair<Time, Memory>>>;   // per device: (step, memory change)

// Each recompute run (docs/formats.md, "Memory traded for time") occupies
// the forward's devices and gives back what the forward released at its
// end; false when one is out of order (before the forward's end, or ending
// after its `before` block starts) or names an instance that is missing.
bool add_recompute_runs(const Schedule& schedule, const std::map<std::pair<int, int>, Time>& start_of,
                        Intervals& intervals, Deltas& deltas) {
  const Placement& placement = schedule.placement;
  for (const RecomputeRun& run : schedule.recomputes) {
    const Block& block = placement.blocks[run.block];
    if (!block.recompute) return false;
    auto forward = start_of.find({run.block, run.micro});
    auto before = start_of.find({block.recompute->before, run.micro});
    if (forward == start_of.end() || before == start_of.end()) return false;
    const Time forward_end = forward->second + block.span;
    if (run.start < forward_end || run.start + block.recompute->span > before->second) return false;
    const Memory saved = block.memory - block.recompute->checkpoint_memory;
    for (int device : block.devices) {
      intervals[device].push_back({run.start, run.start + block.recompute->span});
      deltas[device].push_back({forward_end, -saved});
      deltas[device].push_back({run.start, saved});
    }
  }
  return true;
}

// Each offload: its copies one at a time on the channel of each of the
// forward's devices (`channels`), the copy out after the forward, the copy
// in after the copy out and ending before the `before` block; the whole
// memory freed when the copy out ends and allocated when the copy in starts.
bool add_copies(const Schedule& schedule, const std::map<std::pair<int, int>, Time>& start_of, Intervals& channels,
                Deltas& deltas) {
  const Placement& placement = schedule.placement;
  std::map<std::pair<int, int>, std::pair<Time, Time>> copies;  // (block, micro) -> (out, in); -1 unset
  for (const Transfer& copy : schedule.transfers) {
    auto& times = copies.try_emplace({copy.block, copy.micro}, std::pair<Time, Time>{-1, -1}).first->second;
    (copy.direction == TransferDirection::Out ? times.first : times.second) = copy.start;
  }
  for (const auto& [key, times] : copies) {
    const Block& block = placement.blocks[key.first];
    if (!block.offload || times.first < 0 || times.second < 0) return false;
    auto forward = start_of.find(key);
    auto before = start_of.find({block.offload->before, key.second});
    if (forward == start_of.end() || before == start_of.end()) return false;
    const Time out_end = times.first + block.offload->out;
    if (times.first < forward->second + block.span || times.second < out_end ||
        times.second + block.offload->in > before->second)
      return false;
    for (int device : block.devices) {
      channels[device].push_back({times.first, out_end});
      channels[device].push_back({times.second, times.second + block.offload->in});
      deltas[device].push_back({out_end, -block.memory});
      deltas[device].push_back({times.second, block.memory});
    }
  }
  return true;
}

// No two intervals of one line meet.
bool disjoint(Intervals& lines) {
  for (auto& line : lines) {
    std::sort(line.begin(), line.end());
    for (size_t i = 1; i < line.size(); ++i)
      if (line[i].first < line[i - 1].second) return false;
  }
  return true;
}

}  // namespace

bool schedule_fits(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  // Per device: (start, end) of every instance and (start, delta) of memory.
  Intervals intervals(placement.ndevs);
  Deltas deltas(placement.ndevs);
  std::map<std::pair<int, int>, Time> start_of;  // (block, micro) -> start
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    start_of[{instance.block, instance.micro}] = instance.start;
    for (int device : block.devices) {
      intervals[device].push_back({instance.start, instance.start + block.span});
      if (block.memory != 0) deltas[device].push_back({instance.start, block.memory});
    }
  }
  Intervals channels(placement.ndevs);
  if (!add_recompute_runs(schedule, start_of, intervals, deltas) || !add_copies(schedule, start_of, channels, deltas) ||
      !disjoint(intervals) || !disjoint(channels))
    return false;
  for (const Edge& edge : placement.edges)
    for (int micro = 0; micro < schedule.nmicros; ++micro) {
      auto from = start_of.find({edge.from, micro});
      auto to = start_of.find({edge.to, micro});
      if (from == start_of.end() || to == start_of.end()) continue;
      if (from->second + placement.blocks[edge.from].span + edge.delay > to->second) return false;
    }
  if (schedule.memory_limit.empty()) return true;
  for (int device = 0; device < placement.ndevs; ++device) {
    std::sort(deltas[device].begin(), deltas[device].end());
    Memory memory = 0;
    for (size_t i = 0; i < deltas[device].size(); ++i) {
      memory += deltas[device][i].second;
      const bool last_at_this_time = i + 1 == deltas[device].size() || deltas[device][i + 1].first != deltas[device][i].first;
      if (last_at_this_time && memory > schedule.memory_limit[device]) return false;
    }
  }
  return true;
}

Schedule in_micro_order(const Schedule& schedule) {
  if (!schedule.fused.empty() || !schedule.recomputes.empty() || !schedule.transfers.empty()) return schedule;
  Schedule sorted = schedule;
  std::vector<std::vector<Time>> starts(schedule.placement.blocks.size());
  for (const Instance& instance : schedule.instances) starts[instance.block].push_back(instance.start);
  for (std::vector<Time>& copies : starts) std::sort(copies.begin(), copies.end());
  for (Instance& instance : sorted.instances) instance.start = starts[instance.block][instance.micro];
  sort_instances(sorted);
  return schedule_fits(sorted) ? sorted : schedule;
}

}  // namespace tessel
