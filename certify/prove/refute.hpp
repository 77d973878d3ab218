// Refuting one CNF with a DRAT proof (certify/prove): a fresh CaDiCaL
// solve, no assumptions, proof in text so that a reviewer can read it.
#pragma once

#include <string>

#include "certify/clauses.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

// 20 unsatisfiable (proof written to proof_path), 10 satisfiable, 0
// undecided within `seconds` (0: no limit). MalformedError when the proof
// cannot be written.
int refute(const Cnf& cnf, const std::string& proof_path, double seconds);

// Writes `text` to `path`; MalformedError when it cannot.
void write_text(const std::string& path, const std::string& text);

// "CaDiCaL <version>", as manifests name the solver.
std::string solver_name();

}  // namespace tessel::certify
