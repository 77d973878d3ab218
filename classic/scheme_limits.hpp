// The sizes a hand-made schedule may be asked for, in one place for the
// command line (`tessel generate --stages ...`) and Python
// (`tessel.generate(...)`): without them one call of 10^9 micro-batches
// filled 24 GB before anything refused it.
#pragma once

#include <string>

#include "classic/schemes.hpp"

namespace tessel::classic {

constexpr int kMaxRanks = 4096;
constexpr int kMaxMicros = 100000;
constexpr int kMaxChunks = 64;
constexpr int kMaxGroup = 100000;
constexpr long long kMaxPending = 1000000;
constexpr long long kMaxStageRuns = 1000000;  // stages x chunks x micro-batches

// Which of the optional sizes the caller set: unset ones (0 in the request)
// take the scheme's own value and are not checked.
struct GivenSizes {
  bool chunks = false, group = false, max_pending = false;
};

// Throws InputError naming the field as `prefix` + its name ("--stages" on
// the command line, "stages" in Python) and the range.
void check_scheme_sizes(const SchemeRequest& request, const GivenSizes& given, const std::string& prefix);

}  // namespace tessel::classic
