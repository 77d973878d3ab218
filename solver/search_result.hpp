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
  // Repetend: micro-batches per window k (issue 8): 0 = try k = 1 .. 4 and
  // keep the best average period P_k / k; otherwise exactly this k.
  int micros_per_window = 1;
  int largest_auto_window = 4;  // automatic k tries 1 .. this
  // Automatic k: the time all windows k > 1 share, at most half the time
  // left before the deadline (0 = only the deadline). A k > 1 left
  // undecided never turns a decided k = 1 answer into a time-out.
  double wider_window_seconds = 5;
  // Repetend: the symmetry rules of the modulo encoding (some source block
  // starts at 0; the copies of a window in order); off only to test that
  // they lose no optimum.
  bool symmetry = true;
  // Repetend: the latency search at the found period stops after as long as
  // the period took, at least latency_min_seconds (false: only the deadline).
  bool latency_budget = true;
  double latency_min_seconds = 1;
  // Repetend: consecutive periods decided on one incremental solver before
  // a new one is built (1 = a fresh solver per period).
  int periods_per_solver = 1;
  ProgressSink progress;
};

// What the search learned about one window size k (repetend strategy).
struct WindowAttempt {
  int k = 1;
  std::string status;          // found | not_better | infeasible | timeout | undecided (k > 1 out of its share)
  int period = 0;              // P_k found (0 when none)
  int proven_lower_bound = 0;  // every window shorter than this is impossible
  int latency = 0;             // of one window of k micro-batches
  double seconds = 0;
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
  bool latency_minimal = true;        // false: the latency search stopped at its budget
  int makespan = 0;                   // of the schedule (full)
  int micros_per_window = 1;          // k of the chosen window (repetend)
  std::vector<WindowAttempt> windows; // every k tried (repetend)
  std::vector<SolverCall> calls;
  std::vector<PhaseTime> phases;
};

}  // namespace tessel
