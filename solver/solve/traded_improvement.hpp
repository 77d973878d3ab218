// One improvement of the answer that trades memory, after the makespan
// portfolio (which never saw it): the shift search (traded_shifts.hpp) and
// the windows (traded_neighbourhoods.hpp) differ only in how they move it.
// Both run on the solver's view of the answer (static memory off, its
// limits), within a grant of the whole plan (solve/budget.hpp
// grant_traded), and what they return is put back on the user's placement,
// judged by the verifier and taken when shorter; a rejected one is listed.
#pragma once

#include <functional>
#include <string>

#include "solver/types/search_result.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget;  // solver/solve/budget.hpp

// What moved the answer, in a sentence for its candidate's note.
using TradedMove = std::function<Schedule(const Schedule& centre, const SearchOptions& options, Time bound,
                                          std::string& note)>;

struct TradedImprovement {
  BudgetPhase phase = BudgetPhase::Shifts;
  double seconds = 0;  // its own, before the plan cuts them
  std::string name;    // the candidate's
  TradedMove move;
};

// Does nothing for strategy full, without offers, without a report at N
// whose answer recomputes or copies (and has no fused units), at the bound,
// past the deadline or when less than a tenth of a second would be granted.
void improve_traded_answer(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                           Budget& budget, SearchReport& report, Progress& progress,
                           const TradedImprovement& improvement);

}  // namespace tessel
