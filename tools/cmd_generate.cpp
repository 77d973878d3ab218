// PLACEHOLDER: `tessel generate` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_generate(int, char**) {
  std::cerr << "tessel generate: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
