// Unrolling repetend schedules (model/unroll.hpp): a hand-written 1F1B
// schedule on 2 devices unrolled to several N passes the verifier and its
// makespan grows by exactly the period per micro-batch; k = 2 windows,
// shrinking, and the rejections.
#include <catch2/catch.hpp>

#include "model/input_error.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::unroll_error;

namespace {

Placement vshape2() {
  return placement_from_json(nlohmann::json::parse(R"({
    "format": "tessel.placement/1", "name": "v2", "ndevs": 2,
    "blocks": [ {"id": "f0", "kind": "forward", "span": 1, "memory": 1, "devices": [0]},
                {"id": "f1", "kind": "forward", "span": 1, "memory": 1, "devices": [1]},
                {"id": "b1", "kind": "backward", "span": 3, "memory": -1, "devices": [1]},
                {"id": "b0", "kind": "backward", "span": 3, "memory": -1, "devices": [0]} ],
    "edges": [ ["f0", "f1"], ["f1", "b1"], ["b1", "b0"] ] })"),
                             JsonPlace{"v2", ""});
}

// Micro-batch m runs f0 at 4m, f1 at 4m+1, b1 at 4m+2, b0 at 4m+5: period 4
// = L, at most 2 activations per device. `nmicros` micro-batches, window
// [start, start + 4k) claimed with period 4k and k micro-batches.
Schedule modulo_vshape(int nmicros, int window_start, int k) {
  Schedule schedule;
  schedule.placement = vshape2();
  schedule.memory_limit = {2, 2};
  schedule.nmicros = nmicros;
  const int offset[] = {0, 1, 2, 5};
  for (int micro = 0; micro < nmicros; ++micro)
    for (int block = 0; block < 4; ++block) schedule.instances.push_back({block, micro, 4 * micro + offset[block]});
  schedule.repetend = Repetend{window_start, window_start + 4 * k, 4 * k, k};
  sort_instances(schedule);
  return schedule;
}

// Warmup f0 f1, window [2, 6) one copy of each block, a cooldown whose b1
// starts one step later than the steady state would (so it is no copy).
Schedule late_cooldown_vshape() {
  Schedule schedule;
  schedule.placement = vshape2();
  schedule.memory_limit = {2, 2};
  schedule.nmicros = 2;
  schedule.instances = {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {0, 1, 4}, {1, 1, 5}, {3, 0, 5}, {2, 1, 7}, {3, 1, 10}};
  schedule.repetend = Repetend{2, 6, 4, 1};
  sort_instances(schedule);
  return schedule;
}

void require_valid(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

}  // namespace

TEST_CASE("unrolling a window that is already repeated grows and shrinks it", "[unroll]") {
  Schedule schedule = modulo_vshape(3, 4, 1);
  require_valid(schedule);
  CHECK(makespan(schedule) == 16);
  // Micro-batch 2 is a full copy of the window [4, 8), so 2 is reachable.
  CHECK(smallest_unroll(schedule) == 2);
  for (int nmicros : {2, 3, 4, 7, 16}) {
    INFO("N = " << nmicros);
    Schedule unrolled = unroll(schedule, nmicros);
    CHECK(unrolled.nmicros == nmicros);
    CHECK(unrolled.instances.size() == 4u * nmicros);
    CHECK(makespan(unrolled) == 16 + 4 * (nmicros - 3));
    REQUIRE(unrolled.repetend);
    CHECK(unrolled.repetend->start == 4);
    CHECK(unrolled.repetend->end == 4 + 4 * (nmicros - 1));  // all copies of the period claimed
    CHECK(unrolled.repetend->period == 4);
    require_valid(unrolled);
    // The result unrolls again, to the same thing.
    CHECK(schedule_to_json(unroll(unrolled, 5)) == schedule_to_json(unroll(schedule, 5)));
  }
}

TEST_CASE("a cooldown that is not a copy moves by one period per micro-batch", "[unroll]") {
  Schedule schedule = late_cooldown_vshape();
  require_valid(schedule);
  CHECK(makespan(schedule) == 13);
  CHECK(smallest_unroll(schedule) == 2);
  int previous = makespan(schedule);
  for (int nmicros = 3; nmicros <= 9; ++nmicros) {
    Schedule unrolled = unroll(schedule, nmicros);
    INFO("N = " << nmicros);
    require_valid(unrolled);
    CHECK(makespan(unrolled) == previous + 4);
    previous = makespan(unrolled);
  }
}

