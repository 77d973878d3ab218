// The exact period of a fixed order (see the header for the idea).
#include "solver/modulo/max_cycle_ratio.hpp"

#include <deque>
#include <stdexcept>

namespace tessel {
namespace {

using Wide = __int128;

// Weight of an edge at period n / d, scaled by d > 0.
Wide scaled_weight(const DifferenceEdge& edge, const Ratio& period) {
  return Wide(edge.constant) * period.denominator - Wide(edge.crossings) * period.numerator;
}

// A cycle of the parent graph (each node's last improving edge), when there
// is one. In a longest-path Bellman-Ford every such cycle has positive
// weight: each of its edges was tight when set, and the last one set
// strictly improved its head, so the weights sum to more than zero.
std::optional<Cycle> parent_cycle(int nodes, const std::vector<DifferenceEdge>& edges, const std::vector<int>& parent) {
  std::vector<int> seen(nodes, -1);  // the walk that first reached a node
  for (int origin = 0; origin < nodes; ++origin) {
    int node = origin;
    while (node >= 0 && seen[node] < 0) {
      seen[node] = origin;
      node = parent[node] < 0 ? -1 : edges[parent[node]].from;
    }
    if (node < 0 || seen[node] != origin) continue;
    // `node` lies on a cycle of this walk: collect it backwards.
    Cycle cycle;
    int at = node;
    do {
      const int edge = parent[at];
      cycle.edges.push_back(edge);
      cycle.constant += edges[edge].constant;
      cycle.crossings += edges[edge].crossings;
      at = edges[edge].from;
    } while (at != node);
    std::vector<int> forward(cycle.edges.rbegin(), cycle.edges.rend());
    cycle.edges = std::move(forward);
    return cycle;
  }
  return std::nullopt;
}

}  // namespace

long long Ratio::ceiling() const {
  if (infinite()) throw std::logic_error("Ratio::ceiling of an infinite ratio");
  long long quotient = numerator / denominator;
  if (numerator % denominator != 0 && numerator > 0) ++quotient;
  return quotient;
}

bool operator<(const Ratio& a, const Ratio& b) {
  if (a.infinite() || b.infinite()) return !a.infinite() && b.infinite();
  return Wide(a.numerator) * b.denominator < Wide(b.numerator) * a.denominator;
}

bool operator==(const Ratio& a, const Ratio& b) { return !(a < b) && !(b < a); }

//------------------------------------------------------------------------------
// Bellman-Ford for longest paths from a virtual source joined to every node
// by a 0-edge, queue-driven; every `nodes` improvements the parent graph is
// searched for a cycle (there is one as soon as a positive cycle has been
// relaxed round, and none can form otherwise).

PeriodCheck check_period(int nodes, const std::vector<DifferenceEdge>& edges, const Ratio& period) {
  if (period.infinite() || period.denominator <= 0) throw std::invalid_argument("check_period: period must be finite");
  std::vector<std::vector<int>> outgoing(nodes);
  for (size_t e = 0; e < edges.size(); ++e) outgoing[edges[e].from].push_back(static_cast<int>(e));
  std::vector<Wide> weight(edges.size());
  for (size_t e = 0; e < edges.size(); ++e) weight[e] = scaled_weight(edges[e], period);

  std::vector<Wide> distance(nodes, 0);
  std::vector<int> parent(nodes, -1);
  std::vector<char> queued(nodes, 1);
  std::deque<int> queue;
  for (int node = 0; node < nodes; ++node) queue.push_back(node);
  long long improvements = 0;
  PeriodCheck result;
  while (!queue.empty()) {
    const int from = queue.front();
    queue.pop_front();
    queued[from] = 0;
    for (int e : outgoing[from]) {
      const int to = edges[e].to;
      const Wide candidate = distance[from] + weight[e];
      if (candidate <= distance[to]) continue;
      distance[to] = candidate;
      parent[to] = e;
      if (++improvements % nodes == 0) {
        if (auto cycle = parent_cycle(nodes, edges, parent)) {
          result.positive_cycle = std::move(cycle);
          return result;
        }
      }
      if (!queued[to]) {
        queued[to] = 1;
        queue.push_back(to);
      }
    }
  }
  if (period.denominator != 1) return result;
  result.potentials.resize(nodes);
  for (int node = 0; node < nodes; ++node) result.potentials[node] = static_cast<long long>(distance[node]);
  return result;
}

MaxRatio max_cycle_ratio(int nodes, const std::vector<DifferenceEdge>& edges, const Ratio& start) {
  MaxRatio result{start, std::nullopt};
  while (true) {
    PeriodCheck check = check_period(nodes, edges, result.value);
    if (check.feasible()) return result;
    const Cycle& cycle = *check.positive_cycle;
    result.value = cycle.ratio();
    result.critical = cycle;
    if (result.value.infinite()) return result;
  }
}

}  // namespace tessel
