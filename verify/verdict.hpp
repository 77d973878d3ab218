// What the verifier says about a schedule: its findings as plain data. Apart
// from verify/verify.hpp (the judge's entry) so that the judge's own parts
// (the checks, the document readers) use these types without including the
// entry that calls them: the includes of verify/ point one way, down.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tessel::verify {

// A document that is not a readable tessel.schedule/1 (as opposed to a
// readable but invalid schedule, which is a Report with violations).
struct FormatError {
  std::string field;   // JSON path like "instances[3].micro"; "" for the whole document
  std::string reason;
};

struct Violation {
  std::string kind;  // missing|duplicate|unknown|overlap|dependency|memory|repetend
  std::string message;
  std::vector<int> devices;
  std::vector<long long> steps;
  std::vector<std::string> instances;  // like "f3:5" (block id : micro-batch)
};

// Times (makespan, busy, repetend period, a violation's steps) are ticks of
// 10^-time_decimals of the file's unit and memory amounts ticks of
// 10^-memory_decimals (verify/numbers.hpp): an integer file's decimals are 0
// and its ticks are steps. The JSON and text reports write the numbers as
// the file would.
struct Report {
  bool valid = false;
  int time_decimals = 0;
  int memory_decimals = 0;
  std::vector<Violation> violations;  // at most the first 20 of each kind
  std::map<std::string, long long> violation_counts;  // every kind, 0 when none
  long long makespan = 0;
  double bubble_ratio = 0.0;
  std::vector<long long> peak_memory;  // per device, static memory included
  std::vector<long long> busy_steps;   // per device
  std::vector<long long> memory_limit;  // per device; empty = no limit
  bool repetend_claimed = false;
  bool repetend_holds = false;  // meaningful when claimed
  std::string repetend;         // the claim in words, when claimed
  long long repetend_period = 0;            // P of the claim, when claimed
  long long repetend_micros_per_period = 0;  // k of the claim: P / k steps per micro-batch
  std::vector<std::string> notes;  // what was not checked and why
};

}  // namespace tessel::verify
