// The independent partition check: linear passes over the graph, no
// cleverness. Communication is counted boundary by boundary (a node's output
// crosses boundary b when the node sits at or before b and some reader after
// it), a different route from the partitioner's "last reader minus own stage".
#include "verify/partition_check.hpp"

#include <algorithm>
#include <map>

#include "verify/json_text.hpp"
#include "verify/known_keys.hpp"

namespace tessel::verify {

namespace {

[[noreturn]] void unreadable(const std::string& field, const std::string& reason) {
  throw FormatError{field, reason};
}

long long nonnegative_integer(const nlohmann::json& object, const std::string& key,
                              const std::string& field) {
  if (!object.contains(key)) unreadable(field + "." + key, "missing");
  const nlohmann::json& value = object.at(key);
  if (!value.is_number_integer()) unreadable(field + "." + key, "expected an integer");
  long long number = value.get<long long>();
  if (number < 0) unreadable(field + "." + key, "must be >= 0");
  // Per-stage sums of up to 2^20 nodes must fit in 64 bits.
  if (number > (1LL << 42)) unreadable(field + "." + key, "must be at most 2^42");
  return number;
}

bool is_format(const nlohmann::json& document, const std::string& format) {
  if (!document.is_object()) return false;
  auto it = document.find("format");
  return it != document.end() && it->is_string() && it->get_ref<const std::string&>() == format;
}

struct Node {
  std::string id;
  long long compute = 0, param_bytes = 0, output_bytes = 0;
};

struct ParsedGraph {
  std::vector<Node> nodes;
  std::map<std::string, int> index;
  std::vector<std::pair<int, int>> edges;
};

ParsedGraph parse_graph(const nlohmann::json& document) {
  if (!is_format(document, "tessel.graph/1"))
    unreadable("format", "not a tessel.graph/1 document");
  require_known_keys(document, {"format", "name", "compute_unit", "nodes", "edges"}, "");
  if (!document.contains("nodes") || !document["nodes"].is_array()) unreadable("nodes", "missing");
  ParsedGraph graph;
  const nlohmann::json& nodes = document["nodes"];
  if (nodes.size() > (1u << 20)) unreadable("nodes", "more than 2^20 nodes");
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::string field = "nodes[" + std::to_string(i) + "]";
    if (!nodes[i].is_object() || !nodes[i].contains("id") || !nodes[i]["id"].is_string())
      unreadable(field + ".id", "missing");
    // "tied" (parameters held by another node) matters to memory, not to
    // the costs checked here.
    require_known_keys(nodes[i], {"id", "op", "compute", "param_bytes", "output_bytes", "module", "tied"}, field);
    Node node;
    node.id = nodes[i]["id"].get<std::string>();
    node.compute = nonnegative_integer(nodes[i], "compute", field);
    node.param_bytes = nonnegative_integer(nodes[i], "param_bytes", field);
    node.output_bytes = nonnegative_integer(nodes[i], "output_bytes", field);
    if (!graph.index.emplace(node.id, static_cast<int>(i)).second)
      unreadable(field + ".id", "duplicate node id '" + node.id + "'");
    graph.nodes.push_back(node);
  }
  if (document.contains("edges")) {
    const nlohmann::json& edges = document["edges"];
    if (!edges.is_array()) unreadable("edges", "expected a list of [from, to] pairs");
    for (size_t i = 0; i < edges.size(); ++i) {
      std::string field = "edges[" + std::to_string(i) + "]";
      const nlohmann::json& edge = edges[i];
      if (!edge.is_array() || edge.size() != 2 || !edge[0].is_string() || !edge[1].is_string())
        unreadable(field, "expected a pair of node ids");
      auto from = graph.index.find(edge[0].get<std::string>());
      auto to = graph.index.find(edge[1].get<std::string>());
      if (from == graph.index.end() || to == graph.index.end()) unreadable(field, "unknown node");
      graph.edges.push_back({from->second, to->second});
    }
  }
  return graph;
}

// Compares a stated list with the recomputed one, if the file states it.
void compare_list(const nlohmann::json& partition, const std::string& key,
                  const std::vector<long long>& actual, std::vector<std::string>& problems) {
  if (!partition.contains(key)) return;
  const nlohmann::json& stated = partition[key];
  bool same = stated.is_array() && stated.size() == actual.size();
  for (size_t i = 0; same && i < actual.size(); ++i)
    same = stated[i].is_number_integer() && stated[i].get<long long>() == actual[i];
  if (!same)
    problems.push_back("'" + key + "' says " + short_text(stated.dump()) + " but the graph gives " +
                       nlohmann::json(actual).dump());
}

void compare_number(const nlohmann::json& partition, const std::string& key, long long actual,
                    std::vector<std::string>& problems) {
  if (!partition.contains(key)) return;
  const nlohmann::json& stated = partition[key];
  if (!stated.is_number_integer() || stated.get<long long>() != actual)
    problems.push_back("'" + key + "' says " + short_text(stated.dump()) + " but the graph gives " +
                       std::to_string(actual));
}

}  // namespace

