// The one-device relaxation of the makespan bound
// (solver/makespan/bounds/device_relaxation): one device over the whole horizon,
// the others relaxed to delays. It must never pass an optimum the full
// solver proves (hand-made families at their own peaks, random pipelines
// under tight memory), both backends must agree where both decide, it must
// see what the closed bounds miss, and the search's report must name it.
#include <catch2/catch.hpp>

#include <random>

#include "solver/makespan/bounds/device_relaxation.hpp"
#include "solver/makespan/bounds/solved_bounds.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::FamilyRow;
using tessel::testing::for_each_proven_family;
using tessel::testing::hand_made;
using tessel::testing::relaxation_input;
using tessel::testing::HandMade;
using tessel::testing::proven_full;
using tessel::testing::proven_round;
using tessel::testing::ProvenRound;
using tessel::testing::verify_schedule;

TEST_CASE("device relaxation: the least makespan of one device, worked by hand", "[makespan]") {
  // f0 b0 on device 0, f1 b1 on device 1 between them, span 1; each forward
  // allocates 1 that its backward frees.
  const Placement placement = testing::block_chain("two-device chain", 2, {"f0", "f1", "b1", "b0"}, {0, 1, 1, 0},
                                                   {1, 1, 1, 1}, {1, 1, -1, -1});
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    DeviceRelaxationInput input = relaxation_input(placement, 4, {1, 1}, 20, backend);
    input.floor = 1;
    // Device 0 holds one micro-batch: f0 at 0, b0 three steps later (the
    // lag through device 1), the next f0 only after b0 has freed: 4 steps a
    // micro-batch, 16 for 4.
    CHECK(device_relaxation_least(input, 0) == 16);
    // Device 1 alone: f1 at 1 (after the first f0), b1, f1, ... two steps a
    // micro-batch from step 1, the last b1 at 8 and b0 after it: 10.
    CHECK(device_relaxation_least(input, 1) == 10);
    const DeviceRelaxation both = device_relaxation_bound(input);
    CHECK(both.value == 16);
    CHECK(both.device == 0);
    CHECK(both.complete);
    // Without limits device 0 is busy from 0 to its load, 8 steps.
    input.limits.clear();
    CHECK(device_relaxation_least(input, 0) == 8);
  }
}

TEST_CASE("device relaxation: never above the full solver's proven optimum of hand-made families at small N",
          "[makespan][full]") {
  const std::vector<FamilyRow> rows = {{"interleaved-1f1b", 2, 4, 2, 2, 1}, {"interleaved-zb", 2, 4, 2, 2, 1},
                                       {"v-min", 2, 4, 2, 2, 1},            {"v-half", 2, 4, 1, 1, 1},
                                       {"v-half", 2, 6, 1, 1, 1},           {"zb-v", 2, 4, 1, 2, 2},
                                       {"zb-h2", 4, 8, 2, 2, 1},            {"zb-h1", 4, 6, 2, 2, 1},
                                       {"1f1b", 3, 6, 3, 2, 1},             {"interleaved-1f1b", 4, 4, 2, 2, 1}};
  int compared = 0;
  for_each_proven_family(rows, [&](const FamilyRow& row, const HandMade& made, int nmicros,
                                   const std::vector<Memory>& limits, const SearchResult& optimum) {
    const DeviceRelaxation sat =
        device_relaxation_bound(relaxation_input(made.placement, nmicros, limits, makespan(made.schedule)));
    CHECK(sat.complete);
    CHECK(sat.value <= optimum.makespan);
    ++compared;
    if (row.stages > 2) return;
    // Z3 decides the same questions to the same answer.
    const DeviceRelaxation smt =
        device_relaxation_bound(relaxation_input(made.placement, nmicros, limits, makespan(made.schedule), "z3"));
    CHECK(smt.value <= optimum.makespan);
    if (smt.complete) CHECK(smt.value == sat.value);
  });
  CHECK(compared == 20);
}

