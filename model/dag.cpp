// Cycles and edge lists shared by placements and operator graphs.
#include "model/dag.hpp"

namespace tessel {

std::optional<std::vector<int>> find_cycle(const std::vector<std::vector<int>>& successors) {
  // Iterative colouring DFS; the grey stack is the cycle when a grey vertex is met.
  const int n = static_cast<int>(successors.size());
  std::vector<int> colour(n, 0);  // 0 white, 1 grey, 2 black
  for (int root = 0; root < n; ++root) {
    if (colour[root] != 0) continue;
    std::vector<std::pair<int, size_t>> stack{{root, 0}};
    colour[root] = 1;
    while (!stack.empty()) {
      auto& [vertex, next] = stack.back();
      if (next == successors[vertex].size()) {
        colour[vertex] = 2;
        stack.pop_back();
        continue;
      }
      int child = successors[vertex][next++];
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

std::vector<DagEdge> read_dag_edges(const nlohmann::json& document, const std::map<std::string, int>& index,
                                    const std::vector<std::string>& names, const std::string& noun,
                                    const JsonPlace& place, bool allow_delay) {
  std::vector<DagEdge> edges;
  if (!document.contains("edges")) return edges;
  const nlohmann::json& list = require_array(document, "edges", place);
  std::vector<std::vector<int>> successors(names.size());
  const std::string shape = allow_delay ? "a pair of " + noun + " ids [\"a\", \"b\"] or a triple [\"a\", \"b\", delay]"
                                        : "a pair of " + noun + " ids [\"a\", \"b\"]";
  for (size_t i = 0; i < list.size(); ++i) {
    JsonPlace at = place.field("edges").index(i);
    const nlohmann::json& edge = list[i];
    const bool triple = allow_delay && edge.is_array() && edge.size() == 3;
    if (!edge.is_array() || (edge.size() != 2 && !triple) || !edge[0].is_string() || !edge[1].is_string())
      at.fail("an edge is " + shape + ", got " + shown_value(edge));
    const std::string from = edge[0].get<std::string>();
    const std::string to = edge[1].get<std::string>();
    auto from_index = index.find(from);
    auto to_index = index.find(to);
    if (from_index == index.end()) at.index(0).fail("unknown " + noun + " '" + from + "'");
    if (to_index == index.end()) at.index(1).fail("unknown " + noun + " '" + to + "'");
    if (from_index->second == to_index->second) at.fail(noun + " '" + from + "' depends on itself");
    DagEdge read{from_index->second, to_index->second, {}};
    if (triple) {
      read.delay = as_decimal(edge[2], at.index(2));
      if (read.delay.digits < 0) at.index(2).fail("a delay must be >= 0, got " + shown_value(edge[2]));
    }
    edges.push_back(read);
    successors[from_index->second].push_back(to_index->second);
  }
  if (auto cycle = find_cycle(successors)) {
    std::string text;
    for (int vertex : *cycle) text += names[vertex] + " -> ";
    text += names[cycle->front()];
    place.field("edges").fail("dependency cycle: " + text);
  }
  return edges;
}

}  // namespace tessel
