// The writing side of certificates (`tessel search --certify DIR`): each
// claim encoded by the verifier's encoder (certify/encoder), refuted by a
// fresh, non-incremental CaDiCaL run that writes a DRAT proof, and the
// manifest. It links CaDiCaL; the checking side (certify/manifest,
// certify/drat_check) does not.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "certify/manifest.hpp"
#include "certify/prove/makespan.hpp"

namespace tessel::certify {

// One claim to certify; `not_encodable` non-empty: listed, not certified.
struct PlannedClaim {
  ClaimKind kind = ClaimKind::Period;
  Claim claim;
  long long below = 0;
  std::string not_encodable;
  MakespanHint hint;  // Makespan: where the search found the idle
};

// Writes DIR/manifest.json and a CNF and a proof per refutation claim.
// `per_claim` bounds each claim's solves (seconds, 0: none; and the stop
// flag); a claim the solver does not refute in time, finds satisfiable, or
// that an interrupt cut short or left unasked, is listed as not certified
// with the reason. Throws MalformedError when DIR cannot be written.
Manifest write_certificate(const std::string& directory, const nlohmann::json& placement,
                           const std::vector<long long>& memory_limit, const std::vector<PlannedClaim>& claims,
                           const SolveLimit& per_claim, const std::function<void(const std::string&)>& progress);

}  // namespace tessel::certify