TEST_CASE("a Python-style window longer than its period repeats with unroll_window", "[unroll]") {
  Schedule schedule = late_cooldown_vshape();
  const Repetend wide{2, 7, 4, 1};  // one copy of every block in 5 steps, repeating every 4
  schedule.repetend = wide;
  CHECK_THAT(unroll_error(schedule, 4), Catch::Contains("repetend") && Catch::Contains("whole number of periods"));
  schedule.repetend.reset();
  CHECK(smallest_window_unroll(schedule, wide) == 2);
  for (int nmicros : {2, 3, 6}) {
    Schedule unrolled = unroll_window(schedule, wide, nmicros);
    INFO("N = " << nmicros);
    CHECK_FALSE(unrolled.repetend);
    CHECK(makespan(unrolled) == 13 + 4 * (nmicros - 2));
    require_valid(unrolled);
  }
}

TEST_CASE("a window of two micro-batches unrolls in steps of two, and cut anywhere", "[unroll]") {
  Schedule schedule = modulo_vshape(4, 4, 2);
  require_valid(schedule);
  CHECK(smallest_unroll(schedule) == 4);
  for (int nmicros : {4, 6, 10}) {
    Schedule unrolled = unroll(schedule, nmicros);
    INFO("N = " << nmicros);
    require_valid(unrolled);
    CHECK(makespan(unrolled) == makespan(schedule) + 4 * (nmicros - 4));
  }
  // Other counts drop micro-batches of the next whole-window schedule: the
  // partial window of 5 is the schedule of 6 without micro-batch 5.
  for (int nmicros : {1, 2, 3, 5, 7}) {
    Schedule unrolled = unroll(schedule, nmicros);
    INFO("N = " << nmicros);
    CHECK(unrolled.nmicros == nmicros);
    require_valid(unrolled);
  }
  CHECK(whole_window_count(schedule, 5) == 6);
  CHECK(whole_window_count(schedule, 2) == 4);
  CHECK(makespan(unroll(schedule, 5)) == 4 * 4 + 5 + 3);  // micro-batch 4 ends with b0 at 4*4+5
  // The window [4, 12) runs micro-batches 1-2 of f0, f1, b1 and 0-1 of b0:
  // whole with 3 micro-batches, cut with 2.
  REQUIRE(unroll(schedule, 3).repetend);
  CHECK(unroll(schedule, 3).repetend->end == 12);
  CHECK_FALSE(unroll(schedule, 2).repetend);
  REQUIRE(unroll(schedule, 7).repetend);
  CHECK(unroll(schedule, 7).repetend->end == 4 + 3 * 8);  // micro-batch 6 is the last of the third window
  REQUIRE(unroll(schedule, 6).repetend);
  CHECK(unroll(schedule, 6).repetend->end == 4 + 2 * 8);
  CHECK_THAT(unroll_error(schedule, 0), Catch::Contains("--nmicros") && Catch::Contains("at least 1"));
}

TEST_CASE("unroll rejects schedules without a usable repetend", "[unroll]") {
  Schedule schedule = modulo_vshape(3, 4, 1);
  SECTION("no repetend") {
    schedule.repetend.reset();
    CHECK_THAT(unroll_error(schedule, 5), Catch::Contains("repetend") && Catch::Contains("no repetend"));
  }
  SECTION("a window missing a block") {
    schedule.repetend = Repetend{4, 6, 2, 1};
    CHECK_THAT(unroll_error(schedule, 5), Catch::Contains("repetend") && Catch::Contains("block 'b1'"));
  }
  SECTION("a window holding a block twice") {
    schedule.repetend = Repetend{4, 9, 5, 1};
    CHECK_THAT(unroll_error(schedule, 5), Catch::Contains("block 'f0'") && Catch::Contains("exactly 1"));
  }
  SECTION("a window that is not whole periods") {
    schedule.repetend = Repetend{4, 10, 4, 1};
    CHECK_THAT(unroll_error(schedule, 5), Catch::Contains("repetend") && Catch::Contains("whole number of periods"));
  }
  SECTION("more micro-batches than memory allows") {
    CHECK_THAT(unroll_error(schedule, 10000000), Catch::Contains("--nmicros") && Catch::Contains("instances"));
  }
  SECTION("no micro-batch at all") {
    CHECK_THAT(unroll_error(schedule, 0), Catch::Contains("--nmicros") && Catch::Contains("at least 1"));
  }
}

