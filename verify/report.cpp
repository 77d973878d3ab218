// Writing a Report for people (text) and for programs (JSON, the keys of
// docs/cli.md: valid, violations, violation_counts, makespan,
// bubble_ratio, peak_memory, busy_steps; and a few more).
#include <cstdio>
#include <sstream>

#include "verify/checks.hpp"
#include "verify/numbers.hpp"
#include "verify/verify.hpp"

namespace tessel::verify {

namespace {

std::string spaced(const std::vector<long long>& values, int decimals) {
  std::string text;
  for (long long value : values) {
    if (!text.empty()) text += ' ';
    text += ticks_text(value, decimals);
  }
  return text;
}

// Ticks as the JSON number the file would hold (an integer at 0 decimals).
nlohmann::json number(long long ticks, int decimals) {
  if (decimals == 0) return ticks;
  return ticks_value(ticks, decimals);
}

nlohmann::json numbers(const std::vector<long long>& ticks, int decimals) {
  nlohmann::json list = nlohmann::json::array();
  for (long long value : ticks) list.push_back(number(value, decimals));
  return list;
}

std::string ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

// Steps per micro-batch of the claimed repetend (P / k); 0 without a claim.
double average_period(const Report& report) {
  if (report.repetend_micros_per_period < 1) return 0.0;
  return ticks_value(report.repetend_period, report.time_decimals) /
         static_cast<double>(report.repetend_micros_per_period);
}

std::string short_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
}

}  // namespace

nlohmann::json report_to_json(const Report& report) {
  nlohmann::json violations = nlohmann::json::array();
  for (const Violation& violation : report.violations)
    violations.push_back({{"kind", violation.kind},
                          {"message", violation.message},
                          {"devices", violation.devices},
                          {"steps", numbers(violation.steps, report.time_decimals)},
                          {"instances", violation.instances}});
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [kind, count] : report.violation_counts) counts[kind] = count;
  nlohmann::json document = {{"valid", report.valid},
                             {"violations", violations},
                             {"violation_counts", counts},
                             {"makespan", number(report.makespan, report.time_decimals)},
                             {"bubble_ratio", report.bubble_ratio},
                             {"peak_memory", numbers(report.peak_memory, report.memory_decimals)},
                             {"busy_steps", numbers(report.busy_steps, report.time_decimals)}};
  document["memory_limit"] =
      report.memory_limit.empty() ? nlohmann::json(nullptr) : numbers(report.memory_limit, report.memory_decimals);
  if (report.repetend_claimed)
    document["repetend"] = {{"claim", report.repetend},
                            {"holds", report.repetend_holds},
                            {"period", number(report.repetend_period, report.time_decimals)},
                            {"micros_per_period", report.repetend_micros_per_period},
                            {"average_period", average_period(report)}};
  else
    document["repetend"] = nullptr;
  document["notes"] = report.notes;
  return document;
}

std::string report_to_text(const Report& report) {
  std::ostringstream out;
  if (report.valid) {
    out << "valid\n";
  } else {
    long long total = 0;
    for (const auto& [kind, count] : report.violation_counts) total += count;
    out << "invalid: " << total << " violation" << (total == 1 ? "" : "s") << "\n";
    for (const std::string& kind : violation_kinds()) {
      long long listed = 0;
      for (const Violation& violation : report.violations)
        if (violation.kind == kind) {
          out << "  " << kind << ": " << violation.message << "\n";
          ++listed;
        }
      auto count = report.violation_counts.find(kind);
      if (count != report.violation_counts.end() && count->second > listed)
        out << "  ... and " << count->second - listed << " more " << kind << " violations\n";
    }
  }
  const int t = report.time_decimals, m = report.memory_decimals;
  long double busy_total = 0;
  for (long long busy : report.busy_steps) busy_total += busy;
  const long double capacity = static_cast<long double>(report.busy_steps.size()) * report.makespan;
  out << "makespan: " << ticks_text(report.makespan, t) << "\n";
  out << "bubble ratio: " << ratio(report.bubble_ratio);
  if (capacity < 4e18L)  // past a long long the counts are left out, the ratio says it
    out << " (" << ticks_text(static_cast<long long>(capacity - busy_total), t) << " idle of "
        << ticks_text(static_cast<long long>(capacity), t) << (t == 0 ? " device-steps)" : " device-time)");
  out << "\n";
  out << "peak memory per device: " << spaced(report.peak_memory, m);
  if (!report.memory_limit.empty())
    out << " (limit " << spaced(report.memory_limit, m) << ")";
  else
    out << " (no limit)";
  out << "\n";
  out << (t == 0 ? "busy steps per device: " : "busy time per device: ") << spaced(report.busy_steps, t) << "\n";
  if (report.repetend_claimed) {
    out << "repetend: " << (report.repetend_holds ? "holds" : "does NOT hold") << " (" << report.repetend << ")";
    // A window of k > 1 micro-batches is compared with k = 1 repetends by
    // its period per micro-batch.
    if (report.repetend_micros_per_period > 1)
      out << "; average period " << short_number(average_period(report)) << (t == 0 ? " steps" : "") << " per micro-batch";
    out << "\n";
  }
  for (const std::string& note : report.notes) out << "note: " << note << "\n";
  return out.str();
}

}  // namespace tessel::verify
