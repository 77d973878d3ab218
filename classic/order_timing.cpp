// Order timing (order_timing.hpp). time_orders walks each device down its
// list until the head cannot be timed yet: a dependency not placed, or a
// tensor-parallel block that some other device of it does not head yet. The
// device then parks on that instance and is woken when it is placed (or,
// for a block on several devices, when the last of them reaches it, which
// places it). When no device is left to try and some lists are not done,
// every stuck head waits for something behind another head: a cycle, so
// the orders can never run. Each instance is placed once and each park
// answered once: linear in the instances (times a log).
#include "classic/order_timing.hpp"

#include <algorithm>
#include <map>

namespace tessel::classic {

using Unit = std::vector<std::pair<int, int>>;  // (block, micro) of each member

OrderClock::OrderClock(const Placement& placement, int nmicros)
    : placement_(placement), nblocks_(placement.blocks.size()), needs_(placement.blocks.size()),
      end_(nblocks_ * static_cast<size_t>(std::max(0, nmicros)), -1), free_at_(placement.ndevs, 0) {
  for (const Edge& edge : placement.edges) needs_[edge.to].push_back({edge.from, edge.delay});
}

std::optional<std::pair<int, int>> OrderClock::missing(int block, int micro, const Unit& unit) const {
  for (const auto& [before, delay] : needs_[block]) {
    if (std::find(unit.begin(), unit.end(), std::make_pair(before, micro)) != unit.end()) continue;
    if (end_[id(before, micro)] < 0) return std::make_pair(before, micro);
  }
  return std::nullopt;
}

std::optional<Time> OrderClock::earliest(const Unit& unit, Time not_before) const {
  Time start = not_before;
  for (const auto& [block, micro] : unit) {
    for (int device : placement_.blocks[block].devices) start = std::max(start, free_at_[device]);
    for (const auto& [before, delay] : needs_[block]) {
      if (std::find(unit.begin(), unit.end(), std::make_pair(before, micro)) != unit.end()) continue;
      const Time ended = end_[id(before, micro)];
      if (ended < 0) return std::nullopt;
      start = std::max(start, ended + delay);  // the edge's delay: the rule every phase obeys
    }
  }
  return start;
}

void OrderClock::place(const Unit& unit, Time start, Time span) {
  for (const auto& [block, micro] : unit) {
    end_[id(block, micro)] = start + span;
    for (int device : placement_.blocks[block].devices) free_at_[device] = std::max(free_at_[device], start + span);
  }
}

namespace {

long long key_of(int block, int micro) { return (static_cast<long long>(block) << 32) | static_cast<unsigned>(micro); }

size_t unit_end(const std::vector<OrderedInstance>& list, size_t first) {
  size_t last = first;
  while (last + 1 < list.size() && list[last].joins_next) ++last;
  return last + 1;
}

int micro_count(const DeviceOrders& orders) {
  int count = 0;
  for (const auto& list : orders)
    for (const OrderedInstance& entry : list) count = std::max(count, entry.micro + 1);
  return count;
}

// One run of time_orders.
struct Runner {
  const Placement& placement;
  const DeviceOrders& orders;
  const std::vector<Time>* not_before;
  OrderClock clock;
  std::vector<size_t> next;
  std::vector<int> to_try;
  std::map<long long, std::vector<int>> parked;  // instance -> devices waiting for it
  OrderTiming timed;

  Runner(const Placement& placement_, const DeviceOrders& orders_, const std::vector<Time>* not_before_)
      : placement(placement_), orders(orders_), not_before(not_before_), clock(placement_, micro_count(orders_)),
        next(orders_.size(), 0) {
    for (int device = static_cast<int>(orders.size()) - 1; device >= 0; --device) to_try.push_back(device);
  }

  Unit unit_at(int device, size_t first) const {
    Unit unit;
    for (size_t i = first; i < unit_end(orders[device], first); ++i)
      unit.push_back({orders[device][i].block, orders[device][i].micro});
    return unit;
  }

  // A device of the unit's blocks whose list does not have it at its head, or -1.
  int device_behind(const Unit& unit) const {
    for (const auto& [block, micro] : unit)
      for (int device : placement.blocks[block].devices) {
        if (device >= static_cast<int>(orders.size()) || next[device] >= orders[device].size()) return device;
        const OrderedInstance& head = orders[device][next[device]];
        if (head.block != unit.front().first || head.micro != unit.front().second) return device;
      }
    return -1;
  }

  // Times the head unit of `device` if it can be; else parks the device.
  bool advance(int device) {
    const std::vector<OrderedInstance>& list = orders[device];
    const size_t first = next[device], last = unit_end(list, first);
    const Unit unit = unit_at(device, first);
    for (const auto& [block, micro] : unit)
      if (std::optional<std::pair<int, int>> wait = clock.missing(block, micro, unit)) {
        parked[key_of(wait->first, wait->second)].push_back(device);
        return false;
      }
    if (device_behind(unit) >= 0) {
      parked[key_of(unit.front().first, unit.front().second)].push_back(device);
      return false;
    }
    Time lower = 0;
    const size_t blocks = placement.blocks.size();
    for (const auto& [block, micro] : unit)
      if (not_before) lower = std::max(lower, (*not_before)[static_cast<size_t>(micro) * blocks + block]);
    const Time start = *clock.earliest(unit, lower);
    const bool fused = unit.size() > 1;
    const Time span = fused ? list[last - 1].fused_span : placement.blocks[unit.front().first].span;
    clock.place(unit, start, span);
    record(device, unit, start, span, fused);
    return true;
  }

