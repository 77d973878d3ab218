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
    try {
      size_t used = 0;
      std::string number = item.substr(equals + 1);
      long long value = std::stoll(number, &used);
      if (used != number.size()) throw std::invalid_argument(number);
      values[key] = value;
    } catch (const std::exception&) {
      throw InputError("", option, "'" + item + "': the value is not an integer");
    }
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

namespace {

KeyValues spans_of(const std::optional<std::string>& text, const std::vector<std::string>& keys) {
  if (!text) return {};
  KeyValues spans = parse_key_values(*text, keys, "--span");
  for (const auto& [key, span] : spans)
    if (span < 1 || span > 1000000) throw InputError("", "--span", key + " must be in [1, 1e6]");
  return spans;
}

long long value_or(const KeyValues& values, const std::string& key, long long fallback) {
  auto found = values.find(key);
  return found == values.end() ? fallback : found->second;
}

}  // namespace

classic::StageCosts scheme_costs(const std::optional<std::string>& span,
                                 const std::optional<std::string>& memory, bool split) {
  KeyValues spans = spans_of(span, {"F", "B", "W"});
  KeyValues deltas = memory ? parse_key_values(*memory, {"F", "B", "W"}, "--memory") : KeyValues{};
  if (!split && deltas.count("W"))
    throw InputError("", "--memory", "W is given but the backward is not split (add W to --span)");
  classic::StageCosts costs;
  costs.forward_span = value_or(spans, "F", 1);
  costs.backward_span = value_or(spans, "B", 2);
  costs.input_span = value_or(spans, "B", 1);
  costs.weight_span = value_or(spans, "W", 1);
  costs.forward_memory = value_or(deltas, "F", 1);
  costs.backward_memory = value_or(deltas, "B", -1);
  costs.input_memory = value_or(deltas, "B", 0);
  costs.weight_memory = value_or(deltas, "W", -1);
  return costs;
}

classic::StageCosts pytorch_costs(const std::optional<std::string>& span,
                                  const std::optional<std::string>& memory) {
  KeyValues spans = spans_of(span, {"F", "B", "I", "W", "FB"});
  KeyValues deltas = memory ? parse_key_values(*memory, {"F", "B", "I", "W"}, "--memory") : KeyValues{};
  classic::StageCosts costs;
  costs.forward_span = value_or(spans, "F", 1);
  costs.input_span = value_or(spans, "I", 1);
  costs.weight_span = value_or(spans, "W", 1);
  costs.backward_span = value_or(spans, "B", costs.input_span + costs.weight_span);
  costs.overlap_span = value_or(spans, "FB", 0);
  costs.forward_memory = value_or(deltas, "F", 1);
  costs.backward_memory = value_or(deltas, "B", -1);
  costs.input_memory = value_or(deltas, "I", 0);
  costs.weight_memory = value_or(deltas, "W", -1);
  return costs;
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

int write_classic_output(const boost::program_options::variables_map& values, Schedule& schedule) {
  if (values.count("memory-limit")) {
    schedule.memory_limit = memory_limits_for(schedule.placement, values["memory-limit"].as<std::string>(),
                                              "--memory-limit");
    schedule.uniform_limit = values["memory-limit"].as<std::string>().find(',') == std::string::npos;
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
