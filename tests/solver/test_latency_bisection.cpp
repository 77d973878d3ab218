// The latency bisection (solver/strategies/latency_bisection.hpp): with a second solver
// beside it (two threads) it ends with the very window one thread ends with,
// whichever of the two settles the least latency first; the window is a
// repetend by the definition, of the least latency a one-thread bisection
// proves.
#include <catch2/catch.hpp>

#include <memory>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/strategies/latency_bisection.hpp"
#include "tests/solver/race_options.hpp"

using namespace tessel;
using tessel::testing::timing_free;

namespace {

struct Bisected {
  LatencyOutcome outcome;
  std::vector<SolverCall> calls;
};

// A fresh solver at `period`, its first window, then the bisection from it
// (or from `start` when given: a window the bisection cannot improve).
Bisected bisect(const Placement& placement, const SearchOptions& options, int period,
                const std::optional<ModuloSolution>& start = std::nullopt) {
  const int in_flight = static_cast<int>(placement.blocks.size());
  std::unique_ptr<Backend> backend = make_backend(options.backend);
  const ModuloEncoding encoding =
      encode_modulo(*backend, placement, options.memory_limit, {period, period}, in_flight, {}, options.deadline);
  REQUIRE(backend->solve({period_assumption(encoding, period)}, options.deadline) == Answer::Sat);
  const ModuloSolution first = checked_solution(placement, options.memory_limit, period,
                                                decode_starts(*backend, encoding, period), in_flight);
  Bisected bisected;
  bisected.outcome = bisect_latency({&placement, start.value_or(first), in_flight, {}, ""}, options, options.deadline,
                                    options.deadline, *backend, encoding, bisected.calls);
  return bisected;
}

}  // namespace

TEST_CASE("latency bisection: two threads end with one thread's window", "[latency]") {
  // kshape 16/8 climbs to its least latency by refutations, where the second
  // solver's "one below the best" can settle it; nnshape 8/8 descends by
  // Sat answers, where it is moot.
  for (auto [name, ndevs, memory, period] : {std::tuple{"kshape", 16, 8LL, 0}, std::tuple{"nnshape", 8, 8LL, 0}}) {
    const Placement placement = make_case(name, ndevs, false);
    INFO(name << " " << ndevs << " devices, memory " << memory);
    SearchOptions one = timing_free("cadical", placement, memory, 1);
    // The period: the first one a fresh solver finds a window for.
    int found = period_lower_bound(placement);
    for (;; ++found) {
      std::unique_ptr<Backend> backend = make_backend("cadical");
      const ModuloEncoding encoding = encode_modulo(*backend, placement, one.memory_limit, {found, found},
                                                    static_cast<int>(placement.blocks.size()), {}, one.deadline);
      if (backend->solve({period_assumption(encoding, found)}, one.deadline) == Answer::Sat) break;
    }
    const Bisected alone = bisect(placement, one, found);
    REQUIRE_FALSE(alone.outcome.gave_up);
    REQUIRE_FALSE(alone.outcome.unfinished);
    CHECK_FALSE(modulo_violation(placement, one.memory_limit, alone.outcome.solution,
                                 static_cast<int>(placement.blocks.size())));
    SearchOptions two = timing_free("cadical", placement, memory, 2);
    for (int run = 0; run < 3; ++run) {  // the two solvers' timing differs from run to run
      const Bisected paired = bisect(placement, two, found);
      CHECK_FALSE(paired.outcome.gave_up);
      CHECK(paired.outcome.solution.latency == alone.outcome.solution.latency);
      CHECK(paired.outcome.solution.starts == alone.outcome.solution.starts);
    }
    // From a window already of least latency: nothing improves it, on one
    // thread or two, and the answer is that window.
    for (const SearchOptions& options : {one, two}) {
      const Bisected settled = bisect(placement, options, found, alone.outcome.solution);
      CHECK(settled.outcome.solution.latency == alone.outcome.solution.latency);
      CHECK(settled.outcome.solution.starts == alone.outcome.solution.starts);
    }
  }
}
