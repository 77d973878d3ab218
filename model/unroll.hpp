// Expanding a repetend schedule to any number of micro-batches
// (docs/algorithms.md, "Warmup and cooldown"): keep the warmup, repeat the window, shift the
// cooldown.
//
// A repetend {start S, end E, period P, micros_per_period k} claims that the
// steps [S, E) are r = (E - S) / P copies of one period, copy j holding the
// instances of copy 0 shifted by j*P steps and j*k micro-batches (the same
// reading as the verifier's). Unrolling works on a repeating unit: the
// instances starting in [S, S + P). Those starting before S are the warmup,
// the rest after the copies the cooldown. The unit must hold every block
// exactly k times, once in each class of micro-batches modulo k (not
// necessarily consecutive ones: the k copies of a window may have different
// offsets), with the warmup holding only earlier and the cooldown only later
// micro-batches of that block and class.
// Copies of the unit already in the schedule (every unit instance present
// again i*P steps and i*k micro-batches later, and nothing else starting in
// that period) count as repetitions. Unrolling to N keeps the warmup, lays
// out the copies (copy j shifted by j*P steps and j*k micro-batches) and
// moves the cooldown by as many periods as copies were added or removed. So
// whole windows reach N_min = nmicros - (c - 1) k (c copies present) and
// every k-th count above it; the result claims all its copies as the
// repetend, so it can be unrolled again.
//
// Any other N >= 1 (a partial last window, or fewer micro-batches than the
// warmup holds) is the whole-window schedule of the next reachable count
// with the micro-batches >= N dropped: removing whole micro-batches keeps
// dependencies and exclusivity; memory is recomputed (see unroll.cpp), and
// the claim keeps the copies that are still whole, or goes when none is.
//
// The Python Tessel's repetends are wider: a window holding every block k
// times that may be longer than its period, copies overlapping in time.
// `unroll_window` repeats such a unit as given (tessel-json import uses it
// to find the period); its result carries no repetend claim.
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// The smallest micro-batch count that whole windows reach (unroll() goes
// below it by dropping micro-batches). Throws InputError (field "repetend")
// when the schedule has no usable repetend.
int smallest_unroll(const Schedule& schedule);

// The whole-window count that unroll() builds before dropping micro-batches:
// the smallest reachable count >= nmicros (smallest_unroll() for fewer).
int whole_window_count(const Schedule& schedule, int nmicros);

// Throws InputError: field "repetend" when the schedule has no repetend or
// it does not have the shape above; field "--nmicros" when `nmicros` < 1, or
// when dropping micro-batches would break the memory limit.
Schedule unroll(const Schedule& schedule, int nmicros);

// The same for an explicit unit [unit.start, unit.end) repeated every
// unit.period steps, unit.micros_per_period micro-batches further each time.
int smallest_window_unroll(const Schedule& schedule, const Repetend& unit);
Schedule unroll_window(const Schedule& schedule, const Repetend& unit, int nmicros);

}  // namespace tessel
