// The verifier on hand-written schedules: a valid 2-device 1F1B passes with
// exact metrics, and each corruption of the conditions of docs/algorithms.md, "The problem", is
// rejected with exactly its own kind of violation.
#include <algorithm>
#include <set>

#include <catch2/catch.hpp>

#include "tests/verify/format_error.hpp"
#include "verify/verify.hpp"

using tessel::verify::check_schedule;
using tessel::verify::FormatError;
using tessel::verify::Report;
using tessel::verify::testing::format_error_of;
using tessel::verify::Violation;

namespace {

// 1F1B on 2 devices, 4 micro-batches, forward span 1 (+1 memory), backward
// span 2 (-1 memory). Written out by hand:
//   device 0: f0:0 f0:1  .  .  b0:0 b0:0 f0:2 b0:1 b0:1 f0:3 b0:2 b0:2  .  b0:3 b0:3
//   device 1:  .  f1:0 b1:0 b1:0 f1:1 b1:1 b1:1 f1:2 b1:2 b1:2 f1:3 b1:3 b1:3  .   .
//   step:      0   1    2    3    4    5    6    7    8    9   10   11   12   13   14
nlohmann::json one_f_one_b() {
  return nlohmann::json::parse(R"({
    "format": "tessel.schedule/1",
    "placement": {
      "format": "tessel.placement/1", "name": "vshape", "ndevs": 2,
      "blocks": [ {"id": "f0", "kind": "forward", "span": 1, "memory": 1, "devices": [0]},
                  {"id": "f1", "kind": "forward", "span": 1, "memory": 1, "devices": [1]},
                  {"id": "b1", "kind": "backward", "span": 2, "memory": -1, "devices": [1]},
                  {"id": "b0", "kind": "backward", "span": 2, "memory": -1, "devices": [0]} ],
      "edges": [ ["f0", "f1"], ["f1", "b1"], ["b1", "b0"] ] },
    "memory_limit": [2, 1],
    "nmicros": 4,
    "instances": [
      {"block": "f0", "micro": 0, "start": 0},  {"block": "f0", "micro": 1, "start": 1},
      {"block": "f0", "micro": 2, "start": 6},  {"block": "f0", "micro": 3, "start": 9},
      {"block": "f1", "micro": 0, "start": 1},  {"block": "f1", "micro": 1, "start": 4},
      {"block": "f1", "micro": 2, "start": 7},  {"block": "f1", "micro": 3, "start": 10},
      {"block": "b1", "micro": 0, "start": 2},  {"block": "b1", "micro": 1, "start": 5},
      {"block": "b1", "micro": 2, "start": 8},  {"block": "b1", "micro": 3, "start": 11},
      {"block": "b0", "micro": 0, "start": 4},  {"block": "b0", "micro": 1, "start": 7},
      {"block": "b0", "micro": 2, "start": 10}, {"block": "b0", "micro": 3, "start": 13} ] })");
}

// The kinds with at least one violation.
std::set<std::string> kinds(const Report& report) {
  std::set<std::string> found;
  for (const auto& [kind, count] : report.violation_counts)
    if (count > 0) found.insert(kind);
  return found;
}

nlohmann::json& instance(nlohmann::json& document, const std::string& block, int micro) {
  for (nlohmann::json& entry : document["instances"])
    if (entry["block"] == block && entry["micro"] == micro) return entry;
  throw std::runtime_error("test bug: no instance " + block + "#" + std::to_string(micro));
}

void drop(nlohmann::json& document, const std::string& block, int micro) {
  nlohmann::json& list = document["instances"];
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i]["block"] == block && list[i]["micro"] == micro) {
      list.erase(i);
      return;
    }
  throw std::runtime_error("test bug: no instance to drop");
}

const Violation& only_violation(const Report& report) {
  REQUIRE(report.violations.size() == 1);
  return report.violations.front();
}

}  // namespace

