// The modulo encoding behind the PeriodDecider interface (see the header).
#include "solver/period/modulo_decider.hpp"

namespace tessel {
namespace {

// One period decided whole on a solver of its own by the first thread that
// helps (a SAT call does not split across threads here; the scheduler's
// cubes do that, solver/period/scheduler.hpp).
class ModuloPeriodWork : public PeriodWork {
 public:
  ModuloPeriodWork(const ModuloSatDecider& decider, int period) : decider_(decider), period_(period) {}
  void help(const Deadline& deadline) override {
    if (taken_.exchange(true)) return;
    ModuloSolver solver =
        decider_.build(period_, period_, decider_.question().settings.configuration, deadline);
    if (!solver.encoding.complete) return;
    decided_.answer = solver.backend->solve({period_assumption(solver.encoding, period_)}, deadline);
    if (decided_.answer == Answer::Sat)
      decided_.starts = decode_starts(*solver.backend, solver.encoding, period_);
  }
  bool open() const override { return false; }
  ChainPeriod answer(const Deadline&) override { return decided_; }

 private:
  const ModuloSatDecider& decider_;
  const int period_;
  std::atomic<bool> taken_{false};
  ChainPeriod decided_;
};

}  // namespace

std::shared_ptr<PeriodWork> ModuloSatDecider::open(int period) const {
  return std::make_shared<ModuloPeriodWork>(*this, period);
}

ModuloSolver ModuloSatDecider::build(int first, int last, int configuration, const Deadline& deadline) const {
  BackendSettings settings = question_.settings;
  settings.configuration = configuration;
  ModuloSolver solver;
  solver.backend = make_backend(question_.backend, settings);
  solver.encoding = encode_modulo(*solver.backend, *question_.window, question_.memory_limit, {first, last},
                                  question_.max_in_flight, question_.rules, deadline);
  return solver;
}

}  // namespace tessel
