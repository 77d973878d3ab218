// Condition 2 of docs/algorithms.md, "The problem", "exclusive": on every device, no two
// instances occupy the same step. An instance occupies [start, start + span)
// on each of its devices (all of them at once for a tensor-parallel block).
//
// One sort of the (device, start) occupancies, then a sweep per device that
// remembers the occupancy reaching furthest so far: an instance starting
// before that one ends overlaps it. Each instance that starts on a busy
// device is one violation, naming the device, the first shared step and the
// two instances; so n instances stacked on one step give n - 1 violations,
// not n^2 / 2. A fused unit is one occupancy, [start, start + its span),
// named by its first member.
#include <algorithm>
#include <tuple>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

std::string steps_text(const ScheduleDocument& schedule, long long start, long long end) {
  if (schedule.time_decimals > 0) return "[" + time_text(schedule, start) + ", " + time_text(schedule, end) + ")";
  if (end - start == 1) return "step " + std::to_string(start);
  return "steps " + std::to_string(start) + ".." + std::to_string(end - 1);
}

struct Occupancy {
  int device = 0;
  long long start = 0;
  long long end = 0;   // exclusive
  size_t instance = 0;  // index into DistinctInstances::by_block
};

}  // namespace

void check_exclusivity(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                       const ChoiceTimes& choices, Findings& findings) {
  std::vector<Occupancy> occupancies;
  occupancies.reserve(distinct.by_block.size());
  std::vector<char> unit_placed(schedule.fused.size(), 0);
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    const PlacedInstance& instance = distinct.by_block[i];
    const BlockSpec& block = schedule.blocks[instance.block];
    int unit = fused.unit[i];
    if (unit >= 0 && unit_placed[unit]++) continue;
    for (int device : block.devices) occupancies.push_back({device, instance.start, fused.end[i], i});
  }
  // A recompute run is occupancy number by_block.size() + its place in choices.recomputes.
  for (size_t r = 0; r < choices.recomputes.size(); ++r) {
    const ChoiceRun& run = schedule.runs[choices.recomputes[r]];
    for (int device : schedule.blocks[run.block].devices)
      occupancies.push_back({device, run.start, run_end(schedule, run), distinct.by_block.size() + r});
  }
  auto occupant = [&](size_t index) {
    if (index < distinct.by_block.size()) return name_of(schedule, distinct.by_block[index]);
    return run_name(schedule, schedule.runs[choices.recomputes[index - distinct.by_block.size()]]);
  };
  std::sort(occupancies.begin(), occupancies.end(), [](const Occupancy& a, const Occupancy& b) {
    return std::tie(a.device, a.start, a.end, a.instance) < std::tie(b.device, b.start, b.end, b.instance);
  });

  for (size_t i = 0; i < occupancies.size();) {
    const int device = occupancies[i].device;
    size_t furthest = i;  // the occupancy of this device that ends last so far
    for (++i; i < occupancies.size() && occupancies[i].device == device; ++i) {
      const Occupancy& current = occupancies[i];
      const Occupancy& holder = occupancies[furthest];
      if (current.start < holder.end) {
        const std::string first = occupant(holder.instance);
        const std::string second = occupant(current.instance);
        findings.add({"overlap",
                      "device " + std::to_string(device) + " at step " + time_text(schedule, current.start) + ": " +
                          second + " (" + steps_text(schedule, current.start, current.end) + ") overlaps " + first +
                          " (" + steps_text(schedule, holder.start, holder.end) + ")",
                      {device},
                      {current.start},
                      {first, second}});
      }
      if (current.end > holder.end) furthest = i;
    }
  }
}

}  // namespace tessel::verify
