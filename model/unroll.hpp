// Expanding a repetend schedule to any number of micro-batches
// (ALGORITHMS.md section 3): keep the warmup, repeat the window, shift the
// cooldown.
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// Throws InputError when the schedule has no repetend or `nmicros` is below
// what its warmup and cooldown already hold.
Schedule unroll(const Schedule& schedule, int nmicros);

}  // namespace tessel
