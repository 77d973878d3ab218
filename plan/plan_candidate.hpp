// One candidate of a plan: a mapping's cut, its placement in the plan's unit,
// and its schedule -- searched, or (the chain) the textbook order. plan.cpp
// runs several and keeps the fastest.
#pragma once

#include <map>
#include <utility>

#include "plan/plan_types.hpp"

namespace tessel {

// What the candidates of one plan share: the request, the clock, the cuts
// made so far (one per mapping and chunk count; the split does not change
// it), the start time and where progress goes.
struct PlanContext {
  const Graph& graph;
  const PlanRequest& request;
  PlanClock clock;
  PlanProgressLine phase;  // may be empty
  Progress search_progress;  // the search's own lines stay inside
  Deadline::Clock::time_point begin = Deadline::Clock::now();
  std::map<std::pair<int, int>, std::pair<Partition, CutKind>> cuts;
};

// "[12.3 s] search: v, split: ..." -- a progress line with the elapsed time.
void plan_line(PlanContext& context, const std::string& text);

// The cut, placement and memory limits of a mapping, without a schedule
// (outcome Infeasible with the reason when static memory alone passes a
// limit). `cut_deadline` bounds the exact partitioner. `recompute_all`:
// the candidate that recomputes every forward (--recompute all, and one
// of each mapping's two under auto) is searched on the placement whose
// recomputes are blocks (PlanResult::forced).
PlanResult placed_plan(PlanContext& context, const PipelineOptions& options, const Deadline& cut_deadline,
                       bool recompute_all);

// The chain's textbook order on `placed` (1F1B, or ZB-H1 when split), judged.
void order_chain(PlanResult& placed, int nmicros);

// The search on `placed` until `deadline`; keeps the better of its answer and
// the schedule already there (a textbook order), re-timed on the exact times.
void search_plan(PlanContext& context, PlanResult& placed, const Deadline& deadline);

}  // namespace tessel
