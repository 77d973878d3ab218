// Why a schedule's makespan at N micro-batches stays above the lower bound
// (issue 8 item 4): whenever the gap exceeds 1%, the cause and its numbers
// (solver/types/report_types.hpp, MakespanGap) from what the search actually
// decided — a period above L that is proven minimal, a boundary proven
// minimal around the repetend, a solver budget that ran out — so that a gap
// is never left unexplained nor oversold as proven. The words are the
// callers' (tools/gap_text.hpp).
#pragma once

#include <string>

#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/report_types.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct GapFacts {
  bool full = false;          // strategy full (else repetend)
  const SearchResult* result = nullptr;  // its boundary facts say what was proven
  double boundary_seconds = 0;         // the budget the boundary solver had
  long long total_micros = 0;          // N of the makespan below
  long long makespan = 0;              // at N micro-batches
  MakespanBound bound;                 // at N micro-batches
};

// Cause None when the gap is at most 1%; otherwise why, as far as known.
MakespanGap explain_gap(const GapFacts& facts);

}  // namespace tessel
