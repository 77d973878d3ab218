// A wall-clock deadline shared by a whole search, so that every solver call
// below it stops in time (the SAT solver through a terminator, Z3 through its
// timeout parameter) and the command can answer "gave up" with exit 3.
#pragma once

#include <chrono>
#include <limits>

namespace tessel {

struct Deadline {
  using Clock = std::chrono::steady_clock;
  Clock::time_point at = Clock::time_point::max();

  static Deadline after_seconds(double seconds) {
    if (seconds <= 0 || seconds > 1e9) return {};
    return {Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds))};
  }
  bool unlimited() const { return at == Clock::time_point::max(); }
  bool expired() const { return !unlimited() && Clock::now() >= at; }
  double seconds_left() const {
    if (unlimited()) return std::numeric_limits<double>::infinity();
    return std::chrono::duration<double>(at - Clock::now()).count();
  }
};

// Seconds elapsed since `start`, for the progress lines and reported times.
inline double seconds_since(Deadline::Clock::time_point start) {
  return std::chrono::duration<double>(Deadline::Clock::now() - start).count();
}

}  // namespace tessel
