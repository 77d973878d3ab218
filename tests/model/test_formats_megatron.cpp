// Megatron-LM's order lists. The fixture tests/data/megatron_4ranks_2chunks_
// 8micros.json was printed by Megatron's own algorithm (get_schedule_table +
// convert_schedule_table_to_order, written out in Python for 4 ranks, 2 model
// chunks, 8 micro-batches, group size 4); importing it must give exactly the
// schedule `generate interleaved-1f1b` builds.
#include <catch2/catch.hpp>

#include "classic/order_import.hpp"
#include "classic/schemes.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/json_file.hpp"
#include "model/placement_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::run_tessel;
using tessel::testing::TempDir;
using tessel::testing::verify_schedule;
using tessel::testing::write_text;

namespace {

std::string fixture() { return std::string(TESSEL_SOURCE_DIR) + "/tests/data/megatron_4ranks_2chunks_8micros.json"; }

}  // namespace

TEST_CASE("a Megatron order for 4 ranks, 2 chunks, 8 micro-batches matches generate interleaved-1f1b",
          "[formats]") {
  MegatronOrders orders = megatron_order_from_json(read_json_file(fixture()), fixture());
  REQUIRE(orders.size() == 4);
  CHECK(megatron_chunks(orders) == 2);
  CHECK(megatron_micro_count(orders) == 8);
  for (int rank = 0; rank < 4; ++rank)
    CHECK(orders[rank] == megatron_steps(classic::megatron_rank_order(4, rank, 2, 8, 4)));

  Schedule imported = classic::schedule_from_megatron_order(orders, classic::MegatronShape{2, {}}, 8, false,
                                                            classic::StageCosts{}, fixture());
  classic::SchemeRequest request;
  request.scheme = "interleaved-1f1b";
  request.ranks = 4;
  request.nmicros = 8;
  request.chunks = 2;
  Schedule generated = classic::generate_scheme(request);
  REQUIRE(verify_schedule(imported).valid);
  CHECK(placement_to_json(imported.placement)["blocks"] == placement_to_json(generated.placement)["blocks"]);
  CHECK(placement_to_json(imported.placement)["edges"] == placement_to_json(generated.placement)["edges"]);
  REQUIRE(imported.instances.size() == generated.instances.size());
  for (size_t i = 0; i < imported.instances.size(); ++i) {
    CHECK(imported.instances[i].block == generated.instances[i].block);
    CHECK(imported.instances[i].micro == generated.instances[i].micro);
    CHECK(imported.instances[i].start == generated.instances[i].start);
  }
  CHECK(imported.memory_limit == generated.memory_limit);
}

TEST_CASE("the Megatron import on the command line equals generate's file", "[formats][cli]") {
  TempDir dir;
  REQUIRE(run_tessel("import --from megatron-order " + fixture() + " -o " + dir.file("m.json") + " --report")
              .exit_code == 0);
  REQUIRE(run_tessel("generate interleaved-1f1b --stages 4 --chunks 2 --nmicros 8 -o " + dir.file("g.json"))
              .exit_code == 0);
  nlohmann::json imported = read_json_file(dir.file("m.json"));
  nlohmann::json generated = read_json_file(dir.file("g.json"));
  CHECK(imported["instances"] == generated["instances"]);
  CHECK(imported["placement"]["blocks"] == generated["placement"]["blocks"]);
}

TEST_CASE("bad Megatron orders name the entry", "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("zero.json"), "[[1, -1], [1, 0]]");
  auto result = run_tessel("import --from megatron-order " + dir.file("zero.json"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("zero.json") && Catch::Contains("[1][1]"));

  write_text(dir.file("chunk.json"), "[[1, 3, -3, -1]]");
  result = run_tessel("import --from megatron-order --chunks 2 " + dir.file("chunk.json"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("[0][1]") && Catch::Contains("--chunks"));

  write_text(dir.file("shape.json"), "{\"order\": []}");
  CHECK(run_tessel("import --from megatron-order " + dir.file("shape.json")).exit_code == 2);

  // A chunk whose backwards are not all there is bad input, not a schedule with holes.
  write_text(dir.file("short.json"), "[[1, 2, -2, 1, -1, 2, -2], [1, 2, -2, 1, -1, 2, -2, -1]]");
  result = run_tessel("import --from megatron-order " + dir.file("short.json"));
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("rank 0 has 1 backwards of chunk 1, expected --nmicros 2"));
  result = run_tessel("import --from megatron-order --overlap fused " + fixture());
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("--overlap") && Catch::Contains("pytorch-csv only"));
}

TEST_CASE("a Megatron order whose backward comes before its forward is a deadlock", "[formats][cli]") {
  TempDir dir;
  write_text(dir.file("dead.json"), "[[-1, 1], [1, -1]]");
  auto result = run_tessel("import --from megatron-order " + dir.file("dead.json"));
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("deadlock") && Catch::Contains("rank 0"));
}

