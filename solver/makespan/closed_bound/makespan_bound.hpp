// Lower bounds on the makespan of N micro-batches: the yardstick every search
// reports its gap against, so it must never exceed a schedule that exists
// (tests check it against optima the full solver proves).
//
// The simple bound (docs/algorithms.md, "The makespan at N") is
// max(critical path, max_d (head_d + N load(d) + tail_d)) with head_d the
// earliest start of any block on d and tail_d the shortest chain after one.
// Blocks on every device (tensor-parallel embeddings) make head_d and tail_d
// zero, although a device still idles while the first micro-batch travels to
// it and the last one travels back: the idle-aware bound counts those steps
// (see makespan_bound.cpp for the argument that it is a lower bound).
// Given the memory limits, a device also idles where memory forbids work:
// before its first freeing block can run it only allocates, and the limit
// caps how much of that it can do (the memory-aware bound; xshape on 16
// devices at memory 16 idles 14 steps of its warmup this way).
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"

namespace tessel {

// Which argument gives a bound's value (docs/algorithms.md, "The makespan at
// N"); a tie keeps the one listed first.
enum class BoundArgument {
  CriticalPath,  // one micro-batch's longest chain
  IdleAware,     // N load(d) + idle while the first and last micro-batch travel
  CappedEnds,    // solver/makespan/closed_bound/capped_ends
  MemoryAware,   // idle forced before the first freeing block can run
  MemoryTime,    // solver/makespan/closed_bound/memory_time
  ExactEnds,     // solver/makespan/bounds/exact_ends (solved, not a formula)
  DeviceRelaxation,  // solver/makespan/bounds/device_relaxation (solved)
};
const char* bound_argument_name(BoundArgument argument);

struct MakespanBound {
  long long simple = 0;  // max(critical path, max_d head_d + N load(d) + tail_d)
  long long value = 0;   // the best bound proven here, >= simple
  BoundArgument argument = BoundArgument::CriticalPath;
  // The device whose argument gives `value` (-1: the critical path). For the
  // idle-aware and exact-ends arguments, its idle counted before its first
  // block that matters (exact ends: in the first `head_window` steps) and
  // after its last (in the last `tail_window`); 0 for the others, whose idle
  // is value - N load(device).
  int device = -1;
  long long idle_head = 0;
  long long idle_tail = 0;
  long long head_window = 0;  // exact ends only
  long long tail_window = 0;
  // Steps the memory limits alone add (0 without limits, or when they do
  // not raise the bound): the best memory-aware bound minus the rest.
  long long memory_idle = 0;
};

MakespanBound makespan_bound(const Placement& placement, long long total_micros);

// The same, also counting the idle the per-device memory limits force (one
// limit per device, the blocks' own memory; empty: none).
MakespanBound makespan_bound(const Placement& placement, long long total_micros, const std::vector<Memory>& limits);

// `bound` raised to `value` by `argument` on `device` when that is higher
// (ties keep the argument found first).
void raise_bound(MakespanBound& bound, long long value, BoundArgument argument, int device, long long idle_head = 0,
                 long long idle_tail = 0);

// makespan_bound(placement, total_micros[, limits]).value
long long makespan_lower_bound(const Placement& placement, long long total_micros);
long long makespan_lower_bound(const Placement& placement, long long total_micros, const std::vector<Memory>& limits);

}  // namespace tessel
