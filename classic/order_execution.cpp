// Running per-device orders from outside as soon as possible: the lists
// are checked (blocks of the placement on the listing device, fused units
// closed with a span), timed by classic/order_timing.hpp, and "impossible"
// becomes a DeadlockError that names each stuck device's head and what it
// waits for.
#include "classic/order_execution.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace tessel::classic {

namespace {

std::string describe_deadlock(const Placement& placement, const std::vector<StuckDevice>& stuck,
                              InstanceNamer namer) {
  std::ostringstream text;
  text << "deadlock: the order can never run; stuck:";
  for (const StuckDevice& device : stuck) {
    text << "\n  rank " << device.device << " at " << namer(placement, device.head) << " (position "
         << device.position << "), waiting for";
    for (size_t i = 0; i < device.waits_for.size(); ++i) {
      const StuckDevice::Wait& wait = device.waits_for[i];
      text << (i ? "," : "") << " " << namer(placement, wait.instance);
      if (wait.device < 0)
        text << " (in no rank's order)";
      else
        text << " (rank " << wait.device << ", position " << wait.position << ")";
    }
  }
  return text.str();
}

}  // namespace

std::string default_instance_name(const Placement& placement, const OrderedInstance& instance) {
  return placement.blocks[instance.block].id + ":" + std::to_string(instance.micro);
}

namespace {

void check_lists(const Placement& placement, const DeviceOrders& orders) {
  for (int device = 0; device < static_cast<int>(orders.size()); ++device) {
    for (const OrderedInstance& instance : orders[device]) {
      if (instance.block < 0 || instance.block >= static_cast<int>(placement.blocks.size()))
        throw std::invalid_argument("order names a block outside the placement");
      if (!on_device(placement.blocks[instance.block], device))
        throw std::invalid_argument("block " + placement.blocks[instance.block].id +
                                    " is listed on device " + std::to_string(device) +
                                    " but does not run there");
    }
    if (!orders[device].empty() && orders[device].back().joins_next)
      throw std::invalid_argument("a fused unit at the end of device " + std::to_string(device) + "'s list");
    for (size_t i = 0; i < orders[device].size(); ++i)
      if (!orders[device][i].joins_next && i > 0 && orders[device][i - 1].joins_next &&
          orders[device][i].fused_span < 1)
        throw std::invalid_argument("a fused unit without a span on device " + std::to_string(device));
  }
}

}  // namespace

TimedOrders run_as_soon_as_possible(const Placement& placement, const DeviceOrders& orders,
                                    InstanceNamer namer) {
  check_lists(placement, orders);
  OrderTiming timing = time_orders(placement, orders);
  if (!timing.possible()) throw DeadlockError(describe_deadlock(placement, timing.stuck, namer), timing.stuck);
  return {std::move(timing.instances), std::move(timing.fused)};
}

std::vector<long long> peak_memory(const Placement& placement, const std::vector<Instance>& instances) {
  std::vector<std::map<int, long long>> change(placement.ndevs);
  for (const Instance& instance : instances)
    for (int device : placement.blocks[instance.block].devices)
      change[device][instance.start] += placement.blocks[instance.block].memory;
  std::vector<long long> peak(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    long long level = 0;
    for (const auto& [step, delta] : change[device]) {
      level += delta;
      peak[device] = std::max(peak[device], level);
    }
  }
  return peak;
}

}  // namespace tessel::classic
