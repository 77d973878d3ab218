// Which deciders decide a window's periods, chosen in this one place
// (docs/architecture.md, "The period deciders"):
//   - the cyclic orders decide the whole window (order_period_search.hpp;
//     by learned cycles or as difference logic, OrderQuestions) when its
//     time values would make the unit-step encoding slow or large
//     (period_method.hpp, encoding_budget.hpp);
//   - else the scheduler (scheduler.hpp) decides its periods with the
//     modulo encoding, and, for k = 1 under the automatic method, with the
//     program of its shape (program_decider.hpp) on the periods the
//     program affords: alone up to about a second a period, after the
//     solver's head start up to program_reach_seconds.
#pragma once

#include <memory>

#include "model/placement.hpp"
#include "solver/period/decider.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// The program decides a period alone while its estimate stays within the
// developer knob program_alone_seconds (about a second a period; knobs in
// solver/knobs/tuning.hpp). Past those, up to program_reach_seconds, the solver
// gets solver_head_start_seconds on a period and the program decides what
// the solver leaves open. The solver decides most periods in milliseconds,
// and where it does not the program costs seconds against the solver's
// minutes (mllm, 64 devices, memory 16: periods 18-21 took the solver 41-76 s
// each, the program 1.6-6 s).

// Whether the cyclic orders decide this window whole.
bool decided_by_orders(const Placement& window, const SearchOptions& options);

struct WindowPeriods {
  const Placement* window = nullptr;  // outlives the plan
  int k = 1;
  int max_in_flight = 1;
  int first_period = 0;
  int last_period = 0;
  bool last_feasible = false;  // the last period is known to have a repetend
  std::string label;           // "k=2 " or ""
  bool programs = true;        // false: the modulo encoding alone (a program's period asked of it)
};

// The scheduler's question for the window's periods and the program it
// refers to (kept alive beside it).
struct PeriodPlan {
  std::unique_ptr<PeriodDecider> program;
  PeriodsQuestion question;
};

PeriodPlan plan_periods(const WindowPeriods& periods, const SearchOptions& options);

}  // namespace tessel
