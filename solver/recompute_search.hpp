// The search's answer with recomputation (docs/algorithms.md, "Memory
// traded for time"): on a placement whose forwards offer it, the whole
// search is run again on the placement that recomputes every offered
// forward of every micro-batch (solver/makespan/recompute_all.hpp), its
// answer mapped back, verified, listed as a candidate and taken when it is
// shorter. Kept apart from search.cpp: it only wraps solve().
#pragma once

#include "solver/search.hpp"

namespace tessel {

struct Budget;  // solver/budget.hpp: grants the derived search its deadline

// Adds the candidate to `report` (which solve() built for `request`), and
// makes it the answer when it is shorter. Does nothing for strategy full,
// without offers, without a makespan report or past the deadline. Its
// deadline is granted by `budget` (recompute_all_seconds).
void consider_recomputing_all(const SearchRequest& request, Budget& budget, SearchReport& report, Progress& progress);

// A search proven infeasible with every activation kept, on a placement
// that offers recomputation or offload: the placement that recomputes every
// offered forward is searched (at least recompute_all_least_seconds, granted
// by `budget`); its answer is taken, or
// the outcome becomes "gave up" (Timeout) with the reason, since schedules
// mixing the choices per micro-batch are not searched and nothing proves
// them impossible.
void answer_infeasible_by_recomputing(const SearchRequest& request, Budget& budget, SearchReport& report,
                                      Progress& progress);

}  // namespace tessel
