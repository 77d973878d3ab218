// The solved makespan bounds in turn (see the header).
#include "solver/makespan/bounds/solved_bounds.hpp"

#include "solver/makespan/bounds/device_relaxation.hpp"
#include "solver/makespan/bounds/exact_ends.hpp"

namespace tessel {

bool solved_bounds_on(const SearchOptions& options) {
  return options.ends_seconds > 0 || options.relaxation_seconds > 0;
}

MakespanBound raised_by_solved_bounds(const Placement& placement, long long total_micros, const SearchOptions& options,
                                      long long best, const MakespanBound& bound, const SolvedBoundsAsk& ask) {
  MakespanBound raised = bound;
  if (options.relaxation_seconds > 0)
    raised = raised_by_device_relaxation(placement, total_micros, options, best, raised, ask.left_share, ask.hint);
  if (options.ends_seconds > 0 && best > raised.value)
    raised = raised_by_exact_ends(placement, total_micros, options, best, raised, ask.left_share, ask.ends_ran);
  return raised;
}

bool solved_bound(const MakespanBound& bound) {
  return bound.argument == BoundArgument::ExactEnds || bound.argument == BoundArgument::DeviceRelaxation;
}

}  // namespace tessel
