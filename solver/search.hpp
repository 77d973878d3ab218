// The one entry of solver/ (docs/algorithms.md, "The search"): a request in,
// a report out. The command line, the benchmarks and the Python module all
// go through `solve`, so that what a result means ("proven optimal", the
// gap, which schedule is the answer) is decided in one place.
//
// A search has two questions. The PERIOD: the repetend with the smallest
// period (per micro-batch), with a proof for every shorter one (strategy
// repetend; fast constructs one without proof; full skips it). The
// MAKESPAN at the number of micro-batches N the user runs: the best valid
// schedule of any shape (the repetend unrolled, a staged schedule, an
// aperiodic one from the portfolio), with its bound and gap. The report
// carries both; `best` is the answer to the second and what `-o` writes.
//
// Anytime: every valid schedule found is offered to the Progress, so a
// caller interrupted at any moment (the request's deadline carries a stop
// flag) has the best so far; solve() itself returns promptly once the
// deadline expires, with outcome Timeout or Interrupted and whatever it has.
#pragma once

#include "solver/types/search_types.hpp"

namespace tessel {

// Throws InputError for a request that cannot be searched (no steady state
// for a repetend, an encoding past its budget, ...); every schedule in the
// report has passed the independent verifier.
SearchReport solve(const SearchRequest& request, Progress& progress);

}  // namespace tessel
