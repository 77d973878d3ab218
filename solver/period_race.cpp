// The period race (see the header). One mutex guards the table of periods;
// solvers are never shared: each attempt builds its own backend and encoding
// (the encoding of one period, as the single-threaded descent builds it), so
// the only thing threads exchange is answers and stop flags.
//
// A rival configuration joins a period only once the period's own solver has
// spent kRivalDelaySeconds on it. Most periods are decided in far less, and
// a rival there is pure cost: a second encoding built and solved on a core
// the descent needs (kshape 64 devices memory 32, periods 6-8 each decided
// in a few seconds, ran 0.75x as fast on 2 threads as on 1 while rivals
// were started at once). A free thread waits for that moment instead.
#include "solver/period_race.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <set>
#include <mutex>
#include <sstream>
#include <thread>

namespace tessel {
namespace {

enum class PeriodState { Open, Unsat, Sat };

constexpr double kRivalDelaySeconds = 2.0;

const char* configuration_name(int configuration) {
  return configuration == 1 ? "sat" : configuration == 2 ? "unsat" : "default";
}

// One solver deciding one period under one configuration.
struct Attempt {
  int period = 0;
  int configuration = 0;
  std::unique_ptr<StopFlag> stop = std::make_unique<StopFlag>(false);
  std::chrono::steady_clock::time_point begin = std::chrono::steady_clock::now();
};

class Race {
 public:
  Race(const PeriodRaceQuestion& question, const SearchOptions& options, const Deadline& deadline)
      : question_(question), options_(options), deadline_(deadline), next_period_(question.first_period) {
    own_configuration_ = options.backend_settings.configuration;
    if (options.backend == "cadical")
      for (int configuration : {2, 1, 0})
        if (configuration != own_configuration_) rivals_.push_back(configuration);
  }

  // A failure (an encoding past its budget, a bug caught by a check) stops
  // the race and is rethrown by the calling thread.
  void work() {
    try {
      while (auto attempt = next_attempt()) run(*attempt);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!failure_) failure_ = std::current_exception();
      given_up_ = true;
      stop_all();
    }
  }

