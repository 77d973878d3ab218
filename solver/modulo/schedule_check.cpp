// A quick validity test for schedules under construction (see the header).
//
// Event-based: per device the intervals sorted by start and the memory deltas
// by time, so that the cost grows with the number of instances, not with the
// time values (a span of 10^6 ticks costs what a span of 1 costs).
#include "solver/modulo/schedule_check.hpp"

#include <algorithm>
#include <map>

namespace tessel {

bool schedule_fits(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  // Per device: (start, end) of every instance and (start, delta) of memory.
  std::vector<std::vector<std::pair<Time, Time>>> intervals(placement.ndevs);
  std::vector<std::vector<std::pair<Time, Memory>>> deltas(placement.ndevs);
  std::map<std::pair<int, int>, Time> start_of;  // (block, micro) -> start
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    start_of[{instance.block, instance.micro}] = instance.start;
    for (int device : block.devices) {
      intervals[device].push_back({instance.start, instance.start + block.span});
      if (block.memory != 0) deltas[device].push_back({instance.start, block.memory});
    }
  }
  for (auto& device : intervals) {
    std::sort(device.begin(), device.end());
    for (size_t i = 1; i < device.size(); ++i)
      if (device[i].first < device[i - 1].second) return false;
  }
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
  if (!schedule.fused.empty()) return schedule;
  Schedule sorted = schedule;
  std::vector<std::vector<Time>> starts(schedule.placement.blocks.size());
  for (const Instance& instance : schedule.instances) starts[instance.block].push_back(instance.start);
  for (std::vector<Time>& copies : starts) std::sort(copies.begin(), copies.end());
  for (Instance& instance : sorted.instances) instance.start = starts[instance.block][instance.micro];
  sort_instances(sorted);
  return schedule_fits(sorted) ? sorted : schedule;
}

}  // namespace tessel
