// PLACEHOLDER: `tessel partition` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_partition(int, char**) {
  std::cerr << "tessel partition: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
