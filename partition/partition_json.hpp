// The `tessel.partition/1` file format: the assignment (node id -> stage)
// with its per-stage costs and what the partitioner claims about it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/graph.hpp"
#include "model/json_file.hpp"
#include "partition/partition.hpp"

namespace tessel {

inline constexpr const char* kPartitionFormat = "tessel.partition/1";

// What the partitioner says about a partition, written beside it.
struct PartitionClaim {
  std::string objective = "bottleneck";  // bottleneck|pippy|dp-bottleneck|dp-pippy
  std::string status = "feasible";       // optimal|feasible|timeout
  long long objective_value = 0;         // of the objective minimised first
  long long proven_bound = 0;            // no partition has a smaller objective_value
  double solve_seconds = 0;
};

nlohmann::json partition_to_json(const Graph& graph, const Partition& partition,
                                 const PartitionClaim& claim);

// Reads the assignment of a partition file against its graph: every node
// assigned once, known ids only, stages in range, no edge to an earlier
// stage, no empty stage. Costs in the file are not trusted (recomputed by
// partition_costs; verify/partition_check compares them).
Partition partition_from_json(const nlohmann::json& document, const Graph& graph,
                              const JsonPlace& place);
Partition read_partition_file(const std::string& path, const Graph& graph);

}  // namespace tessel
