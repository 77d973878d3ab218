// Strategy `fast` end to end (docs/algorithms.md, "Fast construction"): the constructed
// repetend (fast_repetend.hpp), its window shortened by the solver where that
// is quick (fast_shorten.hpp), then warmup and cooldown as the repetend
// search builds them — the truncated modulo schedule, the squeeze, and the
// solver's shortening of both ends only while their bubbles exceed a budget.
// It proves nothing: the only bound it reports is L.
#pragma once

#include "model/placement.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Throws InputError when a device's memory does not return to zero over one
// micro-batch. `options.in_flight` (K) bounds the micro-batches in flight;
// `options.boundary_seconds` bounds the solver's shortening of the ends,
// which runs only when the warmup and cooldown exceed the simple makespan
// bound of K micro-batches by more than `bubble_budget` of
// `reference_micros * period` steps, and only for schedules of at most a
// thousand instances (its encoding cannot be interrupted while it is built).
// `improve_seconds` (0: skip) bounds the solver's shortening of the window
// below the constructed period (fast_shorten.hpp), on placements of at most
// 40 blocks. The default budget, 0.2%, is a couple of steps at 128
// micro-batches: at 2% the ends stayed 1-13 steps above the bound on the
// 4-device cases of the paper's experiment (c), where the shortening reaches
// the bound in hundredths of a second.
SearchResult search_fast(const Placement& placement, const SearchOptions& options, int reference_micros = 128,
                         double bubble_budget = 0.002, double improve_seconds = 1);

}  // namespace tessel
