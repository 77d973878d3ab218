// The verifier's symmetry rules and the map onto them (see the header).
#include "certify/symmetry.hpp"

#include <algorithm>
#include <numeric>

namespace tessel::certify {
namespace {

// Component of each block of one micro-batch (edges in either direction).
std::vector<int> components(const Placement& placement) {
  std::vector<int> parent(placement.blocks.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](int b) {
    while (parent[b] != b) b = parent[b] = parent[parent[b]];
    return b;
  };
  for (const Edge& edge : placement.edges) parent[root(edge.from)] = root(edge.to);
  std::vector<int> id(placement.blocks.size());
  for (size_t b = 0; b < id.size(); ++b) id[b] = root(static_cast<int>(b));
  return id;
}

// Every device's memory over the component's blocks sums to zero.
bool balances(const Placement& placement, const std::vector<int>& component, int root) {
  std::vector<long long> balance(placement.ndevs, 0);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (component[b] == root)
      for (int d : placement.blocks[b].devices) balance[d] += placement.blocks[b].memory;
  return std::all_of(balance.begin(), balance.end(), [](long long x) { return x == 0; });
}

}  // namespace

WindowSymmetry window_symmetry(const Placement& placement, int k, bool memory_limited) {
  const std::vector<int> component = components(placement);
  WindowSymmetry symmetry;
  symmetry.k = k, symmetry.n = static_cast<int>(placement.blocks.size());
  for (int root = 0; root < symmetry.n; ++root) {
    if (component[root] != root) continue;
    Component part;
    for (int b = 0; b < symmetry.n; ++b)
      if (component[b] == root) part.blocks.push_back(b);
    part.shiftable = !memory_limited || balances(placement, component, root);
    symmetry.components.push_back(part);
  }
  return symmetry;
}

std::vector<long long> canonical_starts(const Placement& placement, const Claim& claim, bool memory_limited,
                                        std::vector<long long> starts) {
  const WindowSymmetry symmetry = window_symmetry(placement, claim.k, memory_limited);
  const int n = symmetry.n;
  for (const Component& part : symmetry.components) {
    for (int c = 0; c < claim.k && part.shiftable; ++c) {  // shift: down while every start is >= P
      long long least = starts[c * n + part.blocks.front()];
      for (int b : part.blocks) least = std::min(least, starts[c * n + b]);
      for (int b : part.blocks) starts[c * n + b] -= least / claim.period * claim.period;
    }
    std::vector<int> copies(claim.k);  // order: the copies sorted by their first block's start
    std::iota(copies.begin(), copies.end(), 0);
    const int first = part.blocks.front();
    std::stable_sort(copies.begin(), copies.end(),
                     [&](int a, int b) { return starts[a * n + first] < starts[b * n + first]; });
    const std::vector<long long> before = starts;
    for (int c = 0; c < claim.k; ++c)
      for (int b : part.blocks) starts[c * n + b] = before[copies[c] * n + b];
  }
  return starts;
}

}  // namespace tessel::certify
