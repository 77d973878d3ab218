// Windows of several micro-batches (issue 8, item 1): on a placement where a
// window of k = 2 micro-batches beats every k = 1 repetend (the fixture, found
// with `tessel search --micros-per-window 2`), the window's schedule passes
// the verifier as found and unrolled; automatic k is never worse than k = 1;
// both backends agree on every k; the symmetry rule between copies changes no
// optimum.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cases/builtin_cases.hpp"
#include "model/placement_json.hpp"
#include "model/unroll.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// vshape on 3 devices under memory 2: k = 1 needs period 8 (L = 4), a window
// of two micro-batches needs only 12 (6 per micro-batch).
Placement fixture() {
  return read_placement_file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/windows_vshape3.placement.json");
}

SearchResult search(const Placement& placement, long long memory, int k, const std::string& backend = "cadical",
                    bool symmetry = true) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit.assign(placement.ndevs, memory);
  options.micros_per_window = k;
  options.largest_auto_window = 2;
  options.symmetry = symmetry;
  options.boundary_seconds = 1;
  return search_repetend(placement, options);
}

void check_verified(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  for (const verify::Violation& violation : report.violations) UNSCOPED_INFO(violation.message);
  CHECK(report.valid);
}

}  // namespace

TEST_CASE("windows: the window placement holds k independent copies", "[windows]") {
  Placement placement = fixture();
  Placement window = window_placement(placement, 3);
  CHECK(window.blocks.size() == 3 * placement.blocks.size());
  CHECK(window.edges.size() == 3 * placement.edges.size());
  CHECK(period_lower_bound(window) == 3 * period_lower_bound(placement));
  CHECK(window.blocks[placement.blocks.size()].id == placement.blocks[0].id + "@1");
  for (const Edge& edge : window.edges)
    CHECK(edge.from / placement.blocks.size() == edge.to / placement.blocks.size());
}

TEST_CASE("windows: k = 2 beats k = 1 on the fixture and its schedule verifies at every length", "[windows]") {
  Placement placement = fixture();
  SearchResult one = search(placement, 2, 1);
  REQUIRE(one.status == SearchStatus::Found);
  CHECK(one.period == 8);
  CHECK(one.proven_lower_bound == 8);

  SearchResult two = search(placement, 2, 2);
  REQUIRE(two.status == SearchStatus::Found);
  CHECK(two.micros_per_window == 2);
  CHECK(two.period == 12);
  CHECK(two.proven_lower_bound == 12);  // windows 8 .. 11 proven impossible
  CHECK(two.lower_bound == 2 * period_lower_bound(placement));
  CHECK(two.period < 2 * one.period);

  REQUIRE(two.schedule);
  const Schedule& schedule = *two.schedule;
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->micros_per_period == 2);
  CHECK(schedule.repetend->period == 12);
  CHECK(schedule.nmicros % 2 == 0);
  check_verified(schedule);
  const int smallest = smallest_unroll(schedule);
  for (int n : {smallest, smallest + 2, smallest + 4, 64}) {
    INFO("unrolled to " << n << " micro-batches");
    Schedule unrolled = unroll(schedule, n);
    CHECK(unrolled.nmicros == n);
    check_verified(unrolled);
  }
  // A corrupted window is caught: the verifier is not fooled by the claim.
  Schedule broken = unroll(schedule, 64);
  for (Instance& instance : broken.instances)
    if (instance.micro == 40 && instance.block == 0) instance.start += 1;
  CHECK_FALSE(testing::verify_schedule(broken).valid);
}

TEST_CASE("windows: automatic k is never worse than k = 1 and reports every k", "[windows]") {
  Placement placement = fixture();
  SearchResult automatic = search(placement, 2, 0);
  REQUIRE(automatic.status == SearchStatus::Found);
  REQUIRE(automatic.windows.size() == 2);
  CHECK(automatic.windows[0].k == 1);
  CHECK(automatic.windows[0].period == 8);
  CHECK(automatic.windows[1].k == 2);
  CHECK(automatic.windows[1].period == 12);
  CHECK(automatic.micros_per_window == 2);
  check_verified(*automatic.schedule);

  // Where k = 1 already reaches L, no wider window is tried.
  for (const char* name : {"mshape"}) {
    INFO(name);
    Placement paper = make_case(name, 4, false);
    SearchResult one = search(paper, 6, 1);
    SearchResult best = search(paper, 6, 0);
    REQUIRE(one.status == SearchStatus::Found);
    REQUIRE(best.status == SearchStatus::Found);
    CHECK(best.period * 1.0 / best.micros_per_window <= one.period);
    if (one.period == one.lower_bound) CHECK(best.windows.size() == 1);
    check_verified(*best.schedule);
  }
}

