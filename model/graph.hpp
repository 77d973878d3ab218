// The operator graph (docs/formats.md, "tessel.graph/1"): one node per operator
// of ONE micro-batch's forward pass, with what it costs (compute), what it
// holds (parameter bytes) and what it sends on (output bytes). It is the
// input of stage partitioning, which turns it into a placement.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tessel {

// A parameter an operator uses that another operator holds and counts in
// its param_bytes (a tied weight: GPT-2's language-model head multiplies by
// the token embedding's matrix). A stage that has the user without the
// holder keeps a copy, its gradient and its optimizer state all the same.
struct TiedParameter {
  int holder = 0;        // node index
  long long bytes = 0;   // >= 0
};

struct GraphNode {
  std::string id;
  std::string op;               // free text: linear, matmul, softmax, ...
  long long compute = 0;        // >= 0, one unit for the whole graph (FLOPs or time)
  long long param_bytes = 0;    // >= 0, parameters this operator holds
  long long output_bytes = 0;   // >= 0, what crosses a stage boundary
  // The module path (FQN) of the innermost torch module whose forward made
  // this operator ("" for the model itself); absent when the graph does not
  // say. A plan lists the modules each stage holds from it.
  std::optional<std::string> module = std::nullopt;
  std::vector<TiedParameter> tied = {};  // parameters it uses that others hold
};

struct GraphEdge {
  int from = 0;  // node index
  int to = 0;    // node index
};

// What `compute` counts: unspecified (a number of the file's own), FLOPs,
// or measured nanoseconds (tessel_fx.py --profile).
enum class ComputeUnit { Unspecified, Flops, Nanoseconds };

// "" | "flops" | "ns", and back (nullopt for other text).
const char* compute_unit_name(ComputeUnit unit);
std::optional<ComputeUnit> parse_compute_unit(const std::string& text);

struct Graph {
  std::string name;
  ComputeUnit compute_unit = ComputeUnit::Unspecified;
  std::vector<GraphNode> nodes;
  std::vector<GraphEdge> edges;
};

// Index of the node with this id, or -1.
int find_node(const Graph& graph, const std::string& id);

std::vector<std::vector<int>> node_successors(const Graph& graph);
std::vector<std::vector<int>> node_predecessors(const Graph& graph);

// Nodes in an order where every edge goes forward; ties broken by the order
// of the file, so that a graph exported in program order keeps that order.
// Requires a DAG.
std::vector<int> graph_topological_order(const Graph& graph);

long long total_compute(const Graph& graph);
long long total_param_bytes(const Graph& graph);

}  // namespace tessel
