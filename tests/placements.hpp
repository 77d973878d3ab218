// Small hand-written placements that several test files share.
#pragma once

#include "model/placement.hpp"

namespace tessel::testing {

// f0 on device 0, then f1 on devices 1 and 2 together, then b1 (both
// again), then b0; 2 ticks of communication between the devices, and an
// unstaged block of kind other on device 2.
inline Placement tensor_parallel_with_delays() {
  Placement placement;
  placement.name = "tp-delays";
  placement.ndevs = 3;
  placement.blocks = {{"f0", BlockKind::Forward, 1, 1, 0, {0}},
                      {"f1", BlockKind::Forward, 2, 2, 1, {1, 2}},
                      {"b1", BlockKind::Backward, 3, -2, 1, {1, 2}},
                      {"b0", BlockKind::Backward, 2, -1, 0, {0}},
                      {"x", BlockKind::Other, 1, 0, std::nullopt, {2}}};
  placement.edges = {{0, 1, 2}, {1, 2, 0}, {2, 3, 2}, {1, 4, 0}};
  return placement;
}

}  // namespace tessel::testing
