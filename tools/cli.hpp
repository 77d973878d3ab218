// What every subcommand shares: exit codes, option parsing with --help, and
// turning typed errors into messages. tools/ is the only place that knows
// about Boost.ProgramOptions and exit codes.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "model/placement.hpp"

namespace tessel::cli {

namespace po = boost::program_options;

enum ExitCode : int {
  kSuccess = 0,     // schedule found / schedule valid
  kNegative = 1,    // proven: no schedule within the limits; or schedule invalid
  kBadInput = 2,    // bad usage or bad input file
  kGaveUp = 3,      // time limit, interrupt, out of memory, or solver unknown
  kInternal = 4,    // a bug in tessel (never expected)
};

// What a command prints when memory runs out (exit 3): the input is too
// large for the memory the process may use.
inline constexpr const char* kOutOfMemory =
    "out of memory: the input is too large for the memory this process may use (a cap such as ulimit -v, or "
    "the machine's)";

struct Command {
  std::string name;
  std::string summary;  // one line for `tessel --help`
  std::function<int(int, char**)> run;
};

// Parses argv (argv[0] = subcommand name). Returns an exit code when parsing
// ends the command (--help printed: 0; bad usage: 2), else nullopt.
std::optional<int> parse(int argc, char** argv, const std::string& usage,
                         const po::options_description& options,
                         const po::positional_options_description& positional,
                         po::variables_map& values);

// Runs a subcommand body, turning InputError, verify::FormatError and
// option errors into exit 2 with a message on stderr, and running out of
// memory (std::bad_alloc) into exit 3 with kOutOfMemory.
int guarded(const std::string& command, const std::function<int()>& body);

// A JSON file for the verifier (verify/json_text.hpp bounds its depth and
// numbers): a missing, unreadable or malformed file is an InputError.
nlohmann::json read_verifier_document(const std::string& path);

// The options that choose a placement: --case/--ndevs/--infer or --placement.
void add_placement_options(po::options_description& options);
Placement placement_from_options(const po::variables_map& values);

// Per-device amounts from "6", "40GiB", "1.5" or "6,6,4,4" (one, or one per
// device); throws InputError naming `option` when malformed, negative or of
// the wrong length.
std::vector<Decimal> parse_quantities(const std::string& text, int ndevs, const std::string& option);

// Memory limits for `placement` in its memory ticks; a limit with more
// decimals than the placement's memory raises the placement's scale.
std::vector<Memory> memory_limits_for(Placement& placement, const std::string& text, const std::string& option);

// Throws InputError when the value of `option` (a file to write) names a
// directory that does not exist or cannot be written: checked before a long
// search, so that the user does not lose its result at the very end.
void require_writable_output(const po::variables_map& values, const std::string& option);

}  // namespace tessel::cli
