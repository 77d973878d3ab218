// See modulo_compacted.hpp: read the pattern off the repetend's first
// period, lay it out for every micro-batch, compact.
#include "solver/makespan/constructions/modulo_compacted.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "solver/makespan/improvements/neighbourhood.hpp"
#include "solver/modulo/schedule_check.hpp"

namespace tessel {

namespace {

// The instance of each block and class of micro-batches (mod k) that starts
// in the repetend's first period, or nothing when one is missing.
std::optional<std::vector<std::vector<Instance>>> pattern_of(const Schedule& schedule) {
  const Repetend& window = *schedule.repetend;
  const int k = window.micros_per_period;
  if (k < 1 || window.period <= 0) return std::nullopt;
  std::vector<std::vector<Instance>> pattern(schedule.placement.blocks.size(), std::vector<Instance>(k, {-1, 0, 0}));
  for (const Instance& instance : schedule.instances) {
    if (instance.start < window.start || instance.start >= window.start + window.period) continue;
    pattern[instance.block][instance.micro % k] = instance;
  }
  for (const std::vector<Instance>& classes : pattern)
    for (const Instance& instance : classes)
      if (instance.block < 0) return std::nullopt;
  return pattern;
}

}  // namespace

std::optional<Schedule> modulo_compacted(const Schedule& repetend_schedule, int total_micros) {
  if (!repetend_schedule.repetend || !repetend_schedule.fused.empty() || total_micros < 1) return std::nullopt;
  const std::optional<std::vector<std::vector<Instance>>> pattern = pattern_of(repetend_schedule);
  if (!pattern) return std::nullopt;
  const Repetend& window = *repetend_schedule.repetend;
  const int k = window.micros_per_period;
  Schedule plain = repetend_schedule;
  plain.repetend.reset();
  plain.nmicros = total_micros;
  plain.instances.clear();
  Time earliest = std::numeric_limits<Time>::max();
  for (int micro = 0; micro < total_micros; ++micro)
    for (const std::vector<Instance>& classes : *pattern) {
      const Instance& seen = classes[micro % k];
      // Same class, so micro - seen.micro is a multiple of k: whole periods.
      const Time start = seen.start + Time{(micro - seen.micro) / k} * window.period;
      plain.instances.push_back({seen.block, micro, start});
      earliest = std::min(earliest, start);
    }
  for (Instance& instance : plain.instances) instance.start -= earliest;
  Schedule tight = compacted(plain);
  if (makespan(tight) <= makespan(plain) && schedule_fits(tight)) return tight;
  return plain;
}

}  // namespace tessel
