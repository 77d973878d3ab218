// PLACEHOLDER: `tessel show` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_show(int, char**) {
  std::cerr << "tessel show: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
