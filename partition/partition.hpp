// A stage partition of an operator graph (docs/formats.md, "tessel.partition/1"):
// which pipeline stage runs each node, and what that costs per stage. The
// partitioner (partition/partition_search) produces these; verify/partition_check
// recomputes the costs on its own.
#pragma once

#include <string>
#include <vector>

#include "model/graph.hpp"

namespace tessel {

struct Partition {
  int stages = 0;
  std::vector<int> stage_of;  // per node, in [0, stages)
};

struct PartitionCosts {
  std::vector<long long> stage_compute;
  std::vector<long long> stage_param_bytes;
  // Output bytes of the stage's nodes: the activations a stage keeps for
  // its backward pass (the placement's memory).
  std::vector<long long> stage_output_bytes;
  // Each node's output counted once per boundary it crosses, i.e. from its
  // stage up to the last stage that reads it.
  long long communication_bytes = 0;
  long long bottleneck = 0;  // max stage compute
};

PartitionCosts partition_costs(const Graph& graph, const Partition& partition);

// Why the partition is not valid for the graph (wrong size, stage out of
// range, an edge to an earlier stage, an empty stage), or "" when it is.
std::string partition_problem(const Graph& graph, const Partition& partition);

// Communication of a node's output under a stage assignment: the number of
// boundaries between its stage and its last consumer's stage.
int boundaries_crossed(const std::vector<std::vector<int>>& successors,
                       const std::vector<int>& stage_of, int node);

}  // namespace tessel
