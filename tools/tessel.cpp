// `tessel`: the command line. Dispatches to one subcommand per file.
#include <cstring>
#include <iostream>
#include <vector>

#include "model/json_file.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/memory_reserve.hpp"
#include "tools/standard_output.hpp"
#include "tessel_version.hpp"  // generated at build time: cmake/version.cmake

namespace {

const std::vector<tessel::cli::Command>& commands() {
  using namespace tessel::cli;
  static const std::vector<Command> list = {
      {"cases", "list the built-in placements", run_cases},
      {"placement", "write a built-in placement as tessel.placement/1", run_placement},
      {"search", "find a schedule: minimal-period repetend, or the full problem", run_search},
      {"verify", "check a schedule independently; print violations or metrics", run_verify},
      {"show", "print a schedule as a text timeline", run_show},
      {"unroll", "expand a repetend schedule to N micro-batches", run_unroll},
      {"generate", "the hand-made schedules: 1F1B, interleaved, zero bubble, V, DualPipe (generate --help)", run_generate},
      {"import", "read a schedule of another tool (tessel-json, pytorch-csv, megatron-order)", run_import},
      {"export", "write a schedule for another tool (pytorch-csv, chrome-trace, svg)", run_export},
      {"bench", "run problems on several backends/strategies and print one table", run_bench},
      {"partition", "cut an operator graph into pipeline stages, proven optimal", run_partition},
      {"plan", "from an operator graph to a verified schedule PyTorch runs (CSV, SVG, report)", run_plan},
      {"run", "run a plan on CPU processes (torch) and compare with the unpipelined model", run_run},
      {"check-certificate", "check the DRAT certificate of a search's proven claims (search --certify)", run_check_certificate},
  };
  return list;
}

void print_overview() {
  std::cout << "tessel " TESSEL_VERSION ": find, prove and check pipeline schedules\n\n"
               "usage: tessel COMMAND [OPTIONS]   (tessel COMMAND --help for each; tessel --version)\n\ncommands:\n";
  for (const auto& command : commands())
    std::cout << "  " << command.name << std::string(command.name.size() < 12 ? 12 - command.name.size() : 1, ' ') << command.summary << "\n";
  std::cout << "\nexit codes: 0 success, 1 no schedule exists / schedule invalid, 2 bad input,\n"
               "            3 gave up (time limit or solver unknown), 4 internal error\n";
}

// A report that did not reach stdout (a full disk, a closed descriptor) is
// not a success: exit 2 saying so, unless the command already failed worse.
int with_checked_stdout(const std::string& command, int code) {
  const std::string problem = tessel::cli::standard_output_problem();
  if (problem.empty()) return code;
  std::cerr << "tessel " << command << ": cannot write standard output: " << problem << "\n";
  return code == tessel::cli::kInternal ? code : tessel::cli::kBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  tessel::cli::install_memory_reserve();
  tessel::cli::check_standard_output();
  if (argc < 2) {
    print_overview();
    return tessel::cli::kBadInput;
  }
  if (!std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    print_overview();
    return tessel::cli::kSuccess;
  }
  if (!std::strcmp(argv[1], "--version") || !std::strcmp(argv[1], "version")) {
    std::cout << "tessel " << TESSEL_VERSION << "\n";
    return tessel::cli::kSuccess;
  }
  std::vector<std::string> names = {"help", "version"};
  for (const auto& command : commands()) {
    if (command.name == argv[1]) return with_checked_stdout(command.name, command.run(argc - 1, argv + 1));
    names.push_back(command.name);
  }
  const std::string nearest = tessel::nearest_name(argv[1], names);
  std::cerr << "tessel: unknown command '" << argv[1] << "'"
            << (nearest.empty() ? "" : " (did you mean '" + nearest + "'?)") << "; see 'tessel --help'\n";
  return tessel::cli::kBadInput;
}
