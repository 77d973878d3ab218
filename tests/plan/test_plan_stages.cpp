// stages.json (plan/plan_stages.hpp): every operator in exactly one stage,
// stage numbers as the placement's, and each stage's module list the
// coarsest cover of what it holds. Then the plan as a user takes it to a
// training run: real seconds, the 1F1B chain as the floor, every mapping
// compared (plan/plan.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <set>

#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "plan/plan.hpp"
#include "plan/plan_stages.hpp"
#include "tests/plan/line_graph.hpp"
#include "tests/support.hpp"

using namespace tessel;
using namespace tessel::testing;

namespace {

// emb, then blocks h.0 and h.1 (each attn + mlp), then head; one root add.
Graph nested_graph() {
  Graph graph;
  graph.name = "nested";
  auto add = [&](const std::string& id, const std::string& module) {
    GraphNode node{id, "linear", 10, 4, 8};
    node.module = module;
    graph.nodes.push_back(node);
    if (graph.nodes.size() > 1) graph.edges.push_back({static_cast<int>(graph.nodes.size()) - 2,
                                                       static_cast<int>(graph.nodes.size()) - 1});
  };
  add("emb", "emb");
  add("add", "");
  add("h.0.attn", "h.0.attn");
  add("h.0.mlp", "h.0.mlp");
  add("h.1.attn", "h.1.attn");
  add("h.1.mlp", "h.1.mlp");
  add("head", "head");
  return graph;
}

}  // namespace

TEST_CASE("stages: each stage lists the coarsest whole modules, every operator once", "[plan][stages]") {
  Graph graph = nested_graph();
  PipelineOptions options;
  options.devices = 2;
  SECTION("chain: a cut between blocks gives whole blocks") {
    Partition cut{2, {0, 0, 0, 0, 1, 1, 1}};
    std::vector<PlanStage> stages = plan_stages(graph, cut, options);
    REQUIRE(stages.size() == 2);
    CHECK(stages[0].modules == std::vector<std::string>{"emb", "h.0"});
    CHECK(stages[1].modules == std::vector<std::string>{"h.1", "head"});
    CHECK(stages[0].operators == std::vector<int>{0, 1, 2, 3});
    CHECK(stages[0].compute == 40);
    CHECK(stages[1].rank == 1);
  }
  SECTION("a cut inside a block lists its parts, never the block or the list") {
    Partition cut{2, {0, 0, 0, 1, 1, 1, 1}};
    std::vector<PlanStage> stages = plan_stages(graph, cut, options);
    CHECK(stages[0].modules == std::vector<std::string>{"emb", "h.0.attn"});
    CHECK(stages[1].modules == std::vector<std::string>{"h.0.mlp", "h.1", "head"});
  }
  SECTION("v: ranks go down then up, chunks count the stages of a rank") {
    options.mapping = StageMapping::V;
    options.chunks = 2;
    Partition cut{4, {0, 0, 1, 1, 2, 2, 3}};
    std::vector<PlanStage> stages = plan_stages(graph, cut, options);
    std::vector<int> ranks, chunks;
    for (const PlanStage& stage : stages) ranks.push_back(stage.rank), chunks.push_back(stage.chunk);
    CHECK(ranks == std::vector<int>{0, 1, 1, 0});
    CHECK(chunks == std::vector<int>{0, 0, 1, 1});
    nlohmann::json document = stages_to_json(graph, options, stages);
    CHECK(document["format"] == "tessel.stages/1");
    CHECK(document["mapping"] == "v");
    std::multiset<std::string> seen;
    for (const auto& stage : document["stages"])
      for (const auto& id : stage["operators"]) seen.insert(id.get<std::string>());
    CHECK(seen.size() == graph.nodes.size());
    for (const GraphNode& node : graph.nodes) CHECK(seen.count(node.id) == 1);
  }
  SECTION("a graph without module fields lists operators only") {
    for (GraphNode& node : graph.nodes) node.module.reset();
    std::vector<PlanStage> stages = plan_stages(graph, Partition{2, {0, 0, 0, 0, 1, 1, 1}}, options);
    CHECK(stages[0].modules.empty());
    CHECK(stages[1].operators.size() == 3);
  }
}

// ---------------------------------------------------------------------------
// The plan as a user takes it to a training run: real seconds, the 1F1B chain
// as the floor, every mapping compared.