PartitionReport check_partition(const nlohmann::json& graph_document,
                                const nlohmann::json& partition) {
  ParsedGraph graph = parse_graph(graph_document);
  if (!is_format(partition, "tessel.partition/1"))
    unreadable("format", "not a tessel.partition/1 document");
  require_known_keys(partition,
                     {"format", "graph", "stages", "objective", "status", "proven_optimal", "objective_value",
                      "proven_bound", "solve_seconds", "stage_compute", "stage_param_bytes", "stage_output_bytes",
                      "communication_bytes", "bottleneck", "assignment"},
                     "");
  if (!partition.contains("stages") || !partition["stages"].is_number_integer())
    unreadable("stages", "missing or not an integer");
  if (!partition.contains("assignment") || !partition["assignment"].is_object())
    unreadable("assignment", "missing or not an object");

  PartitionReport report;
  // Every stage holds a node, so more stages than nodes is wrong before any
  // per-stage table is sized by the count.
  const long long stages = partition["stages"].get<long long>();
  std::vector<std::string>& problems = report.problems;
  const long long most = static_cast<long long>(graph.nodes.size());
  if (stages < 1 || stages > most) {
    problems.push_back("stages is " + std::to_string(stages) + ", outside [1, " + std::to_string(most) +
                       "] (every stage holds at least one of the graph's nodes)");
    return report;
  }
  report.stages = static_cast<int>(stages);

  // Every node in exactly one stage in range; nothing else assigned.
  std::vector<int> stage_of(graph.nodes.size(), -1);
  for (const auto& [id, value] : partition["assignment"].items()) {
    auto node = graph.index.find(id);
    if (node == graph.index.end()) {
      problems.push_back("node '" + id + "' is assigned but not in the graph");
      continue;
    }
    if (!value.is_number_integer()) {
      problems.push_back("node '" + id + "' has a stage that is not an integer");
      continue;
    }
    long long stage = value.get<long long>();
    if (stage < 0 || stage >= report.stages) {
      problems.push_back("node '" + id + "' is in stage " + std::to_string(stage) +
                         ", outside [0, " + std::to_string(report.stages) + ")");
      continue;
    }
    stage_of[node->second] = static_cast<int>(stage);
  }
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    if (stage_of[v] < 0) problems.push_back("node '" + graph.nodes[v].id + "' has no valid stage");
  if (!problems.empty()) return report;

  // No edge to an earlier stage.
  for (const auto& [from, to] : graph.edges)
    if (stage_of[to] < stage_of[from])
      problems.push_back("edge " + graph.nodes[from].id + " -> " + graph.nodes[to].id +
                         " goes from stage " + std::to_string(stage_of[from]) + " back to stage " +
                         std::to_string(stage_of[to]));

  // Per-stage sums, and no empty stage.
  report.stage_compute.assign(report.stages, 0);
  report.stage_param_bytes.assign(report.stages, 0);
  std::vector<int> members(report.stages, 0);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    report.stage_compute[stage_of[v]] += graph.nodes[v].compute;
    report.stage_param_bytes[stage_of[v]] += graph.nodes[v].param_bytes;
    ++members[stage_of[v]];
  }
  for (int stage = 0; stage < report.stages; ++stage)
    if (members[stage] == 0) problems.push_back("stage " + std::to_string(stage) + " holds no node");
  report.bottleneck = *std::max_element(report.stage_compute.begin(), report.stage_compute.end());

  // Communication, boundary by boundary: a node's output is sent over
  // boundary b (between stages b and b+1) once if any reader is beyond it.
  for (int boundary = 0; boundary + 1 < report.stages; ++boundary) {
    std::vector<char> crosses(graph.nodes.size(), 0);
    for (const auto& [from, to] : graph.edges)
      if (stage_of[from] <= boundary && stage_of[to] > boundary) crosses[from] = 1;
    for (size_t v = 0; v < graph.nodes.size(); ++v)
      if (crosses[v]) report.communication_bytes += graph.nodes[v].output_bytes;
  }

  compare_list(partition, "stage_compute", report.stage_compute, problems);
  compare_list(partition, "stage_param_bytes", report.stage_param_bytes, problems);
  compare_number(partition, "communication_bytes", report.communication_bytes, problems);
  compare_number(partition, "bottleneck", report.bottleneck, problems);
  report.valid = problems.empty();
  return report;
}

nlohmann::json partition_report_to_json(const PartitionReport& report) {
  return {{"valid", report.valid},
          {"problems", report.problems},
          {"stages", report.stages},
          {"stage_compute", report.stage_compute},
          {"stage_param_bytes", report.stage_param_bytes},
          {"communication_bytes", report.communication_bytes},
          {"bottleneck", report.bottleneck}};
}

}  // namespace tessel::verify
