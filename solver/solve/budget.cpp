// The search's one budget (budget.hpp): the rule that turns the time limit
// and the knobs into each phase's deadline, and its log.
#include "solver/solve/budget.hpp"

#include <algorithm>
#include <chrono>

namespace tessel {
namespace {

double seconds_between(Deadline::Clock::time_point from, Deadline::Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

Deadline::Clock::time_point after(Deadline::Clock::time_point from, double seconds) {
  return from + std::chrono::duration_cast<Deadline::Clock::duration>(std::chrono::duration<double>(seconds));
}

void log_grant(Budget& budget, BudgetPhase phase, const Deadline& granted, BudgetLimit limited_by,
               double estimate = 0) {
  tessel::log_grant(budget.log, phase, granted, limited_by, estimate);
}

}  // namespace

bool planned(const Tuning& tuning) {
  if (tuning.plan_seconds <= 0) return false;
  if (tuning.plan_seconds != kDefaultTuning.plan_seconds) return true;
  for (const TuningKnob& knob : tuning_knobs())
    if (knob.phase_budget && tuning.*knob.field != knob.default_value) return false;
  return true;
}

Budget make_budget(const Deadline& limit, Deadline::Clock::time_point begin, const Tuning& tuning,
                   double answer_instances) {
  Budget budget;
  budget.limit = limit;
  budget.log.begin = begin;
  budget.tuning = tuning;
  if (!limit.unlimited()) budget.answer_reserve = tuning.verify_seconds_per_instance * answer_instances;
  return budget;
}

Deadline grant_strategy(Budget& budget) {
  if (budget.limit.unlimited() || budget.answer_reserve <= 0) {
    log_grant(budget, BudgetPhase::Strategy, budget.limit, budget.limit.unlimited() ? BudgetLimit::None
                                                                                   : BudgetLimit::TimeLimit);
    budget.strategy = budget.limit;
    return budget.limit;
  }
  const double limit = seconds_between(budget.log.begin, budget.limit.at);
  const double floor = limit / 10;
  const double reserved = budget.limit.seconds_left() - budget.answer_reserve;
  const Deadline granted = budget.limit.within(std::max(floor, reserved));
  budget.strategy = granted;
  log_grant(budget, BudgetPhase::Strategy, granted, reserved >= floor ? BudgetLimit::AnswerReserve
                                                                      : BudgetLimit::TenthOfLimit,
            budget.answer_reserve);
  return granted;
}

Deadline grant_makespan(Budget& budget) {
  const Deadline& strategy = budget.strategy;
  if (!planned(budget.tuning)) {
    log_grant(budget, BudgetPhase::Makespan, strategy,
              strategy.unlimited() ? BudgetLimit::None : BudgetLimit::AnswerReserve);
    return strategy;
  }
  const double plan_left = budget.tuning.plan_seconds - seconds_since(budget.log.begin);
  const double least = budget.tuning.least_plan_seconds;
  const Deadline granted = strategy.within(std::max(least, plan_left));
  BudgetLimit by = plan_left >= least ? BudgetLimit::Plan : BudgetLimit::LeastAfterPeriod;
  if (granted.at == strategy.at) by = BudgetLimit::AnswerReserve;
  log_grant(budget, BudgetPhase::Makespan, granted, by);
  return granted;
}

Deadline grant_phase(Budget& budget, BudgetPhase phase, const Deadline& from, double seconds, double share) {
  const bool shared = share > 0 && !from.unlimited() && share * from.seconds_left() < seconds;
  const Deadline granted = from.within(shared ? share * from.seconds_left() : seconds);
  BudgetLimit by = shared ? BudgetLimit::ShareOfLeft : BudgetLimit::PhaseSeconds;
  if (granted.at == from.at) by = from.unlimited() ? BudgetLimit::None : BudgetLimit::TimeLimit;
  log_grant(budget, phase, granted, by);
  return granted;
}

double traded_seconds(const Budget& budget, double seconds, double least) {
  if (budget.whole_plan_seconds <= 0) return seconds;
  const double plan_left = budget.whole_plan_seconds - seconds_since(budget.log.begin);
  return std::max(0.0, std::min(seconds, std::max(least, plan_left)));
}

Deadline grant_traded(Budget& budget, BudgetPhase phase, const Deadline& from, double seconds, double least) {
  if (budget.whole_plan_seconds <= 0) return grant_phase(budget, phase, from, seconds);
  const double plan_left = budget.whole_plan_seconds - seconds_since(budget.log.begin);
  const double granted_seconds = traded_seconds(budget, seconds, least);
  Deadline granted = from.within(granted_seconds);
  BudgetLimit by = granted_seconds >= seconds ? BudgetLimit::PhaseSeconds
                                              : plan_left >= least ? BudgetLimit::Plan : BudgetLimit::TradedLeast;
  if (granted.at == from.at) by = from.unlimited() ? BudgetLimit::None : BudgetLimit::TimeLimit;
  log_grant(budget, phase, granted, by);
  return granted;
}

bool grant_answer(Budget& budget, double seconds) {
  if (budget.limit.unlimited()) {
    log_grant(budget, BudgetPhase::Answer, budget.limit, BudgetLimit::None, seconds);
    return true;
  }
  const Deadline::Clock::time_point end = after(budget.limit.at, budget.tuning.answer_grace_seconds);
  Deadline granted = budget.limit;
  granted.at = end;
  log_grant(budget, BudgetPhase::Answer, granted, BudgetLimit::Grace, seconds);
  return seconds <= seconds_between(Deadline::Clock::now(), end);
}

}  // namespace tessel
