// One micro-batch run alone (see the header): a list schedule and its memory.
#include "solver/strategies/single_micro.hpp"

#include "classic/order_timing.hpp"

#include <algorithm>
#include <map>


namespace tessel {

std::vector<int> single_micro_starts(const Placement& placement) {
  // The blocks in a topological order, each timed next on its devices by
  // the shared step (classic/order_timing.hpp).
  classic::OrderClock clock(placement, 1);
  std::vector<int> start(placement.blocks.size(), 0);
  for (int block : topological_order(placement)) {
    start[block] = static_cast<int>(*clock.earliest(block, 0));
    clock.place(block, 0, start[block]);
  }
  return start;
}

std::vector<long long> single_micro_peak(const Placement& placement, const std::vector<int>& starts) {
  std::vector<long long> peak(placement.ndevs, 0);
  for (int device = 0; device < placement.ndevs; ++device) {
    std::map<int, long long> delta_at;
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      for (int d : placement.blocks[b].devices)
        if (d == device) delta_at[starts[b]] += placement.blocks[b].memory;
    long long memory = 0;
    for (const auto& [step, delta] : delta_at) {
      memory += delta;
      peak[device] = std::max(peak[device], memory);
    }
  }
  return peak;
}

}  // namespace tessel
