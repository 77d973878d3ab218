// The part of a schedule to draw (`show --start/--end`, `export --to svg`,
// and the Python module's timeline() and to_svg()): a window in the
// schedule's own time unit, turned into exact ticks and checked once here so
// that the command line and Python refuse the same windows with the same words.
#pragma once

#include <optional>
#include <string>

#include "model/quantity.hpp"
#include "model/schedule.hpp"

namespace tessel {

struct TimeWindow {
  Time from = 0;  // ticks of the schedule's placement
  Time to = 0;    // 0: to the end
};

struct TimeWindowRequest {
  std::optional<Decimal> start;  // in the schedule's unit; none = 0
  std::optional<Decimal> end;    // none = the makespan
  std::string start_field = "start";  // how errors name the two values
  std::string end_field = "end";
};

// Throws InputError naming the field for a time below 0, with more decimals
// than the schedule's times, an empty window, or a start at or past the makespan.
TimeWindow checked_time_window(const TimeWindowRequest& request, const Schedule& schedule);

}  // namespace tessel
