// Strategy `fast` (docs/algorithms.md, "Fast construction"): a repetend
// constructed without search, for device counts where deciding every period
// with the solver takes too long, and as the upper end and time-out answer
// of the exact search.
//
// Periods P = L, L+1, ... are tried in turn; at each, a few constructions
// each propose phases tau(b) in [0, P) and then give every block, in
// dependency order, the smallest start s(b) = tau(b) (mod P) after its
// predecessors end (the smallest micro-batch offset that makes its
// dependencies hold). A candidate is kept only when modulo_check accepts it
// (dependencies, the circle on every device, memory at every phase). The
// first period with an accepted candidate wins (the shortest latency among
// them, which also means the fewest micro-batches in flight). When nothing is
// accepted below it, one micro-batch at a time is the answer: it is valid
// whenever one micro-batch fits memory.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/deadline.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/modulo/warmup_cooldown.hpp"

namespace tessel {

struct FastRepetend {
  ModuloSolution solution;
  std::string construction;  // which construction gave it (see fast_repetend.cpp)
  int candidates = 0;        // constructions tried, accepted or not
};

// `alone`: the starts of one micro-batch run by itself that fit the memory
// limit (the last resort, one micro-batch at a time). `max_in_flight` (0: no
// bound) rejects candidates with more micro-batches in flight. Requires every
// device's memory balance to be zero. Always answers: at worst the
// one-at-a-time window, which is also the answer when `deadline` passes
// before any construction is accepted. `periods_one_by_one`: the search's
// developer knob fast_periods_one_by_one (fast_repetend.cpp says what it is).
FastRepetend fast_repetend(const Placement& placement, const std::vector<long long>& memory_limit,
                           const std::vector<int>& alone, int max_in_flight = 0,
                           const Deadline& deadline = Deadline::none(),
                           long long periods_one_by_one = kDefaultTuning.fast_periods_one_by_one);

// One micro-batch at a time: period max(latency of `alone`, L), one in flight.
ModuloSolution one_at_a_time(const Placement& placement, const std::vector<int>& alone);

// The exact search's hook (repetend_search.cpp): `fallback` (one micro-batch
// at a time) or, when shorter, the fast construction below its period
// (`fallback` is taken by value: it is returned when nothing beats it).
ModuloSolution fast_or_fallback(const Placement& placement, const std::vector<long long>& memory_limit,
                                int max_in_flight, ModuloSolution fallback,
                                const Deadline& deadline = Deadline::none(),
                                long long periods_one_by_one = kDefaultTuning.fast_periods_one_by_one);

}  // namespace tessel
