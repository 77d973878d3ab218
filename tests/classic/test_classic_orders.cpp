// Running orders as soon as possible: timing, and deadlocks reported with the
// stuck devices and what each waits for.
#include <catch2/catch.hpp>

#include "classic/order_execution.hpp"
#include "classic/stage_graph.hpp"
#include "classic/timed_schedule.hpp"
#include "tests/support.hpp"

using namespace tessel;
using namespace tessel::classic;

namespace {

StageGraph two_stage_graph() {
  return uniform_stage_graph(2, loop_stage_map(2, 1), false, StageCosts{});
}

}  // namespace

TEST_CASE("the stage placement has the pipeline dependencies of the classic schedules", "[classic]") {
  StageGraph graph = uniform_stage_graph(2, v_stage_map(2), true, StageCosts{});
  StagePlacement stages = build_stage_placement(graph, "v");
  const Placement& placement = stages.placement;
  CHECK(placement.blocks.size() == 12);
  CHECK(placement.blocks[stages.forward_block[3]].devices == std::vector<int>{0});  // "v": stage 3 on rank 0
  CHECK(placement.blocks[stages.forward_block[2]].devices == std::vector<int>{1});
  auto has_edge = [&](int from, int to) {
    for (const Edge& edge : placement.edges)
      if (edge.from == from && edge.to == to) return true;
    return false;
  };
  CHECK(has_edge(stages.forward_block[0], stages.forward_block[1]));
  CHECK(has_edge(stages.forward_block[3], stages.backward_block[3]));
  CHECK(has_edge(stages.backward_block[3], stages.backward_block[2]));
  CHECK(has_edge(stages.backward_block[0], stages.weight_block[0]));
  CHECK_FALSE(has_edge(stages.weight_block[1], stages.backward_block[0]));  // W is off the critical path
  CHECK(placement.blocks[stages.weight_block[0]].kind == BlockKind::BackwardWeight);
  CHECK(placement.edges.size() == 4 + 3 + 4);
}

TEST_CASE("each instance starts when its device is free and its dependencies are done", "[classic]") {
  RankOrders orders = {{{'F', 0, 0}, {'F', 0, 1}, {'B', 0, 0}, {'B', 0, 1}},
                       {{'F', 1, 0}, {'B', 1, 0}, {'F', 1, 1}, {'B', 1, 1}}};
  Schedule schedule = schedule_from_orders(two_stage_graph(), orders, "tiny", 2);
  REQUIRE(tessel::testing::verify_schedule(schedule).valid);
  auto start_of = [&](const std::string& id, int micro) {
    for (const Instance& instance : schedule.instances)
      if (schedule.placement.blocks[instance.block].id == id && instance.micro == micro) return instance.start;
    return Time{-1};
  };
  CHECK(start_of("f0", 0) == 0);
  CHECK(start_of("f0", 1) == 1);
  CHECK(start_of("f1", 0) == 1);
  CHECK(start_of("b1", 0) == 2);  // after f1:0 ends at 2
  CHECK(start_of("f1", 1) == 4);  // device 1 busy with b1:0 until 4
  CHECK(start_of("b0", 0) == 4);  // after b1:0
  CHECK(start_of("b1", 1) == 5);
  CHECK(start_of("b0", 1) == 7);
  CHECK(schedule.memory_limit == std::vector<long long>{2, 1});
}

TEST_CASE("a circular wait is a deadlock naming the devices and the instances", "[classic]") {
  // Rank 1 wants micro-batch 1 first; rank 0 only sends it after a backward
  // that needs rank 1's micro-batch 0.
  RankOrders orders = {{{'F', 0, 0}, {'B', 0, 0}, {'F', 0, 1}, {'B', 0, 1}},
                       {{'F', 1, 1}, {'F', 1, 0}, {'B', 1, 0}, {'B', 1, 1}}};
  try {
    schedule_from_orders(two_stage_graph(), orders, "stuck", 2);
    FAIL("no deadlock reported");
  } catch (const DeadlockError& error) {
    REQUIRE(error.stuck.size() == 2);
    CHECK(error.stuck[0].device == 0);
    CHECK(error.stuck[0].position == 1);
    REQUIRE(error.stuck[0].waits_for.size() == 1);
    CHECK(error.stuck[0].waits_for[0].device == 1);
    CHECK(error.stuck[0].waits_for[0].position == 2);
    CHECK(error.stuck[1].device == 1);
    CHECK(error.stuck[1].position == 0);
    CHECK(error.stuck[1].waits_for[0].device == 0);
    CHECK_THAT(std::string(error.what()), Catch::Contains("rank 0 at 0B0") && Catch::Contains("rank 1 at 1F1") &&
                                              Catch::Contains("0F1 (rank 0, position 2)"));
  }
}

TEST_CASE("waiting for an instance that no order lists is a deadlock too", "[classic]") {
  RankOrders orders = {{{'F', 0, 0}, {'B', 0, 0}}, {{'B', 1, 0}}};  // 1F0 is missing
  try {
    schedule_from_orders(two_stage_graph(), orders, "missing", 1);
    FAIL("no deadlock reported");
  } catch (const DeadlockError& error) {
    CHECK_THAT(std::string(error.what()), Catch::Contains("1F0 (in no rank's order)"));
  }
}

TEST_CASE("a device waiting for its own later instance is stuck", "[classic]") {
  RankOrders orders = {{{'B', 0, 0}, {'F', 0, 0}}, {{'F', 1, 0}, {'B', 1, 0}}};
  CHECK_THROWS_AS(schedule_from_orders(two_stage_graph(), orders, "self", 1), DeadlockError);
}
