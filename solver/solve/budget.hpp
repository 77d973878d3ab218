// One budget per search: built once in solve() from the time limit and the
// knobs (solver/knobs/tuning.hpp), it grants each named phase of the search its
// deadline by one rule and keeps a log of what it granted (the report's
// `budget`, shown by `tessel search --json`).
//
// The rule: a phase ends at the earliest of
//   - the time limit, less the seconds reserved for the work that must
//     follow it (the answer's verification, sized by its instances: the
//     developer knob verify_seconds_per_instance), never below a tenth of
//     the limit;
//   - its own end by the knobs: the makespan phases end plan_seconds after
//     the search began, at least least_plan_seconds after they start (off
//     when a phase budget was set by hand and plan_seconds was not);
// and the answer at N (built, verified, written after the limit) is done
// only when its estimated cost fits answer_grace_seconds past the limit.
// A phase with a budget of its own inside one of those (strategy full's
// start, the recompute-all search after the answer) ends at the earliest of
// the deadline it is cut from, its knob's seconds, and its knob's share of
// what that deadline has left (grant_phase). A phase inside the makespan
// portfolio cuts its own share from the deadline granted here
// (solver/makespan/).
#pragma once

#include <optional>
#include <vector>

#include "sat/deadline.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/types/budget_log.hpp"
#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget {
  Deadline limit;  // the user's time limit and interrupt flag
  Tuning tuning;
  double answer_reserve = 0;  // seconds kept after the strategy for verifying its answer
  Deadline strategy;          // what grant_strategy granted; the makespan phases end by it too
  // The request's plan_seconds when the plan is on, else 0: the phases
  // trading memory after the makespan phases end by it (grant_traded),
  // while `tuning` holds the plan those makespan phases were cut to.
  double whole_plan_seconds = 0;
  BudgetLog log;               // begins when the search began; the portfolio writes to it too
};

// The budget of one search; `answer_instances` estimates the instances of
// the answer the strategy will return (the reserve is sized by them).
Budget make_budget(const Deadline& limit, Deadline::Clock::time_point begin, const Tuning& tuning,
                   double answer_instances);

// The deadline of the period (or full) search, logged.
Deadline grant_strategy(Budget& budget);

// The deadline of the makespan phases at N, which start now, logged.
Deadline grant_makespan(Budget& budget);

// Whether the answer at N, estimated at `seconds` from now, fits the grace
// past the limit; logged with the estimate.
bool grant_answer(Budget& budget, double seconds);

// The deadline of `phase`, starting now inside `from`: `seconds`, at most
// `share` of what `from` has left (share 0: no such cap); logged.
Deadline grant_phase(Budget& budget, BudgetPhase phase, const Deadline& from, double seconds, double share = 0);

// The deadline of a phase trading memory after the makespan phases (the
// choice inside the repetend, the recompute-all search, the traded answer's
// shifts), starting now inside `from`: `seconds`, under the plan at most
// what is left of the whole plan, but never less than `least` (0: nothing
// when the plan is spent); logged. The default search on 16 devices ends
// within its plan so (nnshape 16/16 offering recomputation: 5.4 s when the
// recompute-all search had a second past whatever the plan left).
Deadline grant_traded(Budget& budget, BudgetPhase phase, const Deadline& from, double seconds, double least);

// The seconds grant_traded would grant now, without granting them (a phase
// that skips what is too short to use asks first).
double traded_seconds(const Budget& budget, double seconds, double least);

// Whether the plan is on: plan_seconds > 0 and no phase budget set by hand
// unless plan_seconds was set too.
bool planned(const Tuning& tuning);

}  // namespace tessel
