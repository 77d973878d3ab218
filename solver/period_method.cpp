// Which method decides a period question (see the header).
#include "solver/period_method.hpp"

#include <cstdlib>
#include <string>

namespace tessel {

PeriodMethod period_method(const Placement& window) {
  if (const char* forced = std::getenv("TESSEL_PERIOD_METHOD")) {
    if (std::string(forced) == "unit") return PeriodMethod::UnitStep;
    if (std::string(forced) == "orders") return PeriodMethod::CyclicOrder;
  }
  return period_lower_bound(window) <= kLargestUnitStepPeriod ? PeriodMethod::UnitStep : PeriodMethod::CyclicOrder;
}

const char* period_method_name(PeriodMethod method) {
  return method == PeriodMethod::UnitStep ? "unit-step" : "cyclic-order";
}

}  // namespace tessel
