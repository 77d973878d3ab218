// The traded answer moved by the shift search (traded_shifts.hpp).
#include "solver/solve/traded_shifts.hpp"

#include <string>

#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/solve/traded_improvement.hpp"

namespace tessel {

void shift_traded_answer(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                         Budget& budget, SearchReport& report, Progress& progress) {
  // Under the plan only what is left of it (the search on 16 devices stays
  // within its seconds: on nnshape 8/8 offering recomputation the derived
  // search spends the plan, and half a second more of shifts there found
  // nothing); with a time limit or a budget set by hand, shift_seconds.
  TradedImprovement shifts;
  shifts.phase = BudgetPhase::Shifts;
  shifts.seconds = request.tuning.shift_seconds;
  shifts.name = "improve: shifts, memory traded";
  shifts.move = [](const Schedule& centre, const SearchOptions& within, Time bound, std::string& note) {
    ShiftStats stats;
    Schedule improved = improve_by_shifts(centre, within, bound, &stats);
    note = "every instance, recompute and copy of the traded answer free within a few steps, each choice made "
           "again: " + std::to_string(stats.improvements) + " shorter schedules in " +
           std::to_string(stats.encodings) + " encodings";
    return improved;
  };
  improve_traded_answer(request, placement, options, budget, report, progress, shifts);
}

}  // namespace tessel