namespace {

std::string graph_path(const std::string& name) {
  return std::string(TESSEL_SOURCE_DIR) + "/cases/graphs/" + name + ".json";
}

PlanRequest request_for(StageMapping mapping, bool split, double seconds) {
  PlanRequest request;
  request.pipeline.devices = 4;
  request.pipeline.mapping = mapping;
  request.pipeline.chunks = mapping == StageMapping::Chain ? 1 : 2;
  request.pipeline.split_backward = split;
  request.memory = "8GiB";
  request.nmicros = 8;
  request.deadline = Deadline::after_seconds(seconds);
  return request;
}

}  // namespace

TEST_CASE("plan: never slower than the 1F1B chain, even when the time limit strikes at once", "[plan]") {
  Graph graph = read_graph_file(graph_path("gpt2-small"));
  std::vector<std::string> phases;
  PlanAnswer answer = plan_pipeline(graph, request_for(StageMapping::V, true, 0.001),
                                    [&](const std::string& line) { phases.push_back(line); });
  REQUIRE(answer.chosen.schedule);
  REQUIRE(answer.one_f_one_b);
  CHECK(answer.chosen.makespan <= *answer.one_f_one_b);
  CHECK(verify_schedule(*answer.chosen.schedule).valid);
  CHECK(answer.outcome == Outcome::Timeout);
  CHECK(answer.message.find("--time-limit") != std::string::npos);
  // Written plan, stages and schedule agree: the chain kept is said so.
  if (answer.chosen.pipeline.mapping == StageMapping::Chain) CHECK(answer.choice.find("wrote chain") != std::string::npos);
  CHECK(static_cast<int>(answer.chosen.stages.size()) == pipeline_stages(answer.chosen.pipeline));
  REQUIRE(phases.size() >= 3);
  CHECK(phases.front().find("order: chain") != std::string::npos);
  CHECK(phases.back().find("verify") != std::string::npos);
}

// The line graph's spans are whole hundreds of FLOP: the written schedule
// needs 7 decimals of a GFLOP where the placement keeps 9, and the plan once
// read the verifier's ticks at the placement's decimals (a makespan 100x too
// short, below its own proven bound).
TEST_CASE("plan: the makespan reported is that of the written schedule, never below its bound", "[plan]") {
  PlanAnswer answer = plan_pipeline(line_graph(8), request_for(StageMapping::Chain, false, 30));
  REQUIRE(answer.chosen.schedule);
  CHECK(answer.clock.unit == PlanUnit::Gflop);
  const Schedule& written = *answer.chosen.schedule;
  CHECK(verify_schedule(written).valid);
  const double makespan_in_unit = in_unit(makespan(written), written.placement.time_decimals);
  CHECK(answer.chosen.makespan == Approx(makespan_in_unit));
  REQUIRE(answer.chosen.lower_bound > 0);
  CHECK(answer.chosen.lower_bound <= answer.chosen.makespan * (1 + 1e-12));
  REQUIRE(answer.one_f_one_b);
  CHECK(*answer.one_f_one_b >= answer.chosen.makespan);
  for (const PlanRow& row : answer.compared)
    if (row.makespan && row.lower_bound > 0) CHECK(row.lower_bound <= *row.makespan * (1 + 1e-12));
}

