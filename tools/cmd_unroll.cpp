// PLACEHOLDER: `tessel unroll` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_unroll(int, char**) {
  std::cerr << "tessel unroll: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
