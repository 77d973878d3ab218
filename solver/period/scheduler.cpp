// The period scheduler's entry (see the header): the race of race.hpp run
// on the threads asked for, this one included. One thread runs the same
// loop with no rivals, cubes or shared clauses.
#include "solver/period/scheduler.hpp"

#include <algorithm>
#include <system_error>
#include <thread>

#include "solver/period/race.hpp"

namespace tessel {

int resolve_threads(int requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

PeriodsOutcome schedule_periods(const PeriodsQuestion& question, const SearchOptions& options,
                                const Deadline& deadline, std::vector<SolverCall>& calls) {
  period_race::Race race(question, options, deadline);
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
