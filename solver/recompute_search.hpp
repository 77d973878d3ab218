// The search's answer with recomputation (docs/algorithms.md, "Memory
// traded for time"): on a placement whose forwards offer it, the whole
// search is run again on the placement that recomputes every offered
// forward of every micro-batch (solver/makespan/recompute_all.hpp), its
// answer mapped back, verified, listed as a candidate and taken when it is
// shorter. Kept apart from search.cpp: it only wraps solve().
#pragma once

#include "solver/search_types.hpp"

namespace tessel {

// The nested search: solve() itself (solver/search.hpp), passed in by it,
// so that this unit sits below the entry it wraps instead of including it.
using NestedSolve = SearchReport (*)(const SearchRequest& request, Progress& progress);

// Adds the candidate to `report` (which solve() built for `request`), and
// makes it the answer when it is shorter. Does nothing for strategy full,
// without offers, without a makespan report or past the deadline.
void consider_recomputing_all(const SearchRequest& request, SearchReport& report, Progress& progress,
                              NestedSolve solve);

// A search proven infeasible with every activation kept, on a placement
// that offers recomputation or offload: the placement that recomputes every
// offered forward is searched (at least a second); its answer is taken, or
// the outcome becomes "gave up" (Timeout) with the reason, since schedules
// mixing the choices per micro-batch are not searched and nothing proves
// them impossible.
void answer_infeasible_by_recomputing(const SearchRequest& request, SearchReport& report, Progress& progress,
                                      NestedSolve solve);

}  // namespace tessel
