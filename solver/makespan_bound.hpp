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

struct MakespanBound {
  long long simple = 0;  // max(critical path, max_d head_d + N load(d) + tail_d)
  long long value = 0;   // the best bound proven here, >= simple
  // The device that gives `value` (-1: the critical path) and its forced
  // idle steps before its first and after its last block that matters.
  int device = -1;
  long long idle_head = 0;
  long long idle_tail = 0;
  // Steps the memory limits alone add (0 without limits, or when they do
  // not raise the bound): the best memory-aware bound minus the rest.
  long long memory_idle = 0;
};

MakespanBound makespan_bound(const Placement& placement, long long nmicros);

// The same, also counting the idle the per-device memory limits force (one
// limit per device, the blocks' own memory; empty: none).
MakespanBound makespan_bound(const Placement& placement, long long nmicros, const std::vector<Memory>& limits);

// makespan_bound(placement, nmicros[, limits]).value
long long makespan_lower_bound(const Placement& placement, long long nmicros);
long long makespan_lower_bound(const Placement& placement, long long nmicros, const std::vector<Memory>& limits);

}  // namespace tessel
