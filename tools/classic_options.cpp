// Key=value options of the classic schedules and the --report summary.
#include "tools/classic_options.hpp"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <ostream>
#include <sstream>

#include "model/input_error.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "tools/cli.hpp"
#include "verify/numbers.hpp"
#include "verify/verify.hpp"

namespace tessel::cli {

KeyValues parse_key_values(const std::string& text, const std::vector<std::string>& allowed,
                           const std::string& option) {
  std::string names;
  for (const std::string& key : allowed) names += (names.empty() ? "" : ", ") + key;
  KeyValues values;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    size_t equals = item.find('=');
    std::string key = item.substr(0, equals);
    if (equals == std::string::npos || std::find(allowed.begin(), allowed.end(), key) == allowed.end())
      throw InputError("", option, "'" + item + "' is not KEY=VALUE with KEY one of " + names);
    if (values.count(key)) throw InputError("", option, "key " + key + " is given twice");
    std::optional<Decimal> value = parse_quantity(item.substr(equals + 1));
    if (!value) throw InputError("", option, "'" + item + "': the value is not a number");
    values[key] = *value;
  }
  return values;
}

std::vector<std::string> given_keys(const std::optional<std::string>& text, const std::vector<std::string>& allowed,
                                    const std::string& option) {
  std::vector<std::string> keys;
  if (!text) return keys;
  for (const auto& [key, value] : parse_key_values(*text, allowed, option)) keys.push_back(key);
  return keys;
}

std::optional<std::string> optional_text(const boost::program_options::variables_map& values,
                                         const std::string& name) {
  if (!values.count(name)) return std::nullopt;
  return values[name].as<std::string>();
}

classic::StageCosts scheme_costs(const std::optional<std::string>& span,
                                 const std::optional<std::string>& memory, bool split) {
  KeyValues spans = span ? parse_key_values(*span, classic::scheme_letters(), "--span") : KeyValues{};
  KeyValues deltas = memory ? parse_key_values(*memory, classic::scheme_letters(), "--memory") : KeyValues{};
  return classic::scheme_costs(spans, deltas, split);
}

classic::StageCosts pytorch_costs(const std::optional<std::string>& span,
                                  const std::optional<std::string>& memory) {
  KeyValues spans = span ? parse_key_values(*span, classic::pytorch_letters(), "--span") : KeyValues{};
  KeyValues deltas =
      memory ? parse_key_values(*memory, {"F", "B", "I", "W"}, "--memory") : KeyValues{};
  return classic::pytorch_costs(spans, deltas);
}

bool print_schedule_report(const Schedule& schedule, std::ostream& out) {
  verify::Report report = verify::check_schedule(schedule_to_json(schedule));
  if (!report.valid) {
    out << "INVALID according to the verifier:\n" << verify::report_to_text(report);
    return false;
  }
  // In the document's units: the verifier counts ticks of its own decimals.
  out << "valid (verifier): makespan " << verify::ticks_text(report.makespan, report.time_decimals)
      << ", bubble ratio " << std::fixed << std::setprecision(4) << report.bubble_ratio << ", peak memory per device [";
  for (size_t d = 0; d < report.peak_memory.size(); ++d)
    out << (d ? ", " : "") << verify::ticks_text(report.peak_memory[d], report.memory_decimals);
  out << "]\n";
  return true;
}

namespace {

// "" when the schedule keeps its --memory-limit, else what it needs: a
// schedule that breaks its own limit is not written (the scheme's order is
// fixed, so no other order of it would fit).
std::string limit_excess(const Schedule& schedule) {
  verify::Report report = verify::check_schedule(schedule_to_json(schedule));
  if (report.violation_counts["memory"] == 0) return "";
  std::string peaks, limits;
  for (size_t d = 0; d < report.peak_memory.size() && d < schedule.memory_limit.size(); ++d) {
    peaks += (d ? ", " : "") + format_ticks(report.peak_memory[d], report.memory_decimals);
    limits += (d ? ", " : "") + format_ticks(schedule.memory_limit[d], schedule.placement.memory_decimals);
  }
  return "the schedule needs memory [" + peaks + "] per device (its peak), above the limit [" + limits + "]";
}

}  // namespace

int write_classic_output(const boost::program_options::variables_map& values, Schedule& schedule) {
  if (values.count("memory-limit")) {
    schedule.memory_limit = memory_limits_for(schedule.placement, values["memory-limit"].as<std::string>(),
                                              "--memory-limit");
    schedule.uniform_limit = values["memory-limit"].as<std::string>().find(',') == std::string::npos;
    if (const std::string excess = limit_excess(schedule); !excess.empty()) {
      std::cerr << "tessel: field '--memory-limit': " << excess << "; nothing written\n";
      return int(kNegative);
    }
  }
  if (values.count("placement-out"))
    write_json_file(values["placement-out"].as<std::string>(), placement_to_json(schedule.placement));
  if (values.count("output"))
    write_schedule_file(values["output"].as<std::string>(), schedule);
  else
    std::cout << schedule_to_json(schedule).dump(1) << "\n";
  if (values["report"].as<bool>() && !print_schedule_report(schedule, std::cerr)) return int(kNegative);
  return int(kSuccess);
}

}  // namespace tessel::cli
