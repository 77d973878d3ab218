// Large-neighbourhood search on a schedule of N micro-batches
// (docs/algorithms.md, "The makespan at N"): the whole-problem full search
// grows with N x the makespan and is out of reach at 16 devices x 128
// micro-batches, yet the losses of a good schedule sit in a few places (the
// warmup, the cooldown, a stall in the middle). So we free only the
// instances that start inside a window of time, keep every other instance
// where it is (a constant that occupies its devices and holds its memory),
// and let the solver re-place the free ones to end the window as early as
// possible (for the tail window that is the makespan). After every gain the
// schedule is compacted: each instance starts as early as its dependencies
// and its devices' previous instances allow, in the same order per device,
// which cannot raise any memory peak (a device's memory levels depend only
// on the order of its instances) and lets the time won in the window reach
// the end. Windows start at the tail and the head, then slide over the
// rest, until a pass gains nothing or the budget ends.
#pragma once

#include <optional>

#include "model/schedule.hpp"
#include "solver/search.hpp"

namespace tessel {

struct NeighbourhoodStats {
  int windows = 0;       // windows solved (sat, unsat or out of time)
  int improvements = 0;  // windows that shortened the schedule
};

// A schedule no longer than `start` (a valid schedule of the placement's N
// micro-batches, no fused units), valid (checked with schedule_fits), by
// options.deadline; uses options.backend and options.memory_limit. Stops
// early when the makespan reaches `bound`.
Schedule improve_by_neighbourhoods(const Schedule& start, const SearchOptions& options, Time bound,
                                   NeighbourhoodStats* stats = nullptr);

// Every instance as early as dependencies and the order on its devices
// allow (exposed for the tests; the memory peaks stay the same).
Schedule compacted(const Schedule& schedule);

}  // namespace tessel
