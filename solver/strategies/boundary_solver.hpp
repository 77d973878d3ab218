// Shortening warmup and cooldown with the solver (docs/algorithms.md,
// "Warmup and cooldown"): the repetend window stays where it is, the instances before
// and after it get new starts, and the warmup and then the cooldown length
// are minimised under the memory limit (the warmup within half the budget,
// the cooldown within the rest), each bound tested under assumptions on one
// solver.
#pragma once

#include <optional>

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct BoundaryOutcome {
  // The shortened schedule; none when nothing shorter was found (the input
  // stands, and is not copied here).
  std::optional<Schedule> shorter;
  bool complete = false;    // both lengths proven minimal (for this window)
  std::vector<SolverCall> calls;
};

// `schedule`: nmicros = K with the repetend window marked, valid for every
// length (fits_for_any_length). The result is again valid for every length.
BoundaryOutcome shorten_boundary(const Schedule& schedule, const std::string& backend, const Deadline& deadline,
                                 const ProgressSink& progress);

}  // namespace tessel
