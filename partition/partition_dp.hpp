// The baseline stage partitioner (docs/algorithms.md, "Stage partitioning"): a dynamic
// programme over ONE topological order that cuts it into contiguous
// segments. It is what a hand-made split or a simple tool does, it is fast
// (O(stages * nodes) per pass), and every exact answer must match or beat it.
// On a graph with one topological order (a chain) every partition is such a
// cut, so there it is the exact answer.
#pragma once

#include <optional>

#include "model/graph.hpp"
#include "partition/partition.hpp"
#include "partition/partition_request.hpp"

namespace tessel {

// The best contiguous cut of the graph's topological order (file order wins
// ties) for the request's objective, lexicographic like the exact search
// (bottleneck, then communication); nullopt when no contiguous cut satisfies
// the request (fewer nodes than stages, or the parameter window).
std::optional<Partition> dp_partition(const Graph& graph, const PartitionRequest& request);

}  // namespace tessel
