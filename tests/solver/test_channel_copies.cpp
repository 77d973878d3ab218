// Copies laid onto the channels of a fixed schedule
// (solver/solve/channel_copies.hpp): each copy out after its forward, each
// copy in as late as its `before` block allows, one copy at a time per
// channel, and no room reported as such.
#include <catch2/catch.hpp>

#include "solver/solve/channel_copies.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// f0 (device 0, holds 1) -> f1 (device 1) -> b1 (device 1) -> b0 (device 0),
// f0 offering copies of `copy` ticks before b0; micro-batch m starts at 4 m.
Schedule two_devices(Time copy, int nmicros) {
  Placement placement;
  placement.ndevs = 2;
  testing::add_block(placement, "f0", {0}, 1, 1);
  testing::add_block(placement, "f1", {1}, 1, 1);
  testing::add_block(placement, "b1", {1}, 1, -1);
  testing::add_block(placement, "b0", {0}, 1, -1);
  placement.blocks[2].kind = placement.blocks[3].kind = BlockKind::Backward;
  placement.edges = {{0, 1}, {1, 2}, {2, 3}};
  placement.blocks[0].offload = OffloadOffer{copy, copy, 3};
  Schedule schedule = empty_schedule(placement, {}, nmicros);
  for (int m = 0; m < nmicros; ++m)
    for (int b = 0; b < 4; ++b) schedule.instances.push_back({b, m, 4 * m + b + (b == 3 ? 4 : 0)});
  sort_instances(schedule);
  return schedule;
}

}  // namespace

TEST_CASE("copies laid on the channels pass the verifier, copy ins as late as allowed", "[solver][memory-choice][offload]") {
  Schedule schedule = two_devices(2, 3);  // f0 ends at 4m + 1, b0 starts at 4m + 7
  REQUIRE(lay_copies(schedule, {{0, 0}, {0, 1}, {0, 2}}));
  CHECK(schedule.transfers.size() == 6);
  const verify::Report report = testing::verify_schedule(schedule);
  for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
  for (const Transfer& copy : schedule.transfers)
    if (copy.direction == TransferDirection::In) CHECK(copy.start + 2 <= 4 * copy.micro + 7);
}

TEST_CASE("copies that find no room are reported", "[solver][memory-choice][offload]") {
  Schedule schedule = two_devices(4, 2);  // 6 ticks between f0's end and b0's start, 8 of copies
  CHECK_FALSE(lay_copies(schedule, {{0, 0}, {0, 1}}));
}
