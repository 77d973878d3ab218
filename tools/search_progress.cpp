// The heartbeat thread and the two ways of printing (see the header).
#include "tools/search_progress.hpp"

#include <cstdio>
#include <iomanip>
#include <iostream>
#include <new>
#include <sstream>

#include <unistd.h>

namespace tessel::cli {

SearchProgress::SearchProgress(bool quiet, std::function<void(const Schedule&)> write_best)
    : quiet_(quiet),
      terminal_(::isatty(STDERR_FILENO) != 0),
      write_best_(std::move(write_best)),
      begin_(std::chrono::steady_clock::now()),
      last_print_(begin_) {
  if (!quiet_) ticker_ = std::thread([this] { heartbeat(); });
}

SearchProgress::~SearchProgress() { finish(); }

double SearchProgress::elapsed() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
}

void SearchProgress::print(const std::string& text, bool permanent) {
  std::ostringstream stamped;
  stamped << "[" << std::fixed << std::setprecision(2) << elapsed() << " s] " << text;
  if (terminal_) {
    // Redraw in place; a permanent line stays, the heartbeat is overwritten.
    std::cerr << "\r\033[K" << stamped.str() << (permanent ? "\n" : "") << std::flush;
    line_open_ = !permanent;
  } else {
    std::cerr << stamped.str() << "\n";
  }
  last_print_ = std::chrono::steady_clock::now();
}

void SearchProgress::line(const std::string& text) {
  std::lock_guard<std::mutex> lock(mutex_);
  activity_ = text;
  if (!quiet_) print(text, !terminal_);
}

void SearchProgress::improved(const Schedule& schedule, Shape shape, Time makespan) {
  std::lock_guard<std::mutex> lock(mutex_);
  best_ = std::string(shape_name(shape)) + " " +
          format_ticks(makespan, schedule.placement.time_decimals);
  if (write_best_) write_best_(schedule);
}

void SearchProgress::heartbeat() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!finished_) {
    wake_.wait_for(lock, std::chrono::milliseconds(250));
    if (finished_) break;
    if (std::chrono::steady_clock::now() - last_print_ < std::chrono::seconds(1)) continue;
    // A std::bad_alloc escaping this thread would end the process; near a
    // memory cap the heartbeat is simply skipped.
    try {
      std::string text = "searching" + (activity_.empty() ? std::string() : ": last " + activity_);
      if (!best_.empty()) text += "; best makespan so far " + best_;
      print(text, false);
    } catch (const std::bad_alloc&) {
    }
  }
}

void SearchProgress::finish() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (finished_) return;
    finished_ = true;
    if (line_open_) std::cerr << "\r\033[K" << std::flush;
    line_open_ = false;
  }
  wake_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

}  // namespace tessel::cli
