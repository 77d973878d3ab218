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
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>

namespace tessel {

// Raised once, never lowered: "stop what you are doing and report".
using StopFlag = std::atomic<bool>;

struct Deadline {
  using Clock = std::chrono::steady_clock;
  Clock::time_point at = Clock::time_point::max();
  const StopFlag* stop = nullptr;
  const StopFlag* sibling_stop = nullptr;  // a concurrent sub-task's own flag

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
  bool expired() const { return stopped() || (!unlimited() && Clock::now() >= at); }
  double seconds_left() const {
    if (stopped()) return 0;
    if (unlimited()) return std::numeric_limits<double>::infinity();
    return std::max(0.0, std::chrono::duration<double>(at - Clock::now()).count());
  }
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
