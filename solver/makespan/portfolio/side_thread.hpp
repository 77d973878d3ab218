// The portfolio's side thread: with two threads or more, one phase runs
// beside the ones on the main thread (the solver phases keep one core busy
// and leave the other idle; 16 ranks: 2-3 s of a default search's 4.5). It
// runs on copies, offers nothing while it runs (offers and the judge stay on
// the main thread), stops on its own flag, and hands its candidate back
// when collected; an exception it throws is rethrown there.
#pragma once

#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <optional>
#include <thread>

#include "sat/deadline.hpp"
#include "solver/makespan/portfolio/candidates.hpp"

namespace tessel {

class SideThread {
 public:
  using Work = std::function<std::optional<BuiltCandidate>(const StopFlag& stop)>;
  // Starts `work`; `on_done` runs on the side thread as it ends, with its
  // candidate and whether it failed (may be empty).
  using OnDone = std::function<void(const std::optional<BuiltCandidate>& found, bool failed)>;
  explicit SideThread(Work work, OnDone on_done = {});
  ~SideThread() { stop(); }
  SideThread(const SideThread&) = delete;
  SideThread& operator=(const SideThread&) = delete;

  // Waits while `keep_waiting()` holds and the work runs, then stops it and
  // returns its candidate.
  std::optional<BuiltCandidate> collect(const std::function<bool()>& keep_waiting);
  // Asks the work to stop (its deadline reads the flag) and waits for it.
  void stop();
  bool done() const { return done_; }

 private:
  StopFlag stop_{false};
  std::atomic<bool> done_{false};
  std::optional<BuiltCandidate> found_;
  std::exception_ptr failure_;
  std::thread worker_;
};

}  // namespace tessel
