// Expanding a repetend schedule to any number of micro-batches
// (ALGORITHMS.md section 3): keep the warmup, repeat the window, shift the
// cooldown.
//
// With the repetend {start, end, period P, micros_per_period k}: instances
// starting before `start` are the warmup, those starting in [start, end) the
// window, the rest the cooldown. The window must hold every block exactly k
// times, on consecutive micro-batches, with the warmup holding only earlier
// and the cooldown only later micro-batches of that block. If the schedule
// already repeats the window (copy i = every window instance shifted by
// i*P steps and i*k micro-batches is present), those copies count as
// repetitions too. Unrolling to N keeps the warmup, lays out r copies of the
// window (copy j shifted by j*P steps and j*k micro-batches) and moves the
// cooldown by as many periods as copies were added or removed. So N can be
// any count >= the schedule's micro-batches minus the removable copies
// (N_min = nmicros - (c - 1) k for c copies present) with N - N_min a
// multiple of k. The result keeps the repetend (the first window), so it can
// be unrolled again.
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// The smallest micro-batch count `unroll` accepts for this schedule.
// Throws InputError (field "repetend") when it has no usable repetend.
int smallest_unroll(const Schedule& schedule);

// Throws InputError: field "repetend" when the schedule has no repetend or
// its window does not have the shape above; field "--nmicros" when `nmicros`
// is below smallest_unroll() or not reachable in steps of k.
Schedule unroll(const Schedule& schedule, int nmicros);

}  // namespace tessel
