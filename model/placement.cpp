// Derived facts of a placement: loads, bounds, graph orders.
#include "model/placement.hpp"

#include <algorithm>
#include <functional>

#include "model/dag.hpp"

namespace tessel {

int find_block(const Placement& placement, const std::string& id) {
  for (size_t i = 0; i < placement.blocks.size(); ++i)
    if (placement.blocks[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<int> device_load(const Placement& placement) {
  std::vector<int> load(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) load[device] += block.span;
  return load;
}

int period_lower_bound(const Placement& placement) {
  std::vector<int> load = device_load(placement);
  return load.empty() ? 0 : *std::max_element(load.begin(), load.end());
}

std::vector<long long> memory_balance(const Placement& placement) {
  std::vector<long long> balance(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) balance[device] += block.memory;
  return balance;
}

std::vector<std::vector<int>> predecessors(const Placement& placement) {
  std::vector<std::vector<int>> preds(placement.blocks.size());
  for (const Edge& edge : placement.edges) preds[edge.to].push_back(edge.from);
  return preds;
}

std::vector<std::vector<int>> successors(const Placement& placement) {
  std::vector<std::vector<int>> succs(placement.blocks.size());
  for (const Edge& edge : placement.edges) succs[edge.from].push_back(edge.to);
  return succs;
}

std::optional<std::vector<int>> find_cycle(const Placement& placement) {
  return find_cycle(successors(placement));
}

std::vector<int> topological_order(const Placement& placement) {
  const int n = static_cast<int>(placement.blocks.size());
  std::vector<int> indegree(n, 0);
  for (const Edge& edge : placement.edges) ++indegree[edge.to];
  std::vector<std::vector<int>> succs = successors(placement);
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (indegree[i] == 0) order.push_back(i);
  for (size_t head = 0; head < order.size(); ++head)
    for (int next : succs[order[head]])
      if (--indegree[next] == 0) order.push_back(next);
  return order;
}

std::vector<int> earliest_starts(const Placement& placement) {
  std::vector<int> start(placement.blocks.size(), 0);
  std::vector<std::vector<int>> preds = predecessors(placement);
  for (int block : topological_order(placement))
    for (int pred : preds[block])
      start[block] = std::max(start[block], start[pred] + placement.blocks[pred].span);
  return start;
}

int critical_path(const Placement& placement) {
  std::vector<int> start = earliest_starts(placement);
  int length = 0;
  for (size_t i = 0; i < start.size(); ++i)
    length = std::max(length, start[i] + placement.blocks[i].span);
  return length;
}

}  // namespace tessel