  void record(int device_listing, const Unit& unit, Time start, Time span, bool fused) {
    FusedUnit joined{{}, span};
    for (const auto& [block, micro] : unit) {
      timed.instances.push_back({block, micro, start});
      joined.members.push_back({block, micro});
    }
    if (fused) timed.fused.push_back(std::move(joined));
    std::vector<int> on = {device_listing};  // every device of the unit moves past it
    for (const auto& [block, micro] : unit)
      for (int device : placement.blocks[block].devices) on.push_back(device);
    std::sort(on.begin(), on.end());
    on.erase(std::unique(on.begin(), on.end()), on.end());
    for (int device : on) next[device] = unit_end(orders[device], next[device]);
    for (const auto& [block, micro] : unit) {
      auto waiting = parked.find(key_of(block, micro));
      if (waiting == parked.end()) continue;
      to_try.insert(to_try.end(), waiting->second.begin(), waiting->second.end());
      parked.erase(waiting);
    }
    to_try.insert(to_try.end(), on.begin(), on.end());
  }

  void run() {
    while (!to_try.empty()) {
      const int device = to_try.back();
      to_try.pop_back();
      while (next[device] < orders[device].size() && advance(device)) {
      }
    }
  }
};

// Where every listed instance sits (first occurrence wins).
std::map<long long, std::pair<int, int>> locate(const DeviceOrders& orders) {
  std::map<long long, std::pair<int, int>> where;
  for (int device = 0; device < static_cast<int>(orders.size()); ++device)
    for (int position = 0; position < static_cast<int>(orders[device].size()); ++position)
      where.emplace(key_of(orders[device][position].block, orders[device][position].micro),
                    std::make_pair(device, position));
  return where;
}

// Where the instance sits in the device's list, or -1.
int position_in(const DeviceOrders& orders, int device, std::pair<int, int> instance) {
  if (device < 0 || device >= static_cast<int>(orders.size())) return -1;
  for (size_t i = 0; i < orders[device].size(); ++i)
    if (orders[device][i].block == instance.first && orders[device][i].micro == instance.second)
      return static_cast<int>(i);
  return -1;
}

std::vector<StuckDevice> stuck_devices(const Runner& runner) {
  const std::map<long long, std::pair<int, int>> where = locate(runner.orders);
  std::vector<StuckDevice> stuck;
  for (int device = 0; device < static_cast<int>(runner.orders.size()); ++device) {
    const size_t first = runner.next[device];
    if (first >= runner.orders[device].size()) continue;
    StuckDevice entry{device, static_cast<int>(first), runner.orders[device][first], {}};
    const Unit unit = runner.unit_at(device, first);
    std::vector<std::pair<int, int>> waits;
    for (const auto& [block, micro] : unit)
      if (std::optional<std::pair<int, int>> wait = runner.clock.missing(block, micro, unit)) waits.push_back(*wait);
    if (waits.empty() && runner.device_behind(unit) >= 0) waits.push_back(unit.front());
    for (const auto& [block, micro] : waits) {
      StuckDevice::Wait wait{{block, micro}, -1, -1};
      auto found = where.find(key_of(block, micro));
      if (found != where.end()) std::tie(wait.device, wait.position) = found->second;
      if (block == unit.front().first && micro == unit.front().second) {  // another device of the block
        wait.device = runner.device_behind(unit);
        wait.position = position_in(runner.orders, wait.device, unit.front());
      }
      entry.waits_for.push_back(wait);
    }
    stuck.push_back(std::move(entry));
  }
  return stuck;
}

}  // namespace

OrderTiming time_orders(const Placement& placement, const DeviceOrders& orders, const std::vector<Time>* not_before) {
  Runner runner(placement, orders, not_before);
  runner.run();
  size_t total = 0;
  for (const auto& list : orders) total += list.size();
  size_t timed = 0;
  for (size_t device = 0; device < orders.size(); ++device) timed += runner.next[device];
  if (timed < total) runner.timed.stuck = stuck_devices(runner);
  return std::move(runner.timed);
}

DeviceOrders orders_by_start(const Schedule& schedule) {
  std::vector<int> ranked(schedule.instances.size());
  for (size_t i = 0; i < ranked.size(); ++i) ranked[i] = static_cast<int>(i);
  std::stable_sort(ranked.begin(), ranked.end(), [&](int a, int b) {
    return schedule.instances[a].start < schedule.instances[b].start;
  });
  DeviceOrders orders(schedule.placement.ndevs);
  for (int i : ranked) {
    const Instance& instance = schedule.instances[i];
    for (int device : schedule.placement.blocks[instance.block].devices)
      orders[device].push_back({instance.block, instance.micro, false, 0});
  }
  return orders;
}

}  // namespace tessel::classic
