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

// `placement`: as the period search saw it (static memory off, limits in
// `options`). A window of k micro-batches chooses per window position.
// Does nothing where choice_follows(request) (recompute_search.hpp) is false. Its deadline is
// granted by `budget` (phase recompute_choice: recompute_choice_seconds,
// within the request's deadline). Raises report.period's proven bound to
// the first period not refuted (only periods decided count).
void consider_choosing_recompute(const SearchRequest& request, const Placement& placement,
                                 const SearchOptions& options, Budget& budget, SearchReport& report,
                                 Progress& progress);

}  // namespace tessel
