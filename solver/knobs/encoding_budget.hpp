// How large an encoding the solver-based searches may build. The memory
// limit of `full` and of the boundary shortening is one pseudo-Boolean bound
// per device and step over every allocation on that device, so its size is
// steps x allocations; measured with CaDiCaL on mshape, 4 devices: 83k such
// terms (24 micro-batches) took 0.7 GB, 147k (32) 1.1 GB, 590k (64) more
// than 2 GB before the first solver call. Past this budget the encoding is
// refused up front instead of exhausting memory or ignoring --time-limit
// while it is being built. Not knobs (solver/knobs/tuning.hpp): size guards that
// keep memory and the time limit, not a trade of time between phases.
#pragma once

#include <algorithm>

#include "sat/deadline.hpp"

namespace tessel {

constexpr long long kMaxMemoryTerms = 150000;

// The same for the order encoding itself (docs/algorithms.md, "Measured
// costs"): every integer start over a horizon of H steps is a chain of H
// literals, so measured times (spans of thousands of ticks) make `full` and
// the boundary shortening pseudo-polynomial whatever the memory. Past this
// many literals in all, they are refused (full: exit 2 with the reason) or
// skipped (the boundary: the schedule in hand stays).
constexpr long long kMaxOrderLiterals = 4000000;

// Whether a time-indexed encoding of `terms` (its own estimate: order
// literals, plus steps squared for a count over a window's steps) can be
// built and asked in what `until` has left, at `terms_per_second` (the
// developer knob encoding_terms_per_second, tuning.hpp). Unlike the caps
// above this is a trade of time: it makes a solved bound's effort follow
// the problem rather than the spans' scale (spans x1000 make its windows
// 1000 times longer and its counts a million times larger, for the same
// instances). Always true without a deadline.
inline bool affords_encoding(double terms_per_second, double terms, const Deadline& until) {
  if (until.unlimited()) return true;
  return terms <= terms_per_second * std::max(0.0, until.seconds_left());
}

}  // namespace tessel