TEST_CASE("a hand-written 1F1B schedule is valid with exact metrics", "[verify]") {
  Report report = check_schedule(one_f_one_b());
  CHECK(report.valid);
  CHECK(report.violations.empty());
  CHECK(kinds(report).empty());
  CHECK(report.violation_counts.size() == 11);  // every kind, with 0
  CHECK(report.makespan == 15);
  CHECK(report.busy_steps == std::vector<long long>{12, 12});
  CHECK(report.bubble_ratio == Approx(6.0 / 30.0));
  CHECK(report.peak_memory == std::vector<long long>{2, 1});
  CHECK(report.memory_limit == std::vector<long long>{2, 1});
  CHECK_FALSE(report.repetend_claimed);
}

TEST_CASE("a dropped instance is missing, and nothing else", "[verify]") {
  nlohmann::json document = one_f_one_b();
  // Dropping a backward leaves its memory allocated: were micro-batch 1
  // still counted, device 0 would reach 3 > 2 at step 9, a false reason.
  drop(document, "b0", 1);
  Report report = check_schedule(document);
  CHECK_FALSE(report.valid);
  CHECK(kinds(report) == std::set<std::string>{"missing"});
  const Violation& violation = only_violation(report);
  CHECK(violation.instances == std::vector<std::string>{"b0:1"});
  CHECK(violation.devices == std::vector<int>{0});
  CHECK_FALSE(report.notes.empty());
}

TEST_CASE("a dropped forward breaks no dependency of the rest", "[verify]") {
  nlohmann::json document = one_f_one_b();
  drop(document, "f0", 2);
  Report report = check_schedule(document);
  CHECK(kinds(report) == std::set<std::string>{"missing"});
  CHECK(only_violation(report).instances == std::vector<std::string>{"f0:2"});
}

TEST_CASE("a duplicate is a duplicate, not also an overlap with itself", "[verify]") {
  nlohmann::json document = one_f_one_b();
  SECTION("same step") { document["instances"].push_back({{"block", "f1"}, {"micro", 2}, {"start", 7}}); }
  SECTION("another step") { document["instances"].push_back({{"block", "f1"}, {"micro", 2}, {"start", 14}}); }
  Report report = check_schedule(document);
  CHECK_FALSE(report.valid);
  CHECK(kinds(report) == std::set<std::string>{"duplicate"});
  const Violation& violation = only_violation(report);
  CHECK(violation.instances == std::vector<std::string>{"f1:2", "f1:2"});
  CHECK(violation.devices == std::vector<int>{1});
  CHECK_THAT(violation.message, Catch::Contains("instances[6]") && Catch::Contains("instances[16]"));
}

TEST_CASE("an instance of no block or outside the micro-batches is unknown", "[verify]") {
  nlohmann::json document = one_f_one_b();
  SECTION("unknown block") { document["instances"].push_back({{"block", "zz"}, {"micro", 0}, {"start", 20}}); }
  SECTION("micro-batch past nmicros") {
    document["instances"].push_back({{"block", "f0"}, {"micro", 4}, {"start", 20}});
  }
  SECTION("negative micro-batch") { document["instances"].push_back({{"block", "b1"}, {"micro", -1}, {"start", 0}}); }
  Report report = check_schedule(document);
  CHECK_FALSE(report.valid);
  CHECK(kinds(report) == std::set<std::string>{"unknown"});
  CHECK_THAT(only_violation(report).message, Catch::Contains("instances[16]"));
  CHECK(report.makespan == 15);  // an unknown instance is not part of the schedule
}

TEST_CASE("two blocks on one device at one step are an overlap, and nothing else", "[verify]") {
  nlohmann::json document = one_f_one_b();
  instance(document, "f0", 2)["start"] = 5;  // onto b0:0 (steps 4..5); f1:2 at 7 still waits for it
  Report report = check_schedule(document);
  CHECK_FALSE(report.valid);
  CHECK(kinds(report) == std::set<std::string>{"overlap"});
  const Violation& violation = only_violation(report);
  CHECK(violation.devices == std::vector<int>{0});
  CHECK(violation.steps == std::vector<long long>{5});
  CHECK(violation.instances == std::vector<std::string>{"b0:0", "f0:2"});
}

