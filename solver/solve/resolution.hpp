// Searching at a coarser time resolution, on request (`search --resolution
// R`, docs/algorithms.md "Measured costs"): every span and delay is rounded
// UP to a multiple of R, the search runs on the rounded placement, and its
// schedule is read back with starts times R. Rounding up keeps the answer
// valid for the real times (a dependency or a device holds with the longer
// spans, so it holds with the real ones; memory changes only at starts), so
// the verifier checks the written schedule against the real placement.
//
// What it costs is printed, never hidden: the period found is the best on
// the rounded times, and the real optimum may be shorter. For any fixed
// order the real period is a cycle ratio sum(c) / sum(h) (max_cycle_ratio.hpp);
// rounding raises a cycle's sum by less than R for each span and each delay
// on it that R does not divide, and for the window's own edge (each counted
// once in a simple cycle), so with E such values in the placement every
// order's rounded ratio is within (E + 1) R of its real one. When the
// rounded search proves every period below B impossible, no real repetend
// has a period at or below R (B - 1) - (E + 1) R: that is the proven bound
// reported for the real times. Makespans keep the real placement's bound.
#pragma once

#include "model/placement.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Spans and delays in units of `resolution` ticks, rounded up (>= 1 for a
// span), the offers' recompute spans and copy times too. Static memory and
// memory stay as they are.
Placement quantise_times(const Placement& placement, Time resolution);

// A period bound proven on the rounded times (every rounded period of a
// window of k micro-batches below `rounded_bound` impossible) as one on
// the real times of `real`, never below k L: R (B - 1) less the rounding's
// slack (above). `offers`: the bound was decided with the offers' runs and
// copies in the window (the choice inside the repetend), whose rounded
// times count in the slack too.
Time real_period_bound(const Placement& real, Time resolution, Time rounded_bound, int k, bool offers);

// The result of searching `quantise_times(real, resolution)` read back on
// the real placement: schedule starts and repetend times multiplied by the
// resolution and the real placement put back; periods, latency and makespan
// in real ticks; L and the proven lower bounds replaced by what holds for
// the real times (see above). `limits`: the real memory limits.
SearchResult lift_quantised_result(SearchResult result, const Placement& real, const std::vector<Memory>& limits,
                                   Time resolution);

// What the rounding may have cost, in words, for the report.
std::string resolution_error_text(const Placement& real, Time resolution, const SearchResult& lifted);

}  // namespace tessel