TEST_CASE("plan: with a device speed and a link, times are seconds and transfers are delays", "[plan]") {
  Graph graph = read_graph_file(graph_path("bert-base"));
  PlanRequest request = request_for(StageMapping::Chain, false, 60);
  request.device_flops = 1e14;
  PlanAnswer free_links = plan_pipeline(graph, request);
  request.link_bandwidth = 1e9;  // 1 GB/s: a 1.5 MB activation takes 1.6 ms
  request.link_latency = 1e-5;
  PlanAnswer linked = plan_pipeline(graph, request);
  REQUIRE(free_links.chosen.schedule);
  REQUIRE(linked.chosen.schedule);
  CHECK(linked.clock.unit == PlanUnit::Seconds);
  const Placement& placement = linked.chosen.schedule->placement;
  CHECK(placement.time_decimals > 0);
  // F0's span is stage 0's compute over the device speed, up to one tick.
  double span = in_unit(placement.blocks[0].span, placement.time_decimals);
  double exact = static_cast<double>(linked.chosen.costs.stage_compute[0]) / 1e14;
  CHECK(span >= exact);
  CHECK(span - exact <= std::pow(10.0, -placement.time_decimals));
  int delayed = 0;
  for (const Edge& edge : placement.edges) {
    bool crosses = placement.blocks[edge.from].devices != placement.blocks[edge.to].devices;
    CHECK((edge.delay > 0) == crosses);
    delayed += crosses;
  }
  CHECK(delayed == 2 * 3);  // 3 boundaries, activations forward and gradients back
  CHECK(verify_schedule(*linked.chosen.schedule).valid);
  CHECK(linked.chosen.makespan > free_links.chosen.makespan);
  // The search saw the transfers (each rounded down to its step): its
  // proven bound charges them, where a search blind to them proves the
  // free links' bound again.
  REQUIRE(free_links.chosen.lower_bound > 0);
  CHECK(linked.chosen.lower_bound > free_links.chosen.lower_bound);
  CHECK(linked.chosen.lower_bound <= linked.chosen.makespan);
  // A training step of bert-base at 100 TFLOP/s: 8 x 3 x 97 GFLOP spread on 4 ranks, more than 5.8 ms.
  CHECK(linked.chosen.makespan > 8 * 3 * 96.9e9 / 4 / 1e14);
  CHECK(format_makespan(linked.chosen.makespan, linked.clock).find(" ms") != std::string::npos);
  CHECK_THROWS_AS(plan_clock(graph, 0, 1e9, 0), InputError);  // a transfer is time, compute is not
}

TEST_CASE("tessel plan --mapping auto --json: every mapping compared, the fastest written", "[plan][cli]") {
  TempDir dir;
  CommandResult planned = run_tessel("plan " + graph_path("vit-small") + " --devices 4 --mapping auto --memory 8GiB "
                                     "--nmicros 8 --time-limit 90 --json --quiet -o " + dir.file("out"));
  REQUIRE(planned.exit_code == 0);
  nlohmann::json answer = nlohmann::json::parse(planned.out);
  CHECK(answer["unit"] == "GFLOP");
  REQUIRE(answer["compared"].size() >= 6);
  double best = answer["makespan"].get<double>();
  for (const auto& row : answer["compared"])
    if (!row["makespan"].is_null()) CHECK(best <= row["makespan"].get<double>());
  CHECK(answer["ratio_to_1f1b"].get<double>() <= 1.0);
  CHECK(answer["choice"].get<std::string>().find("auto:") == 0);
  for (const auto& file : answer["files"]) CHECK(std::filesystem::exists(file.get<std::string>()));
  nlohmann::json stages = nlohmann::json::parse(read_text(dir.file("out/stages.json")));
  CHECK(stages["mapping"] == answer["mapping"]);
  Graph graph = read_graph_file(graph_path("vit-small"));
  std::multiset<std::string> seen;
  for (const auto& stage : stages["stages"])
    for (const auto& id : stage["operators"]) seen.insert(id.get<std::string>());
  CHECK(seen.size() == graph.nodes.size());
  for (const GraphNode& node : graph.nodes) CHECK(seen.count(node.id) == 1);
  Schedule schedule = read_schedule_file(dir.file("out/schedule.json"));
  for (const Block& block : schedule.placement.blocks)
    CHECK(stages["stages"][*block.stage]["rank"].get<int>() == block.devices.front());
  CommandResult refused = run_tessel("plan " + graph_path("vit-small") + " --devices 4 --mapping auto --chunks 2 "
                                     "--memory 8GiB -o " + dir.file("x"));
  CHECK(refused.exit_code == 2);
}

TEST_CASE("tessel plan: speeds and links that mean nothing are bad input, named", "[plan][cli]") {
  TempDir dir;
  const std::string base = "plan " + graph_path("vit-small") + " --devices 2 --memory 8GiB --quiet -o " + dir.file("x");
  struct Case {
    std::string options, field;
  };
  for (const Case& bad : {Case{"--device-flops -1", "--device-flops"}, Case{"--device-flops 0", "--device-flops"},
                          Case{"--link-bandwidth 1e9", "--link-bandwidth"},
                          Case{"--device-flops 1e12 --link-latency 1e-6", "--link-latency"},
                          Case{"--device-flops 1e12 --link-bandwidth -5", "--link-bandwidth"},
                          Case{"--mapping automatic", "--mapping"}}) {
    INFO(bad.options);
    CommandResult result = run_tessel(base + " " + bad.options);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(bad.field) != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(dir.file("x")));
}
