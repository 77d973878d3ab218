// The memory-capped ends of a device (part of the makespan lower bound,
// solver/makespan/closed_bound/makespan_bound): a block with a long chain after it (a backward
// whose gradient still has to cross the other devices) must end early, and
// after its last instance its device can only run the blocks that do not
// lead to it, of which the memory limit lets only so many still be pending;
// the mirror image holds before the first instance of a block with a long
// chain before it. Zero-bubble schedules with W shorter than B meet this
// bound where the older ones stayed (S - 1)(B - W) below (the argument is
// at the top of capped_ends.cpp).
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

// What the bound reads of one device; the vectors cover every block.
struct CappedEndsInput {
  const Placement* placement = nullptr;
  const std::vector<std::vector<char>>* reach = nullptr;  // reach[a][b]: b is a descendant of a
  const std::vector<Time>* earliest = nullptr;  // earliest start of each block (one micro-batch alone)
  const std::vector<Time>* after = nullptr;     // the longest chain after each block
  long long total_micros = 0;
  int device = 0;
  bool limited = false;  // false: no memory limit (the counts are capped by N alone)
  Memory limit = 0;      // the blocks' own memory allowed on the device
};

// The bound for one device: N load(d) + the best head term of a block b1 +
// the best tail term of a block b2 that b1 leads to (or equals); 0 when the
// device has no blocks or more than the size this is tried on.
long long capped_ends_bound(const CappedEndsInput& input);

}  // namespace tessel
