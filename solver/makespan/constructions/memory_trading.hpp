// List scheduling that trades memory for time (docs/algorithms.md, "Memory
// traded for time"): where a forward block offers recomputation, each of
// its micro-batches may drop the activation when the forward ends (keeping
// the checkpoint) and run a recompute just before the block that needs it
// again. The choice is made per micro-batch when the forward starts: it
// recomputes when the device's memory, with the forward's, would pass a
// share `pressure` of the limit; below that it keeps (recomputing costs
// device time, keeping costs nothing). The memory freed lets more
// micro-batches be in flight where the limit binds, which is what fills the
// bubbles a tight limit leaves.
//
// Where the block offers offload, the forward may instead copy its
// activation out on the device's copy channel (one copy at a time, beside
// compute; the memory is freed when the copy out ends) and back in before
// the block that needs it (allocated when the copy in starts). Under
// pressure the forward offloads when its copy out can start as it ends
// (copies cost no device time), else recomputes if offered, else offloads
// all the same.
//
// A recompute becomes ready when the forward has ended and every other
// predecessor of the block that needs it has ended, so it runs just in time
// and holds its memory briefly; it goes before other ready work like a
// backward. A copy in is timed the same way: ready when the copy out has
// ended and early enough to end as the last other predecessor does.
#pragma once

#include <functional>

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"

namespace tessel {


struct TradingRun {
  bool backward_first = false;  // 1F1B's rule; else zero bubble's (weights last)
  int cap = 0;                  // micro-batches in flight at most
  double pressure = 0.8;        // recompute when memory would pass this share of the limit
};

// The schedule of N micro-batches of one run (its recomputes listed), or
// nullopt when the run stalls on memory or the deadline passes.
std::optional<Schedule> trading_list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                              int total_micros, const TradingRun& run,
                                              const Deadline& deadline = Deadline::none());

struct TradingBest {
  TradingRun run;
  Schedule schedule;
  int runs = 0;  // how many runs produced a schedule
};

// The shortest of a small portfolio of rules, caps and pressures (ties: the
// earlier run), or nullopt when no run finishes or nothing is offered.
std::optional<TradingBest> best_trading_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                                 int total_micros, const Deadline& deadline = Deadline::none());

// Per block, how many micro-batches recompute (or offload), and the device
// time the recomputes add: the report's "what it cost".
struct ChoiceCounts {
  std::vector<int> recomputed;  // per block
  std::vector<int> offloaded;   // per block
  Time recompute_time = 0;      // sum of the recompute spans run (ticks)
};
ChoiceCounts count_choices(const Schedule& schedule);

// "recomputes f3 x40, f5 x12 (52 of device time)", or "recomputes
// nothing": the counts in words, the time as the placement writes it, or as
// `time_text` says ticks (a plan says milliseconds).
std::string choices_summary(const Schedule& schedule, const std::function<std::string(Time)>& time_text = {});

}  // namespace tessel
