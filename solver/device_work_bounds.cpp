// Device work bounds (see the header): reachability between the blocks of
// each device, then per block and micro-batch the sums of spans before and
// after it, each with the shortest way in or out of the set.
#include "solver/device_work_bounds.hpp"

#include <algorithm>

namespace tessel {
namespace {

// reach[a][b]: block b depends on block a, directly or not (a != b).
std::vector<std::vector<bool>> reachability(const Placement& placement) {
  const size_t count = placement.blocks.size();
  std::vector<std::vector<bool>> reach(count, std::vector<bool>(count, false));
  const std::vector<std::vector<int>> next = successors(placement);
  const std::vector<int> order = topological_order(placement);
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (int after : next[*it]) {
      reach[*it][after] = true;
      for (size_t b = 0; b < count; ++b)
        if (reach[after][b]) reach[*it][b] = true;
    }
  return reach;
}

// From each block's start to the end of its micro-batch (spans and delays).
std::vector<Time> chain_tails(const Placement& placement) {
  std::vector<Time> tail(placement.blocks.size(), 0);
  const std::vector<int> order = topological_order(placement);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    Time after = 0;
    for (const Edge& edge : placement.edges)
      if (edge.from == *it) after = std::max(after, edge.delay + tail[edge.to]);
    tail[*it] = placement.blocks[*it].span + after;
  }
  return tail;
}


}  // namespace

DeviceWorkBounds device_work_bounds(const Placement& placement, int nmicros) {
  const int count = static_cast<int>(placement.blocks.size());
  const std::vector<std::vector<bool>> reach = reachability(placement);
  const std::vector<Time> earliest = earliest_starts(placement);
  const std::vector<Time> tail = chain_tails(placement);
  DeviceWorkBounds bounds;
  bounds.head.assign(count, std::vector<Time>(nmicros, 0));
  bounds.tail.assign(count, std::vector<Time>(nmicros, 0));
  for (int b = 0; b < count; ++b) {
    const Block& block = placement.blocks[b];
    for (int device : block.devices) {
      // Per copy of the set: the spans of b's device-mates before (after) it,
      // and the least head (least tail beyond the span) among them.
      Time before_span = 0, after_span = block.span;
      Time least_head = earliest[b], least_beyond = tail[b] - block.span;
      for (int other = 0; other < count; ++other) {
        const Block& mate = placement.blocks[other];
        if (other == b || std::find(mate.devices.begin(), mate.devices.end(), device) == mate.devices.end())
          continue;
        if (reach[other][b]) {
          before_span += mate.span;
          least_head = std::min(least_head, earliest[other]);
        }
        if (reach[b][other]) {
          after_span += mate.span;
          least_beyond = std::min(least_beyond, tail[other] - mate.span);
        }
      }
      for (int micro = 0; micro < nmicros; ++micro) {
        // Copies 0..micro of the ancestors, 0..micro-1 of b itself.
        const Time head = least_head + before_span * (micro + 1) + block.span * micro;
        // Copies micro..N-1 of b and of its descendants, then the way out.
        const Time after = after_span * (nmicros - micro) + least_beyond;
        bounds.head[b][micro] = std::max({bounds.head[b][micro], head, earliest[b]});
        bounds.tail[b][micro] = std::max({bounds.tail[b][micro], after, tail[b]});
      }
    }
  }
  return bounds;
}

}  // namespace tessel
