// The idle a device cannot avoid at each end of a long run (part of the
// makespan lower bound, solver/makespan/closed_bound/makespan_bound): the one-device relaxation
// (solver/makespan/bounds/device_relaxation) cut into its two ends.
//
// A device with work W (its blocks' spans times N) is idle T - W steps of a
// makespan T. Whatever it does in the middle, in the first t steps it is
// idle at least the least idle any schedule of the relaxation leaves there,
// and in the last s steps likewise; when t + s <= T the two stretches do
// not overlap, so T >= W + idle(first t) + idle(last s). Each end is a small
// problem: only the copies whose head (tail) falls inside it, one step per
// literal of a window of t steps, where the whole relaxation at 128
// micro-batches has a horizon of 800 steps and is not decided in minutes
// (V-Min, 16 stages: the ends alone prove the hand-made 827 optimal).
//
// The first t steps: every copy of the kept device whose head is below t
// starts in [head, t], t standing for "not in this stretch"; copies inside
// keep their order, their micro-batch's lags, one at a time, and the memory
// level after every step within the limit. The last s steps are the same
// problem in reversed time: a copy's reversed start is T - start - span,
// its head is its tail less its span, every chain runs backwards, and the
// memory level at T - u is the level at the end (every copy started) less
// what the copies starting after it changed. Both answer "can the idle be
// at most x?" on one incremental solver, x by bisection.
#pragma once

#include "solver/makespan/bounds/device_relaxation_input.hpp"

namespace tessel {

// The least idle of `device` in its first (`reversed`: last) `window`
// steps, as far as decided before the deadline: a lower bound on it.
struct EndQuestions {
  long long enough = 0;  // stop once this much idle is proven
  long long known = -1;  // the idle of a schedule in hand there (the least is at most it), or -1
  long long first = -1;  // "idle <= first?" asked before bisection, if >= 0
};
long long least_end_idle(const DeviceRelaxationInput& input, int device, long long window, bool reversed,
                         const EndQuestions& questions);

// The makespan bound W + idle(first t) + idle(last s) of `device`, t and s
// chosen within the floor (input.floor: a makespan bound already proven),
// or the floor if it is not above it. At most input.target.
long long device_ends_bound(const DeviceRelaxationInput& input, int device);

}  // namespace tessel
