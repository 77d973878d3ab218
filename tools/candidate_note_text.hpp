// A candidate's note (solver/types/report_types.hpp, Candidate) in words: one text
// for `tessel search`'s candidate list, its JSON ("note") and the Python
// module's candidates. solver/ hands back the kind and its numbers; what they
// are called is decided here, once.
#pragma once

#include <string>

#include "solver/types/report_types.hpp"

namespace tessel {

// The kind's words with its numbers, then `candidate.note` (for kind Text,
// the note alone); its times said at `time_decimals`, the placement's.
std::string candidate_note_text(const Candidate& candidate, int time_decimals);

}  // namespace tessel
