// What each search strategy hands back to solve() (solver/search.hpp): the
// answer, the bounds it proved, the time each phase took, and the schedule.
// Internal to solver/: the command line and the Python module read the
// SearchReport that solve() builds from it.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/backend.hpp"
#include "sat/cube_split.hpp"
#include "sat/deadline.hpp"
#include "solver/knobs/period_method.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/report_types.hpp"

namespace tessel {

enum class SearchStatus { Found, Infeasible, Timeout };

// Progress lines for stderr ("period 7: unsat (0.12 s)"); may be empty.
using ProgressSink = std::function<void(const std::string&)>;

// The typed views of knobs that are not plain numbers, one function each:
// SearchOptions' defaults below and options_from_tuning both use them, so
// that no default is written outside the table (solver/knobs/tuning.hpp).
inline BackendSettings backend_settings_of(const Tuning& tuning) {
  return {static_cast<int>(tuning.cadical_cardinality), static_cast<int>(tuning.cadical_configuration)};
}
inline CubeSettings cube_settings_of(const Tuning& tuning) {
  return {static_cast<int>(tuning.cube_depth), tuning.cube_after_seconds, tuning.cube_split_seconds,
          tuning.cube_resplit_seconds};
}
inline PeriodMethodChoice period_method_of(const Tuning& tuning) {
  return static_cast<PeriodMethodChoice>(static_cast<int>(tuning.period_method));
}
inline OrderQuestions order_questions_of(const Tuning& tuning) {
  return static_cast<OrderQuestions>(static_cast<int>(tuning.order_questions));
}

// What a strategy needs to know; solve() fills it from the SearchRequest
// and the tuning table. The typed fields that view a knob take their
// defaults from kDefaultTuning; per search, solve() may lower a budget
// (fast uses fast_boundary_seconds for boundary_seconds; offers of
// recomputation turn ends_seconds and relaxation_seconds off).
struct SearchOptions {
  std::string backend = "cadical";
  BackendSettings backend_settings = backend_settings_of(kDefaultTuning);
  std::vector<Memory> memory_limit;  // one per device, static memory already taken off
  std::optional<int> in_flight;      // K, repetend/fast: most micro-batches in flight (unset: the number of blocks)
  int total_micros = 1;              // N, strategy full: the micro-batches it schedules
  Deadline deadline;
  // Repetend: budget of the warmup/cooldown shortening by the solver, which
  // only improves a schedule that is already valid (0 = skip it).
  double boundary_seconds = kDefaultTuning.boundary_seconds;
  // Repetend: micro-batches per window k: 0 = try k = 1 .. largest_auto_window
  // and keep the best average period P_k / k; otherwise exactly this k.
  int micros_per_window = 1;
  int largest_auto_window = static_cast<int>(kDefaultTuning.largest_window);
  // Automatic k: the time all windows k > 1 share, at most half the time
  // left before the deadline (0 = only the deadline). A k > 1 left
  // undecided never turns a decided k = 1 answer into a time-out.
  double wider_window_seconds = kDefaultTuning.window_seconds;
  // Repetend: the symmetry rules of the modulo encoding; off only to test
  // that they lose no optimum.
  bool symmetry = kDefaultTuning.symmetry != 0;
  // Repetend: which encoding decides the periods (period_method.hpp).
  PeriodMethodChoice period_method = period_method_of(kDefaultTuning);
  OrderQuestions order_questions = order_questions_of(kDefaultTuning);
  // Repetend: the latency search at the found period stops after as long as
  // the period took, at least latency_min_seconds (false: only the deadline).
  bool latency_budget = kDefaultTuning.latency_budget != 0;
  double latency_min_seconds = kDefaultTuning.latency_min_seconds;
  // Repetend: consecutive periods decided on one incremental solver.
  int periods_per_solver = static_cast<int>(kDefaultTuning.periods_per_solver);
  // The makespan at N: seconds for the exact ends bound
  // (solver/makespan/bounds/exact_ends) when a schedule is above the closed bounds;
  // the full search raises its starting bound with it too (0 = skip).
  double ends_seconds = kDefaultTuning.ends_seconds;
  // The same for the one-device relaxation (solver/makespan/bounds/device_relaxation).
  double relaxation_seconds = kDefaultTuning.relaxation_seconds;
  // Threads for independent work (solver/period/scheduler.hpp); the answer does
  // not depend on it.
  int threads = 1;
  // Threads > 1: a rival CaDiCaL configuration joins a period once its own
  // solver has had this long (solver/period/scheduler.cpp says why it waits).
  double rival_after_seconds = kDefaultTuning.rival_after_seconds;
  // Threads > 1: a hard last period split into cubes (sat/cube_split.hpp).
  CubeSettings cubes = cube_settings_of(kDefaultTuning);
  // Threads > 1, CaDiCaL: the solvers of one period share the clauses they
  // learn of at most this many literals (0: none; solver/period/scheduler.hpp).
  int share_clauses = static_cast<int>(kDefaultTuning.share_clauses);
  ProgressSink progress;
  // The whole table as set (options_from_tuning): the typed fields above
  // are its views for the strategies; the developer knobs (effort
  // constants) are read from here.
  Tuning tuning;
};

// The options a strategy runs with, from the tuning table.
SearchOptions options_from_tuning(const Tuning& tuning);

// How warmup and cooldown were built around the window.
struct BoundaryFacts {
  bool squeezed = false;        // the squeeze improved the truncated schedule
  bool solved = false;          // the solver shortened them
  bool proven_minimal = false;  // and proved them minimal around this window
};

struct SearchResult {
  SearchStatus status = SearchStatus::Infeasible;
  std::string message;               // why infeasible / what timed out
  std::optional<Schedule> schedule;  // best schedule so far (also on timeout)
  Time period = 0;                   // repetend period (0 for `full`)
  Time lower_bound = 0;              // L (repetend) or the makespan bound (full)
  Time proven_lower_bound = 0;       // largest bound proven impossible + 1
  int in_flight = 0;                 // K
  Time latency = 0;                  // one micro-batch's length in the modulo schedule
  bool latency_minimal = true;       // false: the latency search stopped at its budget
  Time makespan = 0;                 // of the schedule
  int micros_per_window = 1;         // k of the chosen window (repetend)
  std::vector<WindowAttempt> windows;  // every k tried (repetend)
  BoundaryFacts boundary;
  std::optional<Construction> construction;  // strategy fast
  // Strategy full: the makespan bound its bisection started from (the closed
  // bounds, raised by the exact ends), so the report can say which argument
  // gave it.
  std::optional<MakespanBound> makespan_bound;
  // Strategy full: its encoding chose a recompute per micro-batch wherever
  // one could matter and no offload is offered where memory binds, so its
  // refutations bound the schedules that trade memory for time too.
  bool refutes_traded = false;
  std::vector<SolverCall> calls;
  std::vector<PhaseTime> phases;
};

}  // namespace tessel
