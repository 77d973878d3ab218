// PLACEHOLDER: `tessel search` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_search(int, char**) {
  std::cerr << "tessel search: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
