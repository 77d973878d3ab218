// Costs and validity of a stage partition.
#include "partition/partition.hpp"

#include <algorithm>

namespace tessel {

int boundaries_crossed(const std::vector<std::vector<int>>& successors,
                       const std::vector<int>& stage_of, int node) {
  int last = stage_of[node];
  for (int consumer : successors[node]) last = std::max(last, stage_of[consumer]);
  return last - stage_of[node];
}

PartitionCosts partition_costs(const Graph& graph, const Partition& partition) {
  PartitionCosts costs;
  costs.stage_compute.assign(partition.stages, 0);
  costs.stage_param_bytes.assign(partition.stages, 0);
  costs.stage_output_bytes.assign(partition.stages, 0);
  std::vector<std::vector<int>> succs = node_successors(graph);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    int stage = partition.stage_of[v];
    costs.stage_compute[stage] += graph.nodes[v].compute;
    costs.stage_param_bytes[stage] += graph.nodes[v].param_bytes;
    costs.stage_output_bytes[stage] += graph.nodes[v].output_bytes;
    costs.communication_bytes += graph.nodes[v].output_bytes *
                                 boundaries_crossed(succs, partition.stage_of, static_cast<int>(v));
  }
  for (long long load : costs.stage_compute) costs.bottleneck = std::max(costs.bottleneck, load);
  return costs;
}

std::string partition_problem(const Graph& graph, const Partition& partition) {
  if (partition.stages < 1) return "the number of stages must be >= 1";
  if (partition.stage_of.size() != graph.nodes.size())
    return "the assignment has " + std::to_string(partition.stage_of.size()) + " entries for " +
           std::to_string(graph.nodes.size()) + " nodes";
  std::vector<int> used(partition.stages, 0);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    int stage = partition.stage_of[v];
    if (stage < 0 || stage >= partition.stages)
      return "node '" + graph.nodes[v].id + "' is in stage " + std::to_string(stage) +
             ", outside [0, " + std::to_string(partition.stages) + ")";
    used[stage] = 1;
  }
  for (const GraphEdge& edge : graph.edges)
    if (partition.stage_of[edge.to] < partition.stage_of[edge.from])
      return "edge " + graph.nodes[edge.from].id + " -> " + graph.nodes[edge.to].id +
             " goes from stage " + std::to_string(partition.stage_of[edge.from]) +
             " back to stage " + std::to_string(partition.stage_of[edge.to]);
  for (int stage = 0; stage < partition.stages; ++stage)
    if (!used[stage]) return "stage " + std::to_string(stage) + " holds no node";
  return "";
}

}  // namespace tessel
