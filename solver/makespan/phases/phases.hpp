// The phases of the makespan portfolio (portfolio/phase.hpp), one file each,
// and the list the search runs (phase_list.cpp). Adding a phase: write its
// file here (wanted, run, and `beside` if it may run on the side thread),
// declare it below and put it in the list where it belongs
// (docs/architecture.md).
#pragma once

#include <optional>
#include <vector>

#include "solver/makespan/portfolio/phase.hpp"

namespace tessel {

// From the period search's answer (repetend_phases.cpp).
Phase repetend_phase();
Phase modulo_phase();
Phase variants_phase();
// The staged schedule (staged_phase.cpp).
Phase staged_phase();
// Constructions without a solver (construction_phases.cpp).
Phase list_phase();
Phase trading_phase();
Phase replay_phase();
// Bounds solved for the best (solved_bounds_phase.cpp).
Phase solved_bounds_phase();
// Improvements of the best.
Phase shift_phase();          // shift_phase.cpp
Phase transfer_phase();       // transfer_phase.cpp
Phase orders_phase();         // orders_phase.cpp
Phase neighbourhoods_phase(); // neighbourhoods_phase.cpp
Phase full_search_phase();    // full_search_phase.cpp

// The list, in the order the search runs it (phase_list.cpp).
std::vector<Phase> makespan_phases();

// The constructions at input.total_micros, also used by the end transfer
// at a smaller N: nothing when the phase has nothing to list.
std::optional<BuiltCandidate> list_candidate(const CandidateInput& input);
std::optional<BuiltCandidate> replay_candidate(const CandidateInput& input);

}  // namespace tessel
