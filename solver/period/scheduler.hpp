// The period scheduler (docs/architecture.md, "The period deciders"): periods
// first .. last of one window are handed to deciders (solver/period/decider.hpp)
// on 1..T threads by the same code; one thread is the case where no other
// thread takes a period, never a second path. Periods are handed out in
// order: those a program affords (program_last) to the program, the rest to
// the modulo encoding's solver (modulo_decider.hpp), with a head start
// before the program on those the program still reaches (program_reach).
// A free thread first helps a program whose work is still open (a chain's
// phase choices), then takes the next period, and with nothing left races
// another CaDiCaL configuration on the lowest undecided period (a
// portfolio: the first answer wins, the others are stopped).
//
// Answers are taken in period order, so that what is reported does not
// depend on timing: the answer is the smallest satisfiable period with every
// smaller one refuted, and its schedule comes from the solver of the
// search's own configuration at that period, whichever configuration
// answered first. Siblings stop as soon as an answer makes them moot (a
// satisfiable period stops every larger one; a refutation stops the other
// configurations on its period and every smaller period, which it settles:
// solver/modulo/period_stretch.hpp). With cubes on (SearchOptions::cubes,
// CaDiCaL, two threads or more), a last hard period is raced by rival
// configurations until it is split into cubes shared by the threads
// (sat/cube_split.hpp): the period and its proven bound are the same, only
// a schedule found in a cube (or by a rival once the period was split) may
// differ from the single-threaded one. A run that gives up (deadline,
// interrupt) still hands back the smallest period found satisfiable, the
// best in hand.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/period/decider.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Threads for a request: `requested`, or every core for 0. A request above
// kMaxThreads is refused by solve() (exit 2): each thread holds a solver of
// its own, and tens of thousands of them fail to start (std::system_error)
// or exhaust memory long before they could help. A safety limit, not a
// knob.
constexpr int kMaxThreads = 256;
int resolve_threads(int requested);

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

// Calls are appended to `calls` in period order.
PeriodsOutcome schedule_periods(const PeriodsQuestion& question, const SearchOptions& options,
                                const Deadline& deadline, std::vector<SolverCall>& calls);

}  // namespace tessel
