// The budget's log and the improvement phases' grant (budget_log.hpp).
#include "solver/types/budget_log.hpp"

#include <chrono>

namespace tessel {

size_t log_grant(BudgetLog& log, BudgetPhase phase, const Deadline& granted, BudgetLimit limited_by,
                 double estimate) {
  BudgetGrant grant;
  grant.phase = phase;
  grant.from = seconds_since(log.begin);
  if (!granted.unlimited()) grant.until = std::chrono::duration<double>(granted.at - log.begin).count();
  grant.limited_by = limited_by;
  grant.estimate = estimate;
  log.granted.push_back(grant);
  return log.granted.size() - 1;
}

Deadline grant_improvement(BudgetLog* log, BudgetPhase phase, const Deadline& from, double seconds, double share,
                           const Stall* stall, size_t* entry) {
  const bool shared = !from.unlimited() && share * from.seconds_left() > seconds;
  Deadline granted = from.within_budget(seconds, share);
  granted.stall = stall;
  if (!log) return granted;
  BudgetLimit by = shared ? BudgetLimit::ShareOfLeft : BudgetLimit::PhaseSeconds;
  if (granted.at == from.at) by = from.unlimited() ? BudgetLimit::None : BudgetLimit::TimeLimit;
  const size_t index = log_grant(*log, phase, granted, by);
  if (entry) *entry = index;
  return granted;
}

void log_return(BudgetLog& log, size_t entry, const Deadline& granted) {
  if (entry >= log.granted.size()) return;
  BudgetGrant& grant = log.granted[entry];
  grant.ended = seconds_since(log.begin);
  grant.stalled = granted.stalled();
  grant.gave_up = granted.gave_up();
}

}  // namespace tessel
