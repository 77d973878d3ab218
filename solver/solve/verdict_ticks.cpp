#include "solver/solve/verdict_ticks.hpp"

#include "model/quantity.hpp"

namespace tessel {

namespace {

// `ticks` of 10^-from as ticks of 10^-to. The document never carries more
// decimals than the placement it was written from, so the common way is up
// and exact; down only truncates a value written finer than its placement.
long long rescaled(long long ticks, int from, int to) {
  return from <= to ? ticks * power_of_ten(to - from) : ticks / power_of_ten(from - to);
}

}  // namespace

Time makespan_in_placement_ticks(const verify::Report& report, const Placement& placement) {
  return rescaled(report.makespan, report.time_decimals, placement.time_decimals);
}

std::vector<Memory> peak_in_placement_ticks(const verify::Report& report, const Placement& placement) {
  std::vector<Memory> peak = report.peak_memory;
  for (Memory& value : peak) value = rescaled(value, report.memory_decimals, placement.memory_decimals);
  return peak;
}

}  // namespace tessel
