// Small facts of a schedule that every consumer needs.
#include "model/schedule.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

namespace tessel {

Schedule empty_schedule(const Placement& placement, const std::vector<Memory>& memory_limit, int nmicros) {
  Schedule schedule;
  schedule.placement = placement;
  schedule.memory_limit = memory_limit;
  schedule.uniform_limit = std::adjacent_find(memory_limit.begin(), memory_limit.end(),
                                              std::not_equal_to<>()) == memory_limit.end();
  schedule.nmicros = nmicros;
  return schedule;
}

Time makespan(const Schedule& schedule) {
  Time end = 0;
  for (const Instance& instance : schedule.instances)
    end = std::max(end, instance.start + schedule.placement.blocks[instance.block].span);
  return end;
}

void sort_instances(Schedule& schedule) {
  const std::vector<Block>& blocks = schedule.placement.blocks;
  auto key = [&](const Instance& i) {
    return std::make_tuple(i.start, blocks[i.block].devices.front(), i.block, i.micro);
  };
  std::sort(schedule.instances.begin(), schedule.instances.end(),
            [&](const Instance& a, const Instance& b) { return key(a) < key(b); });
}

}  // namespace tessel
