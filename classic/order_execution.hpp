// Running per-device orders "as soon as possible": the way an order-only
// schedule (a PyTorch action table, a Megatron order, a classic scheme)
// becomes a timed schedule. Each device runs its list in order; an instance
// starts at max(device free, every dependency of the same micro-batch
// finished plus its edge's delay). When no device can advance, the order can never run: a
// deadlock, reported with the instance each stuck device waits at and what
// it waits for, before anything runs on a cluster.
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

#include "model/placement.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

struct OrderedInstance {
  int block = 0;
  int micro = 0;
  bool joins_next = false;  // one fused unit with the next entry of the list
  Time fused_span = 0;      // on the last member of a fused unit: its span
  bool operator==(const OrderedInstance&) const = default;
};

using DeviceOrders = std::vector<std::vector<OrderedInstance>>;  // one list per device

// Why a device cannot advance: the instance at the head of its list and the
// dependencies of it that have not run (with where each one sits: a device
// and position in that device's list, or device -1 when no list holds it).
struct StuckDevice {
  int device = 0;
  int position = 0;  // index of the head in the device's list
  OrderedInstance head;
  struct Wait {
    OrderedInstance instance;
    int device = -1;
    int position = -1;
  };
  std::vector<Wait> waits_for;
};

struct DeadlockError : std::runtime_error {
  std::vector<StuckDevice> stuck;
  DeadlockError(std::string message, std::vector<StuckDevice> stuck_)
      : std::runtime_error(std::move(message)), stuck(std::move(stuck_)) {}
};

// How to print an instance in a deadlock message ("f1:3" by default).
using InstanceNamer = std::string (*)(const Placement&, const OrderedInstance&);
std::string default_instance_name(const Placement& placement, const OrderedInstance& instance);

struct TimedOrders {
  std::vector<Instance> instances;  // in the order of the lists, device by device
  std::vector<FusedUnit> fused;
};

// Start steps for every listed instance. Every block must run on exactly one
// device, the one whose list holds it, and a fused unit must end with a span
// (checked: std::invalid_argument). Throws DeadlockError.
TimedOrders run_as_soon_as_possible(const Placement& placement, const DeviceOrders& orders,
                                    InstanceNamer namer = default_instance_name);

// Peak memory per device of a timed schedule, with deltas counted from the
// start step (docs/algorithms.md, "The problem"); never below 0.
std::vector<long long> peak_memory(const Placement& placement, const std::vector<Instance>& instances);

}  // namespace tessel::classic
