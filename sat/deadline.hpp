// When a search must stop: a wall-clock time (or none) and a stop flag that
// an interrupt (Ctrl-C, SIGTERM, a sibling thread that made the work moot)
// raises. Every solver call below a search takes one, so that the SAT
// solver's terminator and Z3's interrupt see both, and the command can
// answer "gave up" with exit 3 and the best schedule so far.
//
// A deadline derived for a sub-task (`within`) keeps the stop flag: an
// interrupt reaches every budget cut from the search's own deadline. A
// concurrent sub-task adds its own flag (`with_sibling_stop`), raised when a
// sibling's answer makes its work moot, without touching the search's.
//
// An improvement phase's deadline may also carry a `Stall`: the phase gives
// back the rest of its time once a stretch passes without a gain (the
// developer knob improve_stall_seconds, solver/makespan/portfolio/), or at
// once when its own progress says it stopped finding (steps or windows
// without a gain: `give_up`, raised by the phase). Like the flags it is
// shared by pointer, so every deadline cut from the phase's (a question's, a
// window's, a solver's terminator) sees each gain and the give-up at once.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>

namespace tessel {

// Raised once, never lowered: "stop what you are doing and report".
using StopFlag = std::atomic<bool>;

// A stretch without a gain: the deadline carrying it ends `seconds` after
// the last gain (or the start; 0 or less: no stretch in seconds), or once
// the phase gave up by its own measure of progress, which is the same on a
// loaded machine as on an idle one (a wall-time stretch is not).
// `gained` and `give_up` may be called from any thread.
struct Stall {
  using Clock = std::chrono::steady_clock;
  explicit Stall(double stretch) : seconds(stretch) { gained(); }
  double seconds;
  std::atomic<Clock::rep> last_gain{0};
  // When the phase gave up (the largest count: not yet). Raised once, never
  // lowered, by the phase holding the deadline, which sees the stall as
  // const, like a stop flag it may raise but not lower.
  static constexpr Clock::rep kNotGivenUp = std::numeric_limits<Clock::rep>::max();
  mutable std::atomic<Clock::rep> given_up_at{kNotGivenUp};
  void gained() { last_gain.store(Clock::now().time_since_epoch().count(), std::memory_order_relaxed); }
  void give_up() const {
    Clock::rep expected = kNotGivenUp;
    given_up_at.compare_exchange_strong(expected, Clock::now().time_since_epoch().count());
  }
  bool given_up() const { return given_up_at.load(std::memory_order_relaxed) != kNotGivenUp; }
  Clock::time_point end() const {
    if (given_up()) return Clock::time_point{Clock::duration(given_up_at.load(std::memory_order_relaxed))};
    if (seconds <= 0) return Clock::time_point::max();
    const Clock::time_point last{Clock::duration(last_gain.load(std::memory_order_relaxed))};
    return last + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  }
};

struct Deadline {
  using Clock = std::chrono::steady_clock;
  Clock::time_point at = Clock::time_point::max();
  const StopFlag* stop = nullptr;
  const StopFlag* sibling_stop = nullptr;  // a concurrent sub-task's own flag
  const Stall* stall = nullptr;            // an improvement phase's stretch without a gain

  // No time limit (a stop flag may still end the work).
  static Deadline none(const StopFlag* stop = nullptr) { return {Clock::time_point::max(), stop}; }
  // `seconds` from now; 0 or less is already expired.
  static Deadline after_seconds(double seconds, const StopFlag* stop = nullptr) {
    if (seconds > 1e9) return none(stop);
    return {Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                               std::max(seconds, 0.0))),
            stop};
  }
  // The sooner of this deadline and `seconds` from now, with the same flag.
  Deadline within(double seconds) const {
    Deadline own = *this;
    own.at = std::min(at, after_seconds(seconds).at);
    return own;
  }
  // A phase's budget: `seconds`, or with a time limit the `share` of the
  // time left if that is more (solver/knobs/tuning.hpp, lns_share, improve_share).
  Deadline within_budget(double seconds, double share) const {
    if (!unlimited()) seconds = std::max(seconds, share * seconds_left());
    return within(seconds);
  }
  // The same deadline, also stopped by `flag`.
  Deadline with_sibling_stop(const StopFlag* flag) const {
    Deadline own = *this;
    own.sibling_stop = flag;
    return own;
  }

  bool unlimited() const { return at == Clock::time_point::max(); }
  bool stopped() const {
    return (stop && stop->load(std::memory_order_relaxed)) ||
           (sibling_stop && sibling_stop->load(std::memory_order_relaxed));
  }
  // The sooner of `at` and the stall's end (when it carries one).
  Clock::time_point end() const { return stall ? std::min(at, stall->end()) : at; }
  bool expired() const {
    if (stopped()) return true;
    const Clock::time_point own = end();
    return own != Clock::time_point::max() && Clock::now() >= own;
  }
  double seconds_left() const {
    if (stopped()) return 0;
    const Clock::time_point own = end();
    if (own == Clock::time_point::max()) return std::numeric_limits<double>::infinity();
    return std::max(0.0, std::chrono::duration<double>(own - Clock::now()).count());
  }
  // Seconds to `at`, whatever the stall says: to size a phase's parts
  // (a question's share) by its whole grant.
  double granted_seconds_left() const {
    Deadline whole = *this;
    whole.stall = nullptr;
    return whole.seconds_left();
  }
  // Whether the stall, not `at` nor a flag, ended it.
  bool stalled() const { return stall && !stopped() && stall->end() < at && Clock::now() >= stall->end(); }
  // Whether the phase's own progress rule (Stall::give_up) ended it.
  bool gave_up() const { return stalled() && stall->given_up(); }
};

// Why a deadline ended the work, for messages: an interrupt is not a time
// limit, and the user should read which one happened.
inline const char* stop_reason(const Deadline& deadline) {
  return deadline.stopped() ? "interrupted" : "time limit reached";
}

// Seconds elapsed since `start`, for the progress lines and reported times.
inline double seconds_since(Deadline::Clock::time_point start) {
  return std::chrono::duration<double>(Deadline::Clock::now() - start).count();
}

}  // namespace tessel
