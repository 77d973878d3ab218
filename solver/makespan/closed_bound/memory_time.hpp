// The memory-time bound of a device (part of the makespan lower bound,
// solver/makespan/closed_bound/makespan_bound): every micro-batch holds its activations on a device
// from the forward that allocates them until the block that frees them can
// start, at least the dependency chain between the two, and the limit M
// caps the memory held at any step. So the memory-steps all N micro-batches
// need, N x (memory x chain), fit into M x (the steps the device can hold
// anything), which bounds the makespan from below in proportion to N (a
// rate, like Little's law). It binds where memory, not work, limits the
// steady state: V-Min and V-Half, whose hand-made schedules run a period
// above the busiest device's load. The argument is at the top of the .cpp.
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

struct MemoryTimeInput {
  const Placement* placement = nullptr;
  const std::vector<int>* order = nullptr;      // a topological order of the blocks
  const std::vector<Time>* earliest = nullptr;  // earliest start of each block (one micro-batch alone)
  const std::vector<Time>* after = nullptr;     // the longest chain after each block
  long long total_micros = 0;
  int device = 0;
  Memory limit = 0;  // the blocks' own memory allowed on the device
};

// The bound for one device; 0 when it gives nothing (no memory on the
// device, or a freeing block with no allocating ancestor to pair with).
long long memory_time_bound(const MemoryTimeInput& input);

}  // namespace tessel
