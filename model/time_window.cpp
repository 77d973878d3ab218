// Checking a drawing window against the schedule it cuts: the schedule's
// time decimals decide which values are exact.
#include "model/time_window.hpp"

#include "model/input_error.hpp"

namespace tessel {

namespace {

Time ticks_of(const Decimal& value, const std::string& field, const Schedule& schedule) {
  if (value.digits < 0) throw InputError("", field, "'" + format_ticks(value.digits, value.decimals) + "' is not a time >= 0");
  const std::optional<long long> ticks = to_ticks(value, schedule.placement.time_decimals);
  if (!ticks)
    throw InputError("", field, "'" + format_ticks(value.digits, value.decimals) +
                                    "' has more decimals than the schedule's times (" +
                                    std::to_string(schedule.placement.time_decimals) + ") or is too large");
  return *ticks;
}

}  // namespace

TimeWindow checked_time_window(const TimeWindowRequest& request, const Schedule& schedule) {
  TimeWindow window;
  const int decimals = schedule.placement.time_decimals;
  if (request.start) window.from = ticks_of(*request.start, request.start_field, schedule);
  if (request.end) window.to = ticks_of(*request.end, request.end_field, schedule);
  if (request.end && window.to <= window.from)
    throw InputError("", request.end_field, "must be after " + request.start_field + " (" + format_ticks(window.from, decimals) + ")");
  if (window.from >= makespan(schedule) && window.from > 0)
    throw InputError("", request.start_field, "is at or past the makespan (" + format_ticks(makespan(schedule), decimals) + ")");
  return window;
}

}  // namespace tessel
