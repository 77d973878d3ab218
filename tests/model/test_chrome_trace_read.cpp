// Reading PP: ranges out of Chrome traces (model/formats/chrome_trace_read.hpp):
// the profiler's list form and the object form, ranks from files or from
// process ids, recompute ranges, and errors that name the file and the event.
#include <catch2/catch.hpp>

#include "model/formats/chrome_trace_read.hpp"
#include "model/input_error.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::TempDir;
using tessel::testing::write_text;

TEST_CASE("PP: ranges are read, other events skipped, ordered by start", "[trace][formats]") {
  const std::string text = R"([
    {"name": "aten::mm", "ph": "X", "ts": 5, "dur": 1, "pid": 0, "tid": 1},
    {"name": "PP:1SEND_F3", "ph": "X", "ts": 20, "dur": 2, "pid": 0, "tid": 1},
    {"name": "PP:0F12", "ph": "X", "ts": 10, "dur": 8.5, "pid": 0, "tid": 1},
    {"name": "PP:0F1", "ph": "B", "ts": 10, "pid": 0, "tid": 1}])";
  auto actions = read_traced_actions(text, "t.json", 3);
  REQUIRE(actions.size() == 2);
  CHECK(actions[0].name == "0F12");
  CHECK(actions[0].stage == 0);
  CHECK(actions[0].kind == "F");
  CHECK(actions[0].micro == 12);
  CHECK(actions[0].duration == 8.5);
  CHECK(actions[0].rank == 3);
  CHECK(actions[1].kind == "SEND_F");
  CHECK(actions[1].stage == 1);
  CHECK(actions[1].micro == 3);
}

TEST_CASE("one file: its processes are the ranks, in process id order", "[trace][formats]") {
  TempDir dir;
  write_text(dir.file("all.json"), R"({"traceEvents": [
    {"name": "PP:1F0", "ph": "X", "ts": 9, "dur": 1, "pid": 4711},
    {"name": "PP:0F0", "ph": "X", "ts": 1, "dur": 1, "pid": 999}]})");
  auto ranks = read_trace_ranks(dir.file("all.json"));
  REQUIRE(ranks.size() == 2);
  CHECK(ranks[0].front().name == "0F0");
  CHECK(ranks[1].front().name == "1F0");
  CHECK(ranks[1].front().rank == 1);
}

TEST_CASE("a directory: ranks from otherData.rank or the file name; gaps and bad names refused", "[trace][formats]") {
  TempDir dir;
  write_text(dir.file("trace_a.json"), R"({"otherData": {"rank": 1}, "traceEvents": [
    {"name": "PP:1F0", "ph": "X", "ts": 9, "dur": 1, "pid": 7}]})");
  write_text(dir.file("worker0.json"), R"([{"name": "PP:0F0", "ph": "X", "ts": 1, "dur": 1, "pid": 8}])");
  auto ranks = read_trace_ranks(dir.path.string());
  REQUIRE(ranks.size() == 2);
  CHECK(ranks[1].front().name == "1F0");

  write_text(dir.file("worker3.json"), R"([{"name": "PP:3F0", "ph": "X", "ts": 1, "dur": 1}])");
  CHECK_THROWS_WITH(read_trace_ranks(dir.path.string()), Catch::Contains("no trace of rank 2"));

  CHECK_THROWS_WITH(read_traced_actions(R"([{"name": "PP:forward", "ph": "X", "ts": 1, "dur": 1}])", "x.json", 0),
                    Catch::Contains("x.json") && Catch::Contains("traceEvents[0].name") &&
                        Catch::Contains("PP:<stage><action><micro-batch>"));
  CHECK_THROWS_WITH(read_traced_actions(R"([{"name": "PP:0F0", "ph": "X", "ts": 1}])", "x.json", 0),
                    Catch::Contains("no numeric ts and dur"));
  CHECK_THROWS_AS(read_traced_actions(R"({"events": []})", "x.json", 0), InputError);
  CHECK_THROWS_WITH(read_trace_ranks(dir.file("nowhere")), Catch::Contains("no such trace"));
}

TEST_CASE("a recompute range is read inside its backward; a malformed one is named", "[trace][formats]") {
  const std::string text = R"([
    {"name": "PP:1B2", "ph": "X", "ts": 10, "dur": 8, "pid": 0, "tid": 1},
    {"name": "tessel:recompute 1F2", "ph": "X", "ts": 10, "dur": 3, "pid": 0, "tid": 1}])";
  auto actions = read_traced_actions(text, "t.json", 1);
  REQUIRE(actions.size() == 2);
  CHECK(actions[0].name == "1B2");  // the outer, longer range first at a tie
  CHECK(actions[1].name == "tessel:recompute 1F2");
  CHECK(actions[1].kind == kRecomputeKind);
  CHECK(actions[1].stage == 1);
  CHECK(actions[1].micro == 2);
  const std::string bad = R"([{"name": "tessel:recompute 1B2", "ph": "X", "ts": 10, "dur": 3}])";
  CHECK_THROWS_WITH(read_traced_actions(bad, "t.json", 1),
                    Catch::Contains("traceEvents[0].name") && Catch::Contains("tessel:recompute <stage>F<micro-batch>"));
}
