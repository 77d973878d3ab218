// `tessel plan` and what it is made of: stages mapped on ranks as people map
// them (chain, interleaved, v), physical costs, the search's answer judged by
// the verifier, and every PyTorch table it writes judged by PyTorch's rules
// (tests/pytorch_rules.hpp). The headline claim: on the same model and
// memory, a V mapping with split backward plans a shorter step than the 1F1B
// chain.
#include <catch2/catch.hpp>

#include "model/formats/pytorch_csv.hpp"
#include "model/graph_json.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "partition/pipeline_placement.hpp"
#include "plan/plan.hpp"
#include "tests/pytorch_rules.hpp"
#include "tests/support.hpp"

using namespace tessel;
using namespace tessel::testing;

namespace {

Graph line_graph(int nodes) {
  Graph graph;
  graph.name = "line";
  for (int i = 0; i < nodes; ++i) {
    graph.nodes.push_back({"n" + std::to_string(i), "linear", 100, 400, 1000});
    if (i) graph.edges.push_back({i - 1, i});
  }
  return graph;
}

std::vector<int> forward_ranks(const Placement& placement) {
  std::vector<int> ranks;
  for (const Block& block : placement.blocks)
    if (block.kind == BlockKind::Forward) ranks.push_back(block.devices.front());
  return ranks;
}

std::string bert() { return std::string(TESSEL_SOURCE_DIR) + "/cases/graphs/bert-base.json"; }

PlanResult plan_bert(StageMapping mapping, bool split) {
  PlanRequest request;
  request.pipeline.devices = 4;
  request.pipeline.mapping = mapping;
  request.pipeline.chunks = mapping == StageMapping::Chain ? 1 : 2;
  request.pipeline.split_backward = split;
  request.memory = "8GiB";
  request.nmicros = 8;
  request.deadline = Deadline::after_seconds(60);
  Progress quiet;
  return plan_pipeline(read_graph_file(bert()), request, quiet);
}

void check_tables(const Schedule& schedule) {
  for (bool comms : {false, true}) {
    PytorchTable table = read_pytorch_csv(write_pytorch_csv_staged(schedule, comms), "plan", PytorchDialect::current);
    INFO("with comms: " << comms);
    CHECK(pytorch_rule_problem(table, schedule.nmicros) == "");
  }
}

}  // namespace

TEST_CASE("stages go on ranks as chain, interleaved and v map them", "[plan]") {
  Graph graph = line_graph(8);
  Partition partition{4, {0, 0, 1, 1, 2, 2, 3, 3}};
  PipelineOptions options;
  options.devices = 2;
  options.chunks = 2;
  options.mapping = StageMapping::Interleaved;
  CHECK(forward_ranks(pipeline_placement(graph, partition, options).placement) == std::vector<int>{0, 1, 0, 1});
  options.mapping = StageMapping::V;
  PipelinePlacement v = pipeline_placement(graph, partition, options);
  CHECK(forward_ranks(v.placement) == std::vector<int>{0, 1, 1, 0});
  for (const Block& block : v.placement.blocks) CHECK(block.stage.has_value());
  // Static memory: each rank holds 4 nodes of 400 parameter bytes, times
  // weights + gradients + 8 optimizer bytes per 4-byte parameter = 4.
  CHECK(v.static_bytes == std::vector<long long>{1600 * 4, 1600 * 4});
  CHECK(memory_balance(v.placement) == std::vector<long long>{0, 0});

  options.split_backward = true;
  PipelinePlacement split = pipeline_placement(graph, partition, options);
  REQUIRE(split.placement.blocks.size() == 12);
  CHECK(split.placement.blocks[4].kind == BlockKind::BackwardInput);
  CHECK(split.placement.blocks[5].kind == BlockKind::BackwardWeight);
  CHECK(split.weight_cost.find("parameters") != std::string::npos);
  CHECK(memory_balance(split.placement) == std::vector<long long>{0, 0});
  CHECK_FALSE(find_cycle(split.placement));

  options.mapping = StageMapping::Chain;
  CHECK(pipeline_options_problem(options) != "");  // chain has one chunk per rank
}

