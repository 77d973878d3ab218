// The race that decides one window's periods (scheduler.hpp says what it
// promises): the table of periods and the attempts on them, behind one
// mutex. Internal to solver/period/; one class whose work is written in
// files of one idea each:
//   race.cpp          the table: what an answer settles, what is recorded;
//   race_handout.cpp  which attempt a free thread takes (periods, helpers
//                     of a program, rival configurations);
//   race_run.cpp      one attempt run: its solver (or the program) to an answer;
//   race_cubes.cpp    a hard period split into cubes shared by the threads;
//   race_sharing.cpp  short learned clauses exchanged between a period's solvers.
// Solvers are never shared: each attempt builds its own backend and encoding
// (of one period, or of a chunk of them with periods_per_solver, which one
// thread carries from a refuted period to the next), so the only thing
// threads exchange is answers, stop flags and (sharing on) learned clauses.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sat/backend.hpp"
#include "sat/cube_split.hpp"
#include "sat/deadline.hpp"
#include "solver/period/modulo_decider.hpp"
#include "solver/period/periods_question.hpp"
#include "solver/types/search_result.hpp"

namespace tessel::period_race {

enum class PeriodState { Open, Unsat, Sat };

// How often a period's own solver looks whether it should be split: the
// developer knob split_check_seconds (solver/knobs/tuning.hpp).

// An attempt the program took over after its solver's head start
// (PeriodsQuestion::program_reach), told apart from CaDiCaL's
// configurations 0-2. A tag, not an effort: no knob.
constexpr int kProgramAfterSolver = 3;

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
  Race(const PeriodsQuestion& question, const SearchOptions& options, const Deadline& deadline);
  // A failure (an encoding past its budget, a bug caught by a check) stops
  // the race and is rethrown by the calling thread.
  void work();
  // Stops every running attempt and hands out no more (the caller cannot
  // go on: out of memory starting a helper).
  void give_up();
  PeriodsOutcome outcome(std::vector<SolverCall>& calls);

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

  bool periods_left() const { return next_period_ <= question_.last_period && next_period_ < first_sat_; }

  // race.cpp
  std::optional<SatisfiedPeriod> best_unproven();
  void settle(const std::shared_ptr<Attempt>& attempt, Answer answer, std::unique_ptr<Backend>& backend,
              ModuloEncoding& encoding);
  void refute_up_to(int period);
  void record(const Attempt& attempt, Answer answer, double seconds, const std::string& how = "",
              const std::string& detail = "");
  void record_cubes(const CubeJob& job, Answer answer);
  template <class Moot>
  void stop_where(Moot&& moot) {
    for (auto& other : running_)
      if (moot(*other)) other->stop->store(true);
  }
  void stop_all() {
    stop_where([](const Attempt&) { return true; });
  }


  // race_handout.cpp
  std::optional<std::shared_ptr<Attempt>> next_attempt();
  std::optional<std::shared_ptr<Attempt>> next_helper();
  std::optional<std::shared_ptr<Attempt>> next_rival(bool& later);
  double own_seconds(int period) const;
  std::shared_ptr<Attempt> start(int period, int configuration);

  // race_run.cpp
  void run(const std::shared_ptr<Attempt>& attempt);
  ModuloSolver solver_for(const Attempt& attempt, const Deadline& deadline);
  void run_program(const std::shared_ptr<Attempt>& attempt, const Deadline& deadline);

  // race_cubes.cpp
  Answer decide(Attempt& attempt, Backend& backend, const ModuloEncoding& encoding, const Deadline& deadline);
  template <class MaySplit>
  Answer solve_or_split(const Attempt& attempt, Backend& backend, const std::vector<Lit>& cube,
                        const Deadline& deadline, MaySplit may_split, bool& split);
  bool claim_split(int period);
  bool claim_resplit(int period);
  std::optional<size_t> next_cube(const Attempt& attempt, const Deadline& deadline);
  void conquer(const std::shared_ptr<Attempt>& attempt, std::unique_ptr<Backend>& backend, ModuloEncoding& encoding,
               const Deadline& deadline);

  // race_sharing.cpp
  Answer solve_sharing(const Attempt& attempt, Backend& backend, const std::vector<Lit>& assumptions,
                       const Deadline& deadline);
  void exchange(const Attempt& attempt, Backend& backend);

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

}  // namespace tessel::period_race
