// The makespan gap (solver/types/report_types.hpp, MakespanGap) in words: one
// sentence for `tessel search`'s text and JSON ("makespan_gap_reason") and
// for the Python module's Result.gap_reason. solver/ hands back the cause and
// its numbers; what they are called is decided here, once.
#pragma once

#include <string>

#include "solver/types/report_types.hpp"

namespace tessel {

// Empty for cause None. `time_decimals`: the placement's, as times are written.
std::string gap_text(const MakespanGap& gap, int time_decimals);

}  // namespace tessel
