// The unit-step encodings' admission check.
#include "solver/unit_step_problem.hpp"

#include "model/input_error.hpp"

namespace tessel {

std::vector<Memory> unit_step_limits(const Placement& placement, const std::vector<Memory>& limits) {
  if (has_delays(placement))
    throw InputError("", "edges",
                     "communication delays are not searched yet; verify, show and export take them (remove the "
                     "delays to search)");
  for (const Block& block : placement.blocks)
    if (block.span > kLargestUnitStepSpan)
      throw InputError("", "blocks", "block '" + block.id + "' has span " + std::to_string(block.span) +
                                         " ticks; the unit-step search takes at most " +
                                         std::to_string(kLargestUnitStepSpan));
  if (period_lower_bound(placement) > kLargestUnitStepLoad)
    throw InputError("", "blocks", "a device's load is " + std::to_string(period_lower_bound(placement)) +
                                       " ticks; the unit-step search takes at most " +
                                       std::to_string(kLargestUnitStepLoad));
  std::vector<Memory> usable = limits;
  for (size_t d = 0; d < usable.size(); ++d) usable[d] -= static_memory_of(placement, static_cast<int>(d));
  return usable;
}

}  // namespace tessel
