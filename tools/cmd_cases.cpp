// PLACEHOLDER: `tessel cases` lands with its issue.
#include <iostream>
#include "tools/commands.hpp"
#include "tools/cli.hpp"
namespace tessel::cli {
int run_cases(int, char**) {
  std::cerr << "tessel cases: not implemented yet\n";
  return kBadInput;
}
}  // namespace tessel::cli
