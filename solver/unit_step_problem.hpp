// What the unit-step encodings of solver/ can take (docs/algorithms.md,
// "Numbers"): their variables are integer steps, so their size grows with
// the time values. Until the order-based search for measured times lands,
// a placement whose spans are too large for them, or that carries
// communication delays, is refused here with a reason instead of being
// searched wrongly or for ever.
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

// Largest span (in ticks) and largest period lower bound L the unit-step
// encodings accept.
inline constexpr Time kLargestUnitStepSpan = 1000000;
inline constexpr Time kLargestUnitStepLoad = 1000000;

// Throws InputError (field "placement") when the placement cannot be
// searched by the unit-step encodings. Static memory is folded into the
// limits: the returned limits are what the blocks themselves may use.
std::vector<Memory> unit_step_limits(const Placement& placement, const std::vector<Memory>& limits);

}  // namespace tessel
