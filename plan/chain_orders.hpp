// The textbook orders of the chain mapping on a plan's own placement: 1F1B
// (warm-up forwards, one forward one backward, drain) and, with a split
// backward, ZB-H1 (the same memory as 1F1B, weight gradients moved into the
// drain); when the memory does not hold 1F1B's D micro-batches in flight on
// the first rank, 1F1B with fewer. They take milliseconds, so every plan has them before its search
// starts: the yardstick a plan is compared with, and the answer it keeps
// when the search does no better (plan/plan.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

// `placement`: a chain (stage s on rank s, one F and one B or I and W per
// stage, as pipeline_placement builds it), times in any unit, delays
// included. Returns the first order that fits `limits` (ZB-H1 when split,
// then 1F1B with D, D-1, ..., 1 micro-batches in flight), run as early as
// dependencies, delays and ranks allow and judged by the verifier, with its
// `name`; nullopt with `why` (the first order's violation) when none fits.
//
// `finish` (may be empty) turns each timed order into the schedule judged
// and returned: --recompute all orders the placement whose recomputes are
// blocks and judges the schedule mapped back to the plan's own placement,
// under its real limits (plan/plan_candidate.cpp).
using FinishOrder = std::function<std::optional<Schedule>(const Schedule&)>;
std::optional<Schedule> chain_order_schedule(const Placement& placement, int nmicros,
                                             const std::vector<Memory>& limits, std::string& name, std::string& why,
                                             const FinishOrder& finish = {});

}  // namespace tessel
