// The ends of the one-device relaxation (solver/makespan/bounds/device_ends): the
// least idle a device must have in the first and last steps of a run. Every
// valid schedule is a schedule of both end problems, so the least idle can
// never pass a valid schedule's own idle there (checked on hand-made
// families, the full solver's optima and random pipelines, which puts the
// reversed memory count of the last end to the test); both backends agree
// where both decide; a chain worked by hand gives the exact values; and on
// a long run the ends prove what the whole relaxation cannot decide.
#include <catch2/catch.hpp>

#include <random>

#include "solver/makespan/bounds/device_ends.hpp"
#include "solver/makespan/bounds/device_relaxation.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::FamilyRow;
using tessel::testing::for_each_proven_family;
using tessel::testing::hand_made;
using tessel::testing::relaxation_input;
using tessel::testing::HandMade;
using tessel::testing::proven_round;
using tessel::testing::ProvenRound;
using tessel::testing::verify_schedule;

namespace {

// Idle steps of `device` in the first (`last`: final) `window` steps of
// `schedule`, counted from its instances.
long long idle_in(const Schedule& schedule, int device, long long window, bool last) {
  const Time end = makespan(schedule);
  const Time from = last ? end - window : 0, to = last ? end : window;
  long long busy = 0;
  for (const Instance& instance : schedule.instances) {
    const Block& block = schedule.placement.blocks[instance.block];
    if (std::find(block.devices.begin(), block.devices.end(), device) == block.devices.end()) continue;
    busy += std::max<Time>(0, std::min(to, instance.start + block.span) - std::max(from, instance.start));
  }
  return window - busy;
}

// The exact least idle (every question decided, bisection to the end).
long long least_idle(const DeviceRelaxationInput& input, int device, long long window, bool last) {
  return least_end_idle(input, device, window, last, {window + 1, -1, -1});
}

// For every device and a few windows within the makespan: the least idle
// at each end is at most `schedule`'s own idle there; returns the number
// of ends where it is above zero (the check says something).
int check_below_schedule(const DeviceRelaxationInput& input, const Schedule& schedule) {
  int positive = 0;
  const long long length = makespan(schedule);
  for (int device = 0; device < input.placement->ndevs; ++device)
    for (long long window : {3LL, 7LL, length / 3, length / 2})
      for (bool last : {false, true}) {
        if (window <= 0 || window > length) continue;
        INFO("device " << device << (last ? ", last " : ", first ") << window << " steps");
        const long long least = least_idle(input, device, window, last);
        CHECK(least <= idle_in(schedule, device, window, last));
        if (least > 0) ++positive;
      }
  return positive;
}

}  // namespace

TEST_CASE("device ends: the least idle at each end of a chain, worked by hand", "[makespan]") {
  // f0 b0 on device 0, f1 b1 on device 1 between them, span 1; each forward
  // allocates 1 that its backward frees; limit 1. Device 0 runs f0 at 0, b0
  // at 3 (the round trip through device 1), the next f0 at 4 once freed: 2
  // idle in every 4 steps, at the start and at the end alike (16 steps for
  // 4 micro-batches).
  const Placement placement = testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0},
                                                   {1, 1, 1, 1}, {1, 1, -1, -1});
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const DeviceRelaxationInput input = relaxation_input(placement, 4, {1, 1}, 16, backend);
    CHECK(least_idle(input, 0, 4, false) == 2);
    CHECK(least_idle(input, 0, 4, true) == 2);
    CHECK(least_idle(input, 0, 8, false) == 4);
    CHECK(least_idle(input, 0, 8, true) == 4);
    // Device 1 waits one step for the first f0 and ends one step before
    // the last b0: in 4 steps, f1 b1 f1 b1 after the first.
    CHECK(least_idle(input, 1, 4, false) == 1);
    CHECK(least_idle(input, 1, 4, true) == 1);
    // Without the limit device 0 runs its forwards back to back.
    DeviceRelaxationInput free = input;
    free.limits.clear();
    CHECK(least_idle(free, 0, 4, false) == 0);
  }
}

