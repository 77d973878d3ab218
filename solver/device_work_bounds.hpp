// Bounds on every instance's start from the work its device must do before
// and after it (energetic reasoning on one machine), for the full encoding
// of N micro-batches whose copies of a block run in micro-batch order.
//
// Why: the full encoding's bound "makespan <= T" is the literals
// [start <= T - span]; unit propagation through the dependency differences
// tightens them to T minus the longest chain after the instance, but never
// counts the copies that share its device. Copy m of block b precedes, on
// its own device, the copies m..N-1 of b and of every block of that device
// reachable from b: all of them end by T, one after another. That sum is
// often far larger than the chain (16 ranks, N 16: a first-stage backward
// copy 0 has 16 backwards and 16 weight backwards behind it on rank 0),
// and it is what a refutation near the optimum must otherwise discover by
// search. The heads are the mirror image: copies 0..m of the ancestors on
// the device, and copies 0..m-1 of b, run before copy m of b.
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct DeviceWorkBounds {
  // [block][micro]: start >= head.
  std::vector<std::vector<Time>> head;
  // [block][micro]: start <= T - tail for any makespan T.
  std::vector<std::vector<Time>> tail;
};

DeviceWorkBounds device_work_bounds(const Placement& placement, int nmicros);

}  // namespace tessel