TEST_CASE("plan: v with split backward beats the 1F1B chain on the same model and memory", "[plan]") {
  PlanResult chain = plan_bert(StageMapping::Chain, false);
  PlanResult v = plan_bert(StageMapping::V, true);
  REQUIRE(chain.schedule);
  REQUIRE(v.schedule);
  for (const PlanResult* result : {&chain, &v}) {
    CHECK(result->schedule->nmicros == 8);
    CHECK(verify_schedule(*result->schedule).valid);
    check_tables(*result->schedule);
  }
  CHECK(v.makespan_compute < chain.makespan_compute);
}

TEST_CASE("plan: interleaved tables pass PyTorch's rules", "[plan]") {
  PlanResult interleaved = plan_bert(StageMapping::Interleaved, false);
  REQUIRE(interleaved.schedule);
  CHECK(verify_schedule(*interleaved.schedule).valid);
  check_tables(*interleaved.schedule);
}

TEST_CASE("tessel plan writes the directory, and its CSV round-trips with spans", "[plan][cli]") {
  TempDir dir;
  CommandResult planned = run_tessel("plan " + bert() + " --devices 4 --mapping v --split-backward --memory 8GiB "
                                     "--nmicros 8 --quiet -o " + dir.file("out"));
  REQUIRE(planned.exit_code == 0);
  for (const char* name : {"placement.json", "schedule.json", "schedule.csv", "schedule_comms.csv", "schedule.svg",
                           "report.md"})
    CHECK(std::filesystem::exists(dir.path / "out" / name));
  CHECK(read_text(dir.path / "out" / "report.md").find("makespan") != std::string::npos);
  Schedule planned_schedule = read_schedule_file(dir.file("out/schedule.json"));

  CommandResult imported = run_tessel("import --from pytorch-csv " + dir.file("out/schedule_comms.csv") + " -o " +
                                      dir.file("back.json"));
  REQUIRE(imported.exit_code == 0);
  CHECK(imported.err.find("sidecar") == std::string::npos);
  CHECK(imported.err.find("spans and memory from") != std::string::npos);
  Schedule back = read_schedule_file(dir.file("back.json"));
  CHECK(verify_schedule(back).valid);
  CHECK(makespan(back) <= makespan(planned_schedule));
  CHECK(back.placement.blocks.front().span == planned_schedule.placement.blocks.front().span);

  CommandResult exported = run_tessel("export --to pytorch-csv --with-comms " + dir.file("out/schedule.json") +
                                      " -o " + dir.file("again.csv"));
  REQUIRE(exported.exit_code == 0);
  CHECK(read_text(dir.file("again.csv")) == read_text(dir.file("out/schedule_comms.csv")));
  CHECK(std::filesystem::exists(dir.file("again.csv.tessel.json")));
}

TEST_CASE("tessel plan: memory too small is a proven no with the reason, typos are bad input", "[plan][cli]") {
  TempDir dir;
  CommandResult small = run_tessel("plan " + bert() + " --devices 4 --memory 100MiB --quiet -o " + dir.file("x"));
  CHECK(small.exit_code == 1);
  CHECK(small.err.find("parameters, gradients and optimizer state") != std::string::npos);
  CommandResult typo = run_tessel("plan " + bert() + " --devices 4 --mapping vee --memory 8GiB -o " + dir.file("x"));
  CHECK(typo.exit_code == 2);
  CHECK(typo.err.find("--mapping") != std::string::npos);
  CommandResult chunks = run_tessel("plan " + bert() + " --devices 4 --mapping v --chunks 3 --memory 8GiB -o " +
                                    dir.file("x"));
  CHECK(chunks.exit_code == 2);
  CHECK(chunks.err.find("2 chunks") != std::string::npos);
}

