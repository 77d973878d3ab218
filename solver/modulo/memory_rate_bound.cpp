// The memory-rate bound on the period (see the header).
//
// Why it is sound. Fix a repetend of period P and a device d with limit M.
// Pair every freeing block f on d with allocating ancestors a on d: x_af >= 0
// units, each f paired in full; each a gives at most its own memory. The
// device's deltas sum to zero over one micro-batch (the search requires it),
// so every allocation is paired in full too, and the memory d holds at step
// t of the steady state is sum_af x_af #{m : s(a,m) <= t < s(f,m)}: what
// each micro-batch allocated and has not freed yet. With s(x,m) = s(x) + m P
// and integer steps, the count #{m : s(a) + m P <= t < s(f) + m P} summed
// over the P steps of one period is exactly s(f) - s(a), the hold, which is
// at least the longest chain from a's start to f's start (spans and
// delays), g(a, f). So over one period the device holds sum x_af hold(a, f)
// >= W = sum x_af g(a, f) memory-steps, at most M at each step: P M >= W.
// Any valid pairing gives a bound; pairing greedily (longest chain first)
// just tries to make it large. A window of k copies has k times the pairs,
// so the same argument bounds its period P_k.
#include "solver/modulo/memory_rate_bound.hpp"

#include <algorithm>

namespace tessel {
namespace {

// Devices with more allocating blocks than this are skipped: a longest
// chain from each costs the whole graph (skipping only weakens the bound).
// A size guard, not a knob (the bound is also computed outside a search).
constexpr size_t kMostAllocating = 64;

// chain[x]: the longest chain from the start of `from` to the start of x,
// -1 where x does not follow `from`.
std::vector<Time> chains_from(const Placement& placement, const std::vector<int>& order, int from,
                              const std::vector<std::vector<std::pair<int, Time>>>& out_edges) {
  std::vector<Time> chain(placement.blocks.size(), -1);
  chain[from] = 0;
  for (int x : order) {
    if (chain[x] < 0) continue;
    for (const auto& [next, delay] : out_edges[x])
      chain[next] = std::max(chain[next], chain[x] + placement.blocks[x].span + delay);
  }
  return chain;
}

// W of one device, or a negative value when its frees cannot be paired.
__int128 held_memory_steps(const Placement& placement, const std::vector<int>& order,
                           const std::vector<std::vector<std::pair<int, Time>>>& out_edges, int device) {
  std::vector<int> allocating, freeing;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (!on_device(placement.blocks[b], device)) continue;
    if (placement.blocks[b].memory > 0) allocating.push_back(static_cast<int>(b));
    if (placement.blocks[b].memory < 0) freeing.push_back(static_cast<int>(b));
  }
  if (allocating.empty() || freeing.empty() || allocating.size() > kMostAllocating) return -1;
  std::vector<std::vector<Time>> chain;
  std::vector<Memory> left;
  for (int a : allocating) {
    chain.push_back(chains_from(placement, order, a, out_edges));
    left.push_back(placement.blocks[a].memory);
  }
  __int128 held = 0;
  for (int f : freeing) {
    std::vector<size_t> ancestors;
    for (size_t i = 0; i < allocating.size(); ++i)
      if (chain[i][f] >= 0 && left[i] > 0) ancestors.push_back(i);
    std::sort(ancestors.begin(), ancestors.end(), [&](size_t x, size_t y) { return chain[x][f] > chain[y][f]; });
    Memory need = -placement.blocks[f].memory;
    for (size_t i : ancestors) {
      const Memory take = std::min(need, left[i]);
      held += static_cast<__int128>(take) * chain[i][f];
      left[i] -= take;
      need -= take;
      if (need == 0) break;
    }
    if (need > 0) return -1;
  }
  return held;
}

}  // namespace

MemoryRateBound memory_rate_bound(const Placement& placement, const std::vector<long long>& memory_limit) {
  MemoryRateBound best;
  if (memory_limit.empty() || placement.blocks.empty()) return best;
  const std::vector<int> order = topological_order(placement);
  std::vector<std::vector<std::pair<int, Time>>> out_edges(placement.blocks.size());
  for (const Edge& edge : placement.edges) out_edges[edge.from].push_back({edge.to, edge.delay});
  for (int device = 0; device < placement.ndevs; ++device) {
    const long long limit = memory_limit[device];
    if (limit <= 0) continue;
    const __int128 held = held_memory_steps(placement, order, out_edges, device);
    if (held <= 0) continue;
    const __int128 period = (held + limit - 1) / limit;
    if (period > static_cast<__int128>(kMaxTicks)) continue;  // past any period the search can ask
    if (period > best.period) best = {static_cast<Time>(period), device, held, limit};
  }
  return best;
}

}  // namespace tessel
