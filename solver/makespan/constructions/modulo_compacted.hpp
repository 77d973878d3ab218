// The repetend's pattern given to every micro-batch, then compacted: a
// start for the makespan at N that keeps none of the squeezed warmup and
// cooldown.
//
// Why: warmup and cooldown are shortened around one window, and the squeeze
// that shortens them most can leave the schedule in a shape that
// compaction (every instance as early as its device and inputs allow, in
// the order of its starts) no longer improves. The plain modulo schedule —
// micro-batch n runs block b at n P + s(b) — is valid for any N (a subset
// of the infinite periodic schedule: dependencies within a micro-batch,
// one block at a time per device, and never more memory than the steady
// state), and compacted from there it often lands at the bound where the
// squeezed one stops a few steps above it (kshape, 16 devices, memory 16:
// 796 = the bound, against 803-805 from the squeezed ends).
#pragma once

#include <optional>

#include "model/schedule.hpp"

namespace tessel {

// Nothing when `repetend_schedule` has no repetend claim, holds fused units,
// or its first period does not hold every block once per class of
// micro-batches modulo k. The result has `total_micros` micro-batches, no
// repetend claim, and the schedule's memory limits; it is compacted when
// compaction keeps it within them (else the plain modulo schedule).
std::optional<Schedule> modulo_compacted(const Schedule& repetend_schedule, int total_micros);

}  // namespace tessel