TEST_CASE("tessel unroll writes a schedule the verifier accepts", "[unroll][cli]") {
  testing::TempDir dir;
  write_schedule_file(dir.file("v.json"), late_cooldown_vshape());
  auto result = testing::run_tessel("unroll " + dir.file("v.json") + " --nmicros 6 -o " + dir.file("u.json"));
  REQUIRE(result.exit_code == 0);
  Schedule unrolled = read_schedule_file(dir.file("u.json"));
  CHECK(unrolled.nmicros == 6);
  CHECK(makespan(unrolled) == 13 + 4 * 4);
  require_valid(unrolled);

  auto to_stdout = testing::run_tessel("unroll " + dir.file("v.json") + " --nmicros 3");
  REQUIRE(to_stdout.exit_code == 0);
  CHECK(schedule_from_json(nlohmann::json::parse(to_stdout.out), JsonPlace{"stdout", ""}).nmicros == 3);

  // Fewer micro-batches than the warmup and cooldown hold: the schedule of 2
  // without micro-batch 1, with no whole window left to claim.
  auto one = testing::run_tessel("unroll " + dir.file("v.json") + " --nmicros 1 -o " + dir.file("one.json"));
  REQUIRE(one.exit_code == 0);
  Schedule single = read_schedule_file(dir.file("one.json"));
  CHECK(single.nmicros == 1);
  CHECK_FALSE(single.repetend);
  require_valid(single);
  auto none = testing::run_tessel("unroll " + dir.file("v.json") + " --nmicros 0");
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("--nmicros") && Catch::Contains("at least 1"));

  Schedule plain = late_cooldown_vshape();
  plain.repetend.reset();
  write_schedule_file(dir.file("plain.json"), plain);
  auto no_repetend = testing::run_tessel("unroll " + dir.file("plain.json") + " --nmicros 4");
  CHECK(no_repetend.exit_code == 2);
  CHECK_THAT(no_repetend.err, Catch::Contains(dir.file("plain.json")) && Catch::Contains("no repetend"));
  CHECK(testing::run_tessel("unroll " + dir.file("v.json")).exit_code == 2);  // --nmicros missing
  CHECK(testing::run_tessel("unroll --help").exit_code == 0);
}

// A window of k = 2 copies whose copies have different offsets: the window
// runs micro-batches 0 and 3 of the one block (classes 0 and 1 modulo 2),
// micro-batch 1 ran before it and 2 runs after. The verifier accepts the
// claim; unroll must too, advancing each class by 2 per period (the repetend
// search writes such windows when the copies' offsets differ).
TEST_CASE("unroll: a k = 2 window on non-consecutive micro-batches", "[unroll][windows]") {
  Schedule schedule;
  schedule.placement = placement_from_json(nlohmann::json::parse(R"({
    "format": "tessel.placement/1", "name": "one", "ndevs": 1,
    "blocks": [ {"id": "a", "kind": "forward", "span": 1, "memory": 0, "devices": [0]} ],
    "edges": [] })"),
                                           JsonPlace{"one", ""});
  schedule.nmicros = 4;
  schedule.instances = {{0, 1, 0}, {0, 0, 1}, {0, 3, 2}, {0, 2, 3}};
  schedule.repetend = Repetend{1, 3, 2, 2};
  require_valid(schedule);
  for (int nmicros : {4, 6, 7, 64, 1, 2, 3}) {
    INFO("N = " << nmicros);
    Schedule unrolled = unroll(schedule, nmicros);
    CHECK(unrolled.nmicros == nmicros);
    CHECK(unrolled.instances.size() == static_cast<size_t>(nmicros));
    require_valid(unrolled);
  }
  // Two micro-batches of one class in the window would run one twice.
  schedule.instances = {{0, 1, 0}, {0, 0, 1}, {0, 2, 2}, {0, 3, 3}};
  CHECK_THAT(unroll_error(schedule, 6), Catch::Contains("equal modulo"));
}
