// Windows of several micro-batches as copies of the placement (see the header).
//
// Why copies and not a new encoding: the k micro-batches of a window are
// independent of each other, so "k micro-batches per period" is exactly one
// micro-batch per period of a placement made of k disjoint copies. The memory
// limit counts every copy on a device, the load and with it the period bound
// become k L, and the modulo encoding, the latency bisection, warmup and
// cooldown and the boundary solver all apply unchanged.
#include "solver/modulo/window_placement.hpp"

#include <stdexcept>

namespace tessel {

Placement window_placement(const Placement& placement, int k) {
  if (k < 1) throw std::invalid_argument("window_placement: k must be >= 1");
  if (k == 1) return placement;
  Placement window;
  window.name = placement.name;
  window.ndevs = placement.ndevs;
  window.time_decimals = placement.time_decimals;  // the same ticks, and their delays
  window.memory_decimals = placement.memory_decimals;
  const int n = static_cast<int>(placement.blocks.size());
  for (int copy = 0; copy < k; ++copy) {
    for (const Block& block : placement.blocks) {
      Block copied = block;
      copied.id = block.id + "@" + std::to_string(copy);
      // An offer names the block of the same micro-batch that needs the
      // activation: in copy c, that block's copy c.
      if (copied.recompute) copied.recompute->before += copy * n;
      if (copied.offload) copied.offload->before += copy * n;
      window.blocks.push_back(copied);
    }
    for (const Edge& edge : placement.edges)
      window.edges.push_back({copy * n + edge.from, copy * n + edge.to, edge.delay});
  }
  return window;
}

Schedule schedule_from_window(Schedule window_schedule, const Placement& placement, int k) {
  Schedule& schedule = window_schedule;
  schedule.placement = placement;
  if (k == 1) return window_schedule;
  const int n = static_cast<int>(placement.blocks.size());
  schedule.nmicros *= k;
  for (Instance& instance : schedule.instances) {
    const int copy = instance.block / n;
    instance = {instance.block % n, instance.micro * k + copy, instance.start};
  }
  if (schedule.repetend) schedule.repetend->micros_per_period *= k;
  sort_instances(schedule);
  return window_schedule;
}

}  // namespace tessel
