// After the period search on a placement offering recomputation or
// offload: the periods below the one found are decided again with a
// recompute or an offload chosen per offering forward
// (solver/solve/recompute_choice.hpp), so that a refuted period bounds every
// schedule, whatever it keeps, and the report's proven period bound is a
// true one again (docs/algorithms.md, "Memory traded for time"). A shorter
// period found there is offered as a candidate at N (the repetend's
// micro-batches one period apart, verified); the derived
// recompute-every-forward search (recompute_search.hpp) still follows.
#pragma once

#include "solver/types/search_result.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget;  // solver/solve/budget.hpp: grants the phase its deadline

// What the period search decided on, in its own ticks: under --resolution
// the quantised placement (solver/solve/resolution.hpp) and its period and
// L before they were read back on the real times. The choice decides its
// periods there, on the grid the circle encoding holds, and its answer is
// read back on the real times the same way (its schedules verified on them,
// its refutations a bound on them less the rounding's slack).
struct SearchedPeriods {
  const Placement* placement = nullptr;  // static memory off, as the period search saw it
  Time period = 0;                       // the window's period found, in the placement's ticks
  Time lower_bound = 0;                  // k L, the same ticks
  Time resolution = 0;                   // its tick in the request's ticks; 0: the request's own times
};

// A window of k micro-batches chooses per window position (k from
// report.period). `options`: the solver's limits and backend.
// Does nothing for strategy full, with recompute_choice_seconds 0, or
// without offers on forwards that hold memory. Its encoding's build is
// estimated (choice_encoding_terms at encoding_terms_per_second): more than
// recompute_choice_seconds, or more than a time limit leaves, and it is not
// begun (report.period->recompute_skipped_terms says so); else its deadline
// is granted by `budget` (phase recompute_choice: recompute_choice_seconds
// plus that estimate, within the request's deadline). Raises
// report.period's proven bound to the first period not refuted (only
// periods decided count). Its deadline: under the plan within what is left
// of the whole plan (solve/budget.hpp grant_traded). Returns the seconds it
// took beyond recompute_choice_seconds, at most its estimated build
// (granted on top): the plan, which set aside only those seconds for it
// (tuning_beside_recomputing_all), ends that much later for the phases
// after it, so that the build takes none of their time.
double consider_choosing_recompute(const SearchRequest& request, const SearchedPeriods& searched,
                                   const SearchOptions& options, Budget& budget, SearchReport& report,
                                   Progress& progress);

}  // namespace tessel
