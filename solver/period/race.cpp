// The race's table of periods (race.hpp): what an answer of an attempt
// settles (a refuted period settles every smaller one, a satisfiable one
// makes every larger one moot), what the race answers in the end, and the
// calls it records. Answers are taken in period order, so what is reported
// does not depend on timing.
//
// A refuted period settles every smaller one (a repetend of period P
// stretches into one of P + 1, solver/modulo/period_stretch.hpp): their solvers
// are stopped and they are recorded as implied.
#include "solver/period/race.hpp"

#include <algorithm>
#include <sstream>

namespace tessel::period_race {

namespace {

// "1 s": a head start as the report's calls name it.
std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds << " s";
  return text.str();
}

const char* configuration_name(int configuration) {
  return configuration == 1 ? "sat" : configuration == 2 ? "unsat" : "default";
}

}  // namespace

Race::Race(const PeriodsQuestion& question, const SearchOptions& options, const Deadline& deadline)
    : question_(question),
      options_(options),
      deadline_(deadline),
      modulo_({question.window, options.memory_limit, question.max_in_flight, question.rules, options.backend,
               options.backend_settings}),
      next_period_(question.first_period) {
  own_configuration_ = options.backend_settings.configuration;
  // Rivals, cubes and shared clauses need a second thread: on one, the
  // periods are decided one after the other by their own solvers.
  const bool portfolio = question.threads > 1 && options.backend == "cadical";
  cubing_ = portfolio && options.cubes.depth > 0;
  sharing_ = portfolio && options.share_clauses > 0;
  if (portfolio)
    for (int configuration : {2, 1, 0})
      if (configuration != own_configuration_) rivals_.push_back(configuration);
}

// A failure (an encoding past its budget, a bug caught by a check) stops
// the race and is rethrown by the calling thread.
void Race::work() {
  try {
    while (auto attempt = next_attempt()) run(*attempt);
  } catch (...) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
    given_up_ = true;
    stop_all();
  }
}

void Race::give_up() {
  std::lock_guard<std::mutex> lock(mutex_);
  given_up_ = true;
  stop_all();
}

PeriodsOutcome Race::outcome(std::vector<SolverCall>& calls) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_) std::rethrow_exception(failure_);
  PeriodsOutcome result;
  result.proven_lower_bound = lowest_open();
  result.gave_up = result.proven_lower_bound <= question_.last_period && !answered();
  if (result.proven_lower_bound <= question_.last_period) {
    std::optional<SatisfiedPeriod> solved = answered() ? std::move(solution_) : best_unproven();
    if (program_found_ && (!solved || program_found_->period < solved->period))
      result.by_program = std::move(program_found_);
    else
      result.found = std::move(solved);
  }
  for (auto& [key, call] : calls_) calls.push_back(call);
  return result;
}

// Given up below a period found satisfiable: the smallest such period's
// solver (its own configuration's, else a rival's), the best repetend in
// hand though not proven minimal. An anytime answer: a time-out keeps it
// rather than falling back to the construction.
std::optional<SatisfiedPeriod> Race::best_unproven() {
  if (spare_ && (!solution_ || spare_->period < solution_->period)) return std::move(spare_);
  return std::move(solution_);
}

// What an answer of `attempt` means for the race (the mutex held).
void Race::settle(const std::shared_ptr<Attempt>& attempt, Answer answer, std::unique_ptr<Backend>& backend,
                  ModuloEncoding& encoding) {
  if (answer == Answer::Unknown) {
    if (deadline_.expired()) release_in_background(std::move(backend));  // past the limit: not ours to wait for
    // Stopped as moot, or the deadline / encoding budget: the latter ends the race.
    if (!attempt->stop->load() && !answered()) given_up_ = true;
    if (given_up_) stop_all();
    return;
  }
  if (answer == Answer::Unsat) {
    refute_up_to(attempt->period);
  } else {
    states_[attempt->period] = PeriodState::Sat;
    first_sat_ = std::min(first_sat_, attempt->period);
    // The schedule comes from the own configuration, as on one thread;
    // once the period is split its own solver works on cubes, and a
    // rival's model (checked like any other) is taken instead.
    // (A program's repetend is in program_found_ already.)
    const bool schedule_source = attempt->configuration == own_configuration_ || jobs_.count(attempt->period);
    const bool solver = !program_decides(*attempt);
    if (solver && schedule_source && (!solution_ || attempt->period < solution_->period))
      solution_ = SatisfiedPeriod{attempt->period, std::move(backend), std::move(encoding)};
    else if (solver && !schedule_source && (!spare_ || attempt->period < spare_->period))
      spare_ = SatisfiedPeriod{attempt->period, std::move(backend), std::move(encoding)};  // for a time-out
    // Larger periods are moot; so are rivals on this one (the schedule
    // comes from the own configuration, which keeps running) and, once
    // the own configuration has the schedule, the other cube workers.
    const bool own_answered = found_period() == attempt->period;
    stop_where([&](const Attempt& other) {
      return other.period > attempt->period ||
             (other.period == attempt->period && (other.configuration != own_configuration_ || own_answered));
    });
  }
  if (answered()) stop_all();
}

// `period` refuted, and with it every smaller one (period_stretch.hpp):
// those not decided yet are recorded as implied and their solvers stopped.
void Race::refute_up_to(int period) {
  for (int smaller = question_.first_period; smaller < period; ++smaller) {
    if (state(smaller) != PeriodState::Open) continue;
    states_[smaller] = PeriodState::Unsat;
    calls_[{smaller, -2}] =  // beside a stopped solver's own entry
        SolverCall{question_.label + "period " + std::to_string(smaller) + " (implied: period " +
                       std::to_string(period) + " refuted, and a repetend of a smaller period stretches to it)",
                   Answer::Unsat, 0};
  }
  states_[period] = PeriodState::Unsat;
  stop_where([&](const Attempt& other) { return other.period <= period; });
}

// `how`: the program's name, for a period it decided; `detail`: what it
// tried, for the progress line only (the report's calls are the same on
// any number of threads).
void Race::record(const Attempt& attempt, Answer answer, double seconds, const std::string& how,
                  const std::string& detail) {
  const bool own = attempt.configuration == own_configuration_;
  std::ostringstream what;
  what << question_.label << "period " << attempt.period;
  if (!how.empty())
    what << " (" << how << (own ? "" : ", after the solver's " + seconds_text(question_.head_start_seconds)) << ")";
  if (!own && how.empty()) what << " ('" << configuration_name(attempt.configuration) << "' configuration)";
  if (answer == Answer::Unknown && attempt.stop->load())
    what << (attempt.yielded ? " (stopped: the period was split into cubes)" : " (stopped: moot)");
  std::ostringstream line;
  line << "repetend: " << what.str() << ": " << answer_name(answer) << " (" << seconds << " s" << detail << ")";
  if (options_.progress) options_.progress(line.str());
  std::lock_guard<std::mutex> lock(mutex_);
  calls_[{attempt.period, attempt.configuration}] = SolverCall{what.str(), answer, seconds};
}

void Race::record_cubes(const CubeJob& job, Answer answer) {
  std::ostringstream what;
  what << question_.label << "period " << job.period << " (" << job.cubes.size() << " cubes)";
  calls_[{job.period, -1}] = SolverCall{what.str(), answer, seconds_since(job.begin)};
}

}  // namespace tessel::period_race
