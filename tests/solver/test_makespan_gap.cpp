// `tessel search` says how far the makespan at --total-micros is from its
// lower bound, and why when that is more than 1%: a period above L (mshape
// under memory 4: 7 > 6, shorter periods proven impossible), or, for the
// full strategy, an optimum proven with the bound not tight.
#include <catch2/catch.hpp>

#include "solver/makespan/bounds/makespan_gap.hpp"
#include "tests/support.hpp"
#include "tools/gap_text.hpp"

using namespace tessel;
using testing::run_tessel;

TEST_CASE("search prints the gap and why it is above 1%", "[makespan][cli]") {
  testing::TempDir dir;
  auto tight = run_tessel("search --case mshape --ndevs 4 --memory 6 -o " + dir.file("tight.json"));
  REQUIRE(tight.exit_code == 0);
  CHECK_THAT(tight.out, Catch::Contains("bound 780 (gap 0, 0%)"));
  CHECK_THAT(tight.out, Catch::Contains("simple bound 768"));
  CHECK_THAT(tight.out, !Catch::Contains("gap above 1%"));
  CHECK(testing::verify_schedule(read_schedule_file(dir.file("tight.json"))).valid);

  // nnshape under memory 4: period 9 > L = 8 with 8 proven impossible, and
  // neither the repetend nor the staged schedule reaches the bound.
  auto loose = run_tessel("search --case nnshape --ndevs 4 --memory 4 --json -o " + dir.file("loose.json"));
  REQUIRE(loose.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(loose.out);
  CHECK(out["period"] == 9);
  CHECK(out["makespan_bound_at_total"] == 1036);
  CHECK(out["makespan_gap_at_total"] == out["makespan_at_total"].get<int>() - 1036);
  CHECK_THAT(out["makespan_gap_reason"].get<std::string>(), Catch::Contains("the period is 9 > L = 8"));
  CHECK_THAT(out["makespan_gap_reason"].get<std::string>(), Catch::Contains("proven impossible"));
  CHECK(testing::verify_schedule(read_schedule_file(dir.file("loose.json"))).valid);
}

TEST_CASE("explain_gap: silent within 1%, names the cause above it", "[makespan]") {
  SearchResult full;
  full.status = SearchStatus::Found;
  full.makespan = 30;
  full.proven_lower_bound = 30;
  GapFacts facts;
  facts.full = true;
  facts.result = &full;
  facts.total_micros = 3;
  facts.makespan = 30;
  facts.bound.value = 30;
  CHECK(explain_gap(facts).cause == GapCause::None);
  CHECK(gap_text(explain_gap(facts), 0).empty());
  facts.bound.value = 25;
  CHECK(explain_gap(facts).cause == GapCause::ProvenOptimal);
  CHECK_THAT(gap_text(explain_gap(facts), 0), Catch::Contains("proven optimal for 3 micro-batches"));
  full.proven_lower_bound = 27;
  CHECK(explain_gap(facts).cause == GapCause::FullStopped);
  CHECK(explain_gap(facts).proven_lower_bound == 27);
  CHECK_THAT(gap_text(explain_gap(facts), 0), Catch::Contains("stopped before proving"));

  // A repetend at period L whose boundary was not shortened.
  SearchResult repetend;
  repetend.status = SearchStatus::Found;
  repetend.period = 6;
  repetend.lower_bound = 6;
  repetend.proven_lower_bound = 6;
  facts.full = false;
  facts.result = &repetend;
  facts.total_micros = 128;
  facts.bound.value = 780;
  facts.makespan = 800;
  facts.boundary_seconds = 0;
  CHECK(explain_gap(facts).cause == GapCause::Boundary);
  CHECK(explain_gap(facts).boundary == BoundaryCause::NotShortened);
  CHECK_THAT(gap_text(explain_gap(facts), 0), Catch::Contains("--tune boundary_seconds=0"));
  facts.boundary_seconds = 20;
  CHECK(explain_gap(facts).boundary == BoundaryCause::OutOfBudget);
  CHECK_THAT(gap_text(explain_gap(facts), 0), Catch::Contains("ran out of its budget (--tune boundary_seconds=20)"));
  repetend.boundary.proven_minimal = true;
  CHECK(explain_gap(facts).boundary == BoundaryCause::ProvenMinimal);

  // A period above L, proven minimal: the period's share is the numbers'.
  repetend.period = 7;
  repetend.proven_lower_bound = 7;
  facts.bound.value = 6 * 128 + 12;
  facts.makespan = 7 * 128 + 12;
  const MakespanGap period = explain_gap(facts);
  CHECK(period.cause == GapCause::Period);
  CHECK(period.period_excess == 128);
  CHECK(period.boundary == BoundaryCause::None);
  CHECK_THAT(gap_text(period, 0), Catch::Contains("the period is 7 > L = 6, which alone adds 128 steps"));
  CHECK_THAT(gap_text(period, 0), Catch::Contains("every shorter period is proven impossible"));
  CHECK(relative_gap(800, 780) == Approx(20.0 / 780));
}
