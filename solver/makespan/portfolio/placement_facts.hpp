// Placement facts: what every phase of the makespan portfolio reads about
// the placement at N (one micro-batch's critical path, each block's earliest
// start and chain tail, each device's load, the closed bound at N, the
// staged schedule's bound), computed once per search and passed by
// reference, instead of each phase recomputing them from the placement.
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"

namespace tessel {

struct PlacementFacts {
  const Placement* placement = nullptr;  // the solver's view (static memory taken off)
  int total_micros = 0;                  // N
  std::vector<Memory> limits;            // per device (empty: none)
  std::vector<Time> earliest;            // earliest_starts: one micro-batch alone, delays included
  std::vector<Time> tails;               // chain_tails: from a block's start to its micro-batch's end
  std::vector<Time> load;                // device_load: busy time per micro-batch
  Time critical_path = 0;                // one micro-batch's longest chain
  MakespanBound bound;                   // the closed bounds at N under the limits
  long long staged_bound = 0;            // no staged schedule at N is shorter
};

// Every fact of `placement` at `total_micros` under `limits`.
PlacementFacts placement_facts(const Placement& placement, int total_micros, const std::vector<Memory>& limits);

}  // namespace tessel
