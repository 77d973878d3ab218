// Writing a Report for people (text) and for programs (JSON, the keys of
// docs/cli.md: valid, violations, violation_counts, makespan,
// bubble_ratio, peak_memory, busy_steps; and a few more).
#include <cstdio>
#include <sstream>

#include "verify/checks.hpp"
#include "verify/verify.hpp"

namespace tessel::verify {

namespace {

template <typename Number>
std::string spaced(const std::vector<Number>& values) {
  std::string text;
  for (const Number& value : values) {
    if (!text.empty()) text += ' ';
    text += std::to_string(value);
  }
  return text;
}

std::string ratio(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4f", value);
  return text;
}

// Steps per micro-batch of the claimed repetend (P / k); 0 without a claim.
double average_period(const Report& report) {
  if (report.repetend_micros_per_period < 1) return 0.0;
  return static_cast<double>(report.repetend_period) / static_cast<double>(report.repetend_micros_per_period);
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
                          {"steps", violation.steps},
                          {"instances", violation.instances}});
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& [kind, count] : report.violation_counts) counts[kind] = count;
  nlohmann::json document = {{"valid", report.valid},
                             {"violations", violations},
                             {"violation_counts", counts},
                             {"makespan", report.makespan},
                             {"bubble_ratio", report.bubble_ratio},
                             {"peak_memory", report.peak_memory},
                             {"busy_steps", report.busy_steps}};
  document["memory_limit"] = report.memory_limit.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.memory_limit);
  if (report.repetend_claimed)
    document["repetend"] = {{"claim", report.repetend},
                            {"holds", report.repetend_holds},
                            {"period", report.repetend_period},
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
  long long busy_total = 0;
  for (long long busy : report.busy_steps) busy_total += busy;
  long long capacity = static_cast<long long>(report.busy_steps.size()) * report.makespan;
  out << "makespan: " << report.makespan << "\n";
  out << "bubble ratio: " << ratio(report.bubble_ratio) << " (" << capacity - busy_total << " idle of " << capacity
      << " device-steps)\n";
  out << "peak memory per device: " << spaced(report.peak_memory);
  if (!report.memory_limit.empty())
    out << " (limit " << spaced(report.memory_limit) << ")";
  else
    out << " (no limit)";
  out << "\n";
  out << "busy steps per device: " << spaced(report.busy_steps) << "\n";
  if (report.repetend_claimed) {
    out << "repetend: " << (report.repetend_holds ? "holds" : "does NOT hold") << " (" << report.repetend << ")";
    // A window of k > 1 micro-batches is compared with k = 1 repetends by
    // its period per micro-batch.
    if (report.repetend_micros_per_period > 1)
      out << "; average period " << short_number(average_period(report)) << " steps per micro-batch";
    out << "\n";
  }
  for (const std::string& note : report.notes) out << "note: " << note << "\n";
  return out.str();
}

}  // namespace tessel::verify
