// The verifier's encoder: the claim "no repetend of period P ..." written as
// CNF straight from the problem definition (docs/algorithms.md, "The
// repetend as a modulo schedule" and "Certificates"), with none of the
// solver's encodings. The CNF is satisfiable exactly when a repetend of the
// claim's shape exists, so a checked refutation of it proves the claim.
// Plain: a start variable per block and step, a phase per block, occupation
// of the circle, the steady-state memory (by allocation/free pairs where it
// splits so, certify/held_memory), two symmetry rules of its own
// (certify/symmetry, each with the map that keeps a repetend), and clauses
// the definition implies that let a solver reason on phases
// (certify/phase_view), each with its argument in the docs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "certify/clauses.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

// The CNF of `claim` on `placement` under `memory_limit` (one per device,
// static memory included; empty: no limit). Throws MalformedError when the
// claim cannot be stated (k < 1, K < 1, period < 1, memory that does not
// balance over one micro-batch).
Cnf encode_claim(const Placement& placement, const std::vector<long long>& memory_limit, const Claim& claim);

// The literal "block b of the window starts at step t" of encode_claim's CNF
// (0 when t is outside b's range), so a found repetend can be checked
// against the CNF (tests; the agreement of the two encoders).
int start_literal(const Placement& placement, const Claim& claim, int block, long long t);

// DIMACS text ("p cnf V C" and one clause a line).
std::string dimacs_text(const Cnf& cnf);

}  // namespace tessel::certify
