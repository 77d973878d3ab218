// `tessel verify` end to end: exit codes 0 / 1 / 2, the text and the JSON
// keys of docs/cli.md, the --memory override and messages naming the
// file and the field.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

// 1F1B on 2 devices and 3 micro-batches (forward span 1, backward span 2).
const char* const kSchedule = R"({
  "format": "tessel.schedule/1",
  "placement": {
    "format": "tessel.placement/1", "name": "vshape", "ndevs": 2,
    "blocks": [ {"id": "f0", "kind": "forward", "span": 1, "memory": 1, "devices": [0]},
                {"id": "f1", "kind": "forward", "span": 1, "memory": 1, "devices": [1]},
                {"id": "b1", "kind": "backward", "span": 2, "memory": -1, "devices": [1]},
                {"id": "b0", "kind": "backward", "span": 2, "memory": -1, "devices": [0]} ],
    "edges": [ ["f0", "f1"], ["f1", "b1"], ["b1", "b0"] ] },
  "memory_limit": 2,
  "nmicros": 3,
  "instances": [
    {"block": "f0", "micro": 0, "start": 0}, {"block": "f0", "micro": 1, "start": 1},
    {"block": "f0", "micro": 2, "start": 6}, {"block": "f1", "micro": 0, "start": 1},
    {"block": "f1", "micro": 1, "start": 4}, {"block": "f1", "micro": 2, "start": 7},
    {"block": "b1", "micro": 0, "start": 2}, {"block": "b1", "micro": 1, "start": 5},
    {"block": "b1", "micro": 2, "start": 8}, {"block": "b0", "micro": 0, "start": 4},
    {"block": "b0", "micro": 1, "start": 7}, {"block": "b0", "micro": 2, "start": 10} ],
  "repetend": {"start": 4, "end": 7, "period": 3, "micros_per_period": 1} })";

std::string write_schedule(const TempDir& dir, const nlohmann::json& document) {
  std::string path = dir.file("schedule.json");
  write_text(path, document.dump());
  return path;
}

}  // namespace

TEST_CASE("tessel verify prints valid and the metrics of a valid schedule", "[verify][cli]") {
  TempDir dir;
  std::string path = write_schedule(dir, nlohmann::json::parse(kSchedule));
  auto result = run_tessel("verify " + path);
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("valid\n"));
  CHECK_THAT(result.out, Catch::Contains("makespan: 12"));
  CHECK_THAT(result.out, Catch::Contains("bubble ratio: 0.2500 (6 idle of 24 device-steps)"));
  CHECK_THAT(result.out, Catch::Contains("peak memory per device: 2 1 (limit 2 2)"));
  CHECK_THAT(result.out, Catch::Contains("busy steps per device: 9 9"));
  CHECK_THAT(result.out, Catch::Contains("repetend: holds"));
}

TEST_CASE("tessel verify --json has the contract keys", "[verify][cli]") {
  TempDir dir;
  std::string path = write_schedule(dir, nlohmann::json::parse(kSchedule));
  auto result = run_tessel("verify " + path + " --json");
  CHECK(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["valid"] == true);
  CHECK(out["violations"].empty());
  for (const char* kind : {"missing", "duplicate", "unknown", "overlap", "dependency", "memory", "repetend", "fused"})
    CHECK(out["violation_counts"][kind] == 0);
  CHECK(out["makespan"] == 12);
  CHECK(out["bubble_ratio"].get<double>() == Approx(0.25));
  CHECK(out["peak_memory"] == nlohmann::json({2, 1}));
  CHECK(out["busy_steps"] == nlohmann::json({9, 9}));
  CHECK(out["repetend"]["holds"] == true);
}

TEST_CASE("tessel verify prints the violations of an invalid schedule and exits 1", "[verify][cli]") {
  TempDir dir;
  nlohmann::json document = nlohmann::json::parse(kSchedule);
  document["instances"][11]["start"] = 9;  // b0:2 one step before b1:2 ends
  std::string path = write_schedule(dir, document);
  auto result = run_tessel("verify " + path);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::StartsWith("invalid: 1 violation\n"));
  CHECK_THAT(result.out, Catch::Contains("dependency: b0:2 starts at step 9 but b1:2 runs until step 10"));

  auto json = run_tessel("verify " + path + " --json");
  CHECK(json.exit_code == 1);
  nlohmann::json out = nlohmann::json::parse(json.out);
  CHECK(out["valid"] == false);
  CHECK(out["violation_counts"]["dependency"] == 1);
  REQUIRE(out["violations"].size() == 1);
  CHECK(out["violations"][0]["kind"] == "dependency");
  CHECK(out["violations"][0]["instances"] == nlohmann::json({"b1:2", "b0:2"}));
  CHECK(out["violations"][0]["devices"] == nlohmann::json({0, 1}));
  CHECK(out["violations"][0]["steps"] == nlohmann::json({8, 9}));
}

