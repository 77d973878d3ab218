// Replays of the hand-made schedule families on a placement of their shape.
// A placement whose blocks carry `stage` and `kind` may be exactly what a
// family schedules: one forward and one backward (or input + weight
// backward) per stage, every stage on one device, the stages laid on the
// devices as a chain, an interleaved loop (stage c*D + r on device r) or a
// "v". Then that family's own per-device order, run as soon as possible on
// THIS placement's spans and delays, is a candidate: the search can never be
// worse than the hand-made schedule on its own placement and memory. What
// does not fit (another shape, a deadlock, more memory than the limit) is
// skipped silently.
#pragma once

#include <string>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

struct Replay {
  std::string family;  // "zb-v", "interleaved-1f1b (megatron)", ...
  Schedule schedule;   // exactly total_micros micro-batches, within the limits
};

// Every family order that fits the placement's stage shape and the limits
// (one limit per device: the blocks' own memory).
std::vector<Replay> family_replays(const Placement& placement, const std::vector<Memory>& limits, int total_micros);

}  // namespace tessel
