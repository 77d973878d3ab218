// Small facts of a schedule that every consumer needs.
#include "model/schedule.hpp"

#include <algorithm>
#include <functional>
#include <map>
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

std::vector<Time> instance_ends(const Schedule& schedule) {
  std::vector<Time> ends;
  ends.reserve(schedule.instances.size());
  for (const Instance& instance : schedule.instances)
    ends.push_back(instance.start + schedule.placement.blocks[instance.block].span);
  if (schedule.fused.empty()) return ends;
  std::map<std::pair<int, int>, Time> unit_end;  // (block, micro) -> span of its unit
  for (const FusedUnit& unit : schedule.fused)
    for (const FusedMember& member : unit.members) unit_end[{member.block, member.micro}] = unit.span;
  for (size_t i = 0; i < schedule.instances.size(); ++i) {
    auto found = unit_end.find({schedule.instances[i].block, schedule.instances[i].micro});
    if (found != unit_end.end()) ends[i] = schedule.instances[i].start + found->second;
  }
  return ends;
}

Time makespan(const Schedule& schedule) {
  Time end = 0;
  for (Time finish : instance_ends(schedule)) end = std::max(end, finish);
  const std::vector<Block>& blocks = schedule.placement.blocks;
  for (const RecomputeRun& run : schedule.recomputes)
    if (blocks[run.block].recompute) end = std::max(end, run.start + blocks[run.block].recompute->span);
  for (const Transfer& copy : schedule.transfers) {
    if (!blocks[copy.block].offload) continue;
    const OffloadOffer& offer = *blocks[copy.block].offload;
    end = std::max(end, copy.start + (copy.direction == TransferDirection::Out ? offer.out : offer.in));
  }
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
