// Which method decides a period question (see the header).
#include "solver/knobs/period_method.hpp"

namespace tessel {

PeriodMethod period_method(const Placement& window, PeriodMethodChoice choice) {
  if (choice == PeriodMethodChoice::UnitStep) return PeriodMethod::UnitStep;
  if (choice == PeriodMethodChoice::CyclicOrder) return PeriodMethod::CyclicOrder;
  return period_lower_bound(window) <= kLargestUnitStepPeriod ? PeriodMethod::UnitStep : PeriodMethod::CyclicOrder;
}

}  // namespace tessel
