// The exact ends of a device (part of the makespan lower bound,
// solver/makespan/closed_bound/makespan_bound): instead of a closed formula for how long a device
// must idle while the pipeline fills and drains, a small exact problem is
// solved for each end. Take the first `window` steps of any schedule: the
// instances that start in them, with every device's no-overlap, the
// dependencies and their delays, the memory at every step and the copies
// of a block in micro-batch order, form a schedule of a problem whose
// instances are optional (an instance may start at or after the window's
// end, then all of its descendants do too). The least idle of device d in
// [0, window) over that problem is at most its idle in the real schedule.
// The last `window` steps, read backwards in time, are the same kind of
// problem (memory accounted from the known level after all N micro-batches).
// So the makespan is at least N load(d) + least idle at the head + least
// idle at the tail, for every d, as long as the two windows do not overlap.
// The closed bounds reason about one device and one chain at a time; this
// one sees how the devices compete (interleaved 1F1B, 4 stages, 2 chunks:
// the ends cost a few steps more than any one chain explains).
//
// The questions are decided by a backend (sat/backend.hpp) under a
// deadline; an undecided question leaves the bound where it was (the
// answer stays a lower bound, only weaker).
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/makespan/bounds/bound_question.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct ExactEndsInput : BoundQuestion {
  // Windows of this many steps at each end; 0 chooses (see the .cpp). Both
  // windows together never pass `floor`, a makespan bound already known.
  Time window = 0;
  long long floor = 0;
  // Stop once a device proves this much (the best makespan found: nothing
  // above it can be proven).
  long long target = 0;
  // Refused above this many order literals per end (instances x window):
  // the encodings must stay small.
  long long most_literals = 400000;
};

struct ExactEnds {
  long long value = 0;  // N load(device) + idle_head + idle_tail; 0 when nothing was decided
  int device = -1;
  long long idle_head = 0;  // least idle of `device` in the first `head_window` steps
  long long idle_tail = 0;  // and in the last `tail_window` (together at most the floor)
  Time head_window = 0;
  Time tail_window = 0;
  // Every window up to the last one affordable was asked and every question
  // decided (nothing cut short by the deadline).
  bool complete = false;
};

// The best such bound over the devices (highest load first) within the
// deadline.
ExactEnds exact_ends_bound(const ExactEndsInput& input);

// `bound` (the closed bounds of the same N and limits) raised by the exact
// ends when they pass it. Nothing is asked when `best`, the makespan of a
// schedule in hand, is not above it, or above it by more than one
// micro-batch's critical path (such a gap grows with N: no window at the
// ends explains it).
MakespanBound with_exact_ends(ExactEndsInput input, long long best, MakespanBound bound);

// Whether with_exact_ends asks anything for `best` over `bound` (the rule
// above).
bool exact_ends_ask(const Placement& placement, long long best, long long bound);

// `bound` raised by the exact ends for `best`, within options.ends_seconds
// and at most `left_share` of the time left: half before the improvements
// of the makespan search and before the full search (what comes after
// needs the rest), all of it for the report's bound.
// `ran`, when given, says whether they ran (exact_ends_ask) with their
// whole budget. Asking again for a shorter best then asks the same windows
// (they depend on the bound only) and stops sooner; it raises the bound
// further only where a question the first run left undecided is decided for
// the shorter target's narrower goal (never when it decided every one,
// ExactEnds::complete).
MakespanBound raised_by_exact_ends(const Placement& placement, long long total_micros, const SearchOptions& options,
                                   long long best, const MakespanBound& bound, double left_share = 0.5,
                                   bool* ran = nullptr);

// The least idle of `device` in the first (tail false) or last (tail true)
// `window` steps of any schedule, as far as decided before the deadline
// (a lower bound on it either way); -1 when no schedule fits the window
// problem at all or it is too large to build.
long long least_end_idle(const ExactEndsInput& input, int device, bool tail, Time window);

}  // namespace tessel
