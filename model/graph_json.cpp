// Reading and writing `tessel.graph/1`.
#include "model/graph_json.hpp"

#include <map>

#include "model/dag.hpp"

namespace tessel {

namespace {

// Per value and per sum: 2^62 / 2^20 nodes leaves headroom for every total.
constexpr long long kMaxCost = 1LL << 42;
constexpr size_t kMaxNodes = 1u << 20;

long long cost_from_json(const nlohmann::json& node, const std::string& key, const JsonPlace& place) {
  long long value = require_integer(node, key, place);
  if (value < 0) place.field(key).fail("must be >= 0, got " + std::to_string(value));
  if (value > kMaxCost)
    place.field(key).fail("is larger than 2^42 (" + std::to_string(value) +
                          "); use a coarser unit");
  return value;
}

// A node's "tied": [{"holder": id, "bytes": n}, ...], the parameters it
// uses that another node holds.
std::vector<TiedParameter> tied_from_json(const nlohmann::json& node, const std::map<std::string, int>& index,
                                          int self, const JsonPlace& place) {
  const nlohmann::json& list = require_array(node, "tied", place);
  std::vector<TiedParameter> tied;
  std::vector<std::string> ids;
  for (const auto& [id, unused] : index) ids.push_back(id);
  for (size_t k = 0; k < list.size(); ++k) {
    JsonPlace at = place.field("tied").index(k);
    if (!list[k].is_object()) at.fail("expected {\"holder\": node id, \"bytes\": n}, got " + shown_value(list[k]));
    require_known_keys(list[k], {"holder", "bytes"}, at);
    const std::string holder = require_string(list[k], "holder", at);
    const auto found = index.find(holder);
    if (found == index.end()) {
      const std::string near = nearest_name(holder, ids);
      at.field("holder").fail("no node '" + holder + "'" + (near.empty() ? "" : " (did you mean '" + near + "'?)"));
    }
    if (found->second == self) at.field("holder").fail("a node does not tie a parameter to itself");
    tied.push_back({found->second, cost_from_json(list[k], "bytes", at)});
  }
  return tied;
}

}  // namespace

Graph graph_from_json(const nlohmann::json& document, const JsonPlace& place) {
  if (!document.is_object()) place.fail("expected a graph object");
  require_known_keys(document, {"format", "name", "compute_unit", "nodes", "edges"}, place);
  require_format(document, kGraphFormat, place);
  Graph graph;
  graph.name = document.contains("name") ? require_string(document, "name", place) : "";
  if (document.contains("compute_unit")) {
    std::string unit = require_string(document, "compute_unit", place);
    std::optional<ComputeUnit> parsed = parse_compute_unit(unit);
    if (!parsed || *parsed == ComputeUnit::Unspecified)
      place.field("compute_unit").fail("choose \"flops\" or \"ns\", not '" + unit + "'");
    graph.compute_unit = *parsed;
  }

  const nlohmann::json& nodes = require_array(document, "nodes", place);
  if (nodes.empty()) place.field("nodes").fail("a graph needs at least one node");
  if (nodes.size() > kMaxNodes) place.field("nodes").fail("more than 2^20 nodes");
  std::map<std::string, int> index;
  std::vector<std::string> names;
  for (size_t i = 0; i < nodes.size(); ++i) {
    JsonPlace at = place.field("nodes").index(i);
    const nlohmann::json& value = nodes[i];
    if (!value.is_object()) at.fail("expected a node object, got " + shown_value(value));
    require_known_keys(value, {"id", "op", "compute", "param_bytes", "output_bytes", "module", "tied"}, at);
    GraphNode node;
    node.id = require_string(value, "id", at);
    if (node.id.empty()) at.field("id").fail("node id must not be empty");
    node.op = value.contains("op") ? require_string(value, "op", at) : "";
    node.compute = cost_from_json(value, "compute", at);
    node.param_bytes = cost_from_json(value, "param_bytes", at);
    node.output_bytes = cost_from_json(value, "output_bytes", at);
    if (value.contains("module")) node.module = require_string(value, "module", at);
    if (!index.emplace(node.id, static_cast<int>(i)).second)
      at.field("id").fail("duplicate node id '" + node.id + "'");
    names.push_back(node.id);
    graph.nodes.push_back(std::move(node));
  }

  for (size_t i = 0; i < nodes.size(); ++i)
    if (nodes[i].contains("tied")) graph.nodes[i].tied = tied_from_json(nodes[i], index, static_cast<int>(i),
                                                                       place.field("nodes").index(i));
  for (const DagEdge& edge : read_dag_edges(document, index, names, "node", place))
    graph.edges.push_back({edge.from, edge.to});
  return graph;
}

Graph read_graph_file(const std::string& path) {
  return graph_from_json(read_json_file(path), JsonPlace{path, ""});
}

nlohmann::json graph_to_json(const Graph& graph) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const GraphNode& node : graph.nodes) {
    nlohmann::json written = {{"id", node.id},
                              {"op", node.op},
                              {"compute", node.compute},
                              {"param_bytes", node.param_bytes},
                              {"output_bytes", node.output_bytes}};
    if (node.module) written["module"] = *node.module;
    for (const TiedParameter& tie : node.tied)
      written["tied"].push_back({{"holder", graph.nodes[tie.holder].id}, {"bytes", tie.bytes}});
    nodes.push_back(std::move(written));
  }
  nlohmann::json edges = nlohmann::json::array();
  for (const GraphEdge& edge : graph.edges)
    edges.push_back({graph.nodes[edge.from].id, graph.nodes[edge.to].id});
  nlohmann::json document = {{"format", kGraphFormat}, {"name", graph.name}, {"nodes", nodes}, {"edges", edges}};
  if (graph.compute_unit != ComputeUnit::Unspecified) document["compute_unit"] = compute_unit_name(graph.compute_unit);
  return document;
}

}  // namespace tessel
