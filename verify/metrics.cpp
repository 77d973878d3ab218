// The figures of a schedule (docs/algorithms.md, "The problem"): makespan = the largest
// start + span (a fused unit's end for its members); busy steps of a device = the steps in [0, makespan) where at
// least one instance occupies it; bubble ratio = idle steps / (ndevs *
// makespan). Busy steps are a union of intervals, so an invalid schedule
// with overlaps still gets truthful figures.
#include <algorithm>

#include "verify/checks.hpp"

namespace tessel::verify {

Metrics measure(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                const ChoiceTimes& choices) {
  Metrics metrics;
  std::vector<std::vector<std::pair<long long, long long>>> intervals(schedule.ndevs);
  for (size_t i = 0; i < distinct.by_block.size(); ++i) {
    const PlacedInstance& instance = distinct.by_block[i];
    const BlockSpec& block = schedule.blocks[instance.block];
    metrics.makespan = std::max(metrics.makespan, fused.end[i]);
    for (int device : block.devices) intervals[device].push_back({instance.start, fused.end[i]});
  }
  for (size_t index : choices.recomputes) {
    const ChoiceRun& run = schedule.runs[index];
    metrics.makespan = std::max(metrics.makespan, run_end(schedule, run));
    for (int device : schedule.blocks[run.block].devices) intervals[device].push_back({run.start, run_end(schedule, run)});
  }
  for (size_t index : choices.copies) metrics.makespan = std::max(metrics.makespan, run_end(schedule, schedule.runs[index]));

  metrics.busy_steps.assign(schedule.ndevs, 0);
  long double busy_total = 0;  // ticks summed over many devices may pass 2^63
  for (int device = 0; device < schedule.ndevs; ++device) {
    std::vector<std::pair<long long, long long>>& list = intervals[device];
    std::sort(list.begin(), list.end());
    long long covered_until = 0;  // steps below this are already counted
    for (const auto& [start, end] : list) {
      long long from = std::max(start, covered_until);
      if (end > from) metrics.busy_steps[device] += end - from;
      covered_until = std::max(covered_until, end);
    }
    busy_total += metrics.busy_steps[device];
  }

  const long double capacity = static_cast<long double>(schedule.ndevs) * metrics.makespan;
  if (capacity > 0) metrics.bubble_ratio = static_cast<double>((capacity - busy_total) / capacity);
  return metrics;
}

}  // namespace tessel::verify
