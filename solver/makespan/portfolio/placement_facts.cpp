// The placement facts, computed once (see placement_facts.hpp).
#include "solver/makespan/portfolio/placement_facts.hpp"

#include <algorithm>

#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/makespan/constructions/staged_schedule.hpp"

namespace tessel {

PlacementFacts placement_facts(const Placement& placement, int total_micros, const std::vector<Memory>& limits) {
  PlacementFacts facts;
  facts.placement = &placement;
  facts.total_micros = total_micros;
  facts.limits = limits;
  facts.earliest = earliest_starts(placement);
  facts.tails = chain_tails(placement);
  facts.load = device_load(placement);
  for (size_t block = 0; block < facts.earliest.size(); ++block)
    facts.critical_path = std::max(facts.critical_path, facts.earliest[block] + placement.blocks[block].span);
  // With recomputation or offload offered, the memory-aware arguments
  // (every activation kept) bound nothing: the bound that ignores memory
  // allows the cheapest choice, so the improvements stop only where no
  // schedule can be shorter (a traded one below the memory-aware bound
  // stopped them before, and the shift search never ran from it).
  facts.bound = offers_memory_choice(placement) ? makespan_bound(placement, total_micros)
                                                : makespan_bound(placement, total_micros, limits);
  facts.staged_bound = staged_lower_bound(placement, limits, total_micros);
  return facts;
}

}  // namespace tessel
