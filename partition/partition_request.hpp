// What a stage-partitioning request asks for and what it gets back, shared
// by the exact partitioner (partition_search) and the DP baseline
// (partition_dp) so that the two answer the same question.
//
// Objectives (docs/cli.md, "tessel partition"): `bottleneck` minimises the slowest stage's
// compute, then the communication under it; `pippy` (PiPPy's graph split)
// minimises the communication with every stage's parameter bytes within
// 1 +- tolerance of the mean. `max_param_bytes` caps every stage under both.
#pragma once

#include <optional>
#include <string>

#include "model/graph.hpp"
#include "partition/partition.hpp"

namespace tessel {

enum class PartitionObjective { Bottleneck, Pippy };

struct PartitionRequest {
  int stages = 2;
  PartitionObjective objective = PartitionObjective::Bottleneck;
  double tolerance = 0.1;                   // pippy only
  std::optional<long long> max_param_bytes;  // per stage, both objectives
};

std::string objective_name(PartitionObjective objective);

// Per-stage parameter-byte window the request allows: [low, high].
struct ParamWindow {
  long long low = 0;
  long long high = 0;
};
ParamWindow param_window(const Graph& graph, const PartitionRequest& request);

// The value the objective minimises first: the bottleneck, or for pippy the
// communication.
long long primary_value(const PartitionCosts& costs, PartitionObjective objective);

}  // namespace tessel