TEST_CASE("a tensor-parallel block overlaps on each of its devices", "[verify]") {
  nlohmann::json document = one_f_one_b();
  document["placement"]["blocks"].push_back(
      {{"id", "all"}, {"kind", "other"}, {"span", 1}, {"memory", 0}, {"devices", {0, 1}}});
  document["nmicros"] = 1;
  nlohmann::json kept = nlohmann::json::array();
  for (const nlohmann::json& entry : document["instances"])
    if (entry["micro"] == 0) kept.push_back(entry);
  kept.push_back({{"block", "all"}, {"micro", 0}, {"start", 1}});  // f1:0 runs on device 1 at step 1
  document["instances"] = kept;
  Report report = check_schedule(document);
  CHECK(kinds(report) == std::set<std::string>{"overlap"});
  const Violation& violation = only_violation(report);
  CHECK(violation.devices == std::vector<int>{1});
  CHECK(violation.steps == std::vector<long long>{1});
}

TEST_CASE("a dependency broken by one step is a dependency violation, and nothing else", "[verify]") {
  nlohmann::json document = one_f_one_b();
  instance(document, "b0", 3)["start"] = 12;  // b1:3 runs until step 13; step 12 is idle on device 0
  Report report = check_schedule(document);
  CHECK_FALSE(report.valid);
  CHECK(kinds(report) == std::set<std::string>{"dependency"});
  const Violation& violation = only_violation(report);
  CHECK(violation.instances == std::vector<std::string>{"b1:3", "b0:3"});
  CHECK(violation.steps == std::vector<long long>{11, 12});
  CHECK(violation.devices == std::vector<int>{0, 1});
  CHECK_THAT(violation.message, Catch::Contains("1 step too early"));
}

TEST_CASE("memory one over the limit is rejected, exactly at the limit accepted", "[verify]") {
  nlohmann::json document = one_f_one_b();
  SECTION("at the limit") {
    document["memory_limit"] = 2;
    Report report = check_schedule(document);
    CHECK(report.valid);
    CHECK(report.memory_limit == std::vector<long long>{2, 2});
  }
  SECTION("one over on device 0") {
    document["memory_limit"] = {1, 1};
    Report report = check_schedule(document);
    CHECK_FALSE(report.valid);
    CHECK(kinds(report) == std::set<std::string>{"memory"});
    // Device 0 goes to 2 at steps 1, 6 and 9: three excursions.
    CHECK(report.violation_counts["memory"] == 3);
    const Violation& first = report.violations.front();
    CHECK(first.devices == std::vector<int>{0});
    CHECK(first.steps == std::vector<long long>{1});
    CHECK(first.instances == std::vector<std::string>{"f0:1"});
    CHECK(report.peak_memory == std::vector<long long>{2, 1});
  }
  SECTION("no limit: no memory violation, peak still measured") {
    document["memory_limit"] = nullptr;
    document["placement"]["blocks"][0]["memory"] = 100;
    document["placement"]["blocks"][3]["memory"] = -100;
    Report report = check_schedule(document);
    CHECK(report.valid);
    CHECK(report.memory_limit.empty());
    CHECK(report.peak_memory == std::vector<long long>{200, 1});
  }
}

TEST_CASE("the memory override replaces the file's limit", "[verify]") {
  nlohmann::json document = one_f_one_b();
  CHECK(check_schedule(document, std::vector<long long>{1, 1}).violation_counts["memory"] == 3);
  document["memory_limit"] = 0;
  CHECK(check_schedule(document, std::vector<long long>{2, 1}).valid);
  CHECK_THROWS_AS(check_schedule(document, std::vector<long long>{2}), FormatError);
}

