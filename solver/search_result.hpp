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
#include "solver/makespan/bounds/makespan_bound.hpp"
#include "solver/period_method.hpp"
#include "solver/tuning.hpp"

namespace tessel {

enum class SearchStatus { Found, Infeasible, Timeout };

// Progress lines for stderr ("period 7: unsat (0.12 s)"); may be empty.
using ProgressSink = std::function<void(const std::string&)>;

// What a strategy needs to know; solve() fills it from the SearchRequest
// and the tuning table.
struct SearchOptions {
  std::string backend = "cadical";
  BackendSettings backend_settings;
  std::vector<Memory> memory_limit;  // one per device, static memory already taken off
  std::optional<int> nmicros;        // repetend: K in flight; full: micro-batches
  Deadline deadline;
  // Repetend: budget of the warmup/cooldown shortening by the solver, which
  // only improves a schedule that is already valid (0 = skip it).
  double boundary_seconds = 2;
  // Repetend: micro-batches per window k: 0 = try k = 1 .. largest_auto_window
  // and keep the best average period P_k / k; otherwise exactly this k.
  int micros_per_window = 1;
  int largest_auto_window = 4;
  // Automatic k: the time all windows k > 1 share, at most half the time
  // left before the deadline (0 = only the deadline). A k > 1 left
  // undecided never turns a decided k = 1 answer into a time-out.
  double wider_window_seconds = 1.5;
  // Repetend: the symmetry rules of the modulo encoding; off only to test
  // that they lose no optimum.
  bool symmetry = true;
  // Repetend: which encoding decides the periods (period_method.hpp).
  PeriodMethodChoice period_method = PeriodMethodChoice::Automatic;
  OrderQuestions order_questions = OrderQuestions::Automatic;
  // Repetend: the latency search at the found period stops after as long as
  // the period took, at least latency_min_seconds (false: only the deadline).
  bool latency_budget = true;
  double latency_min_seconds = 0.5;
  // Repetend: consecutive periods decided on one incremental solver.
  int periods_per_solver = 1;
  // The makespan at N: seconds for the exact ends bound
  // (solver/makespan/bounds/exact_ends) when a schedule is above the closed bounds;
  // the full search raises its starting bound with it too (0 = skip).
  double ends_seconds = 0;
  // The same for the one-device relaxation (solver/makespan/bounds/device_relaxation).
  double relaxation_seconds = 0;
  // Threads for independent work (solver/period_race.hpp); the answer does
  // not depend on it.
  int threads = 1;
  // Threads > 1: a rival CaDiCaL configuration joins a period once its own
  // solver has had this long (solver/period_race.cpp says why it waits).
  double rival_after_seconds = 2;
  // Threads > 1: a hard last period split into cubes (sat/cube_split.hpp).
  CubeSettings cubes;
  // Threads > 1, CaDiCaL: the solvers of one period share the clauses they
  // learn of at most this many literals (0: none; solver/period_race.hpp).
  int share_clauses = 0;
  ProgressSink progress;
};

// The options a strategy runs with, from the tuning table.
SearchOptions options_from_tuning(const Tuning& tuning);

// What the search learned about one window size k (repetend strategy).
enum class WindowStatus {
  Found,      // a window of this k was found
  NotBetter,  // no window of this k beats the best average so far
  Infeasible, // no window of this k fits (proven)
  Timeout,    // the time limit struck while deciding it
  Undecided,  // k > 1 out of its share of the time: the decided answer stands
};
const char* window_status_name(WindowStatus status);

struct WindowAttempt {
  int k = 1;
  WindowStatus status = WindowStatus::Found;
  Time period = 0;              // P_k found (0 when none)
  Time proven_lower_bound = 0;  // every window shorter than this is impossible
  Time latency = 0;             // of one window of k micro-batches
  double seconds = 0;
};

// One question put to the solver and its answer, for the report.
struct SolverCall {
  std::string what;  // "period 6", "latency <= 20", "makespan <= 30"
  Answer answer = Answer::Unknown;
  double seconds = 0;
};

struct PhaseTime {
  std::string phase;  // "period", "latency", "warmup/cooldown", "full"
  double seconds = 0;
};

// How warmup and cooldown were built around the window.
struct BoundaryFacts {
  bool squeezed = false;        // the squeeze improved the truncated schedule
  bool solved = false;          // the solver shortened them
  bool proven_minimal = false;  // and proved them minimal around this window
};

// The fast construction's account of itself.
struct Construction {
  std::string name;             // "packing", "list scheduling", "one at a time"
  Time constructed_period = 0;  // before the solver shortened the window
  bool window_shortened = false;
};

struct SearchResult {
  SearchStatus status = SearchStatus::Infeasible;
  std::string message;               // why infeasible / what timed out
  std::optional<Schedule> schedule;  // best schedule so far (also on timeout)
  Time period = 0;                   // repetend period (0 for `full`)
  Time lower_bound = 0;              // L (repetend) or the makespan bound (full)
  Time proven_lower_bound = 0;       // largest bound proven impossible + 1
  int nmicros_in_flight = 0;         // K
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
  std::vector<SolverCall> calls;
  std::vector<PhaseTime> phases;
};

}  // namespace tessel
