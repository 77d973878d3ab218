// The memory-time bound (see the header).
//
// Why it is a lower bound. Fix a device d with limit M. In one micro-batch
// the memory d holds at step t is held(t) = sum of m_c over its blocks c
// started by t. Pair the freeing blocks with allocating ancestors on d: x_af
// >= 0 units from allocating a to freeing f, every f paired in full (sum_a
// x_af = -m_f), no a over its own memory (sum_f x_af <= m_a). Then held(t)
// = sum x_af ([a started] - [f started]) + (what the a's keep unpaired) +
// 0 (the rest), every term >= 0 because a runs before f; the pair term is
// x_af from a's start to f's start, at least gap(a, f) steps (the longest
// chain from a's start to f's start). So each micro-batch holds at least
// W = sum x_af gap(a, f) memory-steps in its pair terms. The memory of d at a
// step is the sum over micro-batches, at most M, and the pair terms live
// only from the first allocating instance (>= h, the earliest start of an
// allocating block) to the last freeing one (<= T - c, c the least span plus
// chain after of a freeing block). So N W <= M (T - h - c):
//   T >= h + c + ceil(N W / M).
// Pairing greedily (longest gap first) gives some valid x; any valid x
// gives a bound, so a poorer pairing only weakens it.
//
// V-Min, 8 devices (16 stages), F = B = 2, W = 1: device 0 holds stage 0's
// activation for the whole chain (64 steps) and stage 15's for 4, so with
// memory M each micro-batch costs 68 / M steps of the makespan.
#include "solver/makespan/closed_bound/memory_time.hpp"

#include <algorithm>
#include <climits>

namespace tessel {
namespace {

// Devices with more allocating blocks than this are not tried (a longest
// chain from each costs the whole graph; a bound is asked for before every
// answer). Skipping only weakens the bound. A size guard, not a knob (the
// bound is also computed outside a search).
constexpr size_t kMostAllocating = 64;

// gap[x]: the longest chain from the start of `from` to the start of x
// (spans and delays), -1 where x does not follow `from`.
std::vector<Time> gaps_from(const MemoryTimeInput& in, int from,
                            const std::vector<std::vector<std::pair<int, Time>>>& out_edges) {
  const std::vector<Block>& blocks = in.placement->blocks;
  std::vector<Time> gap(blocks.size(), -1);
  gap[from] = 0;
  for (int x : *in.order) {
    if (gap[x] < 0) continue;
    for (const auto& [next, delay] : out_edges[x]) gap[next] = std::max(gap[next], gap[x] + blocks[x].span + delay);
  }
  return gap;
}

}  // namespace

long long memory_time_bound(const MemoryTimeInput& in) {
  const Placement& placement = *in.placement;
  const std::vector<Block>& blocks = placement.blocks;
  if (in.limit <= 0 || in.total_micros <= 0) return 0;
  std::vector<int> allocating, freeing;
  for (size_t b = 0; b < blocks.size(); ++b) {
    if (!on_device(blocks[b], in.device)) continue;
    if (blocks[b].memory > 0) allocating.push_back(static_cast<int>(b));
    if (blocks[b].memory < 0) freeing.push_back(static_cast<int>(b));
  }
  if (allocating.empty() || freeing.empty() || allocating.size() > kMostAllocating) return 0;
  std::vector<std::vector<std::pair<int, Time>>> out_edges(blocks.size());
  for (const Edge& edge : placement.edges) out_edges[edge.from].push_back({edge.to, edge.delay});
  std::vector<std::vector<Time>> gap;  // per allocating block
  Time head = LLONG_MAX, tail = LLONG_MAX;
  for (int a : allocating) {
    gap.push_back(gaps_from(in, a, out_edges));
    head = std::min(head, (*in.earliest)[a]);
  }
  std::vector<Memory> left;
  for (int a : allocating) left.push_back(blocks[a].memory);
  __int128 held = 0;  // W: memory-steps of one micro-batch
  for (int f : freeing) {
    tail = std::min(tail, blocks[f].span + (*in.after)[f]);
    std::vector<size_t> ancestors;
    for (size_t i = 0; i < allocating.size(); ++i)
      if (gap[i][f] >= 0 && left[i] > 0) ancestors.push_back(i);
    std::sort(ancestors.begin(), ancestors.end(), [&](size_t x, size_t y) { return gap[x][f] > gap[y][f]; });
    Memory need = -blocks[f].memory;
    for (size_t i : ancestors) {
      const Memory take = std::min(need, left[i]);
      held += static_cast<__int128>(take) * gap[i][f];
      left[i] -= take;
      need -= take;
      if (need == 0) break;
    }
    if (need > 0) return 0;  // not paired in full: no bound from this pairing
  }
  const __int128 steps = (static_cast<__int128>(in.total_micros) * held + in.limit - 1) / in.limit;
  const __int128 bound = steps + head + tail;
  return bound > LLONG_MAX / 4 ? 0 : static_cast<long long>(bound);
}

}  // namespace tessel
