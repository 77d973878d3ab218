// Running per-device orders "as soon as possible": the way an order-only
// schedule (a PyTorch action table, a Megatron order, a classic scheme)
// becomes a timed schedule. The timing itself is the shared routine of
// classic/order_timing.hpp; this file checks orders that come from outside
// and turns "impossible" into a deadlock error naming the instance each
// stuck device waits at and what it waits for, before anything runs on a
// cluster.
//
// Consecutive entries of a list may be joined into one fused unit (an
// overlapped forward and backward, or a full backward run as its input and
// weight parts): the unit starts when the device is free and every
// dependency of every member from outside the unit has finished; all members
// start then and finish at start + the unit's span.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "classic/order_timing.hpp"
#include "model/placement.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

struct DeadlockError : std::runtime_error {
  std::vector<StuckDevice> stuck;
  DeadlockError(std::string message, std::vector<StuckDevice> stuck_)
      : std::runtime_error(std::move(message)), stuck(std::move(stuck_)) {}
};

// How to print an instance in a deadlock message ("f1:3" by default).
using InstanceNamer = std::string (*)(const Placement&, const OrderedInstance&);
std::string default_instance_name(const Placement& placement, const OrderedInstance& instance);

struct TimedOrders {
  std::vector<Instance> instances;  // each once, in the order they were timed
  std::vector<FusedUnit> fused;
};

// Start steps for every listed instance (classic/order_timing.hpp does the
// timing). Every listed block must run on the device whose list holds it (a
// block on several devices is listed on each), and a fused unit must end
// with a span (checked: std::invalid_argument). Throws DeadlockError.
TimedOrders run_as_soon_as_possible(const Placement& placement, const DeviceOrders& orders,
                                    InstanceNamer namer = default_instance_name);

// Peak memory per device of a timed schedule, with deltas counted from the
// start step (docs/algorithms.md, "The problem"); never below 0.
std::vector<long long> peak_memory(const Placement& placement, const std::vector<Instance>& instances);

}  // namespace tessel::classic
