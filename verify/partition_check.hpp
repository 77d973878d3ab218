// The independent check of a stage partition (issue 7): like the schedule
// verifier, it reads the graph and the partition JSON itself and shares no
// code with model/ or solver/, so that a bug in the partitioner cannot hide
// here. It checks that every node is in exactly one stage in [0, S), that no
// edge goes to an earlier stage and that no stage is empty, recomputes the
// per-stage compute, parameter bytes and communication from the graph, and
// compares them with what the partition file states.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "verify/verify.hpp"

namespace tessel::verify {

struct PartitionReport {
  bool valid = false;
  std::vector<std::string> problems;  // empty when valid
  int stages = 0;
  std::vector<long long> stage_compute;
  std::vector<long long> stage_param_bytes;
  long long communication_bytes = 0;
  long long bottleneck = 0;
};

// Throws FormatError when either document is not readable as its format;
// an unsound partition is a report with problems.
PartitionReport check_partition(const nlohmann::json& graph, const nlohmann::json& partition);

nlohmann::json partition_report_to_json(const PartitionReport& report);

}  // namespace tessel::verify
