// The end transfer (solver/makespan/improvements/end_transfer.hpp): the shorter ends of
// a schedule of 16 micro-batches moved into a hand-made schedule of 32 on
// the same placement and limits. The result passes the verifier within the
// limits and holds every copy of every block once; the hand-made ends bring
// nothing; placements and schedules it does not handle give nothing.
#include <catch2/catch.hpp>

#include "solver/makespan/improvements/end_transfer.hpp"
#include "solver/makespan/improvements/shift_search.hpp"
#include "tests/solver/pipelines.hpp"

using namespace tessel;
using testing::checked_within;
using testing::hand_start;
using testing::options_for;

TEST_CASE("end transfer: the ends the shift search shortened at N 16 shorten the hand-made N 32",
          "[makespan][transfer]") {
  // Interleaved zero bubble, 8 stages, F=2 B=2 W=1, the limits the hand-made
  // N 32 peaks: hand-made 181 at N 16 and 341 at N 32 (experiment (g) tied
  // the latter in some runs). The shift search shortens N 16 to 179, which
  // it stops at; spliced into the N 32 order those ends give 339.
  const testing::HandMade large = testing::hand_made("interleaved-zb", 8, 32, 2, 2, 1);
  const testing::HandMade small_hand = testing::hand_made("interleaved-zb", 8, 16, 2, 2, 1);
  const Schedule hand32 = hand_start(large);
  REQUIRE(checked_within(hand32, large.peaks).makespan == 341);
  Schedule hand16 = hand_start(small_hand);
  hand16.placement = large.placement;
  hand16.memory_limit = large.peaks;
  REQUIRE(checked_within(hand16, large.peaks).makespan == 181);

  const Schedule small = improve_by_shifts(hand16, options_for("cadical", large.peaks, 120), 179);
  REQUIRE(checked_within(small, large.peaks).makespan == 179);
  TransferStats stats;
  const std::optional<Schedule> spliced = transfer_ends(hand32, small, Deadline::after_seconds(120), &stats);
  REQUIRE(spliced);
  CHECK(spliced->nmicros == 32);
  CHECK(spliced->instances.size() == hand32.instances.size());
  CHECK(checked_within(*spliced, large.peaks).makespan == 339);
  CHECK(stats.fitted >= 1);
  CHECK(stats.fitted <= stats.tried);

  // The hand-made N 16 has the hand-made ends: nothing shorter.
  CHECK_FALSE(transfer_ends(hand32, hand16, Deadline::after_seconds(120)));
  // Not from a larger N, not past the deadline.
  CHECK_FALSE(transfer_ends(small, hand32, Deadline::after_seconds(120)));
  CHECK_FALSE(transfer_ends(hand32, small, Deadline::after_seconds(0)));
}

TEST_CASE("end transfer: a block on two devices or a fused unit gives nothing", "[makespan][transfer]") {
  const testing::HandMade large = testing::hand_made("interleaved-zb", 4, 32, 1, 1, 1);
  const testing::HandMade small_hand = testing::hand_made("interleaved-zb", 4, 16, 1, 1, 1);
  Schedule hand32 = hand_start(large);
  Schedule hand16 = hand_start(small_hand);
  hand16.placement = large.placement;
  Schedule wide32 = hand32, wide16 = hand16;
  wide32.placement.blocks[0].devices = {0, 1};
  wide16.placement.blocks[0].devices = {0, 1};
  CHECK_FALSE(transfer_ends(wide32, wide16, Deadline::after_seconds(60)));
  Schedule fused16 = hand16;
  fused16.fused.push_back({{{0, 0}, {1, 0}}, 2});
  CHECK_FALSE(transfer_ends(hand32, fused16, Deadline::after_seconds(60)));
}
