// The search's answer with recomputation (docs/algorithms.md, "Memory
// traded for time"): on a placement whose forwards offer it, the whole
// search is run again on the placement that recomputes every offered
// forward of every micro-batch (solver/makespan/recompute_all.hpp), its
// answer mapped back, verified, listed as a candidate and taken when it is
// shorter. Kept apart from search.cpp: it only wraps solve().
#pragma once

#include "solver/search.hpp"

namespace tessel {

// Adds the candidate to `report` (which solve() built for `request`), and
// makes it the answer when it is shorter. Does nothing for strategy full,
// without offers, without a makespan report or past the deadline.
void consider_recomputing_all(const SearchRequest& request, SearchReport& report, Progress& progress);

}  // namespace tessel
