// The cyclic orders as period deciders (docs/architecture.md, "The period
// deciders"), two ways. CyclicOrdersDecider runs the learned-cycles descent
// (order_period_search.hpp) capped at the period asked. DifferenceLogicDecider
// asks the cyclic orders as difference logic: the phases become integer
// variables of a Z3 backend and the question "a repetend of period at most
// P?" is one solver call (solver/period/difference_logic_period.hpp), whose cost
// does not grow with the time values. An answer at a smaller period is
// stretched up to P (solver/modulo/period_stretch.hpp), so that Sat always comes
// with starts at the period asked. The repetend search asks these
// questions inside its own top-down descent (order_period_search.hpp); this
// decider asks them one period at a time, for a scheduler or a cross-check.
#pragma once

#include <string>
#include <vector>

#include "model/placement.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/period/decider.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// "A repetend of period at most P?" by the learned-cycles descent capped at
// P, on the backend and with the rules of `options` (its deadline and
// progress are not used). Requires memory balance zero, as the descent does.
class CyclicOrdersDecider : public PeriodDecider {
 public:
  // `window` (a window placement of `copies` copies) outlives the decider.
  CyclicOrdersDecider(const Placement& window, int copies, int max_in_flight, const SearchOptions& options);
  DeciderKind kind() const override { return DeciderKind::CyclicOrders; }
  const std::string& name() const override { return name_; }
  // No promise: SAT calls and cycles learned, milliseconds to minutes.
  DeciderEstimate estimate(int, double) const override { return {false, false}; }
  std::shared_ptr<PeriodWork> open(int period) const override;

 private:
  ChainPeriod decide(int period, const Deadline& deadline) const;
  const Placement& window_;
  int copies_;
  int max_in_flight_;
  SearchOptions options_;
  std::string name_ = "cyclic orders";
};

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
