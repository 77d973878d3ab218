// Device work bounds (see the header): the descendants of each block on
// its devices, then per block and micro-batch the sums of spans before and
// after it, each with the shortest way in or out of the set.
#include "solver/makespan/bounds/device_work_bounds.hpp"

#include <algorithm>

namespace tessel {

DeviceWorkBounds::DeviceWorkBounds(const Placement& placement, long long total_micros) : total_micros_(total_micros) {
  const int count = static_cast<int>(placement.blocks.size());
  const std::vector<std::vector<char>> reach = descendants(placement);
  earliest_ = earliest_starts(placement);
  chain_tail_ = chain_tails(placement);
  devices_.resize(count);
  for (int b = 0; b < count; ++b) {
    const Block& block = placement.blocks[b];
    span_.push_back(block.span);
    for (int device : block.devices) {
      OnDevice own{0, earliest_[b], block.span, chain_tail_[b] - block.span};
      for (int other = 0; other < count; ++other) {
        const Block& mate = placement.blocks[other];
        if (other == b || !on_device(mate, device))
          continue;
        if (reach[other][b]) {
          own.before_span += mate.span;
          own.least_head = std::min(own.least_head, earliest_[other]);
        }
        if (reach[b][other]) {
          own.after_span += mate.span;
          own.least_beyond = std::min(own.least_beyond, chain_tail_[other] - mate.span);
        }
      }
      devices_[b].push_back(own);
    }
  }
}

Time DeviceWorkBounds::head(int block, long long micro) const {
  Time head = earliest_[block];
  // Copies 0..micro of the ancestors, 0..micro-1 of the block itself.
  for (const OnDevice& own : devices_[block])
    head = std::max(head, own.least_head + own.before_span * (micro + 1) + span_[block] * micro);
  return head;
}

Time DeviceWorkBounds::tail(int block, long long micro) const {
  Time tail = chain_tail_[block];
  // Copies micro..N-1 of the block and its descendants, then the way out.
  for (const OnDevice& own : devices_[block])
    tail = std::max(tail, own.after_span * (total_micros_ - micro) + own.least_beyond);
  return tail;
}

}  // namespace tessel
