// The plan tests' graph: n nodes in a line, 100 compute, 400 parameter bytes
// and 1000 output bytes each.
#pragma once

#include <string>

#include "model/graph.hpp"

namespace tessel::testing {

inline Graph line_graph(int nodes) {
  Graph graph;
  graph.name = "line";
  for (int i = 0; i < nodes; ++i) {
    graph.nodes.push_back({"n" + std::to_string(i), "linear", 100, 400, 1000});
    if (i) graph.edges.push_back({i - 1, i});
  }
  return graph;
}

}  // namespace tessel::testing
