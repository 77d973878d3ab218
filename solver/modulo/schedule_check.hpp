// A quick validity test for schedules the search builds itself, used to pick
// between candidate warmups and cooldowns (the squeeze can raise memory).
// It is NOT the judge: every schedule the search returns still goes through
// the independent verifier (verify/) in tools/ and in the tests.
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// Exclusive devices, dependencies (with their communication delays) and
// memory (docs/algorithms.md, "The problem", conditions 2-4), recompute
// runs and offload copies included (their order, devices or copy channels,
// and memory); completeness is the builder's responsibility.
bool schedule_fits(const Schedule& schedule);

// The same instants, each block's copies renumbered in start order, when
// that fits (it does for any valid schedule without fused units: micro-
// batches are interchangeable, and sorting each block's copies by time
// keeps every dependency by a matching argument, and every memory curve);
// `schedule` itself otherwise, and for a schedule with recomputes or copies
// (their choices are per micro-batch). The full encoding's symmetry, and the copy
// counting of the end transfer, assume this order.
Schedule in_micro_order(const Schedule& schedule);

}  // namespace tessel
