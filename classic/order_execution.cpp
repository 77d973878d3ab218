// Running per-device orders as soon as possible, and finding deadlocks.
// An instance starts when its device is free and every dependency has ended
// plus the edge's delay (a dependency inside the same fused unit excepted).
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
  return placement.blocks[instance.block].id + ":" + std::to_string(instance.micro);
}

namespace {

void check_lists(const Placement& placement, const DeviceOrders& orders) {
  for (int device = 0; device < static_cast<int>(orders.size()); ++device) {
    for (const OrderedInstance& instance : orders[device]) {
      if (instance.block < 0 || instance.block >= static_cast<int>(placement.blocks.size()))
        throw std::invalid_argument("order names a block outside the placement");
      const std::vector<int>& on = placement.blocks[instance.block].devices;
      if (on.size() != 1 || on.front() != device)
        throw std::invalid_argument("block " + placement.blocks[instance.block].id +
                                    " is listed on device " + std::to_string(device) +
                                    " but does not run (only) there");
    }
    if (!orders[device].empty() && orders[device].back().joins_next)
      throw std::invalid_argument("a fused unit at the end of device " + std::to_string(device) + "'s list");
    for (size_t i = 0; i < orders[device].size(); ++i)
      if (!orders[device][i].joins_next && i > 0 && orders[device][i - 1].joins_next &&
          orders[device][i].fused_span < 1)
        throw std::invalid_argument("a fused unit without a span on device " + std::to_string(device));
  }
}

// The entries [first, last) of a unit starting at `first`.
size_t unit_end(const std::vector<OrderedInstance>& list, size_t first) {
  size_t last = first;
  while (list[last].joins_next) ++last;
  return last + 1;
}

bool in_unit(const std::vector<OrderedInstance>& list, size_t first, size_t last, long long key) {
  for (size_t i = first; i < last; ++i)
    if (key_of(list[i]) == key) return true;
  return false;
}

}  // namespace

TimedOrders run_as_soon_as_possible(const Placement& placement, const DeviceOrders& orders,
                                    InstanceNamer namer) {
  check_lists(placement, orders);
  int devices = static_cast<int>(orders.size());
  // What each block waits for, with the edge's delay: the instance starts
  // that long after its dependency ends (the rule every phase obeys).
  std::vector<std::vector<std::pair<int, Time>>> needs(placement.blocks.size());
  for (const Edge& edge : placement.edges) needs[edge.to].push_back({edge.from, edge.delay});
  std::map<long long, Time> finish;  // instance -> end
  std::vector<Time> free_at(devices, 0);
  std::vector<size_t> next(devices, 0);
  TimedOrders timed;
  size_t total = 0;
  for (const auto& list : orders) total += list.size();

  // Devices to try, and the devices parked on an instance not yet run.
  std::vector<int> to_try(devices);
  for (int device = 0; device < devices; ++device) to_try[device] = device;
  std::map<long long, std::vector<int>> parked;
  while (!to_try.empty()) {
    int device = to_try.back();
    to_try.pop_back();
    const std::vector<OrderedInstance>& list = orders[device];
    while (next[device] < list.size()) {
      size_t first = next[device], last = unit_end(list, first);
      Time start = free_at[device];
      long long missing = -1;
      for (size_t i = first; i < last && missing < 0; ++i)
        for (const auto& [before, delay] : needs[list[i].block]) {
          long long key = key_of({before, list[i].micro});
          if (in_unit(list, first, last, key)) continue;
          auto done = finish.find(key);
          if (done == finish.end()) {
            missing = key;
            break;
          }
          start = std::max(start, done->second + delay);
        }
      if (missing >= 0) {
        parked[missing].push_back(device);
        break;
      }
      bool fused = last - first > 1;
      Time span = fused ? list[last - 1].fused_span : placement.blocks[list[first].block].span;
      FusedUnit unit{{}, span};
      for (size_t i = first; i < last; ++i) {
        finish[key_of(list[i])] = std::max(finish[key_of(list[i])], start + span);
        timed.instances.push_back({list[i].block, list[i].micro, start});
        unit.members.push_back({list[i].block, list[i].micro});
      }
      if (fused) timed.fused.push_back(std::move(unit));
      free_at[device] = start + span;
      next[device] = last;
      for (size_t i = first; i < last; ++i) {
        auto waiting = parked.find(key_of(list[i]));
        if (waiting == parked.end()) continue;
        to_try.insert(to_try.end(), waiting->second.begin(), waiting->second.end());
        parked.erase(waiting);
      }
    }
  }
  if (timed.instances.size() < total) {
    std::map<long long, std::pair<int, int>> where = locate(orders);
    std::vector<StuckDevice> stuck;
    for (int device = 0; device < devices; ++device) {
      const std::vector<OrderedInstance>& list = orders[device];
      if (next[device] >= list.size()) continue;
      StuckDevice entry;
      entry.device = device;
      entry.position = static_cast<int>(next[device]);
      entry.head = list[next[device]];
      size_t first = next[device], last = unit_end(list, first);
      for (size_t i = first; i < last; ++i)
        for (const auto& [before, delay] : needs[list[i].block]) {
          OrderedInstance missing{before, list[i].micro};
          if (finish.count(key_of(missing)) || in_unit(list, first, last, key_of(missing))) continue;
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
