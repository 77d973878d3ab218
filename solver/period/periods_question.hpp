// What the period scheduler (scheduler.hpp) is asked for one window and what
// it answers: the periods and who decides them (PeriodsQuestion), the
// answer (PeriodsOutcome) with the solver or the program's starts behind it.
// A header apart from the scheduler so that the race that runs it
// (race.hpp) and the scheduler's entry, which starts the race, both read it
// without needing each other.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/period/decider.hpp"

namespace tessel {

// The solver that answered Sat at the found period, kept for the latency
// search that follows on it.
struct SatisfiedPeriod {
  int period = 0;
  std::unique_ptr<Backend> backend;
  ModuloEncoding encoding;
};

// A period a program found satisfiable: one micro-batch's starts.
struct ProgramPeriod {
  int period = 0;
  std::vector<int> starts;
};

struct PeriodsOutcome {
  // With gave_up, the smallest period found satisfiable before the run
  // stopped, if any (the periods below it not all refuted): by a solver
  // (`found`) or by the program (`by_program`), whichever is smaller.
  std::optional<SatisfiedPeriod> found;
  std::optional<ProgramPeriod> by_program;
  int proven_lower_bound = 0;  // every period below it refuted
  bool gave_up = false;        // the deadline (or an encoding budget) struck first
};

struct PeriodsQuestion {
  const Placement* window = nullptr;
  int first_period = 0;
  int last_period = 0;
  int max_in_flight = 0;
  ModuloRules rules;
  // The last period is known satisfiable (a constructed window has it): no
  // rival configuration is raced there, as only a refutation could win.
  bool last_feasible = false;
  std::string label;  // "k=2 " for progress lines
  int threads = 2;  // 1: the same scheduler, with no rivals, cubes or shared clauses
  // Periods first_period .. program_last are decided by the program (a
  // decider whose estimate is exact, program_decider.hpp) instead of a
  // solver: exactly, so no rival races them and none is split into cubes.
  // They are handed out in period order like the others, and a free thread
  // first helps a program whose work is still open (PeriodWork::open: a
  // chain's phase choices), so that a period is decided on every thread
  // before the next starts: a refutation settles the smaller periods, whose
  // programs would otherwise run beside it for nothing. A program whose
  // work takes one thread (crossed chains) has the solver's periods beside it.
  const PeriodDecider* program = nullptr;
  int program_last = 0;
  // Periods program_last + 1 .. program_reach are handed out like the
  // others, but their solver gets head_start_seconds and, if it has not
  // answered, the same thread asks the program (no rival, no cubes there):
  // the program costs more on them (up to tens of seconds a period by its
  // estimate) but decides exactly where the solver may take minutes (mllm,
  // 64 devices, memory 16: periods 18-20 took the solver 41-76 s each, the
  // program 1.6-4.4 s). The program's work is open to free threads during
  // the head start.
  int program_reach = 0;
  double head_start_seconds = 1;
  // Consecutive periods on one solver (SearchOptions::periods_per_solver):
  // a refuted period's solver goes on to the next period it holds. Only on
  // one thread (several threads decide periods side by side).
  int periods_per_solver = 1;
};

}  // namespace tessel
