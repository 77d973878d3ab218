// The starts seen as quotient and phase, s = q P + p (docs/algorithms.md,
// "Certificates", "Implied clauses of the verifier"): order literals of the
// phase tied to the start ladders, and clauses implied by the definition
// that reason on phases whatever the quotients. A refutation over the start
// ladders alone must be learned again for every quotient (mshape 8/8's
// period 13 at k = 2: 280 s of CaDiCaL); the solver's encoding states the
// problem in phases and quotient gaps and refutes it in about a second.
// Every clause here is implied by the definition (each new literal defined
// as a function of the starts), so the CNF keeps exactly its solutions'
// starts and is satisfiable exactly when it was without them.
#pragma once

#include <vector>

#include "certify/ladders.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

// le(b, p): s(b) mod P <= p, for p in 0..P-2 (constants outside).
struct PhaseLadders {
  long long period = 0;
  std::vector<int> le_base;
};

inline int le(const PhaseLadders& phases, int b, long long p) {
  if (p < 0) return -kTrue;
  if (p >= phases.period - 1) return kTrue;
  return phases.le_base[b] + static_cast<int>(p);
}

// The phase ladders, tied both ways to the start ladders and to the exact
// phase literals ph(b, p) = ph_base[b] + p.
PhaseLadders encode_phase_ladders(Builder& builder, const StartLadders& starts, const std::vector<int>& ph_base);

// Block b of span `span` occupies point u of the circle when its phase lies
// in u - span + 1 .. u (mod P): occupation forced by two order literals, so
// that a phase known within a range already fills the range's common points.
void encode_phase_occupancy(Builder& builder, const PhaseLadders& phases, int b, long long span, int occ_base);

// Each edge a -> b (gap c = span(a) + delay) as phases: with q(b) - q(a) at
// most g, p(b) >= p(a) + c - g P; the quotient gap as order literals of its
// own.
void encode_phase_edges(Builder& builder, const StartLadders& starts, const PhaseLadders& phases,
                        const Placement& window);

}  // namespace tessel::certify
