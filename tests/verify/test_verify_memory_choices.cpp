// The verifier on memory traded for time (docs/formats.md, "Memory traded
// for time"): a hand-made 2-device schedule that recomputes micro-batch 0 of
// f0 and offloads micro-batch 1 stays within memory 5 (keeping both would
// need 8), and each corruption is rejected for its own reason.
//   device 0: f0:0 f0:0 f0:1 f0:1  .   R0  b0:0 b0:0  .  .  b0:1 b0:1
//   copies 0:                 out0     in0
//   device 1:  .    .   f1:0 f1:0 b1:0 b1:0 f1:1 f1:1 b1:1 b1:1
#include <fstream>
#include <set>

#include <catch2/catch.hpp>

#include "tests/verify/format_error.hpp"
#include "verify/verify.hpp"

using tessel::verify::check_schedule;
using tessel::verify::Report;
using tessel::verify::testing::format_error_of;

namespace {

nlohmann::json traded() { return tessel::verify::testing::data_json("memory_choices.json"); }

std::set<std::string> kinds(const Report& report) {
  std::set<std::string> found;
  for (const auto& [kind, count] : report.violation_counts)
    if (count > 0) found.insert(kind);
  return found;
}

nlohmann::json& transfer(nlohmann::json& document, const std::string& direction) {
  for (nlohmann::json& entry : document["transfers"])
    if (entry["direction"] == direction) return entry;
  throw std::runtime_error("test bug: no such transfer");
}

std::string messages(const Report& report) {
  std::string text;
  for (const auto& violation : report.violations) text += violation.kind + ": " + violation.message + "\n";
  return text;
}

}  // namespace

TEST_CASE("a schedule that recomputes and offloads is valid within a limit keeping could not meet", "[verify][memory-choice]") {
  Report report = check_schedule(traded());
  INFO(messages(report));
  CHECK(report.valid);
  CHECK(report.makespan == 12);
  CHECK(report.peak_memory == std::vector<long long>{4, 4});
  CHECK(report.busy_steps == std::vector<long long>{9, 8});  // the recompute is busy time, copies are not

  nlohmann::json kept = traded();  // the same starts, every activation kept: 8 > 5 at step 2
  for (nlohmann::json& entry : kept["instances"]) entry.erase("recompute"), entry.erase("offload");
  kept.erase("recomputes");
  kept.erase("transfers");
  Report keeping = check_schedule(kept);
  CHECK(kinds(keeping) == std::set<std::string>{"memory"});
}

TEST_CASE("a recompute re-allocates at its start: started early it passes the limit", "[verify][memory-choice]") {
  nlohmann::json document = traded();
  document["recomputes"][0]["start"] = 4;  // f0:1 still held: 4 + 4 > 5
  Report report = check_schedule(document);
  CHECK(kinds(report) == std::set<std::string>{"memory"});
  CHECK(report.violations.front().instances == std::vector<std::string>{"f0:0 (recompute)"});
}

TEST_CASE("a recompute before its forward ends or after its backward starts is out of order", "[verify][memory-choice]") {
  nlohmann::json document = traded();
  document["recomputes"][0]["start"] = 1;
  Report early = check_schedule(document);
  CHECK(kinds(early).count("order"));
  CHECK(kinds(early).count("overlap"));  // it also shares device 0 with f0:0
  document["recomputes"][0]["start"] = 8;
  Report late = check_schedule(document);
  CHECK(kinds(late) == std::set<std::string>{"order"});
  CHECK(messages(late).find("after b0:0") != std::string::npos);
}

TEST_CASE("copies share one channel per device and keep their order", "[verify][memory-choice]") {
  nlohmann::json document = traded();
  transfer(document, "in")["start"] = 4;  // with the copy out on the channel, and before it ends
  Report report = check_schedule(document);
  CHECK(kinds(report).count("channel"));
  CHECK(kinds(report).count("order"));
  transfer(document, "in")["start"] = 9;  // ends at 10 = b0:1's start: fine
  CHECK(check_schedule(document).valid);
  transfer(document, "in")["start"] = 10;  // ends after b0:1 starts
  CHECK(kinds(check_schedule(document)) == std::set<std::string>{"order"});
  transfer(document, "in")["start"] = 6;
  transfer(document, "out")["start"] = 3;  // before f0:1 ends at 4
  CHECK(kinds(check_schedule(document)).count("order"));
}

TEST_CASE("a choice must be marked, listed once and offered", "[verify][memory-choice]") {
  nlohmann::json unmarked = traded();
  unmarked["instances"][0].erase("recompute");  // the forward keeps: 8 > 5 again
  Report report = check_schedule(unmarked);
  CHECK(kinds(report) == std::set<std::string>{"choice", "memory"});

  nlohmann::json twice = traded();
  twice["transfers"].push_back(twice["transfers"][0]);
  CHECK(kinds(check_schedule(twice)).count("choice"));

  nlohmann::json not_offered = traded();
  not_offered["recomputes"].push_back({{"block", "f1"}, {"micro", 0}, {"start", 4}});
  Report offered = check_schedule(not_offered);
  CHECK(kinds(offered).count("choice"));
  CHECK(messages(offered).find("offers no recompute") != std::string::npos);

  nlohmann::json no_copy_in = traded();
  no_copy_in["transfers"].erase(1);
  CHECK(kinds(check_schedule(no_copy_in)).count("choice"));
}

TEST_CASE("unreadable offers and runs are format errors", "[verify][memory-choice]") {
  nlohmann::json document = traded();
  document["placement"]["blocks"][0]["recompute"]["befor"] = "b0";
  CHECK(format_error_of(document).find("did you mean 'before'") != std::string::npos);
  document = traded();
  document["placement"]["blocks"][0]["offload"]["before"] = "b9";
  CHECK(format_error_of(document).find("placement.blocks[0].offload.before") == 0);
  document = traded();
  document["transfers"][0]["direction"] = "up";
  CHECK(format_error_of(document).find("transfers[0].direction") == 0);
  document = traded();
  document["placement"]["blocks"][0]["recompute"]["span"] = 0;
  CHECK(format_error_of(document).find("must be > 0") != std::string::npos);
}
