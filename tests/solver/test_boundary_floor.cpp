// The boundary shortening stops as soon as the K micro-batches take their
// lower bound (before: the unsat answer below it used the whole 20 s budget
// on mshape at 8 devices), and an exhausted budget means stop, never "no
// limit" (before: a build slower than the budget let the solver run on).
#include <catch2/catch.hpp>

#include <chrono>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/strategies/boundary_solver.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

TEST_CASE("boundary: at the makespan bound the shortening stops, proven minimal", "[boundary]") {
  Placement placement = make_case("mshape", 8, false);
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit.assign(8, 16);
  options.boundary_seconds = 20;
  auto begin = std::chrono::steady_clock::now();
  SearchResult result = search_repetend(placement, options);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  REQUIRE(result.status == SearchStatus::Found);
  CHECK(result.boundary.proven_minimal);
  CHECK(seconds < 10);
  for (int nmicros : {result.schedule->nmicros, 64, 128}) {
    verify::Report report = testing::verify_schedule(unroll(*result.schedule, nmicros));
    REQUIRE(report.valid);
    CHECK(report.makespan == makespan_lower_bound(placement, nmicros));
  }
}

TEST_CASE("boundary: an expired budget returns the schedule in hand at once", "[boundary]") {
  Placement placement = make_case("nnshape", 8, false);
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit.assign(8, 16);
  options.boundary_seconds = 0;  // the search's own shortening off
  SearchResult result = search_repetend(placement, options);
  REQUIRE(result.status == SearchStatus::Found);
  // The window schedule of K micro-batches, as the search hands it over.
  Schedule window = *result.schedule;
  auto begin = std::chrono::steady_clock::now();
  BoundaryOutcome outcome = shorten_boundary(window, "cadical", Deadline{Deadline::Clock::now()}, nullptr);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  CHECK(seconds < 5);
  CHECK_FALSE(outcome.complete);
  CHECK(testing::verify_schedule(outcome.shorter ? *outcome.shorter : window).valid);
}
