// The period scheduler (see the header). One mutex guards the table of periods;
// solvers are never shared: each attempt builds its own backend and encoding
// (of one period, or of a chunk of them with periods_per_solver, which one
// thread carries from a refuted period to the next), so the only thing
// threads exchange is answers and stop flags. One thread runs this same loop
// with no rivals, cubes or shared clauses.
//
// A rival configuration joins a period only once the period's own solver has
// spent rival_after_seconds (2 s by default) on it. Most periods are decided
// in far less, and a rival there is pure cost: a second encoding built and
// solved on a core the descent needs (kshape 64 devices memory 32, periods
// 6-8 each decided in a few seconds, ran 0.75x as fast on 2 threads as on 1
// while rivals were started at once). A free thread waits for that moment
// instead.
//
// With cubes on (sat/cube_split.hpp, CaDiCaL), a period's own solver,
// once it has had cube_after_seconds and no other period is left to hand
// out, splits its question into cubes, and every thread joins in on them:
// the rivals on that period are stopped then, and none starts on a period
// once it is split. The own solver checks for that moment between slices of
// its search (an interrupted CaDiCaL call resumes with all it learned). A
// split after 20 s of learning beat one after 2 s on the hard list, and the
// rivals use the cores until then (docs/algorithms.md, "Threads").
//
// A refuted period settles every smaller one (a repetend of period P
// stretches into one of P + 1, solver/modulo/period_stretch.hpp): their solvers
// are stopped and they are recorded as implied. Tried and left out: betting
// on the period just below the smallest one known satisfiable (splitting it
// into cubes at once and taking the threads off the smaller periods).
// nnshape, 32 devices, memory 24 (12 constructed): period 11 refuted at
// 116 s with the split at 2 s and 93 s with it at 20 s, against 75 s the
// usual way, where 11's own solver had 52 s of learning before its split.
#include "solver/period/scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <set>
#include <system_error>
#include <mutex>
#include <sstream>
#include <thread>

#include "sat/cube_split.hpp"
#include "solver/period/modulo_decider.hpp"

namespace tessel {
namespace {

enum class PeriodState { Open, Unsat, Sat };

// How often a period's own solver looks whether it should be split: the
// developer knob split_check_seconds (solver/knobs/tuning.hpp).

// An attempt the program took over after its solver's head start
// (PeriodsQuestion::program_reach), told apart from CaDiCaL's
// configurations 0-2. A tag, not an effort: no knob.
constexpr int kProgramAfterSolver = 3;

// "1 s": a head start as the report's calls name it.
std::string seconds_text(double seconds) {
  std::ostringstream text;
  text << seconds << " s";
  return text.str();
}

const char* configuration_name(int configuration) {
  return configuration == 1 ? "sat" : configuration == 2 ? "unsat" : "default";
}

// One solver deciding one period under one configuration.
struct Attempt {
  int id = 0;  // tells its clauses apart in the period's pool
  int period = 0;
  int configuration = 0;
  bool cube_worker = false;  // joins the period's cubes (else decides it whole)
  bool split = false;        // its question was split into cubes: it works on them
  std::atomic<bool> yielded{false};  // a rival stopped because its period was split into cubes
  std::unique_ptr<StopFlag> stop = std::make_unique<StopFlag>(false);
  std::chrono::steady_clock::time_point begin = std::chrono::steady_clock::now();
  std::shared_ptr<PeriodWork> work;    // a program deciding the period: others may help
  std::shared_ptr<Attempt> helped;     // a helper's: the attempt whose program it helps
  int helpers = 0;                     // threads that joined its program
};

// The short clauses the solvers of one period learned, for the others
// (Backend::take_learned / add_learned): every attempt on a period encodes
// the same question with the same variables, so a clause one learns holds
// for all. Each reader keeps how far it has read.
struct ClausePool {
  std::vector<std::pair<int, std::vector<int>>> clauses;  // (attempt id, clause)
  std::map<int, size_t> read;                             // attempt id -> clauses read
};

class Race {
 public:
  Race(const PeriodsQuestion& question, const SearchOptions& options, const Deadline& deadline)
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

