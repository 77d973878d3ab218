// What the micro-batches in flight hold in the steady state (see the header).
#include "solver/modulo/steady_memory.hpp"

#include <algorithm>

namespace tessel {
namespace {

// Above this many values the signed `held` is not worth an integer (memory
// in bytes): the offset terms then go into every phase's sum directly. It
// picks an encoding by its size, not an effort: not a knob.
constexpr long long kHeldDomainLimit = 4096;

// The device's deltas as allocation/free pairs, each free matched to the
// latest (in topological order) ancestor allocation with something left;
// nullopt when some free has no such ancestor.
std::optional<std::vector<MemoryPair>> memory_pairs(const Placement& placement, const std::vector<size_t>& blocks) {
  std::vector<int> rank(placement.blocks.size());
  {
    std::vector<int> order = topological_order(placement);
    for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<int>(i);
  }
  const std::vector<std::vector<int>> preds = predecessors(placement);
  std::vector<size_t> order = blocks;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return rank[x] < rank[y]; });
  std::vector<long long> left(placement.blocks.size(), 0);
  for (size_t b : blocks) left[b] = std::max<long long>(0, placement.blocks[b].memory);
  std::vector<MemoryPair> pairs;
  std::vector<char> ancestor(placement.blocks.size());
  for (size_t b : order) {
    long long need = -placement.blocks[b].memory;
    if (need <= 0) continue;
    std::fill(ancestor.begin(), ancestor.end(), 0);
    std::vector<int> stack(preds[b].begin(), preds[b].end());
    while (!stack.empty()) {
      int a = stack.back();
      stack.pop_back();
      if (ancestor[a]) continue;
      ancestor[a] = 1;
      for (int p : preds[a]) stack.push_back(p);
    }
    for (auto f = order.rbegin(); f != order.rend() && need > 0; ++f) {
      if (!ancestor[*f] || left[*f] == 0) continue;
      const long long amount = std::min(need, left[*f]);
      pairs.push_back({*f, b, amount});
      left[*f] -= amount;
      need -= amount;
    }
    if (need > 0) return std::nullopt;
  }
  return pairs;
}

}  // namespace

HeldMemory encode_held_memory(Backend& backend, const Placement& placement, const std::vector<size_t>& blocks,
                              const std::vector<IntVar>& quotients, int max_in_flight, long long limit) {
  HeldMemory result;
  const long long top = max_in_flight - 1;
  if (auto pairs = memory_pairs(placement, blocks)) {
    if (limit < 0) {
      result.impossible = true;
      return result;
    }
    for (const MemoryPair& pair : *pairs) {
      const IntVar q_alloc = quotients[pair.allocates], q_free = quotients[pair.frees];
      const long long widest = std::min(top, limit / pair.amount);
      backend.add_difference(q_alloc, q_free, static_cast<int>(-widest));
      if (widest == 0) {
        result.gaps.push_back({pair, std::nullopt});
        continue;
      }
      const IntVar gap = backend.new_int(0, static_cast<int>(widest));
      for (int v = 0; v < widest; ++v) backend.add_difference(q_alloc, q_free, -v, {backend.at_most(gap, v)});
      result.held.ints.push_back({pair.amount, gap});
      result.gaps.push_back({pair, gap});
    }
    return result;
  }
  __int128 held_lo = 0, held_hi = 0;  // bytes times Kmax may pass 2^63
  LinearSum offsets;
  for (size_t b : blocks) {
    const long long memory = placement.blocks[b].memory;
    (memory > 0 ? held_lo : held_hi) -= __int128(memory) * top;
    offsets.ints.push_back({-memory, quotients[b]});
  }
  if (held_hi - held_lo >= kHeldDomainLimit) {
    result.held = offsets;
    return result;
  }
  if (limit < held_lo) {
    result.impossible = true;
    return result;
  }
  const IntVar held =
      backend.new_int(static_cast<int>(held_lo), static_cast<int>(std::min<__int128>(held_hi, limit)));
  offsets.ints.push_back({-1, held});
  backend.add_linear_at_most(offsets, 0);
  result.held.ints.push_back({1, held});
  return result;
}

std::optional<DeviceMemory> encode_device_memory(Backend& backend, const Placement& placement, int device,
                                                 const std::vector<IntVar>& quotients, int max_in_flight,
                                                 long long limit) {
  DeviceMemory memory;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.memory != 0 && on_device(block, device))
      memory.blocks.push_back(b);
  }
  if (memory.blocks.empty()) {
    if (limit < 0) backend.add_clause({});
    return std::nullopt;
  }
  memory.held = encode_held_memory(backend, placement, memory.blocks, quotients, max_in_flight, limit);
  if (memory.held.impossible) {
    backend.add_clause({});
    return std::nullopt;
  }
  return memory;
}

}  // namespace tessel