TEST_CASE("windows: z3 and cadical agree on every k", "[windows]") {
  Placement placement = fixture();
  for (int k : {1, 2}) {
    INFO("k = " << k);
    SearchResult z3 = search(placement, 2, k, "z3");
    SearchResult cadical = search(placement, 2, k, "cadical");
    REQUIRE(z3.status == SearchStatus::Found);
    REQUIRE(cadical.status == SearchStatus::Found);
    CHECK(z3.period == cadical.period);
    CHECK(z3.proven_lower_bound == cadical.proven_lower_bound);
    CHECK(z3.latency == cadical.latency);
    check_verified(*z3.schedule);
    check_verified(*cadical.schedule);
  }
}

TEST_CASE("windows: ordering the copies changes no optimum (3 and 4 devices)", "[windows]") {
  struct Probe {
    const char* name;
    int ndevs;
    long long memory;
  };
  for (Probe probe : {Probe{"vshape", 3, 2}, Probe{"vshape", 4, 3}}) {
    INFO(probe.name << " on " << probe.ndevs << " devices, memory " << probe.memory);
    Placement placement = make_case(probe.name, probe.ndevs, false);
    SearchResult with = search(placement, probe.memory, 2, "cadical", true);
    SearchResult without = search(placement, probe.memory, 2, "cadical", false);
    REQUIRE(with.status == SearchStatus::Found);
    REQUIRE(without.status == SearchStatus::Found);
    CHECK(with.period == without.period);
    CHECK(with.proven_lower_bound == without.proven_lower_bound);
    CHECK(with.latency == without.latency);
  }
}

TEST_CASE("windows: tessel search --micros-per-window on the command line", "[windows]") {
  testing::TempDir dir;
  const std::string fixture_file = std::string(TESSEL_SOURCE_DIR) + "/tests/data/windows_vshape3.placement.json";
  auto found = testing::run_tessel("search --placement " + fixture_file +
                                   " --memory 2 --backend cadical --tune boundary_seconds=1 --micros-per-window 2 --json -o " +
                                   dir.file("w.json"));
  REQUIRE(found.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(found.out);
  CHECK(out["period"] == 12);
  CHECK(out["micros_per_period"] == 2);
  CHECK(out["average_period"] == 6.0);
  CHECK(out["proven_lower_bound"] == 12);
  CHECK(out["optimal"] == true);
  REQUIRE(out["windows"].size() == 1);
  CHECK(out["windows"][0]["k"] == 2);
  CHECK(out["verified"] == true);
  CHECK(testing::run_tessel("verify " + dir.file("w.json")).exit_code == 0);
  auto unrolled = testing::run_tessel("unroll " + dir.file("w.json") + " --nmicros 64 -o " + dir.file("u.json"));
  REQUIRE(unrolled.exit_code == 0);
  CHECK(testing::run_tessel("verify " + dir.file("u.json")).exit_code == 0);
  CHECK(testing::run_tessel("show " + dir.file("w.json")).exit_code == 0);

  auto negative = testing::run_tessel("search --placement " + fixture_file + " --memory 2 --micros-per-window -1");
  CHECK(negative.exit_code == 2);
  CHECK_THAT(negative.err, Catch::Contains("--micros-per-window"));
  auto full = testing::run_tessel("search --placement " + fixture_file +
                                  " --memory 2 --strategy full --nmicros 2 --micros-per-window 2");
  CHECK(full.exit_code == 2);
}

TEST_CASE("windows: mshape on 8 devices, memory 8 — k = 2 reaches 14 with 12 and 13 impossible", "[windows]") {
  // The figure: k = 1 needs period 8 (6 and 7 impossible), a window
  // of two micro-batches 14 (7.0 per micro-batch).
  Placement placement = make_case("mshape", 8, false);
  SearchOptions options;
  options.backend = "cadical";
  options.memory_limit.assign(placement.ndevs, 8);
  options.micros_per_window = 0;
  options.largest_auto_window = 2;
  options.wider_window_seconds = 0;  // decide k = 2 fully
  options.boundary_seconds = 0;
  SearchResult automatic = search_repetend(placement, options);
  REQUIRE(automatic.status == SearchStatus::Found);
  REQUIRE(automatic.windows.size() == 2);
  CHECK(automatic.windows[0].period == 8);
  CHECK(automatic.windows[0].proven_lower_bound == 8);
  CHECK(automatic.windows[1].status == WindowStatus::Found);
  CHECK(automatic.windows[1].period == 14);
  CHECK(automatic.windows[1].proven_lower_bound == 14);
  CHECK(automatic.micros_per_window == 2);
  CHECK(automatic.period * 1.0 / automatic.micros_per_window <= automatic.windows[0].period);
  check_verified(*automatic.schedule);
}
