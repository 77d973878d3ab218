// Reading tessel.graph/1 and tessel.partition/1: valid files load and write
// back, malformed ones name the file, the field and the problem (exit 2 on
// the command line).
#include <catch2/catch.hpp>

#include "model/graph_json.hpp"
#include "model/input_error.hpp"
#include "partition/partition_json.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

nlohmann::json diamond_graph() {
  return nlohmann::json::parse(R"({
    "format": "tessel.graph/1", "name": "diamond",
    "nodes": [ {"id": "in", "op": "embedding", "compute": 0, "param_bytes": 100, "output_bytes": 8},
               {"id": "left", "op": "linear", "compute": 40, "param_bytes": 20, "output_bytes": 8},
               {"id": "right", "op": "linear", "compute": 30, "param_bytes": 20, "output_bytes": 4},
               {"id": "out", "op": "add", "compute": 2, "param_bytes": 0, "output_bytes": 8} ],
    "edges": [ ["in", "left"], ["in", "right"], ["left", "out"], ["right", "out"] ] })");
}

std::string error_of(const nlohmann::json& document) {
  try {
    graph_from_json(document, JsonPlace{"g.json", ""});
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a valid graph reads and writes back unchanged", "[graph]") {
  Graph graph = graph_from_json(diamond_graph(), JsonPlace{"g.json", ""});
  CHECK(graph.nodes.size() == 4);
  CHECK(total_compute(graph) == 72);
  CHECK(total_param_bytes(graph) == 140);
  CHECK(graph_topological_order(graph) == std::vector<int>{0, 1, 2, 3});
  CHECK(graph_to_json(graph) == diamond_graph());
}

TEST_CASE("malformed graphs name the file, the field and the problem", "[graph]") {
  nlohmann::json doc = diamond_graph();
  SECTION("unknown format") {
    doc["format"] = "onnx/1";
    CHECK_THAT(error_of(doc), Catch::Contains("g.json") && Catch::Contains("unknown format"));
  }
  SECTION("unknown version") {
    doc["format"] = "tessel.graph/2";
    CHECK_THAT(error_of(doc), Catch::Contains("unsupported version"));
  }
  SECTION("duplicate node id") {
    doc["nodes"][2]["id"] = "left";
    CHECK_THAT(error_of(doc), Catch::Contains("nodes[2].id") && Catch::Contains("duplicate node id 'left'"));
  }
  SECTION("unknown node in an edge") {
    doc["edges"][1][1] = "middle";
    CHECK_THAT(error_of(doc), Catch::Contains("edges[1][1]") && Catch::Contains("unknown node 'middle'"));
  }
  SECTION("negative cost") {
    doc["nodes"][1]["compute"] = -5;
    CHECK_THAT(error_of(doc), Catch::Contains("nodes[1].compute") && Catch::Contains(">= 0"));
  }
  SECTION("negative bytes") {
    doc["nodes"][3]["output_bytes"] = -1;
    CHECK_THAT(error_of(doc), Catch::Contains("nodes[3].output_bytes"));
  }
  SECTION("missing cost") {
    doc["nodes"][0].erase("param_bytes");
    CHECK_THAT(error_of(doc), Catch::Contains("nodes[0].param_bytes") && Catch::Contains("missing"));
  }
  SECTION("a cost that is not an integer") {
    doc["nodes"][0]["compute"] = "lots";
    CHECK_THAT(error_of(doc), Catch::Contains("nodes[0].compute") && Catch::Contains("integer"));
  }
  SECTION("a cycle is printed") {
    doc["edges"].push_back({"out", "in"});
    CHECK_THAT(error_of(doc), Catch::Contains("edges") && Catch::Contains("cycle") &&
                                  Catch::Contains("in -> ") && Catch::Contains("out -> in"));
  }
  SECTION("a self loop") {
    doc["edges"].push_back({"left", "left"});
    CHECK_THAT(error_of(doc), Catch::Contains("edges[4]") && Catch::Contains("itself"));
  }
  SECTION("no nodes") {
    doc["nodes"] = nlohmann::json::array();
    doc["edges"] = nlohmann::json::array();
    CHECK_THAT(error_of(doc), Catch::Contains("nodes") && Catch::Contains("at least one"));
  }
}

TEST_CASE("a partition file reads against its graph and rejects a bad assignment", "[graph]") {
  Graph graph = graph_from_json(diamond_graph(), JsonPlace{"g.json", ""});
  Partition partition{2, {0, 0, 1, 1}};
  nlohmann::json doc = partition_to_json(graph, partition, PartitionClaim{});
  CHECK(partition_from_json(doc, graph, JsonPlace{"p.json", ""}).stage_of == partition.stage_of);
  CHECK(doc["communication_bytes"] == 8 + 8);  // in -> right, left -> out
  auto error = [&](const nlohmann::json& d) -> std::string {
    try {
      partition_from_json(d, graph, JsonPlace{"p.json", ""});
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  nlohmann::json bad = doc;
  bad["assignment"]["ghost"] = 0;
  CHECK_THAT(error(bad), Catch::Contains("p.json") && Catch::Contains("assignment.ghost") && Catch::Contains("unknown node"));
  bad = doc;
  bad["assignment"].erase("out");
  CHECK_THAT(error(bad), Catch::Contains("'out' has no stage"));
  bad = doc;
  bad["assignment"]["left"] = 1;
  bad["assignment"]["out"] = 0;
  CHECK_THAT(error(bad), Catch::Contains("left -> out") && Catch::Contains("back to stage 0"));
  bad = doc;
  bad["assignment"]["left"] = 5;
  CHECK_THAT(error(bad), Catch::Contains("assignment.left") && Catch::Contains("outside"));
  bad = doc;
  bad["format"] = "tessel.partition/7";
  CHECK_THAT(error(bad), Catch::Contains("unsupported version"));
}

TEST_CASE("tessel partition exits 2 naming the file and field of a bad graph", "[graph][cli]") {
  testing::TempDir dir;
  nlohmann::json doc = diamond_graph();
  doc["nodes"][2]["param_bytes"] = -3;
  testing::write_text(dir.file("bad.json"), doc.dump());
  auto result = testing::run_tessel("partition " + dir.file("bad.json") + " --stages 2");
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("bad.json") && Catch::Contains("nodes[2].param_bytes"));

  doc = diamond_graph();
  doc["edges"].push_back({"out", "left"});
  testing::write_text(dir.file("cycle.json"), doc.dump());
  result = testing::run_tessel("partition " + dir.file("cycle.json") + " --stages 2");
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("cycle.json") && Catch::Contains("cycle") && Catch::Contains("left -> out"));

  testing::write_text(dir.file("notjson.json"), "{ nodes: ");
  result = testing::run_tessel("partition " + dir.file("notjson.json") + " --stages 2");
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("notjson.json"));

  result = testing::run_tessel("partition " + dir.file("missing.json") + " --stages 2");
  CHECK(result.exit_code == 2);

  testing::write_text(dir.file("good.json"), diamond_graph().dump());
  result = testing::run_tessel("partition " + dir.file("good.json") + " --stages 2 --objective fastest");
  CHECK(result.exit_code == 2);
  CHECK_THAT(result.err, Catch::Contains("--objective"));
}

TEST_CASE("tessel partition says why a request is infeasible and exits 1", "[graph][cli]") {
  testing::TempDir dir;
  testing::write_text(dir.file("g.json"), diamond_graph().dump());
  auto result = testing::run_tessel("partition " + dir.file("g.json") + " --stages 5 --json");
  CHECK(result.exit_code == 1);
  auto json = nlohmann::json::parse(result.out);
  CHECK(json["status"] == "infeasible");
  CHECK_THAT(json["reason"].get<std::string>(), Catch::Contains("4 nodes"));

  result = testing::run_tessel("partition " + dir.file("g.json") + " --stages 2 --max-param-bytes 50");
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.out, Catch::Contains("node 'in' alone holds 100"));
}
