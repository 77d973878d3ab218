// The copy channels of chosen offloads (optional_offload.hpp).
#include "solver/modulo/optional_offload.hpp"

#include "solver/modulo/optional_recompute.hpp"

namespace tessel {

void add_channel_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                             int device) {
  std::vector<int> copies;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (encoding.lanes[b] == Lane::Channel && on_device(placement.blocks[b], device)) copies.push_back(static_cast<int>(b));
  for (size_t i = 0; i < copies.size(); ++i) {
    const int a = copies[i];
    const Lit a_chosen = encoding.offloaded[encoding.offload_of[a]];
    // A copy against itself (its other micro-batches) needs only its span
    // within the period, which the encoding asks of every block.
    for (size_t j = i + 1; j < copies.size(); ++j) {
      const int b = copies[j];
      const Lit b_chosen = encoding.offloaded[encoding.offload_of[b]];
      for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
        std::vector<Lit> guard{a_chosen, period_assumption(encoding, period)};
        if (b_chosen != a_chosen) guard.push_back(b_chosen);
        add_circle_pair(backend, encoding.phases[a], placement.blocks[a].span, encoding.phases[b],
                        placement.blocks[b].span, period, guard);
      }
    }
  }
}

}  // namespace tessel