  PeriodsOutcome outcome(std::vector<SolverCall>& calls) {
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
    return low > question_.last_period || found_period() == low;
  }
  // The smallest period with a repetend in hand: from the own
  // configuration's solver or the program.
  int found_period() const {
    int period = 1 << 30;
    if (solution_) period = solution_->period;
    if (program_found_) period = std::min(period, program_found_->period);
    return period;
  }
  bool by_program(int period) const { return question_.program && period <= question_.program_last; }
  bool solver_head_start(int period) const {
    return question_.program && period > question_.program_last && period <= question_.program_reach;
  }
  bool program_decides(const Attempt& attempt) const {
    return by_program(attempt.period) || attempt.configuration == kProgramAfterSolver;
  }
  bool finished() const { return answered() || given_up_ || deadline_.expired(); }

  // Given up below a period found satisfiable: the smallest such period's
  // solver (its own configuration's, else a rival's), the best repetend in
  // hand though not proven minimal. An anytime answer: a time-out keeps it
  // rather than falling back to the construction.
  std::optional<SatisfiedPeriod> best_unproven() {
    if (spare_ && (!solution_ || spare_->period < solution_->period)) return std::move(spare_);
    return std::move(solution_);
  }

  // The next attempt for a free thread; waits while the only ones left are
  // rivals whose period's own solver has not yet had rival_after_seconds.
  std::optional<std::shared_ptr<Attempt>> next_attempt() {
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
  std::optional<std::shared_ptr<Attempt>> next_helper() {
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

  bool periods_left() const { return next_period_ <= question_.last_period && next_period_ < first_sat_; }

  // Another configuration on the lowest open period not yet raced. A rival
  // only wins by a refutation: none on a period known satisfiable. `later`:
  // one is due once its period's own solver has run long enough.
  std::optional<std::shared_ptr<Attempt>> next_rival(bool& later) {
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
  double own_seconds(int period) const {
    for (const auto& attempt : running_)
      if (attempt->period == period && attempt->configuration == own_configuration_) {
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - attempt->begin;
        return spent.count();
      }
    return options_.rival_after_seconds;
  }

  std::shared_ptr<Attempt> start(int period, int configuration) {
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

  void run(const std::shared_ptr<Attempt>& attempt) {
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
  ModuloSolver solver_for(const Attempt& attempt, const Deadline& deadline) {
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
  void run_program(const std::shared_ptr<Attempt>& attempt, const Deadline& deadline) {
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

  // The period's question whole, or (cubes on, own configuration) in slices
  // until it is answered or split: then attempt.split is set.
  Answer decide(Attempt& attempt, Backend& backend, const ModuloEncoding& encoding, const Deadline& deadline) {
    const std::vector<Lit> period{period_assumption(encoding, attempt.period)};
    if (!cubing_ || attempt.configuration != own_configuration_) return solve_sharing(attempt, backend, period, deadline);
    auto may_split = [&] { return claim_split(attempt.period); };
    return solve_or_split(attempt, backend, period, deadline, may_split, attempt.split);
  }

  // The question whole; with sharing on, in slices, the clauses exchanged
  // with the period's other solvers between them.
  Answer solve_sharing(const Attempt& attempt, Backend& backend, const std::vector<Lit>& assumptions,
                       const Deadline& deadline) {
    if (!sharing_) return backend.solve(assumptions, deadline);
    for (;;) {
      const Answer answer = backend.solve(assumptions, deadline.within(options_.tuning.split_check_seconds));
      if (answer != Answer::Unknown || deadline.expired()) return answer;
      exchange(attempt, backend);
    }
  }

  // This solver's new short clauses into the period's pool, the others' new
  // ones into this solver.
  void exchange(const Attempt& attempt, Backend& backend) {
    std::vector<std::vector<int>> mine = backend.take_learned();
    std::vector<std::vector<int>> theirs;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ClausePool& pool = pools_[attempt.period];
      for (std::vector<int>& clause : mine) pool.clauses.push_back({attempt.id, std::move(clause)});
      size_t& read = pool.read[attempt.id];
      for (; read < pool.clauses.size(); ++read)
        if (pool.clauses[read].first != attempt.id) theirs.push_back(pool.clauses[read].second);
    }
    backend.add_learned(theirs);
  }

  // `cube` on this solver in slices (the first cube_after_seconds long);
  // between slices, when may_split() allows, the solver's lookahead splits
  // it and the sub-cubes go to the period's queue (`split` set). An
  // interrupted CaDiCaL call resumes with all it learned.
  template <class MaySplit>
  Answer solve_or_split(const Attempt& attempt, Backend& backend, const std::vector<Lit>& cube,
                        const Deadline& deadline, MaySplit may_split, bool& split) {
    const int period = attempt.period;
    double slice = sharing_ ? options_.tuning.split_check_seconds : options_.cubes.after_seconds;
    const auto begin = std::chrono::steady_clock::now();
    bool splittable = true;
    for (;;) {
      const Answer answer = backend.solve(cube, deadline.within(slice));
      if (answer != Answer::Unknown || deadline.expired()) return answer;
      slice = options_.tuning.split_check_seconds;
      if (sharing_) exchange(attempt, backend);
      if (seconds_since(begin) < options_.cubes.after_seconds) continue;
      if (!splittable || !may_split()) continue;
      const CubeSplit cubes =
          backend.split_into_cubes(options_.cubes.depth, deadline.within(options_.cubes.split_seconds), cube);
      std::lock_guard<std::mutex> lock(mutex_);
      // A backend that does not split, or a split that adds no literal,
      // leaves the job as it was: the cube stays whole on this solver (no
      // worker joins a job never made ready).
      splittable = cubes.offered && !(cubes.cubes.size() == 1 && cubes.cubes[0].size() <= cube.size());
      CubeJob& job = jobs_[period];
      if (!splittable && cubes.answer != Answer::Unsat) {
        if (!job.ready) {  // the period's first split failed: it stays whole, and rivals may race it
          jobs_.erase(period);
          unsplittable_.insert(period);
        }
        continue;
      }
      job.cubes.insert(job.cubes.end(), cubes.cubes.begin(), cubes.cubes.end());
      job.ready = true;
      stop_where([&](Attempt& other) {  // their threads join the cubes
        if (other.period != period || other.configuration == own_configuration_) return false;
        other.yielded = true;
        return true;
      });
      changed_.notify_all();
      if (cubes.answer == Answer::Unsat) return Answer::Unsat;
      split = true;
      std::ostringstream line;
      line << "repetend: " << question_.label << "period " << period << ": split into " << cubes.cubes.size()
           << " cubes (" << job.cubes.size() - job.next << " open)";
      if (options_.progress) options_.progress(line.str());
      return Answer::Unknown;
    }
  }

  // Split `period` now? Only the lowest open period, when no other period is
  // left to hand out, and once.
  bool claim_split(int period) {
    std::lock_guard<std::mutex> lock(mutex_);
    // Not once a rival found the period satisfiable: its own solver then
    // finishes it whole, for the schedule (settle()).
    if (!cubing_ || periods_left() || lowest_open() != period || jobs_.count(period) ||
        unsplittable_.count(period) || state(period) != PeriodState::Open)
      return false;
    if (question_.last_feasible && period == question_.last_period) return false;
    jobs_[period].period = period;
    return true;
  }

  // Split a cube further? When a thread waits and the queue is empty: the
  // cubes left are the long ones, and splitting one shares it.
  bool claim_resplit(int period) {
    std::lock_guard<std::mutex> lock(mutex_);
    return idle_ > 0 && !cubes_left(jobs_[period]) && state(period) == PeriodState::Open;
  }

  // The next cube of the attempt's period; while the queue is empty but
  // other threads are still on cubes (which they may split for this one),
  // waits (keeping this solver and all it learned). None: nothing left.
  std::optional<size_t> next_cube(const Attempt& attempt, const Deadline& deadline) {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      if (state(attempt.period) != PeriodState::Open || deadline.expired()) return std::nullopt;
      if (std::optional<size_t> taken = take_cube(jobs_[attempt.period])) return taken;
      const bool others = std::any_of(running_.begin(), running_.end(), [&](const auto& other) {
        return other.get() != &attempt && other->period == attempt.period;
      });
      if (!others) return std::nullopt;
      ++idle_;
      changed_.wait_for(lock, std::chrono::milliseconds(50));
      --idle_;
    }
  }

  // Cubes of the attempt's period, one after the other on this solver,
  // until none is left or the period is decided.
  void conquer(const std::shared_ptr<Attempt>& attempt, std::unique_ptr<Backend>& backend, ModuloEncoding& encoding,
               const Deadline& deadline) {
    const int period = attempt->period;
    for (;;) {
      const std::optional<size_t> index = next_cube(*attempt, deadline);
      if (!index) break;
      std::vector<Lit> cube;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        cube = jobs_[period].cubes[*index];
      }
      cube.push_back(period_assumption(encoding, period));
      const auto begin = std::chrono::steady_clock::now();
      bool split = false;
      const double resplit = options_.cubes.resplit_seconds;
      auto may_split = [&] { return claim_resplit(period) || (resplit > 0 && seconds_since(begin) >= resplit); };
      const Answer answer = solve_or_split(*attempt, *backend, cube, deadline, may_split, split);
      std::ostringstream line;
      line << "repetend: " << question_.label << "period " << period << ": cube " << *index + 1 << ": "
           << (split ? "split" : answer_name(answer)) << " (" << seconds_since(begin) << " s)";
      if (answer == Answer::Unknown && attempt->stop->load()) line << " (stopped: moot)";
      if (options_.progress) options_.progress(line.str());

      std::lock_guard<std::mutex> lock(mutex_);
      changed_.notify_all();
      CubeJob& job = jobs_[period];
      // A refuted cube, or one replaced by its sub-cubes (which cover it),
      // decides nothing until it is the last one resolved; the sub-cubes
      // may all be refuted by other threads before this line counts their
      // parent, and then the parent's split is what completes the refutation.
      Answer period_answer = answer;
      if (answer == Answer::Unsat || split) {
        ++job.resolved;
        if (!all_refuted(job)) continue;
        period_answer = Answer::Unsat;
      }
      if (period_answer != Answer::Unknown) record_cubes(job, period_answer);
      running_.erase(std::remove(running_.begin(), running_.end(), attempt), running_.end());
      settle(attempt, period_answer, backend, encoding);
      return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    changed_.notify_all();
    running_.erase(std::remove(running_.begin(), running_.end(), attempt), running_.end());
  }

  void record_cubes(const CubeJob& job, Answer answer) {
    std::ostringstream what;
    what << question_.label << "period " << job.period << " (" << job.cubes.size() << " cubes)";
    calls_[{job.period, -1}] = SolverCall{what.str(), answer, seconds_since(job.begin)};
  }

  // What an answer of `attempt` means for the race (the mutex held).
  void settle(const std::shared_ptr<Attempt>& attempt, Answer answer, std::unique_ptr<Backend>& backend,
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
  void refute_up_to(int period) {
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

  template <class Moot>
  void stop_where(Moot&& moot) {
    for (auto& other : running_)
      if (moot(*other)) other->stop->store(true);
  }
  void stop_all() {
    stop_where([](const Attempt&) { return true; });
  }

  // `how`: the program's name, for a period it decided; `detail`: what it
  // tried, for the progress line only (the report's calls are the same on
  // any number of threads).
  void record(const Attempt& attempt, Answer answer, double seconds, const std::string& how = "",
              const std::string& detail = "") {
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

  const PeriodsQuestion& question_;
  const SearchOptions& options_;
  const Deadline deadline_;
  const ModuloSatDecider modulo_;
  int own_configuration_ = 0;
  std::vector<int> rivals_;

  bool cubing_ = false;  // set once, before any thread starts
  bool sharing_ = false;  // likewise: short learned clauses shared per period
  int idle_ = 0;         // threads waiting for work

  std::mutex mutex_;
  std::condition_variable changed_;  // an attempt ended: a waiting thread looks again
  int next_period_;
  int first_sat_ = 1 << 30;
  bool given_up_ = false;
  std::map<int, PeriodState> states_;
  std::map<int, CubeJob> jobs_;  // periods split, or claimed for a split being made
  std::set<int> unsplittable_;    // periods whose split added no literal
  std::map<int, ClausePool> pools_;
  int next_id_ = 0;
  std::set<std::pair<int, int>> tried_;
  std::vector<std::shared_ptr<Attempt>> running_;
  std::optional<SatisfiedPeriod> solution_;
  std::optional<SatisfiedPeriod> spare_;  // a rival's model, used only if the race gives up before solution_
  std::optional<ProgramPeriod> program_found_;  // the smallest period the program found satisfiable
  std::exception_ptr failure_;
  ModuloSolver carried_;  // a refuted period's solver holding the next periods (periods_per_solver)
  std::map<std::pair<int, int>, SolverCall> calls_;
};

}  // namespace

int resolve_threads(int requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

PeriodsOutcome schedule_periods(const PeriodsQuestion& question, const SearchOptions& options,
                                const Deadline& deadline, std::vector<SolverCall>& calls) {
  Race race(question, options, deadline);
  std::vector<std::thread> helpers;
  // A thread the system refuses (a process or memory cap) is not an error:
  // the periods are decided on the threads that started. One thread is
  // this one, with no helper.
  for (int t = 1; t < question.threads; ++t) {
    try {
      helpers.emplace_back([&race] { race.work(); });
    } catch (const std::system_error&) {
      break;
    }
  }
  race.work();
  for (std::thread& helper : helpers) helper.join();
  return race.outcome(calls);
}

}  // namespace tessel
