// Stages to a placement: spans at the stated resolution, backward twice the
// forward unless told, activations as memory that the backward frees.
#include <catch2/catch.hpp>

#include "model/placement.hpp"
#include "partition/stage_placement.hpp"

using namespace tessel;

TEST_CASE("a partition becomes a forward and a backward block per stage", "[partition]") {
  Graph graph;
  graph.name = "three";
  graph.nodes = {{"a", "linear", 400, 10, 1000}, {"b", "linear", 200, 10, 3000}, {"c", "linear", 100, 10, 500}};
  graph.edges = {{0, 1}, {1, 2}};
  Partition partition{2, {0, 1, 1}};

  StagePlacement staged = stage_placement(graph, partition, {});
  const Placement& placement = staged.placement;
  CHECK(staged.resolution == 100);     // slowest stage 400 / 4
  CHECK(staged.memory_unit == 3500);   // the largest stage's activations
  REQUIRE(placement.blocks.size() == 4);
  CHECK(placement.ndevs == 2);
  CHECK(placement.blocks[0].id == "f0");
  CHECK(placement.blocks[0].span == 4);
  CHECK(placement.blocks[1].span == 3);
  CHECK(placement.blocks[2].id == "b1");
  CHECK(placement.blocks[2].span == 6);
  CHECK(placement.blocks[3].span == 8);
  CHECK(placement.blocks[0].memory == 1);
  CHECK(placement.blocks[3].memory == -1);
  CHECK(memory_balance(placement) == std::vector<long long>{0, 0});
  CHECK(placement.edges.size() == 3);
  CHECK_FALSE(find_cycle(placement));

  StagePlacementOptions options;
  options.resolution = 50;
  options.backward_ratio = 3;
  options.memory_unit = 1000;
  staged = stage_placement(graph, partition, options);
  CHECK(staged.placement.blocks[0].span == 8);
  CHECK(staged.placement.blocks[3].span == 24);
  CHECK(staged.placement.blocks[1].memory == 4);  // 3500 bytes, rounded up
}
