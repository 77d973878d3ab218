// The time unit of a schedule: the largest tick count that divides every
// span, delay and copy time of its placement and every start of the
// schedule. Measured costs are often a unit schedule's times multiplied
// (spans x1000: microseconds where the unit was a millisecond); on such a
// placement a search whose encoding is indexed by ticks (the shift search's
// domains, the full encoding's time steps) would do a thousand times the
// work of the same search at x1 for the same schedules, since every
// schedule run as soon as possible starts on multiples of the unit. So it
// runs on the placement divided by the unit and multiplies its answer back:
// it then costs the same at x1000 as at x1 and reaches the same makespan
// times 1000. (Noisy spans have unit 1: nothing changes for them.)
#pragma once

#include "model/schedule.hpp"

namespace tessel {

// The unit (1 when nothing larger divides them all).
Time time_unit(const Schedule& schedule);

// The schedule with its placement's times and its starts divided by
// `unit` (which divides them), or multiplied by it.
Schedule divided_by(const Schedule& schedule, Time unit);
Schedule multiplied_by(const Schedule& schedule, Time unit);

}  // namespace tessel