TEST_CASE("a true repetend claim holds, a wrong one is a repetend violation", "[verify]") {
  nlohmann::json document = one_f_one_b();
  // Steady state from step 4: device 0 runs b0 f0, device 1 runs f1 b1, every 3 steps.
  SECTION("two copies of period 3") {
    document["repetend"] = {{"start", 4}, {"end", 10}, {"period", 3}, {"micros_per_period", 1}};
    Report report = check_schedule(document);
    CHECK(report.valid);
    CHECK(report.repetend_claimed);
    CHECK(report.repetend_holds);
    CHECK_THAT(report.repetend, Catch::Contains("period 3") && Catch::Contains("2 copies"));
  }
  SECTION("one copy; micros_per_period defaults to 1") {
    document["repetend"] = {{"start", 7}, {"end", 10}, {"period", 3}};
    CHECK(check_schedule(document).repetend_holds);
  }
  SECTION("period 6 for two micro-batches is also true") {
    document["repetend"] = {{"start", 4}, {"end", 10}, {"period", 6}, {"micros_per_period", 2}};
    CHECK(check_schedule(document).valid);
  }
  SECTION("wrong period") {
    document["repetend"] = {{"start", 4}, {"end", 10}, {"period", 2}, {"micros_per_period", 1}};
    Report report = check_schedule(document);
    CHECK_FALSE(report.valid);
    CHECK_FALSE(report.repetend_holds);
    CHECK(kinds(report) == std::set<std::string>{"repetend"});
  }
  SECTION("window not a whole number of periods") {
    document["repetend"] = {{"start", 4}, {"end", 11}, {"period", 3}, {"micros_per_period", 1}};
    Report report = check_schedule(document);
    CHECK(kinds(report) == std::set<std::string>{"repetend"});
    CHECK_THAT(only_violation(report).message, Catch::Contains("not a whole number of periods"));
  }
  SECTION("wrong micro-batch step") {
    document["repetend"] = {{"start", 4}, {"end", 10}, {"period", 3}, {"micros_per_period", 2}};
    Report report = check_schedule(document);
    CHECK(kinds(report) == std::set<std::string>{"repetend"});
  }
  SECTION("window in the warmup") {
    document["repetend"] = {{"start", 1}, {"end", 7}, {"period", 3}, {"micros_per_period", 1}};
    CHECK(kinds(check_schedule(document)) == std::set<std::string>{"repetend"});
  }
  SECTION("a copy that does not repeat the one before") {
    document["repetend"] = {{"start", 4}, {"end", 13}, {"period", 3}, {"micros_per_period", 1}};
    Report report = check_schedule(document);
    CHECK(kinds(report) == std::set<std::string>{"repetend"});
    bool names_f0 = false;
    for (const Violation& violation : report.violations)
      names_f0 |= violation.message.find("f0:3 at step 9 should repeat as f0:4 at step 12") != std::string::npos;
    CHECK(names_f0);  // the third copy has no f0: micro-batch 4 does not exist
  }
  SECTION("a window longer than the schedule") {
    document["repetend"] = {{"start", 4}, {"end", 4000000}, {"period", 3}, {"micros_per_period", 1}};
    CHECK(kinds(check_schedule(document)) == std::set<std::string>{"repetend"});
  }
}

