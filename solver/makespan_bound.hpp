// The yardstick for a schedule of N micro-batches (ALGORITHMS.md section 3):
// max(critical path, max_d (head_d + N load(d) + tail_d)). No schedule can be
// shorter, so the gap to it says how much warmup and cooldown could still win.
#pragma once

#include "model/placement.hpp"

namespace tessel {

// head_d: earliest start of any block on d; tail_d: the least work that must
// still run after the last block on d ends (its longest chain of successors).
long long makespan_lower_bound(const Placement& placement, long long nmicros);

}  // namespace tessel
