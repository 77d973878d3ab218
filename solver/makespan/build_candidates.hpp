// The candidates at N (solver/makespan/portfolio/candidates.hpp, the data): the entry
// that runs the makespan portfolio over the phase list. A unit of its own
// above the portfolio and the phases, which read the data but never call it.
#pragma once

#include "solver/makespan/portfolio/candidates.hpp"

namespace tessel {

Candidates build_candidates(const CandidateInput& input);

}  // namespace tessel
