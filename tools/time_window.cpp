// Reading --start and --end: a plain decimal number, then the checks of
// model/time_window (shared with the Python module).
#include "tools/time_window.hpp"

#include "model/input_error.hpp"

namespace tessel::cli {

namespace {

std::optional<Decimal> option_value(const po::variables_map& values, const std::string& option) {
  if (!values.count(option)) return std::nullopt;
  const std::string text = values[option].as<std::string>();
  const bool plain = !text.empty() && text.find_first_not_of("0123456789.") == std::string::npos;
  const std::optional<Decimal> amount = plain ? parse_quantity(text) : std::nullopt;
  if (!amount) throw InputError("", "--" + option, "'" + text + "' is not a time >= 0 (a number such as 40 or 1.5)");
  return amount;
}

}  // namespace

void add_time_window_options(po::options_description& options) {
  options.add_options()
      ("start", po::value<std::string>(), "draw from this time on (the file's unit; default 0)")
      ("end", po::value<std::string>(), "draw up to this time (default: the makespan)");
}

TimeWindow time_window(const po::variables_map& values, const Schedule& schedule) {
  return checked_time_window({option_value(values, "start"), option_value(values, "end"), "--start", "--end"}, schedule);
}

}  // namespace tessel::cli
