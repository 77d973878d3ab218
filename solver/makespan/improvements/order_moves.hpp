// Tabu search on the per-device orders of a schedule of N micro-batches
// (docs/algorithms.md, "The makespan at N"), the job-shop technique: a
// schedule is its devices' orders run as soon as possible, and its makespan
// is the length of a longest path through dependencies and device
// successions. Only swapping two neighbours on a device inside that path
// can shorten it (swaps elsewhere leave the path whole), and the useful
// ones are at the ends of each run of one device on the path. Each step
// takes the best such swap that keeps every device within its memory limit
// (the levels depend only on the order) and is not tabu (undoing a recent
// swap), even when it lengthens the schedule, so the search walks across
// the plateaus where many paths are equally long; ties are broken by the
// sum of all ends, which rewards slack.
//
// A step costs a few evaluations of O(instances), with no solver: where
// the neighbourhoods and shifts ask a SAT solver one question in a second
// or more, this tries thousands of orders. It finds what they miss on the
// hand-made schedules whose losses are spread over every device's cooldown
// (interleaved zero bubble, 16 ranks, N 32, F=3 B=2 W=1: the hand-made 444).
//
// Nothing here is a proof: the search never claims a bound.
#pragma once

#include "model/schedule.hpp"
#include "sat/deadline.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"

namespace tessel {

struct OrderMovesStats {
  long long evaluations = 0;  // orders run as soon as possible
  int steps = 0;              // swaps taken
  int improvements = 0;       // steps to a makespan shorter than all before
  int restarts = 0;           // returns to the best orders after a long walk without gain
};

// Whether the search applies: every block on one device, no fused units.
bool order_moves_apply(const Schedule& schedule);

// A schedule no longer than `start` (valid, N micro-batches), valid under
// `memory_limit` (one per device, as the schedule counts memory; empty:
// none), by `deadline`; stops early at `bound`. Returns `start` compacted
// when the search does not apply or finds nothing shorter. Its effort
// (seed, tenure, restarts) is the tabu_* knobs of `tuning`.
Schedule improve_by_order_moves(const Schedule& start, const std::vector<Memory>& memory_limit,
                                const Deadline& deadline, Time bound,
                                OrderMovesStats* stats = nullptr, const OnShorter& on_shorter = {},
                                const Tuning& tuning = kDefaultTuning);

}  // namespace tessel
