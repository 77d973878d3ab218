// The staged schedule (solver/makespan/constructions/staged_schedule): memory-free all-device
// blocks batched at both ends, the rest's repetend between. Where tight
// memory pushes the repetend's period above L (mshape, memory = devices) it
// reaches the idle-aware lower bound; every one passes the verifier.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/staged_schedule.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

std::optional<StagedSchedule> staged(const std::string& name, int ndevs, long long memory, int nmicros) {
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit.assign(ndevs, memory);
  options.boundary_seconds = 2;
  options.deadline = Deadline::after_seconds(20);
  return staged_schedule(make_case(name, ndevs, false), options, nmicros);
}

}  // namespace

TEST_CASE("staged: mshape under memory D reaches the lower bound the repetend misses", "[makespan][staged]") {
  for (int ndevs : {4, 8}) {
    INFO(ndevs << " devices");
    auto result = staged("mshape", ndevs, ndevs, 128);
    REQUIRE(result);
    verify::Report report = testing::verify_schedule(result->schedule);
    REQUIRE(report.valid);
    CHECK(report.makespan == makespan_lower_bound(make_case("mshape", ndevs, false), 128));
    CHECK(result->middle_period == 4);  // the V left in the middle runs at its L
    CHECK(result->prefix_blocks == 1);
    CHECK(result->suffix_blocks == 1);
    CHECK_FALSE(result->schedule.repetend);  // built for N only
  }
  // Other counts too, including one the middle's repetend just reaches.
  for (int nmicros : {5, 17}) {
    auto result = staged("mshape", 4, 4, nmicros);
    REQUIRE(result);
    CHECK(testing::verify_schedule(result->schedule).valid);
    CHECK(makespan(result->schedule) == 6 * nmicros + 12);
  }
}

TEST_CASE("staged: nothing to batch, or too few micro-batches", "[makespan][staged]") {
  CHECK_FALSE(staged("vshape", 4, 4, 128));  // no all-device block
  CHECK_FALSE(staged("mshape", 4, 4, 1));    // below the middle's K
  auto nnshape = staged("nnshape", 4, 4, 64);
  REQUIRE(nnshape);                          // fs1/bs1 batched, fs2/bs2 stay in the middle
  CHECK(testing::verify_schedule(nnshape->schedule).valid);
}

TEST_CASE("search answers with the staged schedule when it is shorter, and writes it", "[makespan][staged][cli]") {
  testing::TempDir dir;
  auto result = testing::run_tessel("search --case mshape --ndevs 4 --memory 4 -o " + dir.file("staged.json"));
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("at 128 micro-batches: makespan 780 (staged)"));
  CHECK_THAT(result.out, Catch::Contains("repetend  905"));
  verify::Report report = testing::verify_schedule(read_schedule_file(dir.file("staged.json")));
  CHECK(report.valid);
  CHECK(report.makespan == 780);
}

TEST_CASE("staged: its lower bound is below every staged schedule, 0 when nothing batches", "[makespan][staged]") {
  // The makespan search skips the middle's repetend search when this bound
  // is not below its best, so it must never pass a staged schedule.
  struct Row {
    const char* name;
    int ndevs;
    long long memory;
    int nmicros;
  };
  for (const Row& row : {Row{"mshape", 4, 4, 128}, Row{"mshape", 8, 8, 17}, Row{"nnshape", 4, 4, 64},
                         Row{"nnshape", 8, 8, 128}, Row{"mllm", 4, 4, 32}}) {
    INFO(row.name << " " << row.ndevs << " devices, memory " << row.memory << ", N " << row.nmicros);
    const Placement placement = make_case(row.name, row.ndevs, false);
    const std::vector<Memory> limits(row.ndevs, row.memory);
    auto result = staged(row.name, row.ndevs, row.memory, row.nmicros);
    REQUIRE(result);
    REQUIRE(testing::verify_schedule(result->schedule).valid);
    const long long bound = staged_lower_bound(placement, limits, row.nmicros);
    CHECK(bound > 0);
    CHECK(bound <= makespan(result->schedule));
  }
  // Tight where the staged schedule reaches the placement's bound.
  CHECK(staged_lower_bound(make_case("mshape", 4, false), {4, 4, 4, 4}, 128) == 780);
  CHECK(staged_lower_bound(make_case("vshape", 4, false), {4, 4, 4, 4}, 128) == 0);
}
