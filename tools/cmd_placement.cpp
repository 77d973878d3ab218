// PLACEHOLDER: `tessel placement` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_placement(int, char**) {
  std::cerr << "tessel placement: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
