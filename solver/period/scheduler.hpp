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

#include <vector>

#include "sat/deadline.hpp"
#include "solver/period/periods_question.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

// Threads for a request: `requested`, or every core for 0. A request above
// kMaxThreads is refused by solve() (exit 2): each thread holds a solver of
// its own, and tens of thousands of them fail to start (std::system_error)
// or exhaust memory long before they could help. A safety limit, not a
// knob.
constexpr int kMaxThreads = 256;
int resolve_threads(int requested);

// Calls are appended to `calls` in period order.
PeriodsOutcome schedule_periods(const PeriodsQuestion& question, const SearchOptions& options,
                                const Deadline& deadline, std::vector<SolverCall>& calls);

}  // namespace tessel
