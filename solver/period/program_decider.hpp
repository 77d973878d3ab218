// The dynamic programs as period deciders (docs/architecture.md, "Period
// deciders"): a placement that is one mirrored chain (solver/period/chain_period.hpp)
// or two chains crossing the same devices in opposite directions
// (solver/period/crossed_chains.hpp) has its periods decided exactly, in
// milliseconds to seconds, where a SAT solver may take minutes. Each says
// by its own estimate which periods it can afford.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "model/placement.hpp"
#include "solver/knobs/tuning.hpp"
#include "solver/period/crossed_chains.hpp"
#include "solver/period/decider.hpp"

namespace tessel {

class ChainProgramDecider : public PeriodDecider {
 public:
  // `window` outlives the decider.
  ChainProgramDecider(const Placement& window, MirroredChain chain, int max_in_flight, double steps_per_second);
  DeciderKind kind() const override { return DeciderKind::ChainProgram; }
  const std::string& name() const override { return name_; }
  DeciderEstimate estimate(int period, double seconds) const override;
  std::shared_ptr<PeriodWork> open(int period) const override;

 private:
  const Placement& window_;
  MirroredChain chain_;
  int max_in_flight_;
  double steps_per_second_;  // the estimate's rate (program_steps_per_second)
  std::string name_ = "chain program";
};

class CrossedChainsDecider : public PeriodDecider {
 public:
  // `window` outlives the decider.
  CrossedChainsDecider(const Placement& window, CrossedChains chains, double steps_per_second);
  DeciderKind kind() const override { return DeciderKind::CrossedChains; }
  const std::string& name() const override { return name_; }
  DeciderEstimate estimate(int period, double seconds) const override;
  std::shared_ptr<PeriodWork> open(int period) const override;

 private:
  const Placement& window_;
  CrossedChains chains_;
  double steps_per_second_;
  std::string name_ = "crossed-chains program";
};

// The program that decides `window`'s periods, if its shape has one (a
// chain is tried first: it also splits across threads); its estimates count
// `steps_per_second` (the developer knob program_steps_per_second).
std::unique_ptr<PeriodDecider> period_program(const Placement& window, const std::vector<long long>& memory_limit,
                                              int max_in_flight,
                                              double steps_per_second = kDefaultTuning.program_steps_per_second);

// The last period of first .. last whose estimate stays within `seconds`
// all the way from `first` (first - 1 when none is).
int last_affordable(const PeriodDecider& decider, int first, int last, double seconds);

}  // namespace tessel
