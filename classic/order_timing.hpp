// Order timing: the one place where an order becomes start times
// (docs/architecture.md, "Order timing"). Every phase that knows in which
// order each device runs its instances, and wants them as early as possible
// (replayed families, imported tables, compaction, the end transfer, list
// scheduling), asks this file, so each rule of the placement is honoured by
// construction rather than re-derived by every phase:
//   - an instance starts no earlier than each dependency of its micro-batch
//     ends plus the edge's delay;
//   - a device runs one instance (or fused unit) at a time, in its order;
//   - a block on several devices (tensor-parallel) is listed on each of
//     them and starts when it heads every one of those lists, all of them free;
//   - consecutive entries of a list may form one fused unit: it starts when
//     every dependency from outside the unit has ended and runs for the
//     unit's span;
//   - an optional lower bound per instance (a phase that fixes some starts).
// Memory levels on a device depend only on its order, so timing never
// changes them: static memory and limits are the order's business.
//
// Two layers: OrderClock, the step "time this instance (or unit) next on
// its devices" that event-driven phases (list scheduling) call as they
// choose, and time_orders, which runs whole per-device orders with it and
// reports "impossible" (a cycle between the orders and the edges: every
// unfinished list waits for something behind another list's head) instead
// of producing an invalid schedule.
#pragma once

#include <optional>
#include <utility>
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

// The step shared by every phase: instances of `nmicros` micro-batches
// placed one unit at a time, each after everything placed before on its
// devices.
class OrderClock {
 public:
  OrderClock(const Placement& placement, int nmicros);

  // The earliest start of the unit (one instance or the members of a fused
  // unit) if placed next on its devices, at least `not_before`; nullopt
  // while a dependency from outside the unit has not been placed.
  std::optional<Time> earliest(const std::vector<std::pair<int, int>>& unit, Time not_before = 0) const;
  std::optional<Time> earliest(int block, int micro, Time not_before = 0) const {
    return earliest({{block, micro}}, not_before);
  }
  // The unit runs [start, start + span) on the devices of its members.
  void place(const std::vector<std::pair<int, int>>& unit, Time start, Time span);
  void place(int block, int micro, Time start) { place({{block, micro}}, start, placement_.blocks[block].span); }

  bool placed(int block, int micro) const { return end_[id(block, micro)] >= 0; }
  Time end(int block, int micro) const { return end_[id(block, micro)]; }  // -1 before placed
  Time device_free(int device) const { return free_at_[device]; }
  // The first unplaced dependency of (block, micro) outside `unit`, if any.
  std::optional<std::pair<int, int>> missing(int block, int micro,
                                             const std::vector<std::pair<int, int>>& unit) const;

 private:
  size_t id(int block, int micro) const { return static_cast<size_t>(micro) * nblocks_ + block; }

  const Placement& placement_;
  size_t nblocks_;
  std::vector<std::vector<std::pair<int, Time>>> needs_;  // per block: (dependency, delay)
  std::vector<Time> end_;                                 // per instance, -1 until placed
  std::vector<Time> free_at_;                             // per device
};

// Where an unfinished list is stuck: its head (a position in the list) and
// the instances it waits for (unplaced dependencies, or, for a block on
// several devices, the lists it does not head yet: wait.device >= 0 with
// the position of the instance there, -1 when no list holds it).
struct StuckDevice {
  int device = 0;
  int position = 0;
  OrderedInstance head;
  struct Wait {
    OrderedInstance instance;
    int device = -1;
    int position = -1;
  };
  std::vector<Wait> waits_for;
};

struct OrderTiming {
  std::vector<Instance> instances;  // each listed instance once, in the order they were timed
  std::vector<FusedUnit> fused;
  std::vector<StuckDevice> stuck;   // non-empty: the orders can never run (nothing timed is valid)
  bool possible() const { return stuck.empty(); }
};

// Every listed instance as early as the rules above allow. `not_before`,
// when given, holds a lower bound per instance at micro * blocks + block.
// Lists must name blocks of the placement on their devices (not checked
// here: classic::run_as_soon_as_possible checks orders from outside).
OrderTiming time_orders(const Placement& placement, const DeviceOrders& orders,
                        const std::vector<Time>* not_before = nullptr);

// The per-device orders of a timed schedule (by start, ties by the order
// given; fused units ignored): what time_orders takes to compact it.
DeviceOrders orders_by_start(const Schedule& schedule);

}  // namespace tessel::classic
