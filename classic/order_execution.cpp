// Running per-device orders as soon as possible, and finding deadlocks.
//
// Each device runs down its list until its head needs an instance that has
// not run yet; it then parks on that instance and is woken when it runs.
// When no device is left to try and some lists are not done, every stuck
// head waits for an instance behind some other head (or in no list): that
// is exactly a deadlock. Each instance is placed once and each park is
// answered once, so the work is linear in the instances (times a log).
#include "classic/order_execution.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace tessel::classic {

namespace {

long long key_of(const OrderedInstance& instance) {
  return (static_cast<long long>(instance.block) << 32) | static_cast<unsigned>(instance.micro);
}

// Where every listed instance sits (first occurrence wins).
std::map<long long, std::pair<int, int>> locate(const DeviceOrders& orders) {
  std::map<long long, std::pair<int, int>> where;
  for (int device = 0; device < static_cast<int>(orders.size()); ++device)
    for (int position = 0; position < static_cast<int>(orders[device].size()); ++position)
      where.emplace(key_of(orders[device][position]), std::make_pair(device, position));
  return where;
}

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
  return placement.blocks[instance.block].id + "#" + std::to_string(instance.micro);
}

std::vector<Instance> run_as_soon_as_possible(const Placement& placement, const DeviceOrders& orders,
                                              InstanceNamer namer) {
  int devices = static_cast<int>(orders.size());
  for (int device = 0; device < devices; ++device)
    for (const OrderedInstance& instance : orders[device]) {
      if (instance.block < 0 || instance.block >= static_cast<int>(placement.blocks.size()))
        throw std::invalid_argument("order names a block outside the placement");
      const std::vector<int>& on = placement.blocks[instance.block].devices;
      if (on.size() != 1 || on.front() != device)
        throw std::invalid_argument("block " + placement.blocks[instance.block].id +
                                    " is listed on device " + std::to_string(device) +
                                    " but does not run (only) there");
    }

  std::vector<std::vector<int>> needs = predecessors(placement);
  std::map<long long, int> finish;  // instance -> end step
  std::vector<int> free_at(devices, 0);
  std::vector<size_t> next(devices, 0);
  std::vector<Instance> timed;
  size_t total = 0;
  for (const auto& list : orders) total += list.size();

  // Devices to try, and the devices parked on an instance not yet run.
  std::vector<int> to_try(devices);
  for (int device = 0; device < devices; ++device) to_try[device] = device;
  std::map<long long, std::vector<int>> parked;
  while (!to_try.empty()) {
    int device = to_try.back();
    to_try.pop_back();
    while (next[device] < orders[device].size()) {
      const OrderedInstance& head = orders[device][next[device]];
      int start = free_at[device];
      long long missing = -1;
      for (int before : needs[head.block]) {
        auto done = finish.find(key_of({before, head.micro}));
        if (done == finish.end()) {
          missing = key_of({before, head.micro});
          break;
        }
        start = std::max(start, done->second);
      }
      if (missing >= 0) {
        parked[missing].push_back(device);
        break;
      }
      int end = start + placement.blocks[head.block].span;
      finish[key_of(head)] = std::max(finish[key_of(head)], end);
      free_at[device] = end;
      timed.push_back({head.block, head.micro, start});
      ++next[device];
      auto waiting = parked.find(key_of(head));
      if (waiting != parked.end()) {
        to_try.insert(to_try.end(), waiting->second.begin(), waiting->second.end());
        parked.erase(waiting);
      }
    }
  }
  if (timed.size() < total) {
    std::map<long long, std::pair<int, int>> where = locate(orders);
    std::vector<StuckDevice> stuck;
    for (int device = 0; device < devices; ++device) {
      if (next[device] >= orders[device].size()) continue;
      StuckDevice entry;
      entry.device = device;
      entry.position = static_cast<int>(next[device]);
      entry.head = orders[device][next[device]];
      for (int before : needs[entry.head.block]) {
        OrderedInstance missing{before, entry.head.micro};
        if (finish.count(key_of(missing))) continue;
        StuckDevice::Wait wait{missing, -1, -1};
        auto found = where.find(key_of(missing));
        if (found != where.end()) std::tie(wait.device, wait.position) = found->second;
        entry.waits_for.push_back(wait);
      }
      stuck.push_back(entry);
    }
    throw DeadlockError(describe_deadlock(placement, stuck, namer), stuck);
  }
  return timed;
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
