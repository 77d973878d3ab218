// The verifier counts in the written document's decimals, which drop the
// placement's trailing zeros; the search compares its numbers with its own
// ticks (solver/solve/verdict_ticks.hpp). A placement kept at one decimal
// more than its spans need once had every memory-trading answer read ten
// times shorter than it was: taken over shorter ones, and reported so.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/search.hpp"
#include "solver/solve/verdict_ticks.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// The same placement in tenths: every time ten ticks, one decimal.
Placement in_tenths(Placement placement) {
  for (Block& block : placement.blocks) {
    block.span *= 10;
    if (block.recompute) block.recompute->span *= 10;
  }
  for (Edge& edge : placement.edges) edge.delay *= 10;
  placement.time_decimals += 1;
  return placement;
}

}  // namespace

TEST_CASE("verdict ticks: the verifier's numbers in the placement's decimals", "[verify][recompute]") {
  Placement placement;
  placement.time_decimals = 2;
  placement.memory_decimals = 1;
  verify::Report report;
  report.time_decimals = 0;
  report.makespan = 7;
  report.memory_decimals = 1;
  report.peak_memory = {15, 3};
  CHECK(makespan_in_placement_ticks(report, placement) == 700);
  CHECK(peak_in_placement_ticks(report, placement) == std::vector<Memory>{15, 3});
  report.time_decimals = 2;
  CHECK(makespan_in_placement_ticks(report, placement) == 7);
}

TEST_CASE("a search whose placement keeps a decimal its spans do not need reports its answer's own makespan",
          "[budget][recompute]") {
  // nnshape on 4 devices at memory 4, every forward offering recomputation: the traded phases run and their
  // answer is the one taken (tests/solver/test_budget.cpp).
  SearchRequest request;
  request.placement = in_tenths(testing::offering_recompute(make_case("nnshape", 4, false)));
  request.memory_limit.assign(4, 4);
  request.total_micros = 32;
  request.threads = 1;
  request.tuning.plan_seconds = 1;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.best);
  REQUIRE(report.makespan);
  INFO(report.makespan->construction);
  // A periodic answer is written as its repetend: unrolled, it is the answer at N.
  const Schedule at_n =
      report.best->nmicros == request.total_micros ? *report.best : unroll(*report.best, request.total_micros);
  CHECK(report.makespan->makespan == makespan(at_n));
  CHECK(report.makespan->proven_lower_bound <= report.makespan->makespan);
  const verify::Report checked = testing::verify_schedule(at_n);
  REQUIRE(checked.valid);
  CHECK(peak_in_placement_ticks(checked, at_n.placement) == report.makespan->peak_memory);
  for (const Candidate& candidate : report.makespan->candidates)
    if (candidate.makespan) CHECK(*candidate.makespan >= report.makespan->makespan);
}
