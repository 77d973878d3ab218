// The searches' admission check (see the header).
#include "solver/solve/unit_step_problem.hpp"

#include "model/input_error.hpp"

namespace tessel {

namespace {

// One micro-batch's spans and delays: an upper bound on its latency, and a
// period that always works.
__int128 serial_time(const Placement& placement) {
  __int128 serial = 0;
  for (const Block& block : placement.blocks) serial += block.span;
  for (const Edge& edge : placement.edges) serial += edge.delay;
  return serial;
}

// Times of the result stay below the serial time times the micro-batches a
// makespan is reported for.
__int128 reach(const Placement& placement) {
  return serial_time(placement) * static_cast<__int128>(placement.blocks.size() + 128);
}

}  // namespace

bool times_searchable(const Placement& placement) {
  return reach(placement) <= kLargestSearchTime;
}

std::vector<Memory> unit_step_limits(const Placement& placement, const std::vector<Memory>& limits) {
  const __int128 serial = serial_time(placement);
  if (reach(placement) > kLargestSearchTime)
    throw InputError("", "blocks",
                     "the time values are too large for the search: one micro-batch takes up to " +
                         std::to_string(static_cast<long long>(serial)) + " ticks, and its schedules must stay below " +
                         std::to_string(kLargestSearchTime) + " ticks; give the times in a coarser unit or "
                         "search with --resolution R (times rounded to multiples of R, error bound printed)");
  std::vector<Memory> usable = limits;
  for (size_t d = 0; d < usable.size(); ++d) usable[d] -= static_memory_of(placement, static_cast<int>(d));
  return usable;
}

}  // namespace tessel
