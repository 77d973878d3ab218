// A hard period split into cubes shared by the race's threads (race.hpp,
// sat/cube_split.hpp, CaDiCaL). A period's own solver, once it has had
// cube_after_seconds and no other period is left to hand out, splits its
// question into cubes, and every thread joins in on them: the rivals on that
// period are stopped then, and none starts on a period once it is split. The
// own solver checks for that moment between slices of its search (an
// interrupted CaDiCaL call resumes with all it learned). A split after 20 s
// of learning beat one after 2 s on the hard list, and the rivals use the
// cores until then (docs/algorithms.md, "Threads").
//
// Tried and left out: betting on the period just below the smallest one
// known satisfiable (splitting it into cubes at once and taking the threads
// off the smaller periods). nnshape, 32 devices, memory 24 (12 constructed):
// period 11 refuted at 116 s with the split at 2 s and 93 s with it at 20 s,
// against 75 s the usual way, where 11's own solver had 52 s of learning
// before its split.
#include "solver/period/race.hpp"

#include <algorithm>
#include <sstream>

namespace tessel::period_race {

// The period's question whole, or (cubes on, own configuration) in slices
// until it is answered or split: then attempt.split is set.
Answer Race::decide(Attempt& attempt, Backend& backend, const ModuloEncoding& encoding, const Deadline& deadline) {
  const std::vector<Lit> period{period_assumption(encoding, attempt.period)};
  if (!cubing_ || attempt.configuration != own_configuration_) return solve_sharing(attempt, backend, period, deadline);
  auto may_split = [&] { return claim_split(attempt.period); };
  return solve_or_split(attempt, backend, period, deadline, may_split, attempt.split);
}

// `cube` on this solver in slices (the first cube_after_seconds long);
// between slices, when may_split() allows, the solver's lookahead splits
// it and the sub-cubes go to the period's queue (`split` set). An
// interrupted CaDiCaL call resumes with all it learned.
template <class MaySplit>
Answer Race::solve_or_split(const Attempt& attempt, Backend& backend, const std::vector<Lit>& cube,
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
bool Race::claim_split(int period) {
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
bool Race::claim_resplit(int period) {
  std::lock_guard<std::mutex> lock(mutex_);
  return idle_ > 0 && !cubes_left(jobs_[period]) && state(period) == PeriodState::Open;
}

// The next cube of the attempt's period; while the queue is empty but
// other threads are still on cubes (which they may split for this one),
// waits (keeping this solver and all it learned). None: nothing left.
std::optional<size_t> Race::next_cube(const Attempt& attempt, const Deadline& deadline) {
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
void Race::conquer(const std::shared_ptr<Attempt>& attempt, std::unique_ptr<Backend>& backend,
                   ModuloEncoding& encoding, const Deadline& deadline) {
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

}  // namespace tessel::period_race
