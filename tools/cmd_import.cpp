// PLACEHOLDER: `tessel import` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_import(int, char**) {
  std::cerr << "tessel import: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