TEST_CASE("tessel partition --devices writes a mapped placement with physical costs", "[plan][cli]") {
  TempDir dir;
  CommandResult cut = run_tessel("partition " + bert() + " --devices 2 --mapping v --split-backward "
                                 "--optimizer-bytes-per-param 12 --placement-out " + dir.file("v.json") + " --json");
  REQUIRE(cut.exit_code == 0);
  Placement placement = read_placement_file(dir.file("v.json"));
  CHECK(forward_ranks(placement) == std::vector<int>{0, 1, 1, 0});
  REQUIRE(placement.static_memory.size() == 2);
  long long params = total_param_bytes(read_graph_file(bert()));
  // weights + gradients + 12 bytes per 4-byte parameter = 5 bytes per parameter byte, rounded up per stage
  CHECK(placement.static_memory[0] + placement.static_memory[1] >= 5 * params);
  CHECK(placement.static_memory[0] + placement.static_memory[1] <= 5 * params + 4);
  for (const Block& block : placement.blocks) CHECK(block.stage.has_value());
  CommandResult conflict = run_tessel("partition " + bert() + " --devices 2 --mapping v --stages 3");
  CHECK(conflict.exit_code == 2);
  CHECK(conflict.err.find("makes 4 stages, not 3") != std::string::npos);
}

TEST_CASE("pytorch-csv refuses only what PyTorch cannot express", "[plan][formats]") {
  Placement placement;
  placement.name = "two";
  placement.ndevs = 2;
  placement.blocks = {{"F0", BlockKind::Forward, 1, 1, 0, {0}}, {"B0", BlockKind::Backward, 2, -1, 0, {1}}};
  placement.edges = {{0, 1}};
  Schedule schedule = empty_schedule(placement, {}, 1);
  schedule.instances = {{0, 0, 0}, {1, 0, 1}};
  try {
    write_pytorch_csv_staged(schedule, true);
    FAIL("a stage on two ranks was written");
  } catch (const InputError& error) {
    CHECK(error.reason.find("stage 0 has blocks on ranks 0 and 1") != std::string::npos);
  }
  schedule.placement.blocks[1].devices = {0};
  CHECK(write_pytorch_csv_staged(schedule, true) == "0F0,0B0\n\n");

  // A branch: stages 0 and 1 both feed stage 2 (an encoder-decoder). The
  // compute-only table has it; PyTorch's sends cannot reach stage 2 from 0.
  Placement branch;
  branch.name = "branch";
  branch.ndevs = 3;
  branch.blocks = {{"F0", BlockKind::Forward, 1, 1, 0, {0}}, {"F1", BlockKind::Forward, 1, 1, 1, {1}},
                   {"F2", BlockKind::Forward, 1, 1, 2, {2}}, {"B2", BlockKind::Backward, 1, -1, 2, {2}},
                   {"B1", BlockKind::Backward, 1, -1, 1, {1}}, {"B0", BlockKind::Backward, 1, -1, 0, {0}}};
  branch.edges = {{0, 2}, {1, 2}, {2, 3}, {3, 4}, {3, 5}};
  Schedule branched = empty_schedule(branch, {}, 1);
  branched.instances = {{0, 0, 0}, {1, 0, 0}, {2, 0, 1}, {3, 0, 2}, {4, 0, 3}, {5, 0, 3}};
  REQUIRE(verify_schedule(branched).valid);
  CHECK(write_pytorch_csv(branched) == "0F0,,,0B0\n1F0,,,1B0\n,2F0,2B0\n");
  try {
    write_pytorch_csv_staged(branched, true);
    FAIL("a send from stage 0 to stage 2 was written");
  } catch (const InputError& error) {
    CHECK(error.reason.find("edge F0 -> F2 crosses ranks from stage 0 to stage 2") != std::string::npos);
  }
}
