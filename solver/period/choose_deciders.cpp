// Which deciders decide a window's periods (see the header).
#include "solver/period/choose_deciders.hpp"

#include <algorithm>

#include "solver/knobs/encoding_budget.hpp"
#include "solver/knobs/period_method.hpp"
#include "solver/modulo/memory_rate_bound.hpp"
#include "solver/period/program_decider.hpp"

namespace tessel {

bool decided_by_orders(const Placement& window, const SearchOptions& options) {
  // The unit-step encoding grows with the periods it asks (a literal per
  // phase of every start), and the first is the memory-rate bound when that
  // is above L: a bound of 10 million steps (a long delay holding memory)
  // built a modulo encoding of 7.5 GB for 20 s past a 5 s limit, where the
  // cyclic orders decide it in milliseconds. Past the order-literal budget
  // (encoding_budget.hpp) the cyclic orders decide.
  const bool long_periods =
      options.period_method == PeriodMethodChoice::Automatic &&
      static_cast<double>(memory_rate_bound(window, options.memory_limit).period) *
              static_cast<double>(window.blocks.size()) > static_cast<double>(kMaxOrderLiterals);
  return long_periods || period_method(window, options.period_method) == PeriodMethod::CyclicOrder;
}

PeriodPlan plan_periods(const WindowPeriods& periods, const SearchOptions& options) {
  PeriodPlan plan;
  PeriodsQuestion& question = plan.question;
  question.window = periods.window;
  question.first_period = periods.first_period;
  question.last_period = periods.last_period;
  question.max_in_flight = periods.max_in_flight;
  question.rules = ModuloRules{options.symmetry, periods.k};
  question.last_feasible = periods.last_feasible;
  question.label = periods.label;
  // Consecutive periods on one solver are decided one after the other.
  question.periods_per_solver = std::max(1, options.periods_per_solver);
  question.threads = question.periods_per_solver == 1 ? std::max(1, options.threads) : 1;
  question.program_last = periods.first_period - 1;
  question.program_reach = question.program_last;
  question.head_start_seconds = options.tuning.solver_head_start_seconds;
  const bool programs = periods.programs && periods.k == 1 && options.period_method == PeriodMethodChoice::Automatic;
  if (!programs || periods.first_period > periods.last_period) return plan;
  plan.program = period_program(*periods.window, options.memory_limit, periods.max_in_flight,
                                options.tuning.program_steps_per_second);
  if (!plan.program) return plan;
  question.program = plan.program.get();
  question.program_last =
      last_affordable(*plan.program, periods.first_period, periods.last_period,
                      options.tuning.program_alone_seconds);
  question.program_reach =
      last_affordable(*plan.program, question.program_last + 1, periods.last_period,
                      options.tuning.program_reach_seconds);
  return plan;
}

}  // namespace tessel
