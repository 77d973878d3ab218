// The event loop of list scheduling, shared by the plain list scheduler
// (list_scheduling.cpp) and the one that trades memory for time
// (memory_trading.cpp), which used to carry a copy each. Nodes (an instance,
// or a recompute run) wait for their inputs; a node whose inputs are done
// becomes ready at the latest input end plus the edge's delay (the rule of
// classic/order_timing.hpp) and joins the ready set of every device it runs
// on; whenever its devices are all free, the best ready node by the
// scheduler's key that the scheduler accepts (memory, admission) starts.
// Time jumps to the next end or the next ready time. What differs between
// the schedulers (keys, memory, what a start releases) is in their hooks.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <vector>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"

namespace tessel {

using ListKey = std::array<long long, 3>;  // smaller starts first

class ListEngine {
 public:
  ListEngine(int ndevs, size_t nodes, const Deadline& deadline);
  virtual ~ListEngine() = default;

 protected:
  virtual ListKey key(long long id) const = 0;
  virtual const std::vector<int>& devices(long long id) const = 0;
  // Whether the node may start now, its devices being free (memory, caps).
  virtual bool accepts(long long id, Time now) = 0;
  // Starts the node now: calls occupy() and satisfy() its successors.
  virtual void start(long long id, Time now) = 0;
  // Called at each time before ready nodes join the sets (memory frees).
  virtual void settle(Time) {}

  // Runs until `remaining_` nodes have started; false when the run stalls
  // (nothing can ever start) or the deadline passes.
  bool run_events();
  // The node waits for `inputs` nodes (0: ready at its ready time).
  void expect(long long id, int inputs);
  // One input of the node has ended; it may start from `ready` on.
  void satisfy(long long id, Time ready);
  // The node runs [now, end) on its devices.
  void occupy(long long id, Time now, Time end);

  std::vector<Time> start_;     // per node, -1 until started
  std::vector<Time> ready_at_;  // per node
  std::vector<int> waiting_;    // per node: inputs not yet ended
  std::vector<Time> free_at_;   // per device
  long long remaining_ = 0;

 private:
  struct Ready {
    ListKey key;
    long long id;
    bool operator<(const Ready& other) const { return std::tie(key, id) < std::tie(other.key, other.id); }
  };
  void release_until(Time now);
  bool start_free_devices(Time now);
  std::optional<Time> next_event(Time now);

  const Deadline& deadline_;
  std::vector<std::set<Ready>> ready_;  // per device
  using Event = std::pair<Time, long long>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> pending_;
  std::priority_queue<Time, std::vector<Time>, std::greater<Time>> ends_;
};

}  // namespace tessel
