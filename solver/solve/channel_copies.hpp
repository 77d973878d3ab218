// Copies laid onto the copy channels of a schedule whose compute is fixed
// (docs/algorithms.md, "Memory traded for time"): the repetend that offloads
// is compacted on its compute alone (a compaction knows no channel), and
// its copies are then put back, each copy out as early as its forward's end
// and its channels allow, each copy in as late as the block that needs the
// activation allows (holding the memory again as briefly as it can). A
// greedy pass, not a search: it may find no room, and what it lays is
// judged by the verifier (memory included) like any candidate.
#pragma once

#include <utility>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

// Adds to `schedule` a copy out and a copy in for every (forward block,
// micro-batch) of `offloaded` (each block offering offload), one copy at a
// time on each device's channel; false (the schedule then partly filled)
// when some copy finds no room between its forward's end and its `before`
// block's start.
bool lay_copies(Schedule& schedule, const std::vector<std::pair<int, int>>& offloaded);

}  // namespace tessel
