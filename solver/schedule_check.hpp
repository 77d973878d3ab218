// A quick validity test for schedules the search builds itself, used to pick
// between candidate warmups and cooldowns (the squeeze can raise memory).
// It is NOT the judge: every schedule the search returns still goes through
// the independent verifier (verify/) in tools/ and in the tests.
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// Exclusive devices, dependencies (with their communication delays) and
// memory (docs/algorithms.md, "The problem", conditions 2-4); completeness is the builder's
// responsibility.
bool schedule_fits(const Schedule& schedule);

}  // namespace tessel
