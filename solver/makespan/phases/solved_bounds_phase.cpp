// The solved bounds (bounds/solved_bounds.hpp) asked first among the
// improvements when the gap of the best is wide (above gap_to_try_others):
// there it lies in the ends and they may prove the best optimal, so that no
// improvement runs for nothing. A gap within the staged schedule's 1% is
// usually closed by the improvements (nnshape, 8 devices, memory 16: 1053
// against 1052, which the ends cannot prove and the neighbourhoods reach),
// and the report asks them afterwards if it is not.
#include "solver/makespan/bounds/makespan_gap.hpp"
#include "solver/makespan/bounds/solved_bounds.hpp"
#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {

Phase solved_bounds_phase() {
  Phase phase;
  phase.name = "solved bounds";
  phase.stage = Stage::Improvement;
  phase.wanted = [](const Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    return relative_gap(makespan(*portfolio.start()), portfolio.bound()) > input.gap_to_try_others &&
           !input.options.deadline.expired() && solved_bounds_on(input.options);
  };
  phase.run = [](Portfolio& portfolio) {
    const CandidateInput& input = portfolio.input();
    const Schedule& start = *portfolio.start();
    bool ran = false;
    const MakespanBound raised = raised_by_solved_bounds(*input.placement, input.total_micros, input.options,
                                                         makespan(start), portfolio.so_far().bound, {0.5, &start, &ran});
    portfolio.raise(raised, makespan(start), ran);
  };
  return phase;
}

}  // namespace tessel
