// A repetend stretched by one step per period (see the header).
#include "solver/period_stretch.hpp"

#include <algorithm>
#include <stdexcept>

namespace tessel {

ModuloSolution stretched(const Placement& placement, const ModuloSolution& solution, int cut) {
  const int period = solution.period;
  if (period < 1 || cut < 0 || cut > period)
    throw std::invalid_argument("stretched: need period >= 1 and a cut in [0, period]");
  if (std::any_of(solution.starts.begin(), solution.starts.end(), [](int start) { return start < 0; }))
    throw std::invalid_argument("stretched: starts must be >= 0 (the phase is start mod period)");
  ModuloSolution longer = solution;
  longer.period = period + 1;
  for (int& start : longer.starts) {
    const int quotient = start / period, phase = start % period;
    start = quotient * (period + 1) + phase + (phase >= cut ? 1 : 0);
  }
  // The earliest start back at 0 (a cut at 0 moves it to 1).
  const int shift = *std::min_element(longer.starts.begin(), longer.starts.end());
  longer.latency = 0;
  for (size_t b = 0; b < longer.starts.size(); ++b) {
    longer.starts[b] -= shift;
    longer.latency = std::max(longer.latency, longer.starts[b] + static_cast<int>(placement.blocks[b].span));
  }
  longer.in_flight = (longer.latency + longer.period - 1) / longer.period;
  return longer;
}

}  // namespace tessel
