// Queries on the operator graph: adjacency and a topological order.
#include "model/graph.hpp"

#include <queue>

namespace tessel {

const char* compute_unit_name(ComputeUnit unit) {
  switch (unit) {
    case ComputeUnit::Unspecified: return "";
    case ComputeUnit::Flops: return "flops";
    case ComputeUnit::Nanoseconds: return "ns";
  }
  return "";
}

std::optional<ComputeUnit> parse_compute_unit(const std::string& text) {
  if (text.empty()) return ComputeUnit::Unspecified;
  if (text == "flops") return ComputeUnit::Flops;
  if (text == "ns") return ComputeUnit::Nanoseconds;
  return std::nullopt;
}

int find_node(const Graph& graph, const std::string& id) {
  for (size_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<std::vector<int>> node_successors(const Graph& graph) {
  std::vector<std::vector<int>> succs(graph.nodes.size());
  for (const GraphEdge& edge : graph.edges) succs[edge.from].push_back(edge.to);
  return succs;
}

std::vector<std::vector<int>> node_predecessors(const Graph& graph) {
  std::vector<std::vector<int>> preds(graph.nodes.size());
  for (const GraphEdge& edge : graph.edges) preds[edge.to].push_back(edge.from);
  return preds;
}

std::vector<int> graph_topological_order(const Graph& graph) {
  // Kahn's algorithm with the smallest ready index first: file order wins ties.
  const int n = static_cast<int>(graph.nodes.size());
  std::vector<std::vector<int>> succs = node_successors(graph);
  std::vector<int> indegree(n, 0);
  for (const GraphEdge& edge : graph.edges) ++indegree[edge.to];
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  for (int v = 0; v < n; ++v)
    if (indegree[v] == 0) ready.push(v);
  std::vector<int> order;
  while (!ready.empty()) {
    int v = ready.top();
    ready.pop();
    order.push_back(v);
    for (int w : succs[v])
      if (--indegree[w] == 0) ready.push(w);
  }
  return order;
}

long long total_compute(const Graph& graph) {
  long long sum = 0;
  for (const GraphNode& node : graph.nodes) sum += node.compute;
  return sum;
}

long long total_param_bytes(const Graph& graph) {
  long long sum = 0;
  for (const GraphNode& node : graph.nodes) sum += node.param_bytes;
  return sum;
}

}  // namespace tessel
