// PLACEHOLDER: `tessel export` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_export(int, char**) {
  std::cerr << "tessel export: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
