// Recomputing every offered forward of every micro-batch, searched as a
// placement of its own (docs/algorithms.md, "Memory traded for time"). The
// choice "recompute block f for all micro-batches" turns f into a block that
// keeps only its checkpoint and a new block R_f (the recompute: the offer's
// span, f's devices, the rest of f's memory) between f and the block that
// needs the activation. Every search of the project then applies to that
// placement unchanged, and its schedules map back to schedules of the
// original placement that list their recomputes.
//
// One subtlety keeps this exact rather than hopeful: in the derived
// placement f's memory counts only its checkpoint from its start, while in
// truth f holds all of it until it ends. A device runs one block at a time,
// so the truth is above the derived curve by at most the largest such
// difference of the device's offering forwards: the derived search runs
// under the limit lowered by that much, and every schedule it finds is
// valid under the real limit (the verifier checks the mapped schedule).
#pragma once

#include <optional>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

struct RecomputedPlacement {
  Placement placement;          // the original blocks first (same indices), then one R_f per offering forward
  std::vector<int> forward_of;  // per appended block: the original forward it recomputes
  std::vector<Memory> limit_cut;  // per device: what the derived search's limit is lowered by
};

// nullopt when no block offers recomputation. The derived placement offers
// nothing (its blocks are plain).
std::optional<RecomputedPlacement> recompute_every_offer(const Placement& placement);

// A schedule of the derived placement as a schedule of `original` (the
// recompute blocks' instances become its recomputes, their forwards
// marked), under the original's `limits`; nullopt when it uses fused units.
std::optional<Schedule> schedule_with_recomputes(const Schedule& derived, const RecomputedPlacement& recomputed,
                                                 const Placement& original, const std::vector<Memory>& limits);

}  // namespace tessel
