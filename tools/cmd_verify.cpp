// PLACEHOLDER: `tessel verify` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_verify(int, char**) {
  std::cerr << "tessel verify: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
