// Condition 3 of docs/algorithms.md, "The problem", "dependencies": for every edge a -> b with
// delay w (0 when the edge has none) and every micro-batch m,
// start(a, m) + span(a) + w <= start(b, m); for a member of a
// fused unit its end is the unit's, and an edge inside one unit holds (the
// unit computes both together).
//
// The distinct instances are sorted by (block, micro), so each edge is one
// merge of block a's and block b's micro-batch lists. A micro-batch where one
// side is absent is skipped: that instance is already reported as missing,
// and a guess at where it would have been could only invent a reason.
#include <algorithm>

#include "verify/checks.hpp"

namespace tessel::verify {

namespace {

std::vector<int> devices_of_both(const BlockSpec& a, const BlockSpec& b) {
  std::vector<int> devices = a.devices;
  devices.insert(devices.end(), b.devices.begin(), b.devices.end());
  std::sort(devices.begin(), devices.end());
  devices.erase(std::unique(devices.begin(), devices.end()), devices.end());
  return devices;
}

std::string late_start_text(const ScheduleDocument& schedule, const PlacedInstance& before,
                            const PlacedInstance& after, const EdgeSpec& edge, long long finish) {
  const BlockSpec& from = schedule.blocks[edge.from];
  const BlockSpec& to = schedule.blocks[edge.to];
  const long long early = finish + edge.delay - after.start;
  std::string text = name_of(schedule, after) + " starts at step " + time_text(schedule, after.start) + " but " +
                     name_of(schedule, before) + " runs until step " + time_text(schedule, finish);
  if (edge.delay > 0) text += " and the edge's delay " + time_text(schedule, edge.delay) + " follows";
  text += " (edge " + from.id + " -> " + to.id;
  if (edge.delay > 0) text += " with delay " + time_text(schedule, edge.delay);
  if (schedule.time_decimals > 0) return text + ", " + time_text(schedule, early) + " too early)";
  return text + ", " + std::to_string(early) + " step" + (early == 1 ? "" : "s") + " too early)";
}

}  // namespace

void check_dependencies(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                        Findings& findings) {
  for (const EdgeSpec& edge : schedule.edges) {
    const BlockSpec& from = schedule.blocks[edge.from];
    const BlockSpec& to = schedule.blocks[edge.to];
    size_t a = distinct.block_begin[edge.from];
    size_t a_end = distinct.block_begin[edge.from + 1];
    size_t b = distinct.block_begin[edge.to];
    size_t b_end = distinct.block_begin[edge.to + 1];
    while (a < a_end && b < b_end) {
      const PlacedInstance& before = distinct.by_block[a];
      const PlacedInstance& after = distinct.by_block[b];
      if (before.micro < after.micro) {
        ++a;
        continue;
      }
      if (after.micro < before.micro) {
        ++b;
        continue;
      }
      long long finish = fused.end[a];
      long long ready = finish + edge.delay;  // the delay: a transfer after a ends, no device busy
      bool same_unit = fused.unit[a] >= 0 && fused.unit[a] == fused.unit[b];
      if (ready > after.start && !same_unit)
        findings.add({"dependency", late_start_text(schedule, before, after, edge, finish),
                      devices_of_both(from, to),
                      {before.start, after.start},
                      {name_of(schedule, before), name_of(schedule, after)}});
      ++a;
      ++b;
    }
  }
}

}  // namespace tessel::verify
