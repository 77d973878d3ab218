// Fused units (docs/formats.md, "fused"): instances a device runs together
// as one unit, such as an overlapped forward and backward of two
// micro-batches or the input and weight backward of one full backward. The
// file declares the members and the unit's span; the unit is valid when
// every member is a scheduled instance of no other unit, all members run on
// the same devices and start at the same step. Then the unit occupies
// [start, start + span) once on its devices, and each member counts as
// finished at start + span for the edges leaving it; its own span no longer
// matters. Memory changes stay at each member's start, as for any instance.
#include <algorithm>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

std::string unit_name(const FusedSpec& unit) { return "fused[" + std::to_string(unit.position) + "]"; }

}  // namespace

FusedTimes check_fused(const ScheduleDocument& schedule, const DistinctInstances& distinct, Findings& findings) {
  FusedTimes times;
  times.unit.assign(distinct.by_block.size(), -1);
  times.end.resize(distinct.by_block.size());
  for (size_t i = 0; i < distinct.by_block.size(); ++i)
    times.end[i] = distinct.by_block[i].start + schedule.blocks[distinct.by_block[i].block].span;
  for (size_t u = 0; u < schedule.fused.size(); ++u) {
    const FusedSpec& unit = schedule.fused[u];
    std::vector<size_t> members;
    bool usable = true;
    for (const auto& [block, micro] : unit.members) {
      const PlacedInstance* instance = find_instance(distinct, block, micro);
      std::string member = instance_name(schedule.blocks[block].id, micro);
      if (!instance) {
        findings.add({"fused", unit_name(unit) + " names " + member + ", which the schedule does not run", {}, {},
                      {member}});
        usable = false;
        continue;
      }
      size_t index = static_cast<size_t>(instance - distinct.by_block.data());
      if (times.unit[index] >= 0) {
        findings.add({"fused", member + " is in " + unit_name(unit) + " and in " +
                                   unit_name(schedule.fused[times.unit[index]]),
                      schedule.blocks[block].devices, {instance->start}, {member}});
        usable = false;
        continue;
      }
      members.push_back(index);
    }
    for (size_t index : members) {
      const PlacedInstance& first = distinct.by_block[members.front()];
      const PlacedInstance& other = distinct.by_block[index];
      if (schedule.blocks[other.block].devices != schedule.blocks[first.block].devices) {
        findings.add({"fused", unit_name(unit) + ": " + name_of(schedule, other) + " runs on other devices than " +
                                   name_of(schedule, first),
                      schedule.blocks[other.block].devices, {other.start},
                      {name_of(schedule, first), name_of(schedule, other)}});
        usable = false;
      } else if (other.start != first.start) {
        findings.add({"fused", unit_name(unit) + ": " + name_of(schedule, other) + " starts at step " +
                                   time_text(schedule, other.start) + ", " + name_of(schedule, first) + " at step " +
                                   time_text(schedule, first.start) + "; a unit's members start together",
                      schedule.blocks[other.block].devices, {first.start, other.start},
                      {name_of(schedule, first), name_of(schedule, other)}});
        usable = false;
      }
    }
    // A unit that is not one is left out: its members keep their own spans,
    // so that the other checks see the schedule as written.
    if (!usable) continue;
    for (size_t index : members) {
      times.unit[index] = static_cast<int>(u);
      times.end[index] = distinct.by_block[index].start + unit.span;
    }
  }
  return times;
}

}  // namespace tessel::verify