TEST_CASE("device relaxation: sees what the closed bounds and the ends miss; the report names it", "[makespan][full]") {
  // V-Min, 4 stages, F=2 B=2 W=1, 8 micro-batches at the hand-made peaks
  // (117 steps): the last device fills its memory with the first forwards
  // and must wait for the round trip before it frees any, and again at the
  // end. The closed bounds see 103 and the exact ends 105 (2 s); device 3
  // alone, with the others relaxed, needs 109; the full solver proves 113.
  HandMade made = hand_made("v-min", 4, 8, 2, 2, 1);
  const long long closed = makespan_lower_bound(made.placement, 8, made.peaks);
  SearchResult optimum = proven_full(made.placement, 8, made.peaks, "cadical");
  REQUIRE(optimum.status == SearchStatus::Found);
  REQUIRE(optimum.makespan == optimum.proven_lower_bound);
  CHECK(verify_schedule(*optimum.schedule).valid);
  const DeviceRelaxation relaxed =
      device_relaxation_bound(relaxation_input(made.placement, 8, made.peaks, makespan(made.schedule)));
  CHECK(relaxed.complete);
  CHECK(relaxed.value > closed);
  CHECK(relaxed.value <= optimum.makespan);
  CHECK(relaxed.device == 3);
  // Through the search's options: the bound names the argument and device.
  SearchOptions options;
  options.memory_limit = made.peaks;
  options.relaxation_seconds = 60;
  options.ends_seconds = 0;  // the exact ends (on by default) would raise it too
  options.deadline = Deadline::after_seconds(120);
  const MakespanBound raised = raised_by_solved_bounds(made.placement, 8, options, makespan(made.schedule),
                                                       makespan_bound(made.placement, 8, made.peaks), {1.0});
  CHECK(raised.value == relaxed.value);
  CHECK(raised.argument == BoundArgument::DeviceRelaxation);
  CHECK(raised.device == 3);
  // Off, or with the schedule in hand at the bound, nothing is asked.
  options.relaxation_seconds = 0;
  CHECK(raised_by_solved_bounds(made.placement, 8, options, makespan(made.schedule),
                                makespan_bound(made.placement, 8, made.peaks), {1.0})
            .value == closed);
  options.relaxation_seconds = 60;
  CHECK(raised_by_solved_bounds(made.placement, 8, options, closed, makespan_bound(made.placement, 8, made.peaks), {1.0})
            .argument != BoundArgument::DeviceRelaxation);
}

TEST_CASE("device relaxation: never above the proven optimum of random pipelines under tight memory",
          "[makespan][full]") {
  std::mt19937 random(20261126);
  int compared = 0;
  for (int round = 0; round < 24; ++round) {
    INFO("round " << round);
    const std::optional<ProvenRound> proven = proven_round(random, round);
    if (!proven) continue;
    const SearchResult& optimum = proven->optimum;
    const DeviceRelaxationInput input =
        relaxation_input(proven->placement, proven->nmicros, proven->limits, optimum.makespan);
    const DeviceRelaxation sat = device_relaxation_bound(input);
    CHECK(sat.value <= optimum.makespan);
    ++compared;
    if (round % 3 != 1) continue;
    const DeviceRelaxation smt = device_relaxation_bound(
        relaxation_input(proven->placement, proven->nmicros, proven->limits, optimum.makespan, "z3"));
    CHECK(smt.value <= optimum.makespan);
    if (smt.complete && sat.complete) CHECK(smt.value == sat.value);
  }
  CHECK(compared >= 20);
}

TEST_CASE("device relaxation: proves the hand-made V-Min on 16 stages optimal at 16 micro-batches", "[makespan]") {
  // Too large for the full solver; the closed bounds say 12 less, the exact
  // ends nothing more. Device 15 alone needs the hand-made 155.
  HandMade made = hand_made("v-min", 16, 16, 1, 1, 1);
  DeviceRelaxationInput input = relaxation_input(made.placement, 16, made.peaks, makespan(made.schedule));
  input.first_device = 15;
  input.hint = &made.schedule;
  CHECK(input.floor < makespan(made.schedule));
  const DeviceRelaxation relaxed = device_relaxation_bound(input);
  CHECK(relaxed.value == makespan(made.schedule));
  CHECK(relaxed.device == 15);
}
