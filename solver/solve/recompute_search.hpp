// The search's answer with recomputation (docs/algorithms.md, "Memory
// traded for time"): on a placement whose forwards offer it, the whole
// search is run again on the placement that recomputes every offered
// forward of every micro-batch (solver/makespan/recompute_all.hpp), its
// answer mapped back, verified, listed as a candidate and taken when it is
// shorter. Kept apart from search.cpp: it only wraps solve().
#pragma once

#include "solver/types/search_types.hpp"
#include "verify/verify.hpp"

namespace tessel {

// The nested search: solve() itself (solver/search.hpp), passed in by it,
// so that this unit sits below the entry it wraps instead of including it.
using NestedSolve = SearchReport (*)(const SearchRequest& request, Progress& progress);

struct Budget;  // solver/solve/budget.hpp: grants the derived search its deadline

// Whether the choice inside the repetend (recompute_choice_search.hpp)
// follows the search `request` asks for: strategies repetend and fast, on
// a placement offering recomputation or offload, at any resolution (on the
// rounded times), with recompute_choice_seconds > 0, where even its
// cheapest encoding (the load L alone) is estimated to build within those
// seconds at encoding_terms_per_second (fast on 64 devices is not: 4.4 s).
// Whether the encoding of the periods actually left is built is decided
// again after the search (consider_choosing_recompute).
bool choice_follows(const SearchRequest& request);

// The tuning the main search runs under: where the derived search will
// follow it (the default, planned search of a placement offering
// recomputation), the plan's seconds are shared, the main search's phases
// ending recompute_all_seconds earlier (never below least_plan_seconds),
// so that offering recomputation does not make the default search take
// recompute_all_seconds longer. On a placement offering offload only, the
// choice inside the repetend (recompute_choice_search.hpp) follows alone:
// the phases end recompute_choice_seconds earlier instead (where it runs:
// choice_follows). Otherwise the request's
// own tuning.
Tuning tuning_beside_recomputing_all(const SearchRequest& request);

// Adds the candidate to `report` (which solve() built for `request`), and
// makes it the answer when it is shorter. Does nothing for strategy full,
// without offers, without a makespan report, past the deadline, or when
// the answer already meets the bound without memory (nothing is shorter).
// Its deadline is granted by `budget` (recompute_all_seconds; under the
// plan within what is left of it, solve/budget.hpp grant_traded).
void consider_recomputing_all(const SearchRequest& request, Budget& budget, SearchReport& report, Progress& progress,
                              NestedSolve solve);

// A search proven infeasible with every activation kept, on a placement
// that offers recomputation or offload: the placement that recomputes every
// offered forward is searched (at least recompute_all_least_seconds, granted
// by `budget`); its answer is taken, or
// the outcome becomes "gave up" (Timeout) with the reason, since schedules
// mixing the choices per micro-batch are not searched and nothing proves
// them impossible.
void answer_infeasible_by_recomputing(const SearchRequest& request, Budget& budget, SearchReport& report,
                                      Progress& progress, NestedSolve solve);

// A verified schedule with memory traded becomes the report's answer at N
// (its makespan, shape, peaks and name), shown as an improvement. Shared
// with the period decided with recomputation chosen (recompute_choice_search).
void take_as_answer(const Schedule& schedule, const verify::Report& checked, const std::string& name,
                    SearchReport& report, Progress& progress);

// Why the verifier rejected a schedule, as a rejected candidate lists it:
// its first violation as "kind: message" ("invalid" when it names none).
std::string first_violation_text(const verify::Report& checked);

}  // namespace tessel
