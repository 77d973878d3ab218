// Which attempt a free thread of the race takes (race.hpp): a program's
// open work first, then the next period under the search's own
// configuration, then cubes of a split period, then a rival configuration.
//
// A rival configuration joins a period only once the period's own solver has
// spent rival_after_seconds (2 s by default) on it. Most periods are decided
// in far less, and a rival there is pure cost: a second encoding built and
// solved on a core the descent needs (kshape 64 devices memory 32, periods
// 6-8 each decided in a few seconds, ran 0.75x as fast on 2 threads as on 1
// while rivals were started at once). A free thread waits for that moment
// instead.
#include "solver/period/race.hpp"

namespace tessel::period_race {

// The next attempt for a free thread; waits while the only ones left are
// rivals whose period's own solver has not yet had rival_after_seconds.
std::optional<std::shared_ptr<Attempt>> Race::next_attempt() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!finished()) {
    // A program's period first: its work splits across threads, and the
    // periods below a refuted one need none (a refutation settles them).
    if (auto helper = next_helper()) return helper;
    // Periods in order under the search's own configuration, below any
    // period known satisfiable.
    if (periods_left()) return start(next_period_++, own_configuration_);
    for (auto& [period, job] : jobs_)
      if (state(period) == PeriodState::Open && cubes_left(job)) {
        auto worker = start(period, own_configuration_);
        worker->cube_worker = true;
        return worker;
      }
    bool later = false;
    if (auto rival = next_rival(later)) return rival;
    // A running period may still be split into cubes for this thread.
    if (cubing_ && !running_.empty()) later = true;
    if (!later) return std::nullopt;
    ++idle_;
    changed_.wait_for(lock, std::chrono::milliseconds(50));
    --idle_;
  }
  return std::nullopt;
}

// A thread joins the lowest period a program is still deciding.
std::optional<std::shared_ptr<Attempt>> Race::next_helper() {
  for (const auto& attempt : running_)
    if (attempt->work && attempt->work->open()) {
      auto helper = std::make_shared<Attempt>();
      helper->period = attempt->period;
      helper->helped = attempt;
      ++attempt->helpers;
      return helper;
    }
  return std::nullopt;
}

// Another configuration on the lowest open period not yet raced. A rival
// only wins by a refutation: none on a period known satisfiable. `later`:
// one is due once its period's own solver has run long enough.
std::optional<std::shared_ptr<Attempt>> Race::next_rival(bool& later) {
  const int last_rival = question_.last_feasible ? question_.last_period - 1 : question_.last_period;
  for (int period = lowest_open(); period < next_period_ && period < first_sat_ && period <= last_rival; ++period) {
    if (state(period) != PeriodState::Open || jobs_.count(period) || by_program(period) || solver_head_start(period))
      continue;
    const double waited = own_seconds(period);
    for (int configuration : rivals_) {
      if (tried_.count({period, configuration})) continue;
      if (waited >= options_.rival_after_seconds) return start(period, configuration);
      later = true;
    }
  }
  return std::nullopt;
}

// How long the own configuration has been on `period` (no limit when it
// is not running: then nothing is lost by a rival).
double Race::own_seconds(int period) const {
  for (const auto& attempt : running_)
    if (attempt->period == period && attempt->configuration == own_configuration_) {
      const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - attempt->begin;
      return spent.count();
    }
  return options_.rival_after_seconds;
}

std::shared_ptr<Attempt> Race::start(int period, int configuration) {
  auto attempt = std::make_shared<Attempt>();
  attempt->id = next_id_++;
  attempt->period = period;
  attempt->configuration = configuration;
  tried_.insert({period, configuration});
  running_.push_back(attempt);
  // The program's work, open to helpers at once: beside the solver's head
  // start they begin it.
  if (configuration == own_configuration_ && (by_program(period) || solver_head_start(period)))
    attempt->work = question_.program->open(period);
  return attempt;
}

}  // namespace tessel::period_race
