// The exact stage partitioner (docs/algorithms.md, "Stage partitioning"): the bound
// search over the partition encoding on one incremental backend, with the
// DP baseline as the first incumbent. It answers with a proof of optimality,
// a proof of infeasibility, or (time limit) the best partition and the gap
// to the proven bound.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "model/graph.hpp"
#include "partition/partition.hpp"
#include "partition/partition_request.hpp"
#include "sat/deadline.hpp"

namespace tessel {

enum class PartitionStatus { Optimal, Feasible, Infeasible, Timeout };
std::string status_name(PartitionStatus status);

struct PartitionAnswer {
  PartitionStatus status = PartitionStatus::Timeout;
  std::optional<Partition> partition;  // the best found (none when infeasible or nothing found)
  // Of the objective minimised first (bottleneck, or pippy's communication):
  // no valid partition has a smaller value. Equal to the partition's value
  // when that level is proven.
  long long proven_bound = 0;
  // Bottleneck objective only: the least communication among partitions
  // with the optimal bottleneck is >= this (proven when equal).
  long long proven_communication_bound = 0;
  std::string reason;  // why infeasible, or what was left unproven
  std::optional<Partition> baseline;  // the DP's contiguous cut, when one exists
  double solve_seconds = 0;
};

using PartitionProgress = std::function<void(const std::string&)>;

// method "exact" (the bound search on `backend`) or "dp" (the baseline
// alone: status feasible, proven bound only the trivial one).
PartitionAnswer solve_partition(const Graph& graph, const PartitionRequest& request,
                                const std::string& method, const std::string& backend,
                                const Deadline& deadline, const PartitionProgress& progress = {});

}  // namespace tessel
