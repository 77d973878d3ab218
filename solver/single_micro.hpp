// One micro-batch run alone: the fallback that always exists when memory
// allows one micro-batch at all. Its length is a period that always works
// (K = 1, nothing overlaps), so the repetend search has an upper end and a
// schedule to hand back when the time limit strikes first.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/search_result.hpp"

namespace tessel {

// List schedule in topological order: each block as early as its
// predecessors (and their communication delays) and its devices allow. Start per block.
std::vector<int> single_micro_starts(const Placement& placement);

// Per device, the highest memory one micro-batch reaches with these starts
// (deltas count from the start step, as in docs/algorithms.md, "The problem").
std::vector<long long> single_micro_peak(const Placement& placement, const std::vector<int>& starts);

// One micro-batch alone under `options.memory_limit`: the list schedule when
// it fits, else any order the full solver finds for one micro-batch (within
// `options.deadline`). Found: `starts` per block. Infeasible: proven that no
// order of one micro-batch fits, so no schedule exists at all. Timeout: the
// deadline struck first. `message` says which, for the two failures.
struct SingleMicroFit {
  SearchStatus status = SearchStatus::Found;
  std::vector<int> starts;
  std::string message;
};
SingleMicroFit single_micro_within_memory(const Placement& placement, const SearchOptions& options);

}  // namespace tessel
