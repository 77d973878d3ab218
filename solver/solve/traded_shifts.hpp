// The answer that trades memory, moved a little (docs/algorithms.md,
// "Memory traded for time"): the repetend with a recompute or an offload
// chosen (recompute_choice_search.hpp) and the placement recomputing every
// offered forward (recompute_search.hpp) answer after the makespan
// portfolio, so none of its improvements ever saw them. When such an
// answer is above the bound without memory, the shift search
// (solver/makespan/improvements/shift_search.hpp) runs once more around
// it, choosing recomputes and copies again per forward and micro-batch
// within its narrow domains; a shorter schedule the verifier accepts is
// listed and taken as the answer.
#pragma once

#include "solver/types/search_result.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget;  // solver/solve/budget.hpp: grants the phase its deadline

// `placement` and `options`: the solver's view (static memory off, its
// limits). Does nothing for strategy full, without offers, without a
// report at N whose answer recomputes or copies, at the bound, past the
// deadline or with shift_seconds = 0. Its time: shift_seconds, under the
// plan (plan_seconds) only what the whole plan has left (nothing below a
// tenth of a second), granted by `budget` (grant_traded) as a second phase
// `shifts`.
void shift_traded_answer(const SearchRequest& request, const Placement& placement, const SearchOptions& options,
                         Budget& budget, SearchReport& report, Progress& progress);

}  // namespace tessel
