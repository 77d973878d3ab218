// Refuting one CNF with a DRAT proof (certify/prove): a fresh CaDiCaL
// solve, no assumptions, proof in text so that a reviewer can read it.
#pragma once

#include <atomic>
#include <string>

#include "certify/clauses.hpp"
#include "certify/problem.hpp"

namespace tessel::certify {

// How long a claim's solves may run: `seconds` (0: no limit), and a stop
// flag (the command's interrupt: Ctrl-C, SIGTERM) that ends them at once, so
// that a certificate being written never outlives the user's interrupt.
struct SolveLimit {
  SolveLimit(double limit_seconds = 0, const std::atomic<bool>* stop_flag = nullptr)
      : seconds(limit_seconds), stop(stop_flag) {}
  double seconds;
  const std::atomic<bool>* stop;
  bool stopped() const { return stop != nullptr && stop->load(); }
};

// 20 unsatisfiable (proof written to proof_path), 10 satisfiable, 0
// undecided within the limit. MalformedError when the proof cannot be
// written.
int refute(const Cnf& cnf, const std::string& proof_path, const SolveLimit& limit);

// Writes `text` to `path`; MalformedError when it cannot.
void write_text(const std::string& path, const std::string& text);

// "CaDiCaL <version>", as manifests name the solver.
std::string solver_name();

}  // namespace tessel::certify
