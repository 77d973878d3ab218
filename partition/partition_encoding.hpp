// The exact stage-partitioning model on the solver facade (docs/algorithms.md,
// "Stage partitioning"): which stage each node runs in, under "no edge goes back" and
// "no stage is empty", with the per-stage compute and the communication as
// linear sums that a search bounds through guard literals (assumptions), so
// one incremental solver answers every bound of a search.
#pragma once

#include <optional>
#include <vector>

#include "model/graph.hpp"
#include "partition/partition_request.hpp"
#include "sat/backend.hpp"
#include "sat/deadline.hpp"

namespace tessel {

struct PartitionEncoding {
  int stages = 0;
  std::vector<IntVar> stage;                 // per node, domain [0, stages)
  std::vector<std::vector<Lit>> at_most;     // [v][s] = "stage(v) <= s", the order literals y(v,s)
  std::vector<std::vector<Lit>> in_stage;    // [v][s] = "stage(v) == s"
  std::vector<std::vector<Lit>> crosses;     // [v][b] = v's output crosses boundary b (b, b+1)
  std::vector<long long> ancestor_compute;   // compute of v and everything it depends on
  std::vector<long long> descendant_compute; // compute of v and everything that depends on it
};

// Builds the model: order literals, monotone edges, non-empty stages, the
// crossing literals, and the parameter window per stage (hard).
PartitionEncoding encode_partition(Backend& backend, const Graph& graph, int stages,
                                   const ParamWindow& window);

// A fresh literal that, assumed, bounds every stage's compute by `bound`,
// with the redundant prefix bounds (the first s+1 stages hold at most
// (s+1) * bound) and each node's stage window implied by the compute of its
// ancestors and descendants; these make the UNSAT answers short. Nullopt
// when `deadline` struck while its sums were built (on a graph of 10^4
// nodes each takes a while): the literal is then incomplete and unused.
std::optional<Lit> bottleneck_guard(Backend& backend, const Graph& graph, const PartitionEncoding& encoding,
                                    long long bound, const Deadline& deadline = Deadline::none());

// The stages each node can take when every stage's compute is at most
// `bound`: everything before v, v included, fills at most (stage(v)+1) *
// bound, and everything after it at most (S - stage(v)) * bound.
// `feasible` is false when some node has no stage left (or is heavier than
// the bound on its own).
struct StageWindows {
  bool feasible = true;
  std::vector<int> lowest, highest;
};
StageWindows stage_windows(const Graph& graph, const PartitionEncoding& encoding, long long bound);

// A fresh literal that, assumed, bounds the communication by `bound`. With
// `within`, the sum leaves out the crossings those windows rule out; the
// guard is then only sound assumed together with the bottleneck guard that
// imposes the windows.
Lit communication_guard(Backend& backend, const Graph& graph, const PartitionEncoding& encoding,
                        long long bound, const StageWindows* within = nullptr);

// The stage of every node in the backend's last model.
std::vector<int> decode_stages(Backend& backend, const PartitionEncoding& encoding);

}  // namespace tessel
