// Key=value options of the classic schedules and the --report summary.
#include "tools/classic_options.hpp"

#include <iomanip>
#include <ostream>
#include <sstream>

#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {

std::map<char, long long> parse_key_values(const std::string& text, const std::string& allowed,
                                           const std::string& option) {
  std::map<char, long long> values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    size_t equals = item.find('=');
    if (equals != 1 || allowed.find(item[0]) == std::string::npos)
      throw InputError("", option, "'" + item + "' is not KEY=VALUE with KEY one of " + allowed);
    try {
      size_t used = 0;
      std::string number = item.substr(2);
      long long value = std::stoll(number, &used);
      if (used != number.size()) throw std::invalid_argument(number);
      values[item[0]] = value;
    } catch (const std::exception&) {
      throw InputError("", option, "'" + item + "': the value is not an integer");
    }
  }
  return values;
}

bool print_schedule_report(const Schedule& schedule, std::ostream& out) {
  verify::Report report = verify::check_schedule(schedule_to_json(schedule));
  if (!report.valid) {
    out << "INVALID according to the verifier:\n" << verify::report_to_text(report);
    return false;
  }
  out << "valid (verifier): makespan " << report.makespan << ", bubble ratio " << std::fixed
      << std::setprecision(4) << report.bubble_ratio << ", peak memory per device [";
  for (size_t d = 0; d < report.peak_memory.size(); ++d) out << (d ? ", " : "") << report.peak_memory[d];
  out << "]\n";
  return true;
}

}  // namespace tessel::cli
