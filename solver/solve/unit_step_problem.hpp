// What the searches of solver/ can take (docs/algorithms.md, "Numbers").
//
// Communication delays are searched (every encoding adds the delay to the
// dependency's span). Time values of any size are searched by the repetend
// strategy: small ones by the unit-step encodings, large ones on cyclic
// orders (period_method.hpp), whose cost does not grow with them. What is
// refused here, with a reason, is only what the search cannot represent:
// schedules whose times pass 2^31 ticks (periods, starts and makespans are
// 32-bit in the search's results), which --resolution brings within range.
// The unit-step encodings of `full` and of the boundary shortening refuse
// or skip their own oversized encodings (encoding_budget.hpp).
#pragma once

#include <vector>

#include "model/placement.hpp"

namespace tessel {

// Largest time value (in ticks) a search result holds: a makespan of 128
// micro-batches one after another must stay below it.
inline constexpr Time kLargestSearchTime = (1LL << 31) - 1;

// Whether the placement's times are within what the search represents (the
// check below, without throwing): with --resolution the search runs on the
// rounded times, and the real ones may lie far outside.
bool times_searchable(const Placement& placement);

// Throws InputError (field "placement") when the placement's times cannot
// be represented by the search. Static memory is folded into the limits:
// the returned limits are what the blocks themselves may use.
std::vector<Memory> unit_step_limits(const Placement& placement, const std::vector<Memory>& limits);

}  // namespace tessel
