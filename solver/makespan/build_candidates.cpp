// The candidates at N: the makespan portfolio (portfolio/portfolio.hpp) run
// over the phase list (phases/phase_list.cpp), on the placement facts
// computed once here.
#include "solver/makespan/build_candidates.hpp"

#include "solver/makespan/phases/phases.hpp"
#include "solver/makespan/portfolio/placement_facts.hpp"
#include "solver/makespan/portfolio/portfolio.hpp"

namespace tessel {

Candidates build_candidates(const CandidateInput& input) {
  const PlacementFacts facts = placement_facts(*input.placement, input.total_micros, input.options.memory_limit);
  Portfolio portfolio(input, facts);
  return portfolio.run(makespan_phases());
}

}  // namespace tessel
