// Boundary moves over the program order: a cut is S-1 positions, each move
// shifts one of them by a power of two (either way) and is kept when the
// (busiest rank, sum of squared rank loads) pair decreases.
#include "partition/rank_balanced_cut.hpp"

#include <algorithm>

namespace tessel {

namespace {

struct Score {
  long long busiest = 0;
  double spread = 0;
  bool operator<(const Score& other) const {
    return busiest != other.busiest ? busiest < other.busiest : spread < other.spread;
  }
};

// prefix[i] = compute of the first i nodes of the order.
Score score(const std::vector<long long>& prefix, const std::vector<int>& cuts, const std::vector<int>& rank_of) {
  int ranks = *std::max_element(rank_of.begin(), rank_of.end()) + 1;
  std::vector<long long> load(ranks, 0);
  for (size_t s = 0; s + 1 < cuts.size(); ++s) load[rank_of[s]] += prefix[cuts[s + 1]] - prefix[cuts[s]];
  Score result;
  for (long long value : load) {
    result.busiest = std::max(result.busiest, value);
    result.spread += static_cast<double>(value) * static_cast<double>(value);
  }
  return result;
}

}  // namespace

std::vector<long long> rank_loads(const PartitionCosts& costs, const std::vector<int>& rank_of) {
  int ranks = *std::max_element(rank_of.begin(), rank_of.end()) + 1;
  std::vector<long long> load(ranks, 0);
  for (size_t s = 0; s < costs.stage_compute.size(); ++s) load[rank_of[s]] += costs.stage_compute[s];
  return load;
}

Partition rank_balanced_cut(const Graph& graph, int stages, const std::vector<int>& rank_of) {
  std::vector<int> order = graph_topological_order(graph);
  const int n = static_cast<int>(order.size());
  std::vector<long long> prefix(n + 1, 0);
  for (int i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + graph.nodes[order[i]].compute;
  // cuts[s] = first position of stage s; cuts[stages] = n.
  std::vector<int> cuts(stages + 1, n);
  for (int s = 0; s < stages; ++s) {
    long long target = prefix[n] / stages * s;
    int position = static_cast<int>(std::lower_bound(prefix.begin(), prefix.end(), target) - prefix.begin());
    cuts[s] = std::clamp(position, s == 0 ? 0 : cuts[s - 1] + 1, n - (stages - s));
  }
  cuts[0] = 0;
  Score best = score(prefix, cuts, rank_of);
  for (bool improved = true; improved;) {
    improved = false;
    for (int s = 1; s < stages; ++s)
      for (int step = 1; step < n; step *= 2)
        for (int direction : {-1, 1}) {
          int moved = cuts[s] + direction * step;
          if (moved <= cuts[s - 1] || moved >= cuts[s + 1]) continue;
          int kept = cuts[s];
          cuts[s] = moved;
          Score candidate = score(prefix, cuts, rank_of);
          if (candidate < best) {
            best = candidate;
            improved = true;
          } else {
            cuts[s] = kept;
          }
        }
  }
  Partition partition{stages, std::vector<int>(graph.nodes.size(), 0)};
  for (int s = 0; s < stages; ++s)
    for (int i = cuts[s]; i < cuts[s + 1]; ++i) partition.stage_of[order[i]] = s;
  return partition;
}

}  // namespace tessel
