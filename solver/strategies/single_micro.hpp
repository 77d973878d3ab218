// One micro-batch run alone: the fallback that always exists when memory
// allows one micro-batch at all. Its length is a period that always works
// (K = 1, nothing overlaps), so the repetend search has an upper end and a
// schedule to hand back when the time limit strikes first.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// List schedule in topological order: each block as early as its
// predecessors (and their communication delays) and its devices allow. Start per block.
std::vector<int> single_micro_starts(const Placement& placement);

// Per device, the highest memory one micro-batch reaches with these starts
// (deltas count from the start step, as in docs/algorithms.md, "The problem").
std::vector<long long> single_micro_peak(const Placement& placement, const std::vector<int>& starts);

}  // namespace tessel