TEST_CASE("Megatron's layer-wise MoE-overlap orders import with --layers-per-chunk", "[formats][cli]") {
  // Printed by Megatron's own functions (get_schedule_table,
  // convert_schedule_table_to_order, get_overlap_moe_expert_parallel_comm_order
  // of megatron/core/transformer/cuda_graphs.py): 2 ranks, 2 chunks of 2
  // layers, 4 micro-batches, group 2, weight gradients captured (-k.5); and 4
  // ranks, 2 chunks of 2 layers, 8 micro-batches, group 4, without.
  TempDir dir;
  std::string wgrad = std::string(TESSEL_SOURCE_DIR) + "/tests/data/megatron_moe_overlap_2ranks_2chunks_4micros_2layers_wgrad.json";
  std::string plain = std::string(TESSEL_SOURCE_DIR) + "/tests/data/megatron_moe_overlap_4ranks_2chunks_8micros_2layers.json";
  MegatronOrders orders = megatron_order_from_json(read_json_file(wgrad), wgrad);
  CHECK(megatron_has_weights(orders));
  CHECK(megatron_chunks(orders) == 4);  // layers per rank
  CHECK(orders[0][11] == MegatronStep{'B', 4});
  CHECK(orders[0][12] == MegatronStep{'W', 4});
  Schedule schedule = classic::schedule_from_megatron_order(orders, classic::MegatronShape{2, {2, 2}}, 4, false,
                                                            classic::StageCosts{}, wgrad);
  verify::Report report = verify_schedule(schedule);
  REQUIRE(report.valid);
  // 2 ranks x 2 chunks x 2 layers = 8 layer stages, each F, I and W.
  CHECK(schedule.placement.blocks.size() == 8 * 3);
  CHECK(schedule.instances.size() == 8 * 3 * 4);
  // Layer k of rank r: chunk (k-1)/2, so stage (chunk*2 + r)*2 + (k-1)%2: rank 1's layer 3 is stage 6.
  CHECK(schedule.placement.blocks[find_block(schedule.placement, "f6")].devices == std::vector<int>{1});
  CHECK(schedule.placement.blocks[find_block(schedule.placement, "f5")].devices == std::vector<int>{0});

  auto layered = run_tessel("import --from megatron-order --layers-per-chunk 2 " + plain + " -o " + dir.file("l.json") +
                            " --report");
  CHECK(layered.exit_code == 0);
  CHECK_THAT(layered.err, Catch::Contains("valid (verifier)"));
  // Read as chunks (the old behaviour) it deadlocks, and the message says what to do.
  auto as_chunks = run_tessel("import --from megatron-order " + plain);
  CHECK(as_chunks.exit_code == 1);
  CHECK_THAT(as_chunks.err, Catch::Contains("deadlock") && Catch::Contains("--layers-per-chunk"));
  auto weights_as_chunks = run_tessel("import --from megatron-order " + wgrad);
  CHECK(weights_as_chunks.exit_code == 2);
  CHECK_THAT(weights_as_chunks.err, Catch::Contains("layer-wise") && Catch::Contains("--layers-per-chunk"));
  auto uneven = run_tessel("import --from megatron-order --layers-per-chunk 3 " + plain);
  CHECK(uneven.exit_code == 2);
  CHECK_THAT(uneven.err, Catch::Contains("not a multiple of 3"));
  write_text(dir.file("bad.json"), "[[1, -1.25]]");
  auto bad = run_tessel("import --from megatron-order " + dir.file("bad.json"));
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("[0][1]"));
}

TEST_CASE("import --from tessel-json takes the placement from --case", "[formats][cli]") {
  // What the Python Tessel's SchedPlan.save() writes for vshape on 2 devices.
  TempDir dir;
  write_text(dir.file("saved.json"), R"({"ndevs": 2, "blocks": [
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 0, "step": 0, "device": [0]},
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 1, "device": [1]},
    {"mid": 0, "span": 3, "memory": -1, "btype": "backward", "gid": 2, "step": 2, "device": [1]},
    {"mid": 0, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 5, "device": [0]},
    {"mid": 1, "span": 1, "memory": 1, "btype": "forward", "gid": 0, "step": 4, "device": [0]},
    {"mid": 1, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 5, "device": [1]},
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 2, "step": 7, "device": [1]},
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 10, "device": [0]}],
    "repetend": [2, 7]})");
  auto result = run_tessel("import --from tessel-json " + dir.file("saved.json") +
                           " --case vshape --ndevs 2 --memory-limit 2 -o " + dir.file("out.json"));
  REQUIRE(result.exit_code == 0);
  Schedule schedule = read_schedule_file(dir.file("out.json"));
  CHECK(schedule.instances.size() == 8);
  CHECK(schedule.memory_limit == std::vector<long long>{2, 2});
  verify::Report report = tessel::testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  CHECK(report.valid);

  auto no_placement = run_tessel("import --from tessel-json " + dir.file("saved.json"));
  CHECK(no_placement.exit_code == 2);
  CHECK_THAT(no_placement.err, Catch::Contains("--case"));
}
