// Short learned clauses shared between the solvers of one period (race.hpp,
// SearchOptions::share_clauses, CaDiCaL, two threads or more): every
// attempt on a period encodes the same question with the same variables, so
// a clause one learns holds for all. Exchanged between slices of a solve.
#include "solver/period/race.hpp"

namespace tessel::period_race {

// The question whole; with sharing on, in slices, the clauses exchanged
// with the period's other solvers between them.
Answer Race::solve_sharing(const Attempt& attempt, Backend& backend, const std::vector<Lit>& assumptions,
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
void Race::exchange(const Attempt& attempt, Backend& backend) {
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

}  // namespace tessel::period_race
