// The checks of docs/algorithms.md, "The problem", one file each, and what they share: the
// findings collector and the table of distinct instances that completeness
// builds for the other checks. Internal to verify/ (verify.hpp is the API).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "verify/schedule_document.hpp"
#include "verify/verdict.hpp"

namespace tessel::verify {

// How many violations of one kind a report lists; all are counted.
inline constexpr size_t kListedPerKind = 20;

// The order in which kinds are reported (and the complete set of kinds).
inline const std::vector<std::string>& violation_kinds() {
  static const std::vector<std::string> kinds = {"missing", "duplicate", "unknown", "overlap",
                                                 "dependency", "memory", "repetend", "fused",
                                                 "choice", "order", "channel"};
  return kinds;
}

// Every violation found, counted per kind; only the first kListedPerKind of
// each kind are kept.
struct Findings {
  std::map<std::string, std::vector<Violation>> listed;
  std::map<std::string, long long> counts;

  void add(Violation violation) {
    long long& count = counts[violation.kind];
    ++count;
    std::vector<Violation>& kept = listed[violation.kind];
    if (kept.size() < kListedPerKind) kept.push_back(std::move(violation));
  }
  // Counts `more` violations of `kind` without describing them (they would
  // not be listed anyway): keeps huge gaps linear in the file, not in nmicros.
  void count_only(const std::string& kind, long long more) { counts[kind] += more; }
  bool full(const std::string& kind) const {
    auto it = listed.find(kind);
    return it != listed.end() && it->second.size() >= kListedPerKind;
  }
};

// The first occurrence of each (block, micro) pair, sorted by (block, micro):
// the instances that conditions 2-4 and the metrics look at. Extra copies
// are reported as duplicates only, so that a duplicate does not also show up
// as an overlap with itself.
struct DistinctInstances {
  std::vector<PlacedInstance> by_block;
  std::vector<size_t> block_begin;  // block b owns by_block[block_begin[b], block_begin[b + 1])
  std::vector<char> micro_complete;  // per entry of by_block: its micro-batch has every block
  bool all_complete = true;
};

// Condition 1 (missing, duplicate, unknown); returns the distinct instances.
DistinctInstances check_completeness(const ScheduleDocument& schedule, Findings& findings);

// Fused units (fused.cpp): per entry of DistinctInstances::by_block, the unit
// it belongs to (-1 for none) and when it ends for what depends on it (start +
// span, or its unit's start + span). Reports members that are not scheduled,
// belong to two units, sit on other devices or start apart as `fused`.
struct FusedTimes {
  std::vector<int> unit;
  std::vector<long long> end;
};
FusedTimes check_fused(const ScheduleDocument& schedule, const DistinctInstances& distinct, Findings& findings);

// Memory traded for time (memory_choices.cpp): which listed runs count
// and which forward instances really recompute or offload. `choice`: a run
// or mark that is unknown, not offered, unmatched or repeated; `order`: a run
// before its forward ends or ending after `before` starts; `channel`: two
// copies on one device's copy channel at once.
struct ChoiceTimes {
  std::vector<size_t> recomputes;  // accepted recompute runs (index into schedule.runs): they occupy devices
  std::vector<size_t> copies;      // accepted copies: they occupy copy channels
  // Per entry of DistinctInstances::by_block: the runs of its choice when the
  // forward is marked and every run of it is listed (else -1: it keeps).
  std::vector<int> recompute, copy_out, copy_in;
};
ChoiceTimes check_choices(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                          Findings& findings);

// "f3:5 (recompute)", "f3:5 (copy out)".
std::string run_name(const ScheduleDocument& schedule, const ChoiceRun& run);
// When a run ends: start + the recompute span or the copy's time.
long long run_end(const ScheduleDocument& schedule, const ChoiceRun& run);

// Condition 2: no two instances on one device at one step (a fused unit
// occupies its steps once, for all its members; a recompute run occupies
// its block's devices like an instance).
void check_exclusivity(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                       const ChoiceTimes& choices, Findings& findings);

// Condition 3: every edge a -> b holds within every micro-batch (b starts
// when a ends, its unit's end for a fused a; an edge inside one unit holds).
void check_dependencies(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                        Findings& findings);

// Condition 4 with the peak memory per device (counted over the complete
// micro-batches, see memory.cpp).
// The releases and re-allocations of the chosen recomputes and offloads
// count at the ends and starts docs/formats.md names.
std::vector<long long> check_memory(const ScheduleDocument& schedule, const DistinctInstances& distinct,
                                    const ChoiceTimes& choices, Findings& findings);

// The claimed repetend really repeats (definition at the top of
// repetend_check.cpp). Returns a one-line description of the claim.
std::string check_repetend(const ScheduleDocument& schedule, const DistinctInstances& distinct, Findings& findings);

// Makespan, busy steps per device and bubble ratio of the distinct instances.
struct Metrics {
  long long makespan = 0;
  std::vector<long long> busy_steps;
  double bubble_ratio = 0.0;
};
// Recompute runs count as busy steps and in the makespan; copies only in the
// makespan (the copy channel works beside the device).
Metrics measure(const ScheduleDocument& schedule, const DistinctInstances& distinct, const FusedTimes& fused,
                const ChoiceTimes& choices);

// Looks up (block, micro) among the distinct instances; nullptr when absent.
const PlacedInstance* find_instance(const DistinctInstances& distinct, int block, long long micro);

// "f3:5" for a placed instance.
std::string name_of(const ScheduleDocument& schedule, const PlacedInstance& instance);

}  // namespace tessel::verify
