// Contiguous cuts of one topological order by dynamic programming.
//
// Positions 0..n-1 of the order; a partition is S-1 cut points. The
// communication of a contiguous partition is a sum over its cut points:
// cut after position i costs the output bytes of every node at or before i
// read by a node after i. So both objectives are classic segment DPs:
// first the smallest achievable maximum segment compute, then the least
// total cut cost among segmentations that stay under it. Both run in
// O(stages * nodes) per pass over sliding windows of segment starts (the
// bottleneck in about 60 passes of bisection), in O(stages * nodes) memory
// for the back-pointers.
#include "partition/partition_dp.hpp"

#include <algorithm>
#include <deque>
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

// The starts i of the segments [i, j) that end at j, for a compute cap:
// compute(i, j) <= cap and parameters within the window. Every bound only
// grows with j (prefix sums of non-negative weights), so the windows of
// j = 1..n slide right and each stage is one pass (O(n), not O(n^2): a
// traced model's 10^5 operators in milliseconds).
struct StartWindow {
  const Segments& segments;
  long long cap;
  int lowest = 0, highest = -1;  // the window for the last j asked

  // [lowest, highest] for end j (empty when lowest > highest); j increasing.
  void advance(int j) {
    const auto& compute = segments.compute_prefix;
    const auto& params = segments.param_prefix;
    while (lowest < j && (compute[j] - compute[lowest] > cap || params[j] - params[lowest] > segments.window.high))
      ++lowest;
    while (highest + 1 < j && params[j] - params[highest + 1] >= segments.window.low) ++highest;
  }
};

// Whether [0, n) splits into `stages` segments within `cap`.
bool fits(const Segments& segments, int n, int stages, long long cap) {
  std::vector<char> reach(n + 1, 0), next(n + 1, 0);
  std::vector<int> reached_before(n + 2, 0);  // [i] = reachable positions < i
  reach[0] = 1;
  for (int s = 1; s <= stages; ++s) {
    for (int i = 0; i <= n; ++i) reached_before[i + 1] = reached_before[i] + reach[i];
    StartWindow window{segments, cap};
    std::fill(next.begin(), next.end(), 0);
    for (int j = 1; j <= n; ++j) {
      window.advance(j);
      const int from = std::max(window.lowest, s - 1), to = window.highest;
      next[j] = from <= to && reached_before[to + 1] - reached_before[from] > 0;
    }
    reach.swap(next);
  }
  return reach[n] != 0;
}

// Smallest achievable maximum segment compute, or kInfinity: the least cap
// that fits, by bisection (a cap that fits stays fitting when raised).
long long least_bottleneck(const Segments& segments, int n, int stages) {
  long long lower = 0, upper = segments.compute_prefix[n];
  for (int i = 0; i < n; ++i) lower = std::max(lower, segments.compute(i, i + 1));
  lower = std::max(lower, (upper + stages - 1) / stages);
  if (!fits(segments, n, stages, upper)) return kInfinity;
  while (lower < upper) {
    const long long middle = lower + (upper - lower) / 2;
    if (fits(segments, n, stages, middle)) upper = middle;
    else lower = middle + 1;
  }
  return lower;
}

// Least total cut cost over segmentations of [0, n) into `stages` segments
// each with compute <= cap and parameters in the window; back-pointers in
// `choice` ([s * (n + 1) + j] = start of the last segment of the prefix of
// length j). The least over the sliding window of starts is kept in a deque
// of increasing costs; among equal costs the latest start wins, as when the
// starts were tried from j - 1 down.
long long least_cut_cost(const Segments& segments, int n, int stages, long long cap, std::vector<int>& choice) {
  std::vector<long long> best(n + 1, kInfinity), next(n + 1, kInfinity);
  choice.assign(static_cast<size_t>(stages + 1) * (n + 1), -1);
  best[0] = 0;
  auto entry_cost = [&](int i) { return best[i] >= kInfinity ? kInfinity : best[i] + (i > 0 ? segments.cut_cost[i - 1] : 0); };
  for (int s = 1; s <= stages; ++s) {
    StartWindow window{segments, cap};
    std::deque<int> candidates;
    int pushed = 0;  // starts below this were offered to the deque
    std::fill(next.begin(), next.end(), kInfinity);
    for (int j = 1; j <= n; ++j) {
      window.advance(j);
      const int from = std::max(window.lowest, s - 1), to = window.highest;
      for (; pushed <= to; ++pushed) {
        const long long cost = entry_cost(pushed);
        while (!candidates.empty() && entry_cost(candidates.back()) >= cost) candidates.pop_back();
        candidates.push_back(pushed);
      }
      while (!candidates.empty() && candidates.front() < from) candidates.pop_front();
      if (from > to || candidates.empty() || entry_cost(candidates.front()) >= kInfinity) continue;
      next[j] = entry_cost(candidates.front());
      choice[static_cast<size_t>(s) * (n + 1) + j] = candidates.front();
    }
    best.swap(next);
  }
  return best[n];
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
  std::vector<int> choice;
  if (least_cut_cost(segments, n, stages, cap, choice) >= kInfinity) return std::nullopt;

  Partition partition;
  partition.stages = stages;
  partition.stage_of.assign(n, 0);
  int end = n;
  for (int s = stages; s >= 1; --s) {
    int start = choice[static_cast<size_t>(s) * (n + 1) + end];
    for (int i = start; i < end; ++i) partition.stage_of[order[i]] = s - 1;
    end = start;
  }
  return partition;
}

}  // namespace tessel
