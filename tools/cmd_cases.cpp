// `tessel cases`: lists the built-in placements (docs/formats.md, "Built-in placements"), one line
// each with what it is and which device counts it supports.
#include <algorithm>
#include <iostream>

#include "cases/builtin_cases.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

int run_cases(int argc, char** argv) {
  po::options_description options("options");
  po::positional_options_description positional;
  po::variables_map values;
  const std::string usage = "tessel cases\n\nLists the built-in placements: name, supported device counts, what it is.\n"
                            "Write one with 'tessel placement --case NAME --ndevs D [--infer]'.";
  if (auto code = parse(argc, argv, usage, options, positional, values)) return *code;
  return guarded("cases", [&] {
    size_t name_width = 0, devices_width = 0;
    for (const CaseInfo& info : builtin_cases()) {
      name_width = std::max(name_width, info.name.size());
      devices_width = std::max(devices_width, info.supported_devices.size());
    }
    for (const CaseInfo& info : builtin_cases())
      std::cout << info.name << std::string(name_width + 2 - info.name.size(), ' ') << info.supported_devices
                << std::string(devices_width + 2 - info.supported_devices.size(), ' ') << info.description << "\n";
    return kSuccess;
  });
}

}  // namespace tessel::cli
