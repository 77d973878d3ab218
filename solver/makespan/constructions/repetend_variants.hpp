// Several repetends of the optimal period (docs/algorithms.md, "The makespan
// at N"): the period search stops at the first window it finds, and warmup
// and cooldown are then shortened around that one window. Other windows of
// the same period (and no longer latency) keep the steady state as good but
// can start and drain differently, so their makespans at N differ by a few
// steps. We ask the modulo encoding at the found period (latency at most one
// period above the found one) for more windows, each forbidden to repeat a
// previous one's phases, build and shorten warmup and cooldown for each within a shared
// budget, and keep the one shortest at N.
#pragma once

#include <optional>

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct VariantRequest {
  const Placement* placement = nullptr;  // the solver's view (static memory taken off)
  const SearchResult* period = nullptr;  // the period search's answer (its window is variant #0)
  SearchOptions options;                 // limits, backend, deadline
  int total_micros = 128;
  // Further windows asked for (0: none) and the seconds shared by the solver
  // calls and every boundary shortening: the knobs repetend_variants and
  // variant_seconds.
  int variants = static_cast<int>(kDefaultTuning.repetend_variants);
  double seconds = kDefaultTuning.variant_seconds;
};

struct VariantOutcome {
  Schedule schedule;  // unrollable (repetend marked), in the real placement
  Schedule at_total;  // the same unrolled to total_micros
  int index = 0;      // which variant (1 = the first new window)
  int built = 0;      // windows built and measured
};

// The shortest-at-N variant other than the search's own window, or nullopt
// when none was found in time (or the period was decided on cyclic orders,
// which this does not re-encode).
std::optional<VariantOutcome> best_repetend_variant(const VariantRequest& request);

}  // namespace tessel