TEST_CASE("tessel verify lists 20 violations of a kind and counts the rest", "[verify][cli]") {
  TempDir dir;
  nlohmann::json document = nlohmann::json::parse(kSchedule);
  document["nmicros"] = 13;  // 10 micro-batches of 4 blocks missing
  document.erase("repetend");
  std::string path = write_schedule(dir, document);
  auto result = run_tessel("verify " + path);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("invalid: 40 violations"));
  CHECK_THAT(result.out, Catch::Contains("... and 20 more missing violations"));
}

TEST_CASE("tessel verify --memory overrides the file's limit", "[verify][cli]") {
  TempDir dir;
  std::string path = write_schedule(dir, nlohmann::json::parse(kSchedule));
  auto tight = run_tessel("verify " + path + " --memory 1");
  CHECK(tight.exit_code == 1);
  CHECK_THAT(tight.out, Catch::Contains("memory: device 0 at step 1: memory 2 is over the limit 1"));
  auto per_device = run_tessel("verify " + path + " --memory 2,1");
  CHECK(per_device.exit_code == 0);
  CHECK_THAT(per_device.out, Catch::Contains("(limit 2 1)"));
  auto wrong_length = run_tessel("verify " + path + " --memory 2,1,1");
  CHECK(wrong_length.exit_code == 2);
  CHECK_THAT(wrong_length.err, Catch::Contains("--memory"));
}

TEST_CASE("tessel verify of an unreadable file exits 2 naming the file and the field", "[verify][cli]") {
  TempDir dir;
  SECTION("a mistyped field") {
    nlohmann::json document = nlohmann::json::parse(kSchedule);
    document["instances"][4]["micro"] = "one";
    std::string path = write_schedule(dir, document);
    auto result = run_tessel("verify " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(path) && Catch::Contains("instances[4].micro"));
    CHECK(result.out.empty());
  }
  SECTION("a mistyped field with --memory") {
    nlohmann::json document = nlohmann::json::parse(kSchedule);
    document["placement"]["ndevs"] = "two";
    std::string path = write_schedule(dir, document);
    auto result = run_tessel("verify " + path + " --memory 3");
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(path) && Catch::Contains("placement.ndevs"));
  }
  SECTION("not JSON") {
    std::string path = dir.file("broken.json");
    write_text(path, "{\"format\": ");
    auto result = run_tessel("verify " + path);
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains(path) && Catch::Contains("not valid JSON"));
  }
  SECTION("no such file") {
    auto result = run_tessel("verify " + dir.file("absent.json"));
    CHECK(result.exit_code == 2);
    CHECK_THAT(result.err, Catch::Contains("absent.json") && Catch::Contains("cannot open"));
  }
  SECTION("no file given") {
    auto result = run_tessel("verify");
    CHECK(result.exit_code == 2);
  }
}

TEST_CASE("tessel verify --help describes the command", "[verify][cli]") {
  auto result = run_tessel("verify --help");
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("tessel verify SCHEDULE") && Catch::Contains("--memory") &&
                             Catch::Contains("--json"));
}

// The measured 1F1B of the verifier's measured-cost tests (tests/verify):
// memory 6 GiB and 4 GiB fit, 5 GiB on device 0 does not.
TEST_CASE("verify --memory takes byte units and decimals", "[verify][measured][cli]") {
  const std::string file = std::string(TESSEL_SOURCE_DIR) + "/tests/data/measured_1f1b.schedule.json";
  CHECK(run_tessel("verify " + file + " --memory 6GiB,4GiB").exit_code == 0);
  tessel::testing::CommandResult over = run_tessel("verify " + file + " --memory 5GiB,4GiB --json");
  CHECK(over.exit_code == 1);
  nlohmann::json out = nlohmann::json::parse(over.out);
  CHECK(out["violation_counts"]["memory"] == 1);
  CHECK(out["memory_limit"] == nlohmann::json({5368709120LL, 4294967296LL}));
  CHECK(run_tessel("verify " + file + " --memory 5GiBs").exit_code == 2);
}
