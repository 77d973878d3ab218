// The shift search in the schedule's time unit (solver/makespan/improvements/
// time_unit.hpp): a placement whose times are the unit one's x1000 gets the
// same questions at the same cost, so the end transfer reaches the same
// makespan x1000; a span off the grid leaves the ticks as they are.
#include <catch2/catch.hpp>

#include "solver/makespan/improvements/end_transfer.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "solver/makespan/improvements/time_unit.hpp"
#include "tests/solver/pipelines.hpp"

using namespace tessel;
using testing::checked_within;
using testing::hand_start;
using testing::options_for;
using testing::times;

namespace {


}  // namespace

TEST_CASE("time unit: the largest divisor of every time, 1 off the grid", "[makespan][time-unit]") {
  const testing::HandMade hand = testing::hand_made("interleaved-zb", 4, 8, 2, 2, 2);
  const Schedule start = hand_start(hand);
  CHECK(time_unit(start) == 2);
  const Schedule scaled = times(start, 1000);
  CHECK(time_unit(scaled) == 2000);
  const Schedule back = divided_by(scaled, 2000);
  CHECK(makespan(back) * 2000 == makespan(scaled));
  CHECK(makespan(multiplied_by(back, 2000)) == makespan(scaled));
  Schedule off = scaled;
  off.placement.blocks[0].span += 1;  // a measured span off the grid
  CHECK(time_unit(off) == 1);
}

TEST_CASE("time unit: the end transfer at x1000 reaches the x1 makespan x1000 with the same encodings",
          "[makespan][transfer][time-unit]") {
  // The first end-transfer test's case (test_makespan_end_transfer.cpp):
  // interleaved zero bubble, 8 stages, F=2 B=2 W=1, the hand-made N 32's
  // peaks as limits; at x1 the shift search takes N 16 from 181 to 179 and
  // the splice N 32 from 341 to 339. Ticks at x1000 held 1000x the steps.
  const testing::HandMade large = testing::hand_made("interleaved-zb", 8, 32, 2, 2, 1);
  const testing::HandMade small_hand = testing::hand_made("interleaved-zb", 8, 16, 2, 2, 1);
  Schedule hand16 = hand_start(small_hand);
  hand16.placement = large.placement;
  hand16.memory_limit = large.peaks;
  const Schedule hand32 = hand_start(large);

  ShiftStats unit_stats;
  const Schedule small = improve_by_shifts(hand16, options_for("cadical", large.peaks, 120), 179, &unit_stats);
  REQUIRE(checked_within(small, large.peaks).makespan == 179);

  const Schedule hand16k = times(hand16, 1000);
  const Schedule hand32k = times(hand32, 1000);
  REQUIRE(checked_within(hand32k, large.peaks).makespan == 341000);
  ShiftStats scaled_stats;
  int offered = 0;
  const Schedule small_k = improve_by_shifts(hand16k, options_for("cadical", large.peaks, 120), 179000,
                                             &scaled_stats, [&offered](const Schedule& shorter) {
                                               ++offered;
                                               CHECK(makespan(shorter) % 1000 == 0);  // offered in ticks
                                             });
  CHECK(checked_within(small_k, large.peaks).makespan == 179000);
  CHECK(scaled_stats.encodings == unit_stats.encodings);
  CHECK(scaled_stats.improvements == unit_stats.improvements);
  CHECK(offered == scaled_stats.improvements);

  const std::optional<Schedule> spliced = transfer_ends(hand32k, small_k, Deadline::after_seconds(120));
  REQUIRE(spliced);
  CHECK(checked_within(*spliced, large.peaks).makespan == 339000);
}
