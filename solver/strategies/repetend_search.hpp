// Strategy `repetend` (docs/algorithms.md, "The repetend as a modulo schedule"): the minimal period
// searched upward from L, each unsatisfiable period a proof; then the minimal
// latency at that period; then warmup and cooldown.
#pragma once

#include "model/placement.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Throws InputError when a device's memory does not return to zero over one
// micro-batch (no steady state exists). `options.in_flight` (K), when given, fixes
// the most micro-batches in flight; otherwise memory and the period decide.
SearchResult search_repetend(const Placement& placement, const SearchOptions& options);

}  // namespace tessel
