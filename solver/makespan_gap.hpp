// Why a schedule's makespan at N micro-batches stays above the lower bound
// (issue 8 item 4): one sentence for the report whenever the gap exceeds 1%,
// from what the search actually decided — a period above L that is proven
// minimal, a boundary proven minimal around the repetend, a solver budget
// that ran out — so that a gap is never left unexplained nor oversold as
// proven.
#pragma once

#include <string>

#include "solver/makespan/bounds/makespan_bound.hpp"
#include "solver/search_result.hpp"

namespace tessel {

struct GapFacts {
  bool full = false;          // strategy full (else repetend)
  const SearchResult* result = nullptr;  // its boundary facts say what was proven
  double boundary_seconds = 0;         // the budget the boundary solver had
  long long nmicros = 0;               // N of the makespan below
  long long makespan = 0;              // at N micro-batches
  MakespanBound bound;                 // at N micro-batches
  int time_decimals = 0;               // of the placement: times are written as its decimals
};

// The gap as a fraction of the bound (0 when the bound is 0).
double relative_gap(long long makespan, long long bound);

// Empty when the gap is at most 1%; otherwise why, as far as known.
std::string explain_gap(const GapFacts& facts);

}  // namespace tessel
