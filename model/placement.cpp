// Derived facts of a placement: loads, bounds, graph orders.
#include "model/placement.hpp"

#include <algorithm>
#include <functional>

#include "model/dag.hpp"

namespace tessel {

namespace {

struct KindName {
  BlockKind kind;
  const char* name;
  char letter;
};

constexpr KindName kKindNames[] = {
    {BlockKind::Forward, "forward", 'F'},
    {BlockKind::Backward, "backward", 'B'},
    {BlockKind::BackwardInput, "backward_input", 'I'},
    {BlockKind::BackwardWeight, "backward_weight", 'W'},
    {BlockKind::Other, "other", 'O'},
};

}  // namespace

const char* kind_name(BlockKind kind) {
  for (const KindName& entry : kKindNames)
    if (entry.kind == kind) return entry.name;
  return "other";
}

std::optional<BlockKind> parse_kind(const std::string& text) {
  for (const KindName& entry : kKindNames)
    if (text == entry.name) return entry.kind;
  return std::nullopt;
}

char kind_letter(BlockKind kind) {
  for (const KindName& entry : kKindNames)
    if (entry.kind == kind) return entry.letter;
  return 'O';
}

Memory static_memory_of(const Placement& placement, int device) {
  if (placement.static_memory.empty()) return 0;
  return placement.static_memory[device];
}

bool rescale_time(Placement& placement, int decimals) {
  if (decimals < placement.time_decimals || decimals > kMaxDecimals) return false;
  const long long scale = power_of_ten(decimals - placement.time_decimals);
  for (const Block& block : placement.blocks)
    if (block.span > kMaxTicks / scale) return false;
  for (const Edge& edge : placement.edges)
    if (edge.delay > kMaxTicks / scale) return false;
  for (const Block& block : placement.blocks) {
    if (block.recompute && block.recompute->span > kMaxTicks / scale) return false;
    if (block.offload && std::max(block.offload->out, block.offload->in) > kMaxTicks / scale) return false;
  }
  for (Block& block : placement.blocks) {
    if (block.recompute) block.recompute->span *= scale;
    if (block.offload) block.offload->out *= scale, block.offload->in *= scale;
  }
  for (Block& block : placement.blocks) block.span *= scale;
  for (Edge& edge : placement.edges) edge.delay *= scale;
  placement.time_decimals = decimals;
  return true;
}

bool rescale_memory(Placement& placement, int decimals) {
  if (decimals < placement.memory_decimals || decimals > kMaxDecimals) return false;
  const long long scale = power_of_ten(decimals - placement.memory_decimals);
  for (const Block& block : placement.blocks)
    if (block.memory > kMaxTicks / scale || block.memory < -kMaxTicks / scale) return false;
  for (Memory amount : placement.static_memory)
    if (amount > kMaxTicks / scale || amount < -kMaxTicks / scale) return false;
  for (Block& block : placement.blocks) {
    block.memory *= scale;
    if (block.recompute) block.recompute->checkpoint_memory *= scale;  // within [0, memory]
  }
  for (Memory& amount : placement.static_memory) amount *= scale;
  placement.memory_decimals = decimals;
  return true;
}

int find_block(const Placement& placement, const std::string& id) {
  for (size_t i = 0; i < placement.blocks.size(); ++i)
    if (placement.blocks[i].id == id) return static_cast<int>(i);
  return -1;
}

std::vector<Time> device_load(const Placement& placement) {
  std::vector<Time> load(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) load[device] += block.span;
  return load;
}

Time period_lower_bound(const Placement& placement) {
  std::vector<Time> load = device_load(placement);
  return load.empty() ? 0 : *std::max_element(load.begin(), load.end());
}

std::vector<Memory> memory_balance(const Placement& placement) {
  std::vector<Memory> balance(placement.ndevs, 0);
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

bool offers_memory_choice(const Placement& placement) {
  for (const Block& block : placement.blocks)
    if (block.recompute || block.offload) return true;
  return false;
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

std::vector<Time> earliest_starts(const Placement& placement) {
  std::vector<Time> start(placement.blocks.size(), 0);
  std::vector<std::vector<const Edge*>> incoming(placement.blocks.size());
  for (const Edge& edge : placement.edges) incoming[edge.to].push_back(&edge);
  for (int block : topological_order(placement))
    for (const Edge* edge : incoming[block])
      start[block] = std::max(start[block], start[edge->from] + placement.blocks[edge->from].span + edge->delay);
  return start;
}

Time critical_path(const Placement& placement) {
  std::vector<Time> start = earliest_starts(placement);
  Time length = 0;
  for (size_t i = 0; i < start.size(); ++i)
    length = std::max(length, start[i] + placement.blocks[i].span);
  return length;
}

std::vector<Time> chain_tails(const Placement& placement) {
  std::vector<Time> tail(placement.blocks.size(), 0);
  std::vector<std::vector<const Edge*>> outgoing(placement.blocks.size());
  for (const Edge& edge : placement.edges) outgoing[edge.from].push_back(&edge);
  const std::vector<int> order = topological_order(placement);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Time after = 0;
    for (const Edge* edge : outgoing[*it]) after = std::max(after, edge->delay + tail[edge->to]);
    tail[*it] = placement.blocks[*it].span + after;
  }
  return tail;
}

std::vector<Time> start_distances_from(const Placement& placement, int from) {
  std::vector<std::vector<const Edge*>> outgoing(placement.blocks.size());
  for (const Edge& edge : placement.edges) outgoing[edge.from].push_back(&edge);
  std::vector<Time> distance(placement.blocks.size(), -1);
  distance[from] = 0;
  for (int block : topological_order(placement)) {
    if (distance[block] < 0) continue;
    for (const Edge* edge : outgoing[block])
      distance[edge->to] = std::max(distance[edge->to], distance[block] + placement.blocks[block].span + edge->delay);
  }
  return distance;
}

std::vector<std::vector<char>> descendants(const Placement& placement) {
  const size_t n = placement.blocks.size();
  const std::vector<std::vector<int>> next = successors(placement);
  const std::vector<int> order = topological_order(placement);
  std::vector<std::vector<char>> reach(n, std::vector<char>(n, 0));
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (int after : next[*it]) {
      reach[*it][after] = 1;
      for (size_t far = 0; far < n; ++far)
        if (reach[after][far]) reach[*it][far] = 1;
    }
  return reach;
}

bool on_device(const Block& block, int device) {
  return std::find(block.devices.begin(), block.devices.end(), device) != block.devices.end();
}

}  // namespace tessel