  PeriodRaceOutcome outcome(std::vector<SolverCall>& calls) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_) std::rethrow_exception(failure_);
    PeriodRaceOutcome result;
    result.proven_lower_bound = lowest_open();
    result.gave_up = result.proven_lower_bound <= question_.last_period && !answered();
    if (answered() && result.proven_lower_bound <= question_.last_period) result.found = std::move(solution_);
    for (auto& [key, call] : calls_) calls.push_back(call);
    return result;
  }

 private:
  // The lowest period not refuted (last + 1 when all are).
  int lowest_open() const {
    int period = question_.first_period;
    while (period <= question_.last_period && state(period) == PeriodState::Unsat) ++period;
    return period;
  }
  PeriodState state(int period) const {
    auto found = states_.find(period);
    return found == states_.end() ? PeriodState::Open : found->second;
  }
  // Decided in period order: every period below the lowest open one refuted
  // and, when that one is satisfiable, its own-configuration solver answered.
  bool answered() const {
    const int low = lowest_open();
    return low > question_.last_period || (solution_ && solution_->period == low);
  }
  bool finished() const { return answered() || given_up_ || deadline_.expired(); }

  // The next attempt for a free thread; waits while the only ones left are
  // rivals whose period's own solver has not yet had kRivalDelaySeconds.
  std::optional<std::shared_ptr<Attempt>> next_attempt() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!finished()) {
      // Periods in order under the search's own configuration, below any
      // period known satisfiable.
      if (next_period_ <= question_.last_period && next_period_ < first_sat_)
        return start(next_period_++, own_configuration_);
      bool later = false;
      if (auto rival = next_rival(later)) return rival;
      if (!later) return std::nullopt;
      changed_.wait_for(lock, std::chrono::milliseconds(50));
    }
    return std::nullopt;
  }

  // Another configuration on the lowest open period not yet raced. A rival
  // only wins by a refutation: none on a period known satisfiable. `later`:
  // one is due once its period's own solver has run long enough.
  std::optional<std::shared_ptr<Attempt>> next_rival(bool& later) {
    const int last_rival = question_.last_feasible ? question_.last_period - 1 : question_.last_period;
    for (int period = lowest_open(); period < next_period_ && period < first_sat_ && period <= last_rival; ++period) {
      if (state(period) != PeriodState::Open) continue;
      const double waited = own_seconds(period);
      for (int configuration : rivals_) {
        if (tried_.count({period, configuration})) continue;
        if (waited >= kRivalDelaySeconds) return start(period, configuration);
        later = true;
      }
    }
    return std::nullopt;
  }

  // How long the own configuration has been on `period` (no limit when it
  // is not running: then nothing is lost by a rival).
  double own_seconds(int period) const {
    for (const auto& attempt : running_)
      if (attempt->period == period && attempt->configuration == own_configuration_) {
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - attempt->begin;
        return spent.count();
      }
    return kRivalDelaySeconds;
  }

  std::shared_ptr<Attempt> start(int period, int configuration) {
    auto attempt = std::make_shared<Attempt>();
    attempt->period = period;
    attempt->configuration = configuration;
    tried_.insert({period, configuration});
    running_.push_back(attempt);
    return attempt;
  }

  void run(const std::shared_ptr<Attempt>& attempt) {
    const Deadline deadline = deadline_.with_sibling_stop(attempt->stop.get());
    BackendSettings settings = options_.backend_settings;
    settings.configuration = attempt->configuration;
    const auto begin = std::chrono::steady_clock::now();
    std::unique_ptr<Backend> backend = make_backend(options_.backend, settings);
    ModuloEncoding encoding = encode_modulo(*backend, *question_.window, options_.memory_limit, attempt->period,
                                            attempt->period, question_.max_in_flight, question_.rules, deadline);
    Answer answer = Answer::Unknown;
    if (encoding.complete) answer = backend->solve({period_assumption(encoding, attempt->period)}, deadline);
    const double seconds = seconds_since(begin);
    record(*attempt, answer, seconds);

    std::lock_guard<std::mutex> lock(mutex_);
    changed_.notify_all();
    running_.erase(std::remove(running_.begin(), running_.end(), attempt), running_.end());
    if (answer == Answer::Unknown) {
      if (deadline_.expired()) release_in_background(std::move(backend));  // past the limit: not ours to wait for
      // Stopped as moot, or the deadline / encoding budget: the latter ends the race.
      if (!attempt->stop->load() && !answered()) given_up_ = true;
      if (given_up_) stop_all();
      return;
    }
    if (answer == Answer::Unsat) {
      states_[attempt->period] = PeriodState::Unsat;
      stop_where([&](const Attempt& other) { return other.period == attempt->period; });
    } else {
      states_[attempt->period] = PeriodState::Sat;
      first_sat_ = std::min(first_sat_, attempt->period);
      if (attempt->configuration == own_configuration_ && (!solution_ || attempt->period < solution_->period))
        solution_ = SatisfiedPeriod{attempt->period, std::move(backend), std::move(encoding)};
      // Larger periods are moot; so are rivals on this one (the schedule
      // comes from the own configuration, which keeps running).
      stop_where([&](const Attempt& other) {
        return other.period > attempt->period ||
               (other.period == attempt->period && other.configuration != own_configuration_);
      });
    }
    if (answered()) stop_all();
  }

  template <class Moot>
  void stop_where(Moot moot) {
    for (auto& other : running_)
      if (moot(*other)) other->stop->store(true);
  }
  void stop_all() {
    stop_where([](const Attempt&) { return true; });
  }

  void record(const Attempt& attempt, Answer answer, double seconds) {
    const bool own = attempt.configuration == own_configuration_;
    std::ostringstream what;
    what << question_.label << "period " << attempt.period;
    if (!own) what << " ('" << configuration_name(attempt.configuration) << "' configuration)";
    if (answer == Answer::Unknown && attempt.stop->load()) what << " (stopped: moot)";
    std::ostringstream line;
    line << "repetend: " << what.str() << ": " << answer_name(answer) << " (" << seconds << " s)";
    if (options_.progress) options_.progress(line.str());
    std::lock_guard<std::mutex> lock(mutex_);
    calls_[{attempt.period, attempt.configuration}] = SolverCall{what.str(), answer, seconds};
  }

  const PeriodRaceQuestion& question_;
  const SearchOptions& options_;
  const Deadline deadline_;
  int own_configuration_ = 0;
  std::vector<int> rivals_;

  std::mutex mutex_;
  std::condition_variable changed_;  // an attempt ended: a waiting thread looks again
  int next_period_;
  int first_sat_ = 1 << 30;
  bool given_up_ = false;
  std::map<int, PeriodState> states_;
  std::set<std::pair<int, int>> tried_;
  std::vector<std::shared_ptr<Attempt>> running_;
  std::optional<SatisfiedPeriod> solution_;
  std::exception_ptr failure_;
  std::map<std::pair<int, int>, SolverCall> calls_;
};

}  // namespace

int resolve_threads(int requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

PeriodRaceOutcome race_periods(const PeriodRaceQuestion& question, const SearchOptions& options,
                               const Deadline& deadline, std::vector<SolverCall>& calls) {
  Race race(question, options, deadline);
  std::vector<std::thread> helpers;
  for (int t = 1; t < question.threads; ++t) helpers.emplace_back([&race] { race.work(); });
  race.work();
  for (std::thread& helper : helpers) helper.join();
  return race.outcome(calls);
}

}  // namespace tessel
