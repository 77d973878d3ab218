// `tessel search` as a user runs it: exit codes, the JSON keys of
// docs/cli.md, the written file (checked by the verifier and unrolled), the
// time limit and the bad-input paths.
#include <catch2/catch.hpp>

#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::run_tessel;

TEST_CASE("search --json: the contract keys, a verified file that unrolls", "[search][cli]") {
  testing::TempDir dir;
  auto result = run_tessel("search --case mshape --ndevs 4 --memory 6 --tune boundary_seconds=2 --json -o " + dir.file("s.json"));
  REQUIRE(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["status"] == "found");
  CHECK(out["strategy"] == "repetend");
  CHECK(out["backend"] == "cadical");  // the default, fastest in `tessel bench`
  CHECK(out["period"] == 6);
  CHECK(out["micros_per_period"] == 1);
  CHECK(out["lower_bound"] == 6);
  CHECK(out["proven_lower_bound"] == 6);
  CHECK(out["optimal"] == true);
  CHECK(out["total_micros"] == 128);
  CHECK(out["peak_memory"].size() == 4);
  for (const auto& peak : out["peak_memory"]) CHECK(peak.get<long long>() <= 6);
  CHECK(out["makespan_at_total"].get<int>() >= out["makespan_bound_at_total"].get<int>());
  // The idle-aware bound (device 3 idles 3 steps before and 9 after); the
  // simple one sees head = tail = 0 because of the all-device blocks.
  CHECK(out["makespan_bound_at_total"] == 780);
  CHECK(out["makespan_simple_bound_at_total"] == 768);
  CHECK(out["makespan_gap_reason"] == "");
  for (const char* key : {"nmicros_in_flight", "warmup_steps", "cooldown_steps", "bubble_ratio_at_total", "solve_seconds"})
    CHECK(out.contains(key));
  CHECK_THAT(result.err, Catch::Contains("period 6"));  // progress on stderr

  Schedule schedule = read_schedule_file(dir.file("s.json"));
  CHECK(testing::verify_schedule(schedule).valid);
  CHECK(schedule.search["strategy"] == "repetend");
  Schedule at_total = unroll(schedule, 128);
  verify::Report report = testing::verify_schedule(at_total);
  CHECK(report.valid);
  CHECK(report.makespan == out["makespan_at_total"].get<int>());

  auto verified = run_tessel("verify " + dir.file("s.json"));
  CHECK(verified.exit_code == 0);
}

TEST_CASE("search text output names period, bound, proof and makespan", "[search][cli]") {
  auto result = run_tessel("search --case vshape --ndevs 4 --memory 4 --total-micros 32");
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("period           4"));
  CHECK_THAT(result.out, Catch::Contains("proven optimal"));
  CHECK_THAT(result.out, Catch::Contains("at 32 micro-batches: makespan 140"));  // = the bound 4 * 32 + 12
  CHECK_THAT(result.out, Catch::Contains("dev 3"));
}

TEST_CASE("search --strategy full solves a fixed number of micro-batches", "[search][cli]") {
  testing::TempDir dir;
  auto result = run_tessel("search --case vshape --ndevs 4 --memory 2 --strategy full --nmicros 3 --json -o " +
                           dir.file("f.json"));
  REQUIRE(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["status"] == "found");
  CHECK(out["strategy"] == "full");
  CHECK(out["optimal"] == true);
  Schedule schedule = read_schedule_file(dir.file("f.json"));
  CHECK(schedule.nmicros == 3);
  verify::Report report = testing::verify_schedule(schedule);
  CHECK(report.valid);
  CHECK(report.makespan == out["makespan"].get<int>());
}

TEST_CASE("search --time-limit gives up with exit 3 and writes the best so far", "[search][cli]") {
  testing::TempDir dir;
  auto result = run_tessel("search --case nnshape --ndevs 4 --memory 4 --time-limit 0.001 --json -o " +
                           dir.file("t.json"));
  CHECK(result.exit_code == 3);
  CHECK_THAT(result.err, Catch::Contains("time limit"));
  CHECK_THAT(result.err, Catch::Contains("written"));
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["status"] == "timeout");
  CHECK(out["optimal"] == false);
  CHECK(testing::verify_schedule(read_schedule_file(dir.file("t.json"))).valid);
}

TEST_CASE("search: too little memory for one micro-batch is exit 1 with the need", "[search][cli]") {
  auto result = run_tessel("search --case vshape --ndevs 4 --memory 0");
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("needs 1,1,1,1 per device"));
}

TEST_CASE("search: bad input is exit 2 with the field named", "[search][cli]") {
  testing::TempDir dir;
  // Memory that does not return to zero: allocates 1 and never frees it.
  testing::write_text(dir.file("grow.json"), R"({"format": "tessel.placement/1", "name": "grow", "ndevs": 1,
    "blocks": [{"id": "f", "kind": "forward", "span": 1, "memory": 1, "devices": [0]}], "edges": []})");
  auto grow = run_tessel("search --placement " + dir.file("grow.json") + " --memory 4");
  CHECK(grow.exit_code == 2);
  CHECK_THAT(grow.err, Catch::Contains("grow.json"));
  CHECK_THAT(grow.err, Catch::Contains("sum to 1"));
  // ... but a fixed number of micro-batches with `full` is fine.
  auto fixed = run_tessel("search --placement " + dir.file("grow.json") + " --memory 4 --strategy full --nmicros 3");
  CHECK(fixed.exit_code == 0);
  auto too_many = run_tessel("search --placement " + dir.file("grow.json") + " --memory 2 --strategy full --nmicros 3");
  CHECK(too_many.exit_code == 1);

  struct Bad {
    std::string args;
    std::string says;
  };
  for (const Bad& bad : std::vector<Bad>{
           {"--case vshape --ndevs 4", "--memory"},
           {"--case vshape --ndevs 4 --memory 4 --strategy fast --micros-per-window 2", "--micros-per-window"},
           {"--case vshape --ndevs 4 --memory 4 --strategy best", "--strategy"},
           {"--case vshape --ndevs 4 --memory 4 --backend gurobi", "--backend"},
           {"--case vshape --ndevs 4 --memory 4 --strategy full", "--nmicros"},
           {"--case vshape --ndevs 4 --memory 4 --nmicros 0", "--nmicros"},
           {"--case vshape --ndevs 4 --memory 4,4", "--memory"},
           {"--case vshape --ndevs 4 --memory x", "--memory"},
           {"--case nosuch --ndevs 4 --memory 4", "--case"},
           {"--placement " + dir.file("missing.json") + " --memory 4", "missing.json"},
       }) {
    INFO(bad.args);
    auto result = run_tessel("search " + bad.args);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(bad.says));
  }
}
