// Windows of several micro-batches (issue 8, item 1): a repetend that runs
// every block k times per period is the k = 1 repetend of a wider placement,
// k independent copies of the real one. Searching that "window placement"
// with the ordinary modulo encoding finds the best window of k micro-batches;
// decoding maps copy c of super micro-batch g back to micro-batch k g + c.
#pragma once

#include "model/placement.hpp"
#include "model/schedule.hpp"

namespace tessel {

// k copies of every block; copy c of block b is block c * n + b (n blocks),
// named "<id>@<c>", with the edges inside each copy only (and an offer's
// `before` block the one of its own copy). k = 1 returns the placement
// unchanged.
Placement window_placement(const Placement& placement, int k);

// The schedule of the window placement (one copy of each window block per
// super micro-batch, repetend of one super micro-batch per period) read as a
// schedule of the real placement: instance (c n + b, g) becomes (b, k g + c),
// the repetend advances k micro-batches per period. Taken by value: the
// window's schedule is the caller's to give up (k = 1 keeps its instances).
Schedule schedule_from_window(Schedule window_schedule, const Placement& placement, int k);

}  // namespace tessel
