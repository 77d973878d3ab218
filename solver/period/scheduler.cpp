// The period scheduler's entry (see the header): the race of race.hpp run
// on the threads asked for, this one included. One thread runs the same
// loop with no rivals, cubes or shared clauses.
#include "solver/period/scheduler.hpp"

#include <algorithm>
#include <exception>
#include <new>
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
  // A thread the system refuses (a process cap) is not an error: the
  // periods are decided on the threads that started. Out of memory is
  // (tools/memory_reserve.hpp), but only once the helpers that started are
  // stopped and joined: unwinding past a running std::thread ends the
  // process. One thread is this one, with no helper.
  helpers.reserve(question.threads > 1 ? question.threads - 1 : 0);
  std::exception_ptr out_of_memory;
  for (int t = 1; t < question.threads && !out_of_memory; ++t) {
    try {
      helpers.emplace_back([&race] { race.work(); });
    } catch (const std::system_error&) {
      break;
    } catch (const std::bad_alloc&) {
      out_of_memory = std::current_exception();
    }
  }
  if (!out_of_memory) race.work();
  else race.give_up();
  for (std::thread& helper : helpers) helper.join();
  if (out_of_memory) std::rethrow_exception(out_of_memory);
  return race.outcome(calls);
}

}  // namespace tessel
