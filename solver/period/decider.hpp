// What decides whether a repetend of a given period exists (docs/architecture.md,
// "The period deciders"). Every way the project answers that question stands
// behind this one interface, so that the scheduler (solver/period/scheduler.hpp)
// hands periods out without knowing how each is decided:
//   - the unit-step modulo encoding on a SAT backend (modulo_decider.hpp);
//   - a mirrored chain's or two crossed chains' dynamic program
//     (program_decider.hpp), exact and cheap where they apply;
//   - the cyclic orders, by learned cycles or as difference logic, which
//     answer "a period <= P?" and so decide a whole window at once
//     (order_period_search.hpp; chosen in choose_deciders.hpp).
// A decider says what a period costs it (estimate) and opens the period's
// work (PeriodWork, solver/period/chain_period.hpp), which any number of threads may
// join and which ends with Sat and the starts of one micro-batch, Unsat, or
// Unknown when the deadline struck first. A refuted period settles every
// smaller one (solver/modulo/period_stretch.hpp), whichever decider refuted it.
#pragma once

#include <memory>
#include <string>

#include "solver/period/chain_period.hpp"

namespace tessel {

enum class DeciderKind { ModuloSat, ChainProgram, CrossedChains, CyclicOrders, DifferenceLogic };

// Whether a decider can promise to decide a period within some seconds, as
// far as it can tell before trying (a coarse estimate, within a factor of a
// few). `exact`: a promise it keeps by construction (a dynamic program), so
// the scheduler races no rival solver against it and splits nothing into
// cubes; a SAT decider promises nothing (it decides most periods in
// milliseconds and a few in minutes).
struct DeciderEstimate {
  bool within = false;
  bool exact = false;
};

class PeriodDecider {
 public:
  virtual ~PeriodDecider() = default;
  virtual DeciderKind kind() const = 0;
  // For progress lines and the report's calls ("chain program").
  virtual const std::string& name() const = 0;
  virtual DeciderEstimate estimate(int period, double seconds) const = 0;
  // The period's work: help(deadline) on any threads, then answer(deadline).
  // Other threads join it only where it splits (a chain's phase choices,
  // PeriodWork::open()); a whole program runs on the thread that helps first.
  virtual std::shared_ptr<PeriodWork> open(int period) const = 0;
};

// A period decided on the calling thread alone: open, help, answer.
inline ChainPeriod decide_alone(const PeriodDecider& decider, int period, const Deadline& deadline) {
  std::shared_ptr<PeriodWork> work = decider.open(period);
  work->help(deadline);
  return work->answer(deadline);
}

}  // namespace tessel
