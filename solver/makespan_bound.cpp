// The makespan lower bound for N micro-batches (see the header).
#include "solver/makespan_bound.hpp"

#include <algorithm>
#include <climits>

namespace tessel {

long long makespan_lower_bound(const Placement& placement, long long nmicros) {
  if (nmicros <= 0 || placement.blocks.empty()) return 0;
  const int n = static_cast<int>(placement.blocks.size());
  std::vector<int> earliest = earliest_starts(placement);
  // after[b]: the longest chain that must run after b ends.
  std::vector<int> after(n, 0);
  std::vector<int> order = topological_order(placement);
  std::vector<std::vector<int>> succs = successors(placement);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (int next : succs[*it]) after[*it] = std::max(after[*it], placement.blocks[next].span + after[next]);

  long long bound = critical_path(placement);
  std::vector<int> load = device_load(placement);
  for (int device = 0; device < placement.ndevs; ++device) {
    int head = INT_MAX, tail = INT_MAX;
    for (int b = 0; b < n; ++b)
      for (int d : placement.blocks[b].devices)
        if (d == device) {
          head = std::min(head, earliest[b]);
          tail = std::min(tail, after[b]);
        }
    if (head == INT_MAX) continue;
    bound = std::max(bound, head + nmicros * load[device] + tail);
  }
  return bound;
}

}  // namespace tessel
