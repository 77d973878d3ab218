// Recomputing every offered forward, as a placement of its own
// (recompute_all.hpp).
#include "solver/makespan/recompute_all.hpp"

#include <algorithm>
#include <tuple>

namespace tessel {

std::optional<RecomputedPlacement> recompute_every_offer(const Placement& placement) {
  RecomputedPlacement derived;
  derived.placement = placement;
  derived.limit_cut.assign(placement.ndevs, 0);
  Placement& out = derived.placement;
  const int blocks = static_cast<int>(placement.blocks.size());
  for (int f = 0; f < blocks; ++f) {
    Block& forward = out.blocks[f];
    forward.offload.reset();
    if (!forward.recompute) continue;
    const RecomputeOffer offer = *forward.recompute;
    forward.recompute.reset();
    const Memory freed = forward.memory - offer.checkpoint_memory;
    forward.memory = offer.checkpoint_memory;
    Block again;
    again.id = forward.id + "~recompute";
    again.kind = forward.kind;
    again.span = offer.span;
    again.memory = freed;
    again.stage = forward.stage;
    again.devices = forward.devices;
    out.blocks.push_back(again);
    const int index = static_cast<int>(out.blocks.size()) - 1;
    out.edges.push_back({f, index, 0});
    out.edges.push_back({index, offer.before, 0});
    derived.forward_of.push_back(f);
    for (int device : forward.devices) derived.limit_cut[device] = std::max(derived.limit_cut[device], freed);
  }
  if (derived.forward_of.empty()) return std::nullopt;
  return derived;
}

std::optional<Schedule> schedule_with_recomputes(const Schedule& derived, const RecomputedPlacement& recomputed,
                                                 const Placement& original, const std::vector<Memory>& limits) {
  if (!derived.fused.empty()) return std::nullopt;
  Schedule schedule = empty_schedule(original, limits, derived.nmicros);
  schedule.uniform_limit = derived.uniform_limit;
  const int blocks = static_cast<int>(original.blocks.size());
  for (const Instance& instance : derived.instances) {
    if (instance.block < blocks) {
      schedule.instances.push_back(instance);
      continue;
    }
    schedule.recomputes.push_back({recomputed.forward_of[instance.block - blocks], instance.micro, instance.start});
  }
  std::sort(schedule.recomputes.begin(), schedule.recomputes.end(), [](const RecomputeRun& a, const RecomputeRun& b) {
    return std::tie(a.start, a.block, a.micro) < std::tie(b.start, b.block, b.micro);
  });
  return schedule;
}

}  // namespace tessel
