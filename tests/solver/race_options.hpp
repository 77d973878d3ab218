// What the period-race and cube tests share: search options whose answer
// does not depend on timing (k = 1 only, a generous deadline, no latency or
// boundary budgets), and one race over a single period on two threads.
#pragma once

#include <string>
#include <vector>

#include "solver/period/scheduler.hpp"
#include "solver/types/search_result.hpp"

namespace tessel::testing {

inline SearchOptions timing_free(const std::string& backend, const Placement& placement, long long memory,
                                 int threads) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit.assign(placement.ndevs, memory);
  options.deadline = Deadline::after_seconds(120);
  options.micros_per_window = 1;
  options.latency_budget = false;
  options.boundary_seconds = 0;
  options.threads = threads;
  // The modulo encoding's race: the chain program would answer the chains
  // (nnshape, mshape) without it.
  options.period_method = PeriodMethodChoice::UnitStep;
  return options;
}

// The race over exactly `period`, as the repetend search would run it.
inline PeriodsOutcome race_one_period(const Placement& placement, int period, const SearchOptions& options,
                                         std::vector<SolverCall>& calls) {
  return schedule_periods({&placement, period, period, static_cast<int>(placement.blocks.size()), {}, false, "", 2},
                      options, options.deadline, calls);
}

}  // namespace tessel::testing