TEST_CASE("a repetend whose window cannot follow itself is rejected", "[verify]") {
  // One block of span 3 every 3 steps: repeating the 2-step window [0, 2)
  // every 2 steps would run a:0 into its own next copy, and a:0's memory is
  // never freed.
  nlohmann::json document = nlohmann::json::parse(R"({
    "format": "tessel.schedule/1",
    "placement": {"format": "tessel.placement/1", "ndevs": 1,
                  "blocks": [{"id": "a", "span": 3, "memory": 1, "devices": [0]}]},
    "nmicros": 3,
    "instances": [ {"block": "a", "micro": 0, "start": 0}, {"block": "a", "micro": 1, "start": 3},
                   {"block": "a", "micro": 2, "start": 6} ],
    "repetend": {"start": 0, "end": 2, "period": 2, "micros_per_period": 1} })");
  Report report = check_schedule(document);
  CHECK(kinds(report) == std::set<std::string>{"repetend"});
  REQUIRE(report.violations.size() == 2);
  CHECK_THAT(report.violations[0].message, Catch::Contains("overlap the next copy of a:0"));
  CHECK_THAT(report.violations[1].message, Catch::Contains("memory changes by 1"));
  document["repetend"] = {{"start", 3}, {"end", 6}, {"period", 3}, {"micros_per_period", 1}};
  document["placement"]["blocks"][0]["memory"] = 0;
  CHECK(check_schedule(document).valid);
}

TEST_CASE("violations are listed up to 20 per kind and all counted", "[verify]") {
  nlohmann::json document = one_f_one_b();
  document["nmicros"] = 1000;
  Report report = check_schedule(document);
  CHECK(kinds(report) == std::set<std::string>{"missing"});
  CHECK(report.violation_counts["missing"] == 4 * 996);
  CHECK(report.violations.size() == 20);
  CHECK(report.violations.front().instances == std::vector<std::string>{"f0:4"});
}

TEST_CASE("an empty schedule of zero micro-batches is valid", "[verify]") {
  nlohmann::json document = one_f_one_b();
  document["nmicros"] = 0;
  document["instances"] = nlohmann::json::array();
  Report report = check_schedule(document);
  CHECK(report.valid);
  CHECK(report.makespan == 0);
  CHECK(report.bubble_ratio == 0.0);
}

TEST_CASE("unreadable documents are format errors naming the field", "[verify]") {
  nlohmann::json document = one_f_one_b();
  SECTION("unknown format") {
    document["format"] = "tessel.placement/1";
    CHECK_THAT(format_error_of(document), Catch::Contains("format") && Catch::Contains("unknown format"));
  }
  SECTION("unknown version") {
    document["format"] = "tessel.schedule/2";
    CHECK_THAT(format_error_of(document), Catch::Contains("unsupported version"));
  }
  SECTION("missing nmicros") {
    document.erase("nmicros");
    CHECK_THAT(format_error_of(document), Catch::StartsWith("nmicros: missing"));
  }
  SECTION("mistyped start") {
    document["instances"][3]["start"] = "nine";
    CHECK_THAT(format_error_of(document), Catch::StartsWith("instances[3].start: expected a number"));
  }
  SECTION("fractional micro") {
    document["instances"][2]["micro"] = 1.5;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("instances[2].micro"));
  }
  SECTION("negative start") {
    document["instances"][0]["start"] = -1;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("instances[0].start: start must be >= 0"));
  }
  SECTION("block id not a string") {
    document["instances"][5]["block"] = 3;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("instances[5].block: expected a string"));
  }
  SECTION("memory list of the wrong length") {
    document["memory_limit"] = {1, 2, 3};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("memory_limit: a per-device limit"));
  }
  SECTION("span below one") {
    document["placement"]["blocks"][2]["span"] = 0;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.blocks[2].span"));
  }
  SECTION("device out of range") {
    document["placement"]["blocks"][1]["devices"] = {2};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.blocks[1].devices[0]"));
  }
  SECTION("edge to an unknown block") {
    document["placement"]["edges"][0] = {"f0", "nope"};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.edges[0][1]: unknown block 'nope'"));
  }
  SECTION("duplicate block id") {
    document["placement"]["blocks"][3]["id"] = "f0";
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.blocks[3].id: duplicate"));
  }
  SECTION("zero period") {
    document["repetend"] = {{"start", 4}, {"end", 10}, {"period", 0}};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("repetend.period"));
  }
  SECTION("not an object") {
    CHECK_THAT(format_error_of(nlohmann::json::array()), Catch::Contains("expected a tessel.schedule/1 object"));
  }
}
