// Memory-aware list scheduling of N micro-batches on any placement: an
// event-driven simulation that, whenever a device is free, starts the best
// ready instance by a priority rule, never passing the device's memory limit.
// The hand-made pipeline schedules are all list schedules of some rule
// (1F1B: backward first, oldest micro-batch first; zero bubble: input
// backward, then forward, weight backward only into bubbles; interleaved:
// lower chunk first in groups; GPipe: every forward first), so running such
// rules on ANY placement (tensor-parallel blocks, delays, other kinds)
// gives schedules whose warmup and cooldown are not tied to one repetend
// window. Each run costs O(instances log instances), so a portfolio of rules
// and in-flight caps stays well under a second at 16 devices x 128.
//
// Memory cannot deadlock the run: a new micro-batch is admitted (its first
// block started) only while the micro-batches in flight can still finish
// with what the limit leaves (every device's memory now plus the memory the
// in-flight ones may still allocate, a banker's check), or, in the
// unguarded mode, the run is dropped when it stalls.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"

namespace tessel {

enum class ListRule { OneFOneB, ZeroBubble, ZeroBubbleDepth, Interleaved, DueDate, CriticalPath, GPipe };

// "1f1b", "zb", "zb depth-first", "interleaved", "due date", "critical path", "gpipe".
const char* list_rule_name(ListRule rule);
const std::vector<ListRule>& list_rules();

struct ListRun {
  ListRule rule = ListRule::ZeroBubble;
  int cap = 0;           // micro-batches in flight at most
  bool guarded = true;   // the banker's admission check
};

// The start of every instance (micro-major order), or nullopt when the run
// stalls (unguarded), a single micro-batch does not fit the limits, or the
// deadline passes.
// `limits` holds one limit per device (the blocks' own memory).
std::optional<std::vector<Instance>> list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                                   int total_micros, const ListRun& run,
                                                   const Deadline& deadline = Deadline::none());

// The runs of the portfolio: every rule with several in-flight caps.
std::vector<ListRun> list_portfolio(const Placement& placement, int total_micros);

struct ListBest {
  ListRun run;
  Schedule schedule;  // exactly total_micros micro-batches, no repetend
  int runs = 0;       // how many runs produced a schedule
};

// The shortest schedule of the portfolio (ties: the earlier run) of the
// runs done by the deadline, or nullopt when no run fits the limits.
std::optional<ListBest> best_list_schedule(const Placement& placement, const std::vector<Memory>& limits,
                                           int total_micros, const Deadline& deadline = Deadline::none());

}  // namespace tessel
