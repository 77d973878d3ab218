// What a schedule search hands back to its caller: the answer, the bounds it
// proved, the time each phase took, and the schedule itself. Plain data, so
// that tools/ can print it and tests can check it without knowing the search.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "solver/deadline.hpp"

namespace tessel {

enum class SearchStatus { Found, Infeasible, Timeout };

// Progress lines for stderr ("period 7: unsat (0.12 s)"); may be empty.
using ProgressSink = std::function<void(const std::string&)>;

struct SearchOptions {
  std::string backend = "z3";
  std::vector<long long> memory_limit;  // one per device
  std::optional<int> nmicros;           // repetend: K in flight; full: micro-batches
  Deadline deadline;
  // Repetend: budget of the warmup/cooldown shortening by the solver, which
  // only improves a schedule that is already valid (0 = skip it).
  double boundary_seconds = 20;
  ProgressSink progress;
};

// One question put to the solver and its answer, for the report.
struct SolverCall {
  std::string what;    // "period 6", "latency <= 20", "makespan <= 30"
  std::string answer;  // sat|unsat|unknown
  double seconds = 0;
};

struct PhaseTime {
  std::string phase;  // "period", "latency", "warmup/cooldown", "full"
  double seconds = 0;
};

struct SearchResult {
  SearchStatus status = SearchStatus::Infeasible;
  std::string message;                // why infeasible / what timed out
  std::optional<Schedule> schedule;   // best schedule so far (also on timeout)
  int period = 0;                     // repetend period (0 for `full`)
  int lower_bound = 0;                // L (repetend) or the makespan bound (full)
  int proven_lower_bound = 0;         // largest bound proven impossible + 1
  int nmicros_in_flight = 0;          // K
  int latency = 0;                    // one micro-batch's length in the modulo schedule
  int makespan = 0;                   // of the schedule (full)
  std::vector<SolverCall> calls;
  std::vector<PhaseTime> phases;
};

}  // namespace tessel
