// The recomputes and offloads the repetend's choice made (solver/types/search_types.hpp,
// PeriodReport::recompute_chosen) in words: one text for `tessel search`'s
// "with recompute" line. solver/ hands back the blocks and their window
// positions; what they are called is decided here.
#pragma once

#include <string>

#include "solver/types/search_types.hpp"

namespace tessel {

// "f0, f2 recomputed (2 of 4 offering forwards)"; in windows of k, each
// forward's positions: "f0 (positions 0, 1), f2 (position 1) recomputed
// (2 of 4 offering forwards, 3 of 8 choices in windows of 2)"; "nothing
// recomputed" when none is. Offloads follow after "; " in the same words
// ("f1 offloaded (1 of 4 offering forwards)", the forwards offering
// offload); "nothing recomputed or offloaded" where offload was offered.
std::string recompute_choice_text(const PeriodReport& period);

}  // namespace tessel
