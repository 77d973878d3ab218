// One attempt of the race run to its answer (race.hpp): a helper joins a
// program's work; a program decides its period; a solver (carried from the
// period below when it holds this one, periods_per_solver) decides its
// period whole, after a head start before the program, or in cubes.
#include "solver/period/race.hpp"

#include <algorithm>

namespace tessel::period_race {

void Race::run(const std::shared_ptr<Attempt>& attempt) {
  if (attempt->helped) {  // the owner records and settles the period
    attempt->helped->work->help(deadline_.with_sibling_stop(attempt->helped->stop.get()));
    return;
  }
  const Deadline deadline = deadline_.with_sibling_stop(attempt->stop.get());
  if (program_decides(*attempt)) {
    run_program(attempt, deadline);
    return;
  }
  const auto begin = std::chrono::steady_clock::now();
  ModuloSolver solver = solver_for(*attempt, deadline);
  std::unique_ptr<Backend>& backend = solver.backend;
  ModuloEncoding& encoding = solver.encoding;
  if (sharing_) backend->share_learned(options_.share_clauses);
  Answer answer = Answer::Unknown;
  if (encoding.complete && solver_head_start(attempt->period)) {
    answer = backend->solve({period_assumption(encoding, attempt->period)},
                            deadline.within(question_.head_start_seconds));
    if (answer == Answer::Unknown && !deadline.expired()) {
      record(*attempt, answer, seconds_since(begin));
      {
        std::lock_guard<std::mutex> lock(mutex_);
        attempt->configuration = kProgramAfterSolver;  // the program decides it from here
      }
      run_program(attempt, deadline);
      return;
    }
  } else if (encoding.complete && !attempt->cube_worker) {
    answer = decide(*attempt, *backend, encoding, deadline);
  }
  if (encoding.complete && (attempt->cube_worker || attempt->split)) {
    conquer(attempt, backend, encoding, deadline);
    return;
  }
  const double seconds = seconds_since(begin);
  record(*attempt, answer, seconds);

  std::lock_guard<std::mutex> lock(mutex_);
  changed_.notify_all();
  running_.erase(std::remove(running_.begin(), running_.end(), attempt), running_.end());
  settle(attempt, answer, backend, encoding);
  if (attempt->work) attempt->stop->store(true);  // the solver answered: its program's helpers stop
  if (answer == Answer::Unsat && backend && encoding.last_period > attempt->period) carried_ = std::move(solver);
}

// The attempt's solver: the one carried from the period below when it
// holds this period too (periods_per_solver), else a new one holding a
// chunk of periods from this one.
ModuloSolver Race::solver_for(const Attempt& attempt, const Deadline& deadline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (carried_.backend && attempt.configuration == own_configuration_ &&
        carried_.encoding.first_period <= attempt.period && attempt.period <= carried_.encoding.last_period)
      return std::move(carried_);
  }
  const int chunk = std::max(1, question_.periods_per_solver);
  const int last = std::min(question_.last_period, attempt.period + chunk - 1);
  return modulo_.build(attempt.period, last, attempt.configuration, deadline);
}

// The period decided by the program; its repetend kept when satisfiable.
void Race::run_program(const std::shared_ptr<Attempt>& attempt, const Deadline& deadline) {
  const auto begin = std::chrono::steady_clock::now();
  std::shared_ptr<PeriodWork> work = attempt->work;
  work->help(deadline);
  ChainPeriod decided = work->answer(deadline);
  std::string detail;
  if (decided.phase_choices > 0)
    detail += " over " + std::to_string(decided.phase_choices) + " phase choices of the all-device blocks";
  int helpers = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    helpers = attempt->helpers;
  }
  if (helpers > 0) detail += ", " + std::to_string(helpers + 1) + " threads";
  record(*attempt, decided.answer, seconds_since(begin), question_.program->name(), detail);

  std::lock_guard<std::mutex> lock(mutex_);
  changed_.notify_all();
  running_.erase(std::remove(running_.begin(), running_.end(), attempt), running_.end());
  if (decided.answer == Answer::Sat && (!program_found_ || attempt->period < program_found_->period))
    program_found_ = ProgramPeriod{attempt->period, std::move(decided.starts)};
  std::unique_ptr<Backend> none;
  ModuloEncoding unused;
  settle(attempt, decided.answer, none, unused);
}

}  // namespace tessel::period_race
