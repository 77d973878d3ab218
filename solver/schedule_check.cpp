// A quick validity test for schedules under construction (see the header).
#include "solver/schedule_check.hpp"

#include <algorithm>
#include <map>

namespace tessel {

bool schedule_fits(const Schedule& schedule) {
  const Placement& placement = schedule.placement;
  const int end = makespan(schedule);
  std::vector<std::vector<char>> busy(placement.ndevs, std::vector<char>(std::max(end, 0), 0));
  std::vector<std::vector<long long>> delta(placement.ndevs, std::vector<long long>(std::max(end, 0) + 1, 0));
  std::map<std::pair<int, int>, int> start_of;  // (block, micro) -> start
  for (const Instance& instance : schedule.instances) {
    const Block& block = placement.blocks[instance.block];
    start_of[{instance.block, instance.micro}] = instance.start;
    for (int device : block.devices) {
      for (int step = instance.start; step < instance.start + block.span; ++step) {
        if (busy[device][step]) return false;
        busy[device][step] = 1;
      }
      delta[device][instance.start] += block.memory;
    }
  }
  for (const Edge& edge : placement.edges)
    for (int micro = 0; micro < schedule.nmicros; ++micro) {
      auto from = start_of.find({edge.from, micro});
      auto to = start_of.find({edge.to, micro});
      if (from == start_of.end() || to == start_of.end()) continue;
      if (from->second + placement.blocks[edge.from].span > to->second) return false;
    }
  if (schedule.memory_limit.empty()) return true;
  for (int device = 0; device < placement.ndevs; ++device) {
    long long memory = 0;
    for (long long change : delta[device]) {
      memory += change;
      if (memory > schedule.memory_limit[device]) return false;
    }
  }
  return true;
}

}  // namespace tessel
