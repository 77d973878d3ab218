// Parts of a placement that may be moved by whole periods (see the header).
#include "solver/modulo/component_shift.hpp"

#include <map>
#include <numeric>

namespace tessel {
namespace {

int root_of(std::vector<int>& parent, int x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

std::vector<std::vector<int>> shiftable_part_sources(const Placement& window, int copies) {
  const int n = static_cast<int>(window.blocks.size());
  std::vector<int> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<bool> source(n, true);
  for (const Edge& edge : window.edges) {
    parent[root_of(parent, edge.from)] = root_of(parent, edge.to);
    source[edge.to] = false;
  }
  // Per part: the memory balance of each device, and whether it holds the
  // first block of a copy.
  std::map<int, std::map<int, long long>> balance;
  std::map<int, bool> holds_copy_start;
  const int per_copy = copies > 0 ? n / copies : n;
  for (int b = 0; b < n; ++b) {
    const int part = root_of(parent, b);
    for (int device : window.blocks[b].devices) balance[part][device] += window.blocks[b].memory;
    if (copies > 1 && per_copy > 0 && b % per_copy == 0) holds_copy_start[part] = true;
  }
  std::map<int, std::vector<int>> sources;
  for (int b = 0; b < n; ++b)
    if (source[b]) sources[root_of(parent, b)].push_back(b);
  std::vector<std::vector<int>> result;
  for (auto& [part, blocks] : sources) {
    if (holds_copy_start[part]) continue;
    bool balanced = true;
    for (const auto& [device, sum] : balance[part]) balanced = balanced && sum == 0;
    if (balanced) result.push_back(std::move(blocks));
  }
  return result;
}

void add_shiftable_part_rule(Backend& backend, const std::vector<IntVar>& quotients, const Placement& window,
                             int copies) {
  for (const std::vector<int>& sources : shiftable_part_sources(window, copies)) {
    std::vector<Lit> some_at_zero;
    for (int source : sources) some_at_zero.push_back(backend.at_most(quotients[source], 0));
    backend.add_clause(some_at_zero);
  }
}

}  // namespace tessel
