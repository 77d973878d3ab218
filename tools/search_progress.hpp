// What `tessel search` shows while it runs: every finished step of the
// search as a line on stderr, and at least once a second a heartbeat with
// the elapsed time, the current step and the best makespan so far - one
// line that redraws itself on a terminal, plain lines otherwise (logs).
// Each better schedule is written to -o at once, so that even a killed
// process leaves the best valid schedule it had.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "solver/search.hpp"

namespace tessel::cli {

class SearchProgress : public Progress {
 public:
  // `write_best` (may be empty) saves an improved schedule.
  SearchProgress(bool quiet, std::function<void(const Schedule&)> write_best);
  ~SearchProgress() override;

  void line(const std::string& text) override;
  void improved(const Schedule& schedule, Shape shape, Time makespan) override;
  // Ends the heartbeat and clears a redrawn line.
  void finish();

 private:
  void heartbeat();
  void print(const std::string& text, bool permanent);  // holds mutex_
  double elapsed() const;

  const bool quiet_;
  const bool terminal_;
  std::function<void(const Schedule&)> write_best_;
  const std::chrono::steady_clock::time_point begin_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool finished_ = false;
  bool line_open_ = false;  // a redrawn line is on the terminal
  std::string activity_;
  std::string best_;
  std::chrono::steady_clock::time_point last_print_;
  std::thread ticker_;
};

}  // namespace tessel::cli
