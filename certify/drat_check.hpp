// A DRAT proof checker of tessel's own, sharing nothing with the solver that
// wrote the proof (docs/algorithms.md, "Certificates"). It checks backward,
// as drat-trim does: a forward pass adds the lemmas with unit propagation
// until the formula is refuted, then, from the refutation back, only the
// lemmas it used ("core") are checked, each by reverse unit propagation
// (RUP) that propagates core clauses to a fixpoint before it looks at any
// other clause, or failing that as a resolution asymmetric tautology (RAT)
// on its first literal. Unit propagation watches two literals per clause;
// a deleted clause is only flagged and leaves its watch lists lazily, and
// deletions are matched to clauses by a hash of their literals in the
// forward pass only, so the backward pass works with clause numbers alone.
// Deleting a reason of a unit is ignored (that only keeps more derived
// clauses, so nothing unsound passes).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "certify/dimacs.hpp"

namespace tessel::certify {

struct DratResult {
  bool valid = false;
  std::string reason;        // why not, naming the proof step (1-based)
  size_t lemmas = 0;         // lemmas in the proof
  size_t checked = 0;        // core lemmas checked
  size_t rat = 0;            // of them, by RAT
  size_t ignored_deletions = 0;  // deletions of a reason, or of a clause not present
};

DratResult check_drat(const Cnf& cnf, const std::vector<ProofStep>& proof);

}  // namespace tessel::certify
