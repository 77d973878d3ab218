// The makespan bounds that are solved rather than computed: the exact ends
// (solver/makespan/bounds/exact_ends: each end of the schedule on a window of all
// devices) and the one-device relaxation (solver/makespan/bounds/device_relaxation:
// one device over the whole horizon, the others relaxed). They see
// different things, so both are asked, each within its own budget, and
// only while a schedule in hand is above the bound: the relaxation first,
// because where it proves that schedule optimal it takes a fraction of a
// second, while the exact ends on a wide gap spend their whole budget
// (docs/algorithms.md, "The makespan at N").
#pragma once

#include "model/placement.hpp"
#include "model/schedule.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Whether either is switched on (options.ends_seconds,
// options.relaxation_seconds).
bool solved_bounds_on(const SearchOptions& options);

// How the two are asked: each within at most `left_share` of the time left
// when it starts; `hint`: the schedule of makespan `best`, if in hand
// (device_relaxation.hpp); `ends_ran`: set as raised_by_exact_ends' `ran`.
struct SolvedBoundsAsk {
  double left_share = 0.5;
  const Schedule* hint = nullptr;
  bool* ends_ran = nullptr;
};

// `bound` raised by both for `best`, each within its seconds.
MakespanBound raised_by_solved_bounds(const Placement& placement, long long total_micros, const SearchOptions& options,
                                      long long best, const MakespanBound& bound, const SolvedBoundsAsk& ask = {});

// Whether `bound` is the answer of one of them.
bool solved_bound(const MakespanBound& bound);

}  // namespace tessel
