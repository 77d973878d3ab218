// A repetend stretched by one step per period (see the header).
#include "solver/modulo/period_stretch.hpp"

#include "solver/modulo/modulo_check.hpp"

#include <algorithm>
#include <stdexcept>

namespace tessel {

ModuloSolution stretched(const Placement& placement, const ModuloSolution& solution, int cut) {
  const int period = solution.period;
  if (period < 1 || cut < 0 || cut > period)
    throw std::invalid_argument("stretched: need period >= 1 and a cut in [0, period]");
  if (std::any_of(solution.starts.begin(), solution.starts.end(), [](int start) { return start < 0; }))
    throw std::invalid_argument("stretched: starts must be >= 0 (the phase is start mod period)");
  std::vector<int> starts = solution.starts;
  for (int& start : starts) {
    const int quotient = start / period, phase = start % period;
    start = quotient * (period + 1) + phase + (phase >= cut ? 1 : 0);
  }
  return modulo_solution(placement, period + 1, std::move(starts));  // a cut at 0 moves the earliest to 1
}

}  // namespace tessel
