// Certifying "no schedule of N micro-batches has a makespan below B"
// (certify/ends.hpp): the critical path or a device's load when they reach
// B; else a device's ends, whose least idle is found by refuting "idle <=
// I - 1 in the first (last) W steps" for growing I and W, each refutation a
// CNF of certify/ends and a DRAT proof from a fresh CaDiCaL run.
#pragma once

#include <string>
#include <vector>

#include "certify/manifest.hpp"
#include "certify/prove/refute.hpp"

namespace tessel::certify {

// Where the search found the idle (its bound's device and the idle it
// counted at each end): asked first, a guide only (the checker never sees it).
struct MakespanHint {
  int device = -1;
  long long head = 0, tail = 0;
};

// Fills in how `claim` (kind Makespan, k = N, below = B) is certified, the
// files written into `directory` named after `stem`; left not certified
// with the reason when no relaxation reaches B within the limit.
void prove_makespan(const std::string& directory, const std::string& stem, const Placement& placement,
                    const std::vector<long long>& memory_limit, const MakespanHint& hint, const SolveLimit& limit,
                    ManifestClaim& claim);

}  // namespace tessel::certify
