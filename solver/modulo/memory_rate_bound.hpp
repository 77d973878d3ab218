// The memory-rate bound on the period (docs/algorithms.md, "What the
// refutation uses"): a period no repetend can beat, from the memory limit
// alone, decided before any solver is built.
//
// Little's law for one device: in the steady state each micro-batch holds
// the memory its allocating block takes at least for the shortest chain
// until the freeing block can start, and at most the limit is held at any
// step; over one period the device holds on average (memory x hold summed
// over one micro-batch's pairs) / P, which cannot exceed the limit. So
// P >= sum(memory x chain) / limit. A 1F1B chain on 8 devices (F = 1,
// B = 3, memory 1) under limit 4: device 0 holds each micro-batch's
// activation for at least 1 + 7 + 21 = 29 steps, so no period below
// ceil(29 / 4) = 8 exists, twice the busiest device's load. Where memory
// does not bind (xshape, nnshape under D/2) it stays below L and changes
// nothing.
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct MemoryRateBound {
  Time period = 0;       // no repetend of this placement has a shorter period (0: no bound)
  int device = -1;       // the device that gives it
  __int128 held = 0;     // its memory-steps per pass of the placement: sum(memory x chain)
  long long limit = 0;   // its limit
};

// `placement` may be a window placement of k copies (window_placement.hpp):
// its pairs are then k times those of one micro-batch and the bound is on
// the window's period P_k. Devices whose freeing blocks cannot all be paired
// with allocating ancestors on the device, or whose limit is not positive,
// give no bound (which only weakens it).
MemoryRateBound memory_rate_bound(const Placement& placement, const std::vector<long long>& memory_limit);

}  // namespace tessel
