// stages.json (plan/plan_stages.hpp): every operator in exactly one stage,
// stage numbers as the placement's, and each stage's module list the
// coarsest cover of what it holds.
#include <catch2/catch.hpp>

#include <set>

#include "plan/plan_stages.hpp"

using namespace tessel;

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
