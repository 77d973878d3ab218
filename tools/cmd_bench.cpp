// PLACEHOLDER: `tessel bench` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_bench(int, char**) {
  std::cerr << "tessel bench: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
