// One micro-batch run alone (see the header): a list schedule and its memory.
#include "solver/single_micro.hpp"

#include <algorithm>
#include <map>


namespace tessel {

std::vector<int> single_micro_starts(const Placement& placement) {
  std::vector<int> start(placement.blocks.size(), 0);
  std::vector<int> device_free(placement.ndevs, 0);
  std::vector<std::vector<const Edge*>> incoming(placement.blocks.size());
  for (const Edge& edge : placement.edges) incoming[edge.to].push_back(&edge);
  for (int block : topological_order(placement)) {
    int at = 0;
    for (const Edge* edge : incoming[block])
      at = std::max<Time>(at, start[edge->from] + placement.blocks[edge->from].span + edge->delay);
    for (int device : placement.blocks[block].devices) at = std::max(at, device_free[device]);
    start[block] = at;
    for (int device : placement.blocks[block].devices) device_free[device] = at + placement.blocks[block].span;
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
