// Reading DIMACS CNF and DRAT proofs (text, and the binary form CaDiCaL and
// drat-trim share) for the checker. Malformed text throws MalformedError
// naming the file and line.
#pragma once

#include <string>
#include <vector>

#include "certify/encoder.hpp"

namespace tessel::certify {

// One proof line: a lemma added, or a clause deleted.
struct ProofStep {
  bool deletion = false;
  std::vector<int> literals;  // as written: the first is the RAT pivot
};

Cnf parse_dimacs(const std::string& text, const std::string& where);
std::vector<ProofStep> parse_drat(const std::string& bytes, const std::string& where);

}  // namespace tessel::certify
