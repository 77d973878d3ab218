// Contiguous cuts of one topological order by dynamic programming.
//
// Positions 0..n-1 of the order; a partition is S-1 cut points. The
// communication of a contiguous partition is a sum over its cut points:
// cut after position i costs the output bytes of every node at or before i
// read by a node after i. So both objectives are classic segment DPs:
// first the smallest achievable maximum segment compute, then the least
// total cut cost among segmentations that stay under it.
#include "partition/partition_dp.hpp"

#include <algorithm>
#include <limits>

namespace tessel {

namespace {

constexpr long long kInfinity = std::numeric_limits<long long>::max() / 4;

struct Segments {
  std::vector<long long> compute_prefix;  // [i] = compute of positions < i
  std::vector<long long> param_prefix;
  std::vector<long long> cut_cost;        // [i] = bytes crossing a cut after position i
  ParamWindow window;

  long long compute(int from, int to) const { return compute_prefix[to] - compute_prefix[from]; }
  bool params_ok(int from, int to) const {
    long long params = param_prefix[to] - param_prefix[from];
    return params >= window.low && params <= window.high;
  }
};

Segments prepare(const Graph& graph, const std::vector<int>& order, const ParamWindow& window) {
  const int n = static_cast<int>(order.size());
  Segments segments;
  segments.window = window;
  std::vector<int> position(n);
  for (int i = 0; i < n; ++i) position[order[i]] = i;
  segments.compute_prefix.assign(n + 1, 0);
  segments.param_prefix.assign(n + 1, 0);
  for (int i = 0; i < n; ++i) {
    segments.compute_prefix[i + 1] = segments.compute_prefix[i] + graph.nodes[order[i]].compute;
    segments.param_prefix[i + 1] = segments.param_prefix[i] + graph.nodes[order[i]].param_bytes;
  }
  // Difference array: node u's output crosses every cut in [pos(u), last reader).
  std::vector<long long> delta(n + 1, 0);
  std::vector<int> last(n, -1);
  for (const GraphEdge& edge : graph.edges)
    last[edge.from] = std::max(last[edge.from], position[edge.to]);
  for (int u = 0; u < n; ++u) {
    if (last[u] <= position[u]) continue;
    delta[position[u]] += graph.nodes[u].output_bytes;
    delta[last[u]] -= graph.nodes[u].output_bytes;
  }
  segments.cut_cost.assign(n, 0);
  long long running = 0;
  for (int i = 0; i < n; ++i) segments.cut_cost[i] = running += delta[i];
  return segments;
}

// Least total cut cost over segmentations of [0, n) into `stages` segments
// each with compute <= cap and parameters in the window; back-pointers in
// `choice` ([s][j] = start of the last segment of the prefix of length j).
long long least_cut_cost(const Segments& segments, int n, int stages, long long cap,
                         std::vector<std::vector<int>>& choice) {
  std::vector<std::vector<long long>> best(stages + 1, std::vector<long long>(n + 1, kInfinity));
  choice.assign(stages + 1, std::vector<int>(n + 1, -1));
  best[0][0] = 0;
  for (int s = 1; s <= stages; ++s)
    for (int j = s; j <= n; ++j)
      for (int i = j - 1; i >= s - 1; --i) {
        if (segments.compute(i, j) > cap) break;  // longer segments only grow
        if (best[s - 1][i] >= kInfinity || !segments.params_ok(i, j)) continue;
        long long cost = best[s - 1][i] + (i > 0 ? segments.cut_cost[i - 1] : 0);
        if (cost < best[s][j]) {
          best[s][j] = cost;
          choice[s][j] = i;
        }
      }
  return best[stages][n];
}

// Smallest achievable maximum segment compute, or kInfinity.
long long least_bottleneck(const Segments& segments, int n, int stages) {
  std::vector<std::vector<long long>> best(stages + 1, std::vector<long long>(n + 1, kInfinity));
  best[0][0] = 0;
  for (int s = 1; s <= stages; ++s)
    for (int j = s; j <= n; ++j)
      for (int i = s - 1; i < j; ++i) {
        if (best[s - 1][i] >= kInfinity || !segments.params_ok(i, j)) continue;
        best[s][j] = std::min(best[s][j], std::max(best[s - 1][i], segments.compute(i, j)));
      }
  return best[stages][n];
}

}  // namespace

std::optional<Partition> dp_partition(const Graph& graph, const PartitionRequest& request) {
  const int n = static_cast<int>(graph.nodes.size());
  const int stages = request.stages;
  if (stages < 1 || stages > n) return std::nullopt;
  std::vector<int> order = graph_topological_order(graph);
  Segments segments = prepare(graph, order, param_window(graph, request));

  long long cap = kInfinity;
  if (request.objective == PartitionObjective::Bottleneck) {
    cap = least_bottleneck(segments, n, stages);
    if (cap >= kInfinity) return std::nullopt;
  }
  std::vector<std::vector<int>> choice;
  if (least_cut_cost(segments, n, stages, cap, choice) >= kInfinity) return std::nullopt;

  Partition partition;
  partition.stages = stages;
  partition.stage_of.assign(n, 0);
  int end = n;
  for (int s = stages; s >= 1; --s) {
    int start = choice[s][end];
    for (int i = start; i < end; ++i) partition.stage_of[order[i]] = s - 1;
    end = start;
  }
  return partition;
}

}  // namespace tessel
