// What `generate` and `import` share: reading `--span F=1,B=2,W=1` and
// `--memory F=1,B=0,W=-1` style options, and the `--report` summary that runs
// the verifier on the schedule just built.
#pragma once

#include <iosfwd>
#include <map>
#include <string>

#include "model/schedule.hpp"

namespace tessel::cli {

// "F=1,B=2" -> {F:1, B:2}; keys must be among `allowed` (single letters).
// Throws InputError naming `option`.
std::map<char, long long> parse_key_values(const std::string& text, const std::string& allowed,
                                           const std::string& option);

// Runs verify::check_schedule and prints makespan, bubble ratio and peak
// memory per device. Returns false (after printing the violations) when the
// verifier rejects the schedule.
bool print_schedule_report(const Schedule& schedule, std::ostream& out);

}  // namespace tessel::cli
