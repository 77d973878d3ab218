// A bound stays a bound with recomputation or offload offered
// (docs/algorithms.md, "Memory traded for time"): on small random chains
// whose forwards offer both, the makespan bound the search reports (and the
// makespan portfolio stops at: placement_facts) is at most the optimum the
// full search proves over every choice of keeping, recomputing or
// offloading, on CaDiCaL and Z3 alike; and the memory-aware bound, which
// assumes every activation kept, is above that optimum on some of them (so
// it must not be used there). The shift search, on such a placement,
// chooses recomputes and copies around its centre: it shortens the memory-
// trading list schedule (CaDiCaL; Z3 is too slow there to be held to a
// gain), and what it returns passes the verifier.
#include <random>

#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/portfolio/placement_facts.hpp"
#include "solver/modulo/schedule_check.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/solver/choice_questions.hpp"
#include "tests/solver/traded_chains.hpp"
#include "tests/support.hpp"

using namespace tessel;

TEST_CASE("with offers the reported bound is at most the optimum over every choice, on both backends",
          "[solver][memory-choice][bounds][property]") {
  std::mt19937 random(4911);
  int proven = 0, memory_bound_above = 0;
  for (int round = 0; round < 12; ++round) {
    const testing::TradedChain chain = testing::random_traded_chain(random);
    const int nmicros = 2 + round % 2;
    const std::vector<Memory> limits(chain.placement.ndevs, chain.limit);
    const Time bound = makespan_bound(chain.placement, nmicros).value;
    // What the portfolio stops at: the same bound, not the memory-aware one.
    CHECK(placement_facts(chain.placement, nmicros, limits).bound.value == bound);
    Time optimum = -1;
    for (const std::string backend : {"cadical", "z3"}) {
      INFO("round " << round << ", " << backend << ", limit " << chain.limit << ", N " << nmicros);
      const SearchResult result = testing::full_choosing(chain.placement, nmicros, chain.limit, backend, 60);
      REQUIRE(result.status == SearchStatus::Found);
      REQUIRE(result.schedule);
      const verify::Report checked = testing::verify_schedule(*result.schedule);
      for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
      if (!result.refutes_traded || result.proven_lower_bound != result.makespan) continue;  // not proven in time
      if (optimum >= 0) CHECK(result.makespan == optimum);  // the backends agree
      optimum = result.makespan;
      CHECK(bound <= result.makespan);
      CHECK(static_cast<Time>(nmicros) * period_lower_bound(chain.placement) <= result.makespan);
    }
    if (optimum < 0) continue;
    ++proven;
    if (makespan_bound(chain.placement, nmicros, limits).value > optimum) ++memory_bound_above;
  }
  CHECK(proven >= 8);
  CHECK(memory_bound_above >= 1);  // keeping everything would have bounded wrongly there
}

TEST_CASE("the shift search chooses recomputes and copies around a traded schedule, verified",
          "[solver][memory-choice][shift][offload]") {
  Placement placement = testing::offering_recompute(make_case("vshape", 4, false));
  for (Block& block : placement.blocks)
    if (block.recompute) block.offload = OffloadOffer{1, 1, block.recompute->before};
  const std::vector<Memory> limits(placement.ndevs, 2);
  const std::optional<TradingBest> start = best_trading_schedule(placement, limits, 16);
  REQUIRE(start);
  REQUIRE(schedule_fits(start->schedule));
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    SearchOptions options;
    options.backend = backend;
    options.memory_limit = limits;
    options.deadline = Deadline::after_seconds(backend == "z3" ? 20 : 5);
    const Schedule improved = improve_by_shifts(start->schedule, options, makespan_bound(placement, 16).value);
    // Z3 answers the same questions too slowly to be held to a gain here:
    // what it returns must still be valid and no longer.
    if (backend == "cadical") CHECK(makespan(improved) < makespan(start->schedule));
    CHECK(makespan(improved) <= makespan(start->schedule));
    CHECK(makespan(improved) >= makespan_bound(placement, 16).value);
    CHECK_FALSE((improved.recomputes.empty() && improved.transfers.empty()));  // keeping everything needs 132
    const verify::Report checked = testing::verify_schedule(improved);
    for (const verify::Violation& violation : checked.violations) FAIL(violation.kind + ": " + violation.message);
    CHECK(checked.valid);
  }
}
