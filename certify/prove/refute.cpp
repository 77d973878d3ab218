// A fresh, non-incremental CaDiCaL run on one CNF that writes a text DRAT
// proof (certify/prove): the same call for period, latency and makespan claims.
#include "certify/prove/refute.hpp"

#include <cadical.hpp>

#include <chrono>
#include <fstream>

namespace tessel::certify {
namespace {

// Stops CaDiCaL at a wall-clock deadline or an interrupt.
struct Deadline : CaDiCaL::Terminator {
  std::chrono::steady_clock::time_point end;
  bool limited = false;
  SolveLimit limit;
  bool terminate() override { return limit.stopped() || (limited && std::chrono::steady_clock::now() >= end); }
};

}  // namespace

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.flush();
  if (!out) throw MalformedError(path + ": cannot be written");
}

// 20 unsatisfiable (proof written), 10 satisfiable, 0 undecided.
int refute(const Cnf& cnf, const std::string& proof_path, const SolveLimit& limit) {
  CaDiCaL::Solver solver;
  solver.set("quiet", 1);   // stdout carries the report
  solver.set("binary", 0);  // text DRAT: a reviewer can read and edit it
  if (!solver.trace_proof(proof_path.c_str())) throw MalformedError(proof_path + ": cannot be written");
  for (const std::vector<int>& clause : cnf.clauses) {
    for (int literal : clause) solver.add(literal);
    solver.add(0);
  }
  Deadline deadline;
  deadline.limit = limit;
  deadline.limited = limit.seconds > 0;
  deadline.end =
      std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<long long>(limit.seconds * 1e6));
  solver.connect_terminator(&deadline);
  const int answer = solver.solve();
  solver.disconnect_terminator();
  solver.close_proof_trace();
  return answer;
}

std::string solver_name() { return std::string("CaDiCaL ") + CaDiCaL::Solver::version(); }

}  // namespace tessel::certify
