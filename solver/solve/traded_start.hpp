// An answer that trades memory before the period search (docs/algorithms.md,
// "Memory traded for time"). On a placement whose forwards offer
// recomputation or offload, the period search decides windows that keep
// every activation: where memory binds hard it can spend the whole time
// limit refuting periods (GPT-2 medium, v with split backward, 4 ranks at
// 3 GiB: 20 s of a 20 s share, one 3 s refutation after another) and the
// constructions at N that trade memory, which take milliseconds and were
// the shortest there (10.27 ms against 18.08 for the unrolled repetend),
// were never reached. So the memory-trading list schedules are built first,
// within a small grant of their own, and stand as a candidate at N whatever
// the period search does: like the plan's 1F1B yardstick, an answer at any
// time limit.
#pragma once

#include <optional>

#include "solver/types/search_types.hpp"

namespace tessel {

struct Budget;  // solver/solve/budget.hpp: grants the phase its deadline (traded_start)

struct TradedStart {
  std::optional<Schedule> schedule;  // at the request's total micro-batches, its choices listed
  std::string name;                  // "list, memory traded before the period search: zb rule, cap 8, ..."
  std::string note;                  // what it recomputes or offloads
  double seconds = 0;
};

// The shortest memory-trading list schedule of `placement` (the real
// times, static memory off) at `total_micros` under `limits` (static memory
// taken off), within the phase traded_start cut from `from` (the full_list
// knobs: full_list_seconds, at most full_list_share of the time left). No
// schedule when nothing is offered or no run finishes.
TradedStart traded_start(const Placement& placement, const std::vector<Memory>& limits, int total_micros,
                         const Deadline& from, Budget& budget);

// After the search: `restored` (the traded start on the request's whole
// placement and limits) is verified and becomes the answer when the report
// has none at N or a longer one, listed as a candidate; a search that found
// nothing keeping every activation is then Found with memory traded.
void consider_traded_start(const SearchRequest& request, const TradedStart& start, std::optional<Schedule> restored,
                           SearchReport& report, Progress& progress);

}  // namespace tessel
