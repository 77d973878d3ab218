// Checking a modulo solution directly (docs/algorithms.md, "The repetend as a modulo schedule") without a
// solver: the same rules the modulo encoding states — dependencies as
// differences of starts, exclusivity on a circle of length P on every device,
// the steady-state memory at every phase under the limit. Constructions that
// bypass the solver (fast_repetend) use it to accept or reject a candidate;
// it is not the judge (the verifier in verify/ is), only a fast filter.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/modulo/warmup_cooldown.hpp"

namespace tessel {

// Throws InputError when some device's memory deltas do not sum to zero over
// one micro-batch: memory would then grow with every period, so no repetend
// of any period exists (both the search and the construction refuse it).
void require_steady_state(const Placement& placement);

// The repetend of period `period` whose blocks start at `starts` (of one
// micro-batch, any origin): moved so that the earliest starts at 0, its
// latency and micro-batches in flight computed. Checks nothing.
ModuloSolution modulo_solution(const Placement& placement, int period, std::vector<int> starts);

// Steady-state memory of every device at every phase of the window:
// -sum_b mem(b) * (q(b) + [tau(b) > phi]) with s(b) = q(b) P + tau(b) (the
// formula of modulo_encoding.cpp). Requires memory balance zero per device.
// One value per phase, so only for small periods (tests, drawings);
// modulo_violation evaluates the same curve at its changes only.
std::vector<std::vector<long long>> modulo_memory(const Placement& placement, const ModuloSolution& solution);

// The first broken rule in words, or nullopt when the solution is a valid
// repetend (dependencies with their communication delays, the circle of
// every device, memory at every phase; the cost grows with the number of
// blocks, not with the time values) under `memory_limit` (empty: no limit) with at most
// `max_in_flight` micro-batches in flight (0: any).
std::optional<std::string> modulo_violation(const Placement& placement, const std::vector<long long>& memory_limit,
                                            const ModuloSolution& solution, int max_in_flight = 0);

// A decoded solver answer re-checked by modulo_violation: a wrong encoding
// stops the search here (std::logic_error naming the broken rule) instead of
// reaching the user.
ModuloSolution checked_solution(const Placement& window, const std::vector<long long>& memory_limit, int period,
                                const std::vector<int>& starts, int max_in_flight);

}  // namespace tessel
