// The verifier's one entry point: read the document, run the checks of
// docs/algorithms.md, "The problem", in order, and gather their findings
// and the metrics into a Report. Each condition lives in its own file (completeness, exclusivity,
// dependencies, memory, repetend_check); this file only orchestrates.
#include "verify/verify.hpp"

#include "verify/checks.hpp"
#include "verify/schedule_document.hpp"

namespace tessel::verify {

Report check_schedule(const nlohmann::json& document, const std::optional<std::vector<long long>>& memory_override) {
  ScheduleDocument schedule = read_schedule_document(document);
  if (memory_override) {
    if (static_cast<int>(memory_override->size()) != schedule.ndevs)
      throw FormatError{"memory_limit", "the overriding limit has " + std::to_string(memory_override->size()) +
                                            " entries for " + std::to_string(schedule.ndevs) + " devices"};
    for (long long limit : *memory_override)
      if (limit > kMaxMemory || limit < -kMaxMemory)
        throw FormatError{"memory_limit", "the overriding limit " + std::to_string(limit) + " is not within +-2^50"};
    schedule.memory_limit = memory_override;
  }

  Findings findings;
  DistinctInstances distinct = check_completeness(schedule, findings);
  FusedTimes fused = check_fused(schedule, distinct, findings);
  ChoiceTimes choices = check_choices(schedule, distinct, fused, findings);
  check_exclusivity(schedule, distinct, fused, choices, findings);
  check_dependencies(schedule, distinct, fused, findings);
  std::vector<long long> peak = check_memory(schedule, distinct, choices, findings);

  Report report;
  if (!distinct.all_complete)
    report.notes.push_back(
        "memory and peak memory count only the complete micro-batches: a micro-batch with a missing "
        "instance is left out, so that the missing instance is not also reported as a memory excess");
  if (schedule.repetend) {
    report.repetend_claimed = true;
    report.repetend = check_repetend(schedule, distinct, findings);
    // The repetend definition knows spans, not fused units: such a claim is
    // not checked, so it does not hold.
    if (!schedule.fused.empty())
      findings.add({"repetend", "a repetend claim over fused units is not checked: drop one or the other", {}, {}, {}});
    if (!schedule.runs.empty())
      findings.add({"repetend", "a repetend claim over recomputes or transfers is not checked: drop one or the other",
                    {}, {}, {}});
    report.repetend_period = schedule.repetend->period;
    report.repetend_micros_per_period = schedule.repetend->micros_per_period;
    report.repetend_holds = findings.counts["repetend"] == 0;
  }

  for (const std::string& kind : violation_kinds()) {
    report.violation_counts[kind] = findings.counts[kind];
    for (Violation& violation : findings.listed[kind]) report.violations.push_back(std::move(violation));
  }
  report.valid = true;
  for (const auto& [kind, count] : report.violation_counts)
    if (count > 0) report.valid = false;

  Metrics metrics = measure(schedule, distinct, fused, choices);
  report.time_decimals = schedule.time_decimals;
  report.memory_decimals = schedule.memory_decimals;
  report.makespan = metrics.makespan;
  report.bubble_ratio = metrics.bubble_ratio;
  report.busy_steps = metrics.busy_steps;
  report.peak_memory = peak;
  if (schedule.memory_limit) report.memory_limit = *schedule.memory_limit;
  return report;
}

}  // namespace tessel::verify
