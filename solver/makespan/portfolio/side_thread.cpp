// The portfolio's side thread (see side_thread.hpp).
#include "solver/makespan/portfolio/side_thread.hpp"

namespace tessel {

SideThread::SideThread(Work work, OnDone on_done) {
  worker_ = std::thread([this, work = std::move(work), on_done = std::move(on_done)] {
    try {
      found_ = work(stop_);
      if (on_done) on_done(found_, false);
    } catch (...) {
      failure_ = std::current_exception();
      if (on_done) on_done(std::nullopt, true);
    }
    done_ = true;
  });
}

std::optional<BuiltCandidate> SideThread::collect(const std::function<bool()>& keep_waiting) {
  while (!done_ && keep_waiting()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stop();
  if (failure_) std::rethrow_exception(failure_);
  return std::move(found_);
}

void SideThread::stop() {
  stop_ = true;
  if (worker_.joinable()) worker_.join();
}

}  // namespace tessel
