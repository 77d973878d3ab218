// Strategy `full` (docs/algorithms.md, "Full search"): all `total_micros` copies of every
// block, the minimal makespan under the memory limit, proven by deciding the
// bound one below it unsatisfiable. The paper's naive baseline.
#pragma once

#include <optional>
#include <string>

#include "model/placement.hpp"
#include "model/schedule.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Fills status, schedule, makespan, lower_bound (the closed makespan bound
// under the memory limits, solver/makespan/closed_bound/makespan_bound), proven_lower_bound (last
// unsatisfiable bound + 1, or the bound the bisection started from: the
// closed one raised by the solved bounds, solver/makespan/bounds/solved_bounds) and the
// solver calls.
// `start_schedule`, a valid schedule of the same micro-batches when given,
// bounds the horizon and is the answer if time runs out. `known_bound`, a
// bound the caller proved at the same N and limits (the makespan search's
// exact ends), replaces the exact ends here.
SearchResult search_full(const Placement& placement, const SearchOptions& options,
                         const std::optional<Schedule>& start_schedule = std::nullopt,
                         const MakespanBound* known_bound = nullptr);

// Why the encoding of `total_micros` micro-batches within `horizon` steps
// would be refused (solver/encoding_budget.hpp: too many order literals or
// memory terms), or nothing when it fits: asked before anything is spent on
// a search that would be refused (the makespan portfolio's last phase).
std::optional<std::string> full_encoding_refusal(const Placement& placement, const SearchOptions& options,
                                                 int total_micros, Time horizon);

}  // namespace tessel
