// The answer that trades memory, re-solved in windows (docs/algorithms.md,
// "Memory traded for time"): after the shift search has moved it
// (traded_shifts.hpp), an answer with recompute runs or copies that is
// still above the bound without memory gets the large-neighbourhood search
// made for such schedules (solver/makespan/improvements/traded_windows.hpp:
// a window's instances free and their choices made again, all else held).
// A shorter schedule the verifier accepts is listed as the candidate
// "improve: neighbourhoods, memory traded" and taken as the answer; one it
// rejects is listed among the rejected.
#pragma once

#include "solver/types/search_result.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget;  // solver/solve/budget.hpp: grants the phase its deadline

// `placement` and `options`: the solver's view (static memory off, its
// limits). Does nothing for strategy full, without offers, without a
// report at N whose answer recomputes or copies, at the bound, past the
// deadline or with lns_seconds = 0. Its time: lns_seconds, or with a time
// limit lns_share of what is left when more; under the plan (plan_seconds)
// at most what the whole plan has left (nothing below a tenth of a
// second); granted by `budget` (grant_traded) as the phase
// `traded_neighbourhoods`.
void improve_traded_answer_by_windows(const SearchRequest& request, const Placement& placement,
                                      const SearchOptions& options, Budget& budget, SearchReport& report,
                                      Progress& progress);

}  // namespace tessel
