// The minimal period of a repetend decided on cyclic orders (docs/algorithms.md,
// "Measured costs"): the same question the unit-step modulo encoding answers
// one period at a time, answered with a cost that does not grow with the time
// values.
//
// One incremental solver holds the Boolean part (cyclic_order_encoding.hpp)
// and literals [P >= r] for the cycle ratios r met so far, chained in order.
// A Boolean answer fixes a system of differences; its exact smallest period
// is a maximum cycle ratio (max_cycle_ratio.hpp). The descent:
//   - ask for an answer with P <= t (assume not [P >= r] for the smallest r
//     above t); a positive cycle at t, of ratio r > t, becomes the clause
//     "its literals imply [P >= r]" (valid for every period, so the solver
//     keeps it for all later questions) and the question is asked again;
//   - an answer feasible at t has an exact period P1 = ceil(its ratio) <= t:
//     a solution; ask again with t = P1 - 1;
//   - unsatisfiable: no repetend with P <= t, a proof.
// A question may instead be asked in one call as guarded differences over
// the phases (difference_logic_period.hpp): always on Z3, on CaDiCaL when
// the learned cycles have not settled it quickly (the last, unsatisfiable
// question mostly), on a side Z3 backend.
// The first question is t = L, answered at once when L is reachable; when a
// few hundred SAT calls do not settle it, the descent starts from the top
// instead (so that a time limit finds a schedule at hand). Periods
// and starts are integer ticks: with integer data a feasible integer period
// has integer starts, so the answer is the minimal period on the input's
// grid, and its ratio (a rational <= it) is reported beside it.
//
// Then the latency at that period, bisected on the same solver under a
// literal that bounds every s(b) + span(b).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/modulo/max_cycle_ratio.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct OrderPeriodQuestion {
  const Placement* window = nullptr;  // a window placement of k copies (window_placement.hpp)
  int copies = 1;                     // k
  int max_in_flight = 1;              // Kmax
  Time last_period = 0;               // periods up to this one are asked
  std::string label;                  // "k=2 " in progress lines, or ""
};

struct OrderPeriodAnswer {
  std::optional<ModuloSolution> solution;  // of the minimal period found (starts of the window placement)
  Ratio ratio;                  // the exact (rational) smallest period of the solution's orders
  Time proven_lower_bound = 0;  // every period below is impossible
  bool gave_up = false;         // the period question went unanswered
  bool latency_gave_up = false;     // the deadline struck during the latency (period decided)
  bool latency_unfinished = false;  // its own budget ran out first
  double period_seconds = 0;
  double latency_seconds = 0;
  long long solver_calls = 0;   // SAT calls, cycles learned: the cost, for the report
  long long cycles_learned = 0;
};

// `options`: backend, memory limit, deadline, symmetry, latency budget and
// progress as for the unit-step search. Requires memory balance zero.
OrderPeriodAnswer search_order_period(const OrderPeriodQuestion& question, const SearchOptions& options,
                                      const Deadline& deadline, std::vector<SolverCall>& calls);

}  // namespace tessel
