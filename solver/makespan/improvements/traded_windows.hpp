// Large-neighbourhood search on a schedule that trades memory for time
// (docs/algorithms.md, "Memory traded for time"): the neighbourhoods
// (neighbourhood.hpp) re-place a window of instances with the rest fixed,
// but they move instances only, so a schedule with recompute runs and
// copies is out of their reach. Here a window is a choice of domains for
// the shift search's step (shift_search.hpp, shorten_within): the
// instances inside it free within the window, their forwards' recompute or
// offload chosen again (keeping allowed); every other instance, recompute
// run and copy held where it is, or, for everything after a window that
// ends before the schedule does, held one step earlier. The question is
// then the shift search's "one step shorter": at the tail it is the
// makespan itself; for a window in the middle or at the head it asks
// whether the window can be re-solved one step shorter so that all after
// it runs one step sooner (the traded schedule cannot be compacted
// afterwards: compaction moves instances only).
//
// A round: the last micro-batches (whole chains), the tail (a slice of
// time), the head, then slices sliding from the tail towards the head by
// half a window, each window with a quarter of the time left. A round without a gain doubles the windows' size (a
// window past the encoding budget or its time shrinks it), until the
// windows hold every instance; a time limit ends it sooner.
//
// It never proves anything: what is held is not searched.
#pragma once

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct TradedWindowStats {
  int windows = 0;       // windows asked (each one encoding)
  int improvements = 0;  // windows that shortened the makespan
  int too_large = 0;     // windows past the encoding budget, not built
  int timeouts = 0;      // windows whose time ran out
  int rounds = 0;
};

// A schedule no longer than `start` (valid, N micro-batches, no fused
// units; recomputes and copies allowed), valid, by options.deadline; uses
// options.backend, options.memory_limit and the lns_* knobs of
// options.tuning (window size and seconds). Stops early at `bound`.
Schedule improve_traded_by_windows(const Schedule& start, const SearchOptions& options, Time bound,
                                   TradedWindowStats* stats = nullptr);

}  // namespace tessel
