// The cyclic orders asked as difference logic, as a period decider
// (docs/architecture.md, "The period deciders"): the phases become integer
// variables of a Z3 backend and the question "a repetend of period at most
// P?" is one solver call (solver/difference_logic_period.hpp), whose cost
// does not grow with the time values. An answer at a smaller period is
// stretched up to P (solver/period_stretch.hpp), so that Sat always comes
// with starts at the period asked. The repetend search asks these
// questions inside its own top-down descent (order_period_search.hpp); this
// decider asks them one period at a time, for a scheduler or a cross-check.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/modulo_encoding.hpp"
#include "solver/period/decider.hpp"

namespace tessel {

class DifferenceLogicDecider : public PeriodDecider {
 public:
  // `window` outlives the decider.
  DifferenceLogicDecider(const Placement& window, std::vector<long long> memory_limit, int max_in_flight,
                         ModuloRules rules = {});
  DeciderKind kind() const override { return DeciderKind::DifferenceLogic; }
  const std::string& name() const override { return name_; }
  // No promise: one Z3 call, milliseconds to minutes.
  DeciderEstimate estimate(int, double) const override { return {false, false}; }
  // Decided whole on a Z3 backend of its own; Unknown also where the
  // window is past what Z3 takes (side_questions) or a constant does not
  // fit its integers.
  std::shared_ptr<PeriodWork> open(int period) const override;

 private:
  ChainPeriod decide(int period, const Deadline& deadline) const;

  const Placement& window_;
  std::vector<long long> memory_limit_;
  int max_in_flight_;
  ModuloRules rules_;
  std::string name_ = "difference logic";
};

}  // namespace tessel
