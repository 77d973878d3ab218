// What `generate` and `import` share: reading `--span F=1,B=2,W=1` and
// `--memory F=1,B=0,W=-1` style options, and the `--report` summary that runs
// the verifier on the schedule just built.
#pragma once

#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include <optional>

#include <boost/program_options.hpp>

#include "classic/stage_costs.hpp"
#include "classic/stage_graph.hpp"
#include "model/schedule.hpp"

namespace tessel::cli {

using KeyValues = classic::CostValues;

// "F=1.5,B=2" -> {F:1.5, B:2} (exact decimals); keys must be among `allowed`
// ("F", "FB", ...), each at most once. Throws InputError naming `option`.
KeyValues parse_key_values(const std::string& text, const std::vector<std::string>& allowed,
                           const std::string& option);

// The value of a string option, if given.
std::optional<std::string> optional_text(const boost::program_options::variables_map& values,
                                         const std::string& name);

// Costs in the zero-bubble papers' words (generate, megatron-order): keys F,
// B, W; W splits the backward. Defaults: F=1,B=2 (unsplit) or F=1,B=1,W=1;
// memory F=1,B=-1 (unsplit) or F=1,B=0,W=-1.
classic::StageCosts scheme_costs(const std::optional<std::string>& span,
                                 const std::optional<std::string>& memory, bool split);

// Costs in PyTorch's current words: F, B (full backward), I (input
// backward), W, and FB (an overlapped forward and backward unit). Defaults:
// spans F=1,I=1,W=1,B=I+W,FB=F+B; memory F=1,B=-1,I=0,W=-1 (a B of a split
// stage frees what its I and W free; an FB unit what its members do).
classic::StageCosts pytorch_costs(const std::optional<std::string>& span,
                                  const std::optional<std::string>& memory);

// The keys of --span / --memory given by the user (empty when not given).
std::vector<std::string> given_keys(const std::optional<std::string>& text, const std::vector<std::string>& allowed,
                                    const std::string& option);

// Runs verify::check_schedule and prints makespan, bubble ratio and peak
// memory per device. Returns false (after printing the violations) when the
// verifier rejects the schedule.
bool print_schedule_report(const Schedule& schedule, std::ostream& out);

// The common end of generate and import: apply --memory-limit, write
// --placement-out and the schedule (-o, else stdout), print --report.
// Returns the exit code (1 when --report finds the schedule invalid).
int write_classic_output(const boost::program_options::variables_map& values, Schedule& schedule);

}  // namespace tessel::cli
