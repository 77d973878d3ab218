// Queries on the operator graph: adjacency, cycles, a topological order.
#include "model/graph.hpp"

#include <queue>

namespace tessel {

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

std::optional<std::vector<int>> find_graph_cycle(const Graph& graph) {
  // Iterative colouring DFS; the grey stack is the cycle when a grey node is met.
  const int n = static_cast<int>(graph.nodes.size());
  std::vector<std::vector<int>> succs = node_successors(graph);
  std::vector<int> colour(n, 0);  // 0 white, 1 grey, 2 black
  for (int root = 0; root < n; ++root) {
    if (colour[root] != 0) continue;
    std::vector<std::pair<int, size_t>> stack{{root, 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      if (next == succs[node].size()) {
        colour[node] = 2;
        stack.pop_back();
        continue;
      }
      int child = succs[node][next++];
      if (colour[child] == 1) {
        std::vector<int> cycle;
        size_t at = 0;
        while (stack[at].first != child) ++at;
        for (; at < stack.size(); ++at) cycle.push_back(stack[at].first);
        return cycle;
      }
      if (colour[child] == 0) {
        colour[child] = 1;
        stack.push_back({child, 0});
      }
    }
  }
  return std::nullopt;
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
