// The verifier on measured costs (docs/formats.md, "Numbers"): decimal spans
// and starts judged exactly, edge delays (a schedule that ignores one is
// rejected with the edge named), static memory counted from the first
// moment, memory in bytes, and the reports written in the file's own numbers.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/verify/format_error.hpp"
#include "verify/verify.hpp"

using tessel::verify::check_schedule;
using tessel::verify::FormatError;
using tessel::verify::Report;
using tessel::verify::testing::format_error_of;

namespace {

// 1F1B on 2 devices, 2 micro-batches, measured: forward 1.25 ms (+1 GiB),
// backward 2.5 ms (-1 GiB), and a 0.5 ms transfer on every edge between
// the devices. Each start is the earliest the dependencies allow.
//   dev 0: f0:0 [0, 1.25)  f0:1 [1.25, 2.5)  b0:0 [6, 8.5)  b0:1 [9.75, 12.25)
//   dev 1: f1:0 [1.75, 3)  b1:0 [3, 5.5)  f1:1 [5.5, 6.75)  b1:1 [6.75, 9.25)
nlohmann::json measured_one_f_one_b() { return tessel::verify::testing::data_json("measured_1f1b.schedule.json"); }

nlohmann::json& start_of(nlohmann::json& document, const std::string& block, int micro) {
  for (nlohmann::json& entry : document["instances"])
    if (entry["block"] == block && entry["micro"] == micro) return entry["start"];
  throw std::runtime_error("test bug: no instance " + block + "#" + std::to_string(micro));
}

}  // namespace

TEST_CASE("a measured schedule is judged on its exact decimals", "[verify][measured]") {
  Report report = check_schedule(measured_one_f_one_b());
  REQUIRE(report.valid);
  CHECK(report.time_decimals == 2);
  CHECK(report.makespan == 1225);  // b0:1 ends at 12.25
  nlohmann::json out = tessel::verify::report_to_json(report);
  CHECK(out["makespan"] == 12.25);
  CHECK(out["busy_steps"] == nlohmann::json({7.5, 7.5}));
  CHECK_THAT(tessel::verify::report_to_text(report), Catch::Contains("makespan: 12.25"));
}

TEST_CASE("a start finer than every span is read exactly, not rounded", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  start_of(document, "b0", 1) = 9.751;  // later: still valid, one more decimal
  Report later = check_schedule(document);
  CHECK(later.valid);
  CHECK(later.time_decimals == 3);
  CHECK(later.makespan == 12251);
  start_of(document, "b0", 1) = 9.749;  // 0.001 too early: b1:1 ends at 9.25, then the 0.5 transfer
  Report early = check_schedule(document);
  REQUIRE(!early.valid);
  CHECK(early.violation_counts["dependency"] == 1);
  CHECK_THAT(early.violations[0].message, Catch::Contains("0.001 too early"));
}

TEST_CASE("a schedule that ignores a delay is rejected with the edge named", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  start_of(document, "f1", 0) = 1.25;  // right after f0:0 ends: the 0.5 transfer is ignored
  Report report = check_schedule(document);
  REQUIRE(!report.valid);
  CHECK(report.violation_counts["dependency"] == 1);
  REQUIRE(report.violations.size() == 1);
  const std::string& message = report.violations[0].message;
  CHECK_THAT(message, Catch::Contains("edge f0 -> f1 with delay 0.5"));
  CHECK_THAT(message, Catch::Contains("0.5 too early"));
  CHECK(report.violations[0].instances == std::vector<std::string>{"f0:0", "f1:0"});
  // Without the delay on the edge the same starts are valid.
  document["placement"]["edges"][0] = {"f0", "f1"};
  CHECK(check_schedule(document).violation_counts["dependency"] == 0);
}

TEST_CASE("static memory counts from the start, against the limit", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  Report report = check_schedule(document);
  REQUIRE(report.valid);
  // 4 GiB static + two forwards of 1 GiB on device 0; 2 GiB + 1 GiB on device 1.
  CHECK(report.peak_memory == std::vector<long long>{6442450944LL, 3221225472LL});
  SECTION("one GiB less of limit on device 0 is exceeded, the static part named") {
    document["memory_limit"] = {5368709120LL, 4294967296LL};
    Report over = check_schedule(document);
    REQUIRE(over.violation_counts["memory"] == 1);
    CHECK_THAT(over.violations[0].message, Catch::Contains("static 4294967296 included"));
    CHECK(over.violations[0].devices == std::vector<int>{0});
  }
  SECTION("static memory alone above the limit breaks it before anything starts") {
    document["placement"]["static_memory"] = 5368709120LL;  // one number: every device
    document["memory_limit"] = 4294967296LL;
    Report over = check_schedule(document);
    CHECK(over.violation_counts["memory"] == 2);
  }
  SECTION("without static memory the peak is the blocks' alone") {
    document["placement"].erase("static_memory");
    CHECK(check_schedule(document).peak_memory == std::vector<long long>{2147483648LL, 1073741824LL});
  }
}

TEST_CASE("memory amounts may be decimals and are compared exactly", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  for (nlohmann::json& block : document["placement"]["blocks"])
    block["memory"] = block["memory"].get<long long>() > 0 ? 0.75 : -0.75;
  document["placement"]["static_memory"] = {1.5, 0};
  document["memory_limit"] = {3, 0.75};
  Report report = check_schedule(document);
  REQUIRE(report.valid);
  CHECK(report.memory_decimals == 2);
  CHECK(report.peak_memory == std::vector<long long>{300, 75});
  CHECK(tessel::verify::report_to_json(report)["peak_memory"] == nlohmann::json({3.0, 0.75}));
  document["memory_limit"] = {2.99, 0.75};
  CHECK(check_schedule(document).violation_counts["memory"] == 1);
}

TEST_CASE("a claimed repetend with decimal times is checked on them", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  // The two forwards of device 0 repeat every 1.25 ms: a window of one copy
  // holding f0 only is not a steady state of the whole placement.
  document["repetend"] = {{"start", 0}, {"end", 3.75}, {"period", 3.75}, {"micros_per_period", 1}};
  Report report = check_schedule(document);
  CHECK(report.repetend_claimed);
  CHECK(!report.repetend_holds);
  CHECK_THAT(report.repetend, Catch::Contains("period 3.75"));
}

TEST_CASE("numbers the verifier cannot hold exactly are format errors", "[verify][measured]") {
  nlohmann::json document = measured_one_f_one_b();
  SECTION("more than 9 decimals") {
    document["placement"]["blocks"][0]["span"] = 1.0000000001;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.blocks[0].span: number"));
  }
  SECTION("a negative delay") {
    document["placement"]["edges"][0] = {"f0", "f1", -0.5};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.edges[0][2]: a delay must be >= 0"));
  }
  SECTION("a delay that is not a number") {
    document["placement"]["edges"][0] = {"f0", "f1", "fast"};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.edges[0][2]: expected a number"));
  }
  SECTION("static memory with the wrong number of devices") {
    document["placement"]["static_memory"] = {1, 2, 3};
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.static_memory: a per-device list"));
  }
  SECTION("a span of zero") {
    document["placement"]["blocks"][2]["span"] = 0.0;
    CHECK_THAT(format_error_of(document), Catch::StartsWith("placement.blocks[2].span: span must be > 0"));
  }
}
