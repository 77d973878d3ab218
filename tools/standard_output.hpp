// Standard output that remembers its first write error. std::cout through
// stdio loses the reason (errno) of a failed write long before the exit, so
// `tessel verify x > /dev/full` used to exit 0; every command's stdout now
// goes through this buffer, and the exit code says when it did not arrive.
#pragma once

#include <string>

namespace tessel::cli {

// Points std::cout at a buffer writing to descriptor 1 that records the
// first error. Call once, before anything is printed.
void check_standard_output();

// Flushes; "" when everything printed reached stdout, else the reason
// ("No space left on device").
std::string standard_output_problem();

}  // namespace tessel::cli
