// One micro-batch within the memory limit: the list schedule of
// solver/strategies/single_micro.hpp when it fits, else an order the full solver finds.
// Apart from single_micro.hpp because it calls the full search, which itself
// starts from the list schedule: the two files no longer need each other.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

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
