// Reading --start and --end: a plain decimal number at the schedule's time
// decimals, checked before any drawing.
#include "tools/time_window.hpp"

#include "model/input_error.hpp"

namespace tessel::cli {

namespace {

Time ticks_of(const po::variables_map& values, const std::string& option, const Schedule& schedule) {
  const std::string text = values[option].as<std::string>();
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  const std::optional<Decimal> amount = plain ? parse_quantity(text) : std::nullopt;
  if (!amount) throw InputError("", "--" + option, "'" + text + "' is not a time >= 0 (a number such as 40 or 1.5)");
  const std::optional<long long> ticks = to_ticks(*amount, schedule.placement.time_decimals);
  if (!ticks)
    throw InputError("", "--" + option, "'" + text + "' has more decimals than the schedule's times (" +
                                            std::to_string(schedule.placement.time_decimals) + ") or is too large");
  return *ticks;
}

}  // namespace

void add_time_window_options(po::options_description& options) {
  options.add_options()
      ("start", po::value<std::string>(), "draw from this time on (the file's unit; default 0)")
      ("end", po::value<std::string>(), "draw up to this time (default: the makespan)");
}

TimeWindow time_window(const po::variables_map& values, const Schedule& schedule) {
  TimeWindow window;
  if (values.count("start")) window.from = ticks_of(values, "start", schedule);
  if (values.count("end")) window.to = ticks_of(values, "end", schedule);
  if (values.count("end") && window.to <= window.from)
    throw InputError("", "--end", "must be after --start (" + format_ticks(window.from, schedule.placement.time_decimals) + ")");
  if (window.from >= makespan(schedule) && window.from > 0)
    throw InputError("", "--start", "is at or past the makespan (" +
                                        format_ticks(makespan(schedule), schedule.placement.time_decimals) + ")");
  return window;
}

}  // namespace tessel::cli
