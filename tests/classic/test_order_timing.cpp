// The shared order timing (classic/order_timing.hpp): edge delays, blocks on
// several devices, lower bounds, and orders that can never run reported as
// impossible. Every schedule it produces goes through the verifier.
#include <catch2/catch.hpp>

#include <random>

#include "classic/order_execution.hpp"
#include "classic/order_timing.hpp"
#include "tests/solver/random_pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;
using namespace tessel::classic;

namespace {

// a (device 0, span 2) -> delay 1 -> t (devices 0 and 1, span 3) -> delay 2 -> c (device 2, span 1).
Placement delayed_tensor_parallel() {
  Placement placement;
  placement.name = "delays and a tensor-parallel block";
  placement.ndevs = 3;
  testing::add_block(placement, "a", {0}, 2, 0);
  testing::add_block(placement, "t", {0, 1}, 3, 0);
  testing::add_block(placement, "c", {2}, 1, 0);
  placement.edges = {{0, 1, 1}, {1, 2, 2}};
  return placement;
}

Schedule schedule_of(const Placement& placement, int nmicros, const OrderTiming& timing) {
  Schedule schedule = empty_schedule(placement, {}, nmicros);
  schedule.instances = timing.instances;
  schedule.fused = timing.fused;
  sort_instances(schedule);
  return schedule;
}

Time start_of(const OrderTiming& timing, int block, int micro) {
  for (const Instance& instance : timing.instances)
    if (instance.block == block && instance.micro == micro) return instance.start;
  return -1;
}

}  // namespace

TEST_CASE("order timing: delays and a block on two devices", "[classic][order-timing]") {
  const Placement placement = delayed_tensor_parallel();
  const DeviceOrders orders = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{1, 0}, {1, 1}}, {{2, 0}, {2, 1}}};
  const OrderTiming timing = time_orders(placement, orders);
  REQUIRE(timing.possible());
  REQUIRE(timing.instances.size() == 6);
  CHECK(start_of(timing, 1, 0) == 3);   // a:0 ends at 2, plus the delay 1
  CHECK(start_of(timing, 0, 1) == 6);   // device 0 busy with t:0 until 6
  CHECK(start_of(timing, 1, 1) == 9);   // a:1 ends at 8, plus 1
  CHECK(start_of(timing, 2, 0) == 8);   // t:0 ends at 6, plus 2
  CHECK(start_of(timing, 2, 1) == 14);  // t:1 ends at 12, plus 2
  CHECK(testing::verify_schedule(schedule_of(placement, 2, timing)).valid);
  // The same through the checked entry point for orders from outside.
  CHECK(run_as_soon_as_possible(placement, orders).instances.size() == 6);
}

TEST_CASE("order timing: lower bounds on starts", "[classic][order-timing]") {
  const Placement placement = delayed_tensor_parallel();
  const DeviceOrders orders = {{{0, 0}, {1, 0}, {0, 1}, {1, 1}}, {{1, 0}, {1, 1}}, {{2, 0}, {2, 1}}};
  std::vector<Time> not_before(2 * placement.blocks.size(), 0);
  not_before[0 * 3 + 2] = 20;  // c:0 no earlier than 20
  const OrderTiming timing = time_orders(placement, orders, &not_before);
  REQUIRE(timing.possible());
  CHECK(start_of(timing, 2, 0) == 20);
  CHECK(start_of(timing, 2, 1) == 21);  // after c:0 on device 2
  CHECK(testing::verify_schedule(schedule_of(placement, 2, timing)).valid);
}

TEST_CASE("order timing: a cycle between orders and edges is impossible", "[classic][order-timing]") {
  const Placement placement = delayed_tensor_parallel();
  // t:0 listed before the a:0 it depends on.
  const DeviceOrders backwards = {{{1, 0}, {0, 0}}, {{1, 0}}, {{2, 0}}};
  const OrderTiming stuck = time_orders(placement, backwards);
  CHECK_FALSE(stuck.possible());
  REQUIRE(stuck.stuck.size() == 3);
  CHECK(stuck.stuck[0].head == OrderedInstance{1, 0});
  CHECK(stuck.stuck[0].waits_for.front().instance == OrderedInstance{0, 0});
  CHECK(stuck.stuck[0].waits_for.front().position == 1);
  CHECK_THROWS_AS(run_as_soon_as_possible(placement, backwards), DeadlockError);
  // The two devices of t list its micro-batches in opposite orders.
  const DeviceOrders crossed = {{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, {{1, 1}, {1, 0}}, {{2, 0}, {2, 1}}};
  const OrderTiming crossing = time_orders(placement, crossed);
  CHECK_FALSE(crossing.possible());
  // Device 1 heads t:1, which device 0 lists at position 3, behind t:0.
  bool names_other_device = false;
  for (const StuckDevice& device : crossing.stuck)
    for (const StuckDevice::Wait& wait : device.waits_for)
      names_other_device = names_other_device || (device.device == 1 && wait.device == 0 && wait.position == 3);
  CHECK(names_other_device);
  CHECK_THROWS_AS(run_as_soon_as_possible(placement, crossed), DeadlockError);
}

TEST_CASE("order timing: random pipelines timed from a micro-major order are valid", "[classic][order-timing]") {
  std::mt19937 random(47);
  for (int round = 0; round < 24; ++round) {
    const testing::RandomPipeline pipeline = testing::random_pipeline(random, round % 2 == 0);
    const Placement& placement = pipeline.placement;
    const int nmicros = 1 + round % 5;
    DeviceOrders orders(placement.ndevs);
    for (int micro = 0; micro < nmicros; ++micro)
      for (int block : topological_order(placement))
        for (int device : placement.blocks[block].devices) orders[device].push_back({block, micro});
    const OrderTiming timing = time_orders(placement, orders);
    INFO(pipeline.description << ", N " << nmicros);
    REQUIRE(timing.possible());
    // No limit: memory is the order's business, the timing rules are checked.
    const Schedule schedule = schedule_of(placement, nmicros, timing);
    const verify::Report report = testing::verify_schedule(schedule);
    CHECK(report.valid);
    if (!report.violations.empty()) FAIL_CHECK(report.violations.front().message);
    // Compacting the timed schedule again changes nothing: it is as early as its orders allow.
    const OrderTiming again = time_orders(placement, orders_by_start(schedule));
    REQUIRE(again.possible());
    const Schedule compact = schedule_of(placement, nmicros, again);
    REQUIRE(compact.instances.size() == schedule.instances.size());
    for (size_t i = 0; i < compact.instances.size(); ++i) CHECK(compact.instances[i].start == schedule.instances[i].start);
  }
}
