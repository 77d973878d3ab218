// The period programs (solver/period/chain_period.hpp, solver/period/crossed_chains.hpp)
// against the unit-step modulo encoding on both backends: the same status,
// proven bound, period and least latency, and the program's repetend
// through the verifier.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "model/unroll.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

namespace tessel::testing {

struct Decided {
  SearchResult result;
  bool by_program = false;  // some period was decided by a program
};

inline Decided decide(const Placement& placement, const std::vector<long long>& limits, std::optional<int> nmicros,
                      PeriodMethodChoice method, const std::string& backend) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = limits;
  options.in_flight = nmicros;
  options.micros_per_window = 1;
  options.boundary_seconds = 0;
  options.latency_budget = false;  // the least latency
  options.period_method = method;
  options.deadline = Deadline::after_seconds(120);  // a hang guard
  Decided decided{search_repetend(placement, options), false};
  for (const SolverCall& call : decided.result.calls)
    decided.by_program |= call.what.find(" program)") != std::string::npos;
  return decided;
}

// The repetend unrolled to K and 2K + 3 micro-batches, each verified.
inline void check_repetend(const SearchResult& result) {
  REQUIRE(result.schedule);
  for (int n : {result.in_flight, 2 * result.in_flight + 3}) {
    INFO("unrolled to " << n << " micro-batches");
    const verify::Report report = verify_schedule(unroll(*result.schedule, n));
    CHECK(report.valid);
    for (const verify::Violation& violation : report.violations) UNSCOPED_INFO(violation.message);
  }
}

// The program's answer against the unit-step encoding on both backends.
inline void cross_check(const Placement& placement, const std::vector<long long>& limits,
                        std::optional<int> nmicros = std::nullopt) {
  const Decided program = decide(placement, limits, nmicros, PeriodMethodChoice::Automatic, "cadical");
  for (const std::string backend : {"cadical", "z3"}) {
    INFO("unit steps on " << backend);
    const Decided solver = decide(placement, limits, nmicros, PeriodMethodChoice::UnitStep, backend);
    CHECK_FALSE(solver.by_program);
    // The program answers every period question (none is asked when the
    // memory-rate bound reaches the one-at-a-time period).
    bool asked = false;
    for (const SolverCall& call : solver.result.calls) asked |= call.what.rfind("period ", 0) == 0;
    CHECK(program.by_program == asked);
    REQUIRE(solver.result.status == program.result.status);
    CHECK(solver.result.proven_lower_bound == program.result.proven_lower_bound);
    if (program.result.status != SearchStatus::Found) continue;
    CHECK(solver.result.period == program.result.period);
    CHECK(solver.result.latency == program.result.latency);
  }
  if (program.result.status == SearchStatus::Found) check_repetend(program.result);
}

}  // namespace tessel::testing
