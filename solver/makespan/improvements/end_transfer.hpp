// Ends from a smaller N (docs/algorithms.md, "The makespan at N"): a
// schedule of many micro-batches is a warmup, a steady middle and a
// cooldown, and its warmup and cooldown are those of a schedule of fewer
// micro-batches. The solver shortens the ends where the problem is small
// (the shift search at N 16 on 16 ranks, where at N 128 its first question
// goes unanswered), and this moves the shorter ends into the large schedule:
// each device runs the large schedule's order up to a cut, then the small
// schedule's order after the matching cut (its micro-batches renumbered), or
// the small one's order first and the large one's after; the spliced orders
// run as soon as possible and are kept when they fit the memory limits.
// Interleaved 1F1B, 16 ranks, F=2 B=2 W=1, N 128: the hand-made 1340 becomes
// 1335 with the cooldown of the 215 found at N 16 (hand-made 220).
//
// The cut of a device's order must hold, for every block of the device, the
// same copies in both orders up to the renumbering: the large one's prefix
// has `N - n` more copies of each block than the small one's prefix (a tail
// splice), or as many (a head splice). Cuts are tried at every start time of
// the small schedule.
//
// Placements whose blocks each run on one device, schedules without fused
// units; otherwise nothing.
#pragma once

#include <optional>

#include "model/schedule.hpp"
#include "sat/deadline.hpp"

namespace tessel {

struct TransferStats {
  int tried = 0;  // spliced orders run
  int fitted = 0;  // of those, shorter than the best so far and within the memory limits
};

// A schedule of `large.nmicros` micro-batches shorter than `large`, spliced
// from the orders of `large` and of `small` (the same placement, fewer
// micro-batches, both valid), by `deadline`; nothing when no cut gives one.
std::optional<Schedule> transfer_ends(const Schedule& large, const Schedule& small, const Deadline& deadline,
                                      TransferStats* stats = nullptr);

}  // namespace tessel
