// The text timeline (`tessel show`, model/timeline_text) and the command-line
// handling of show's input: the exact rendering of a small schedule, cut
// long schedules, collisions made visible, and usage errors with exit 2.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// 1F1B on 2 devices, micro-batch m: f0 at 4m, f1 at 4m+1, b1 at 4m+2, b0 at 4m+5.
Schedule vshape_schedule(int nmicros) {
  Schedule schedule;
  schedule.placement = make_case("vshape", 2, false);  // f0 f1 b1 b0
  schedule.memory_limit = {2, 2};
  schedule.nmicros = nmicros;
  const int offset[] = {0, 1, 2, 5};
  for (int micro = 0; micro < nmicros; ++micro)
    for (int block = 0; block < 4; ++block) schedule.instances.push_back({block, micro, 4 * micro + offset[block]});
  schedule.repetend = Repetend{4, 8, 4, 1};
  sort_instances(schedule);
  return schedule;
}

}  // namespace

TEST_CASE("the timeline shows kind and micro-batch per step, idle steps and the repetend", "[timeline]") {
  CHECK(render_timeline(vshape_schedule(3)) ==
        "      0                                                 10\n"
        "dev 0 f0:0 .    .    .   |f0:1 b0:0 b0:0 b0:0|f0:2 b0:1 b0:1 b0:1 .    b0:2 b0:2 b0:2\n"
        "dev 1 .    f1:0 b1:0 b1:0|b1:0 f1:1 b1:1 b1:1|b1:1 f1:2 b1:2 b1:2 b1:2 .    .    .\n"
        "key: BLOCK:MICRO-BATCH per step (f0:0 = block f0 of micro-batch 0), . idle, # several at once, "
        "| repetend start/end\n"
        "blocks: f0 forward, f1 forward, b1 backward, b0 backward\n");
}

TEST_CASE("the timeline cuts long schedules and widens cells for large micro-batch numbers", "[timeline]") {
  Schedule schedule = vshape_schedule(12);
  std::string text = render_timeline(schedule, 8);
  CHECK(text ==
        "      0\n"
        "dev 0 f0:0  .     .     .    |f0:1  b0:0  b0:0  b0:0 |\n"
        "dev 1 .     f1:0  b1:0  b1:0 |b1:0  f1:1  b1:1  b1:1 |\n"
        "(showing steps 0..7 of 52)\n"
        "key: BLOCK:MICRO-BATCH per step (f0:0 = block f0 of micro-batch 0), . idle, # several at once, "
        "| repetend start/end\n"
        "blocks: f0 forward, f1 forward, b1 backward, b0 backward\n");
}

TEST_CASE("the timeline marks two instances on one step and spans all devices of a block", "[timeline]") {
  Schedule schedule;
  schedule.placement = make_case("mshape", 2, true);  // fs (both devices), f0, f1
  schedule.nmicros = 2;
  schedule.instances = {{0, 0, 0}, {1, 0, 1}, {2, 0, 2}, {0, 1, 2}, {1, 1, 3}, {2, 1, 4}};
  CHECK(render_timeline(schedule) ==
        "      0\n"
        "dev 0 fs:0 f0:0 fs:1 f0:1 .\n"
        "dev 1 fs:0 .    #    .    f1:1\n"
        "key: BLOCK:MICRO-BATCH per step (fs:0 = block fs of micro-batch 0), . idle, # several at once, "
        "| repetend start/end\n"
        "blocks: fs forward, f0 forward, f1 forward\n");
}

TEST_CASE("tessel show prints a summary and the timeline; bad usage exits 2", "[timeline][cli]") {
  testing::TempDir dir;
  write_schedule_file(dir.file("v.json"), vshape_schedule(3));
  auto shown = testing::run_tessel("show " + dir.file("v.json"));
  REQUIRE(shown.exit_code == 0);
  CHECK_THAT(shown.out, Catch::Contains("2 devices, 3 micro-batches, makespan 16") &&
                            Catch::Contains("repetend [4, 8) period 4") &&
                            Catch::Contains("dev 0 f0:0 .    .    .   |f0:1 b0:0 b0:0 b0:0|f0:2 b0:1"));
  auto cut = testing::run_tessel("show " + dir.file("v.json") + " --max-steps 4");
  REQUIRE(cut.exit_code == 0);
  CHECK_THAT(cut.out, Catch::Contains("showing steps 0..3 of 16"));

  auto negative = testing::run_tessel("show " + dir.file("v.json") + " --max-steps -1");
  CHECK(negative.exit_code == 2);
  CHECK_THAT(negative.err, Catch::Contains("--max-steps"));
  auto missing = testing::run_tessel("show");
  CHECK(missing.exit_code == 2);
  auto unknown_option = testing::run_tessel("show " + dir.file("v.json") + " --colour");
  CHECK(unknown_option.exit_code == 2);
  auto help = testing::run_tessel("show --help");
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("--max-steps"));
}
