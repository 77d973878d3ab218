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

// Per block, linear in the copy: O(blocks) memory whatever N.
class DeviceWorkBounds {
 public:
  DeviceWorkBounds(const Placement& placement, long long total_micros);

  // Copy `micro` of `block` starts at or after this.
  Time head(int block, long long micro) const;
  // ... and at or before T - tail for any makespan T.
  Time tail(int block, long long micro) const;

 private:
  // One device of a block: the spans of its device-mates before (after) it
  // per micro-batch, and the least head (least tail beyond the span) among
  // the set.
  struct OnDevice {
    Time before_span = 0, least_head = 0;
    Time after_span = 0, least_beyond = 0;
  };
  long long total_micros_ = 0;
  std::vector<Time> span_, earliest_, chain_tail_;
  std::vector<std::vector<OnDevice>> devices_;  // per block, one per device it runs on
};

}  // namespace tessel