TEST_CASE("device ends: never above a valid schedule's own idle (hand-made families and their optima)",
          "[makespan][full]") {
  const std::vector<FamilyRow> rows = {{"v-min", 2, 4, 2, 2, 1}, {"v-half", 2, 6, 1, 1, 1}, {"zb-v", 2, 4, 1, 2, 2},
                                       {"zb-h1", 4, 6, 2, 2, 1}, {"1f1b", 3, 6, 3, 2, 1}};
  int positive = 0, compared = 0;
  for_each_proven_family(rows, [&](const FamilyRow& row, const HandMade& made, int nmicros,
                                   const std::vector<Memory>& limits, const SearchResult& optimum) {
    const DeviceRelaxationInput input = relaxation_input(made.placement, nmicros, limits, makespan(made.schedule));
    positive += check_below_schedule(input, made.schedule);
    positive += check_below_schedule(input, *optimum.schedule);
    // The bound from both ends stays at or below the optimum.
    for (int device = 0; device < made.placement.ndevs; ++device)
      CHECK(device_ends_bound(relaxation_input(made.placement, nmicros, limits, optimum.makespan), device) <=
            optimum.makespan);
    ++compared;
    if (row.stages > 2) return;
    // Z3 finds the same least idle.
    const DeviceRelaxationInput smt = relaxation_input(made.placement, nmicros, limits, makespan(made.schedule), "z3");
    const long long window = makespan(made.schedule) / 3;
    for (int device = 0; device < made.placement.ndevs; ++device)
      for (bool last : {false, true}) CHECK(least_idle(smt, device, window, last) == least_idle(input, device, window, last));
  });
  CHECK(compared == 10);
  CHECK(positive > 20);
}

TEST_CASE("device ends: never above the idle of random pipelines' optima under tight memory", "[makespan][full]") {
  std::mt19937 random(20261127);
  int compared = 0, positive = 0;
  for (int round = 0; round < 16; ++round) {
    INFO("round " << round);
    const std::optional<ProvenRound> proven = proven_round(random, round);
    if (!proven) continue;
    const DeviceRelaxationInput input =
        relaxation_input(proven->placement, proven->nmicros, proven->limits, proven->optimum.makespan);
    positive += check_below_schedule(input, *proven->optimum.schedule);
    for (int device = 0; device < proven->placement.ndevs; ++device)
      CHECK(device_ends_bound(input, device) <= proven->optimum.makespan);
    ++compared;
  }
  CHECK(compared >= 12);
  CHECK(positive > 0);
}

TEST_CASE("device ends: prove the hand-made V-Min on 16 stages optimal at 128 micro-batches", "[makespan]") {
  // The whole relaxation's horizon (827 steps, 768 copies) is not decided
  // in minutes; the closed bounds say 815. Device 15 must idle 35 steps in
  // its first 50 and 24 in its last 50: 768 + 35 + 24 = 827.
  HandMade made = hand_made("v-min", 16, 128, 1, 1, 1);
  DeviceRelaxationInput input = relaxation_input(made.placement, 128, made.peaks, makespan(made.schedule));
  input.hint = &made.schedule;
  REQUIRE(makespan(made.schedule) == 827);
  CHECK(input.floor < 827);
  CHECK(least_end_idle(input, 15, 50, false, {35, -1, 34}) == 35);
  CHECK(least_end_idle(input, 15, 50, true, {24, -1, 23}) == 24);
  CHECK(device_ends_bound(input, 15) == 827);
  // The relaxation asks the ends first on so long a run, and names device 15.
  input.first_device = 15;
  const DeviceRelaxation relaxed = device_relaxation_bound(input);
  CHECK(relaxed.value == 827);
  CHECK(relaxed.device == 15);
}
