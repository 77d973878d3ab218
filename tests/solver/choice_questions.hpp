// The recompute/offload choice asked directly (solver/solve/recompute_choice):
// one question built the same way for the tests of both offers.
#pragma once

#include <string>

#include "sat/deadline.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/strategies/full_search.hpp"

namespace tessel::testing {

// Periods first..last of windows of k micro-batches under `memory` on every
// device, up to every block's count in flight, within two minutes.
// `minimise_latency`: also bisect the latency (slow on Z3 for k > 1).
inline RecomputeChoiceAnswer decide_choosing(const Placement& placement, int k, long long memory,
                                             const std::string& backend, int first, int last, bool minimise_latency) {
  RecomputeChoiceQuestion question;
  question.placement = &placement;
  question.micros_per_window = k;
  question.memory_limit.assign(placement.ndevs, memory);
  question.backend = backend;
  question.periods = {first, last};
  question.max_in_flight = static_cast<int>(placement.blocks.size());
  question.minimise_latency = minimise_latency;
  return decide_periods_choosing_recompute(question, Deadline::after_seconds(120));
}

// Strategy full at N = `nmicros` under `memory` on every device (where the
// choice is made per micro-batch), within `seconds`.
inline SearchResult full_choosing(const Placement& placement, int nmicros, long long memory,
                                  const std::string& backend = "cadical", double seconds = 120) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit.assign(placement.ndevs, memory);
  options.total_micros = nmicros;
  options.deadline = Deadline::after_seconds(seconds);
  return search_full(placement, options);
}

}  // namespace tessel::testing
