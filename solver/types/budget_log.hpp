// The search budget's log and the rule of an improvement phase's grant.
// The log lives here, below the budget (solver/solve/budget.hpp) and the
// makespan portfolio, so that both write to it: solve() grants the strategy,
// the makespan phases and the answer; the portfolio grants each improvement
// phase its deadline inside the makespan grant, by the rule below, and logs
// when it returned. `tessel search --json` prints the log as `budget`.
//
// An improvement phase's rule: it ends at the earliest of
//   - the deadline it is cut from (the makespan grant),
//   - its knob's seconds, or with a time limit its knob's share of what
//     that deadline has left when that is more (lns_share, ...: a user asks
//     for a long improvement so),
//   - (when the phase stalls: all but the shift search) a stretch of
//     improve_stall_seconds without a gain, counted from its
//     start and from each shorter schedule it finds (sat/deadline.hpp,
//     Stall): a phase that stopped finding gives back the rest of its
//     time. With measured costs (spans x1000) the device orders find their
//     last gain early and the neighbourhoods none, yet each spent its
//     whole grant (cases/bench/measured_whole.md);
//   - (with that stall) the phase's own progress rule: the device orders
//     after more steps without a gain than order_stall_steps or than the
//     steps to their last gain, the neighbourhoods after lns_stall_windows
//     windows in a row that moved nothing. Counted in the phase's own work,
//     it ends at the same point on a loaded machine as on an idle one.
#pragma once

#include <cstddef>
#include <vector>

#include "sat/deadline.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct BudgetLog {
  Deadline::Clock::time_point begin = Deadline::Clock::now();
  std::vector<BudgetGrant> granted;  // in the order granted
};

// Appends `granted` (until: seconds since the log began) and returns its index.
size_t log_grant(BudgetLog& log, BudgetPhase phase, const Deadline& granted, BudgetLimit limited_by,
                 double estimate = 0);

// An improvement phase's deadline by the rule above, starting now inside
// `from`, carrying `stall` (may be null: no stall); logged when `log` is
// given, its entry's index in `entry`.
Deadline grant_improvement(BudgetLog* log, BudgetPhase phase, const Deadline& from, double seconds, double share,
                           const Stall* stall, size_t* entry = nullptr);

// The phase granted `granted` at `entry` returned now: its end, whether
// the stall ended it and whether by the phase's progress rule.
void log_return(BudgetLog& log, size_t entry, const Deadline& granted);

}  // namespace tessel
