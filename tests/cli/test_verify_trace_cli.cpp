// `tessel verify --trace` end to end on hand-made traces of a real plan
// (tests/trace/trace_fixture.hpp) written as per-rank files: exit 0 and the
// JSON keys of docs/runtime.md for a run as planned, exit 1 naming the
// swapped actions, exit 2 naming a bad file, and the --svg picture.
#include <catch2/catch.hpp>

#include "tests/support.hpp"
#include "tests/trace/trace_fixture.hpp"

using tessel::testing::read_text;
using tessel::testing::run_tessel;
using tessel::testing::simulated_trace;
using tessel::testing::TempDir;
using tessel::testing::write_text;

namespace {

const std::string kSchedule = std::string(TESSEL_SOURCE_DIR) + "/tests/data/runtime/gpt_v4_split.schedule.json";

void write_traces(const TempDir& dir, const std::vector<std::vector<tessel::TracedAction>>& trace) {
  for (size_t r = 0; r < trace.size(); ++r) {
    nlohmann::json events = nlohmann::json::array();
    for (const tessel::TracedAction& a : trace[r])
      events.push_back({{"name", "PP:" + a.name}, {"ph", "X"}, {"ts", a.start}, {"dur", a.duration},
                        {"pid", static_cast<int>(r)}, {"tid", 1}});
    write_text(dir.file("rank" + std::to_string(r) + ".json"), nlohmann::json{{"traceEvents", events}}.dump());
  }
}

}  // namespace

TEST_CASE("verify --trace: a run as planned conforms; JSON and SVG", "[cli][trace]") {
  TempDir dir;
  const tessel::Schedule schedule = tessel::read_schedule_file(kSchedule);
  write_traces(dir, simulated_trace(schedule, {{"2F1", 3.0}}));
  auto text = run_tessel("verify --trace " + dir.path.string() + " --schedule " + kSchedule + " --svg " +
                         dir.file("run.svg"));
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("conforms: 4 rank(s), 1 step(s)") &&
                           Catch::Contains("slowest action PP:2F1 on rank 2 at 3.00x"));
  CHECK_THAT(read_text(dir.file("run.svg")), Catch::StartsWith("<svg") && Catch::Contains("PP:2F1"));
  auto json = run_tessel("verify --trace " + dir.path.string() + " --schedule " + kSchedule + " --json");
  REQUIRE(json.exit_code == 0);
  auto report = nlohmann::json::parse(json.out);
  CHECK(report["conforms"] == true);
  CHECK(report["rank_times"].size() == 4);
  CHECK(report["slowest"][0]["action"] == "2F1");
  CHECK(report["planned_makespan_us"].get<double>() > 0);
}

TEST_CASE("verify --trace: swapped actions exit 1, a bad file exits 2", "[cli][trace]") {
  TempDir dir;
  const tessel::Schedule schedule = tessel::read_schedule_file(kSchedule);
  auto trace = simulated_trace(schedule);
  std::swap(trace[3][0].name, trace[3][1].name);
  write_traces(dir, trace);
  auto swapped = run_tessel("verify --trace " + dir.path.string() + " --schedule " + kSchedule);
  REQUIRE(swapped.exit_code == 1);
  CHECK_THAT(swapped.out, Catch::Contains("rank 3, step 1, action 1: planned PP:" + trace[3][1].name + ", ran PP:" +
                                          trace[3][0].name + " (planned as action 2)"));
  write_text(dir.file("rank1.json"), "[{\"name\": \"PP:oops\", \"ph\": \"X\", \"ts\": 1, \"dur\": 1}]");
  auto bad = run_tessel("verify --trace " + dir.path.string() + " --schedule " + kSchedule);
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("rank1.json") && Catch::Contains("PP:oops"));
  auto missing = run_tessel("verify --trace " + dir.file("nothing") + " --schedule " + kSchedule);
  CHECK(missing.exit_code == 2);
}
