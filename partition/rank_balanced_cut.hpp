// A stage cut balanced for the RANKS, not the stages. The partitioner
// (partition/partition_search) minimises the slowest stage; with several stages
// per rank (interleaved, v) what bounds the pipeline is the busiest rank, the
// sum of its stages, which a bottleneck-optimal cut can leave lopsided (a
// huge last layer makes every other stage's size free). This cut takes the
// graph's program order, starts from equal shares of the compute and moves
// one boundary at a time while the busiest rank gets lighter (then the
// spread of the loads), so every stage is a contiguous run of operators and
// every edge goes forward. A local optimum, not a proof; plan compares it
// with the exact cut and keeps the better one for the ranks.
#pragma once

#include <vector>

#include "model/graph.hpp"
#include "partition/partition.hpp"

namespace tessel {

// Compute per rank when stage s runs on rank rank_of[s].
std::vector<long long> rank_loads(const PartitionCosts& costs, const std::vector<int>& rank_of);

// Requires 1 <= stages <= number of nodes, rank_of.size() == stages.
Partition rank_balanced_cut(const Graph& graph, int stages, const std::vector<int>& rank_of);

}  // namespace tessel
