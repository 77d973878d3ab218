// The memory watch (see the header): reading the caps, then the thread.
#include "tools/memory_watch.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "model/process_memory.hpp"
#include "tools/interrupt.hpp"

namespace tessel::cli {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(50);

// A number from a cgroup file ("max" or missing: none).
long long cgroup_limit(const char* path) {
  std::ifstream file(path);
  long long bytes = 0;
  if (!(file >> bytes) || bytes <= 0) return 0;
  return bytes;
}

long long three_quarters(long long bytes) { return bytes / 4 * 3; }

// The smaller of two caps where 0 means none.
long long smaller(long long a, long long b) {
  if (a == 0) return b;
  if (b == 0) return a;
  return std::min(a, b);
}

}  // namespace

MemoryBudget memory_budget() {
  MemoryBudget budget;
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    budget.address_space = three_quarters(static_cast<long long>(limit.rlim_cur));
  long long resident = static_cast<long long>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (resident < 0) resident = 0;
  // A cgroup without a limit reports "max" (v2) or a number near 2^63 (v1).
  resident = smaller(resident, cgroup_limit("/sys/fs/cgroup/memory.max"));
  const long long v1 = cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
  if (v1 < (1LL << 60)) resident = smaller(resident, v1);
  budget.resident = three_quarters(resident);
  return budget;
}

MemoryWatch::MemoryWatch(MemoryBudget budget) : budget_(budget) {
  if (budget_.address_space > 0 || budget_.resident > 0) thread_ = std::thread([this] { watch(); });
}

MemoryWatch::~MemoryWatch() {
  done_.store(true);
  if (thread_.joinable()) thread_.join();
}

void MemoryWatch::watch() {
  while (!done_.load()) {
    const auto [size, resident] = process_memory();
    const bool over_space = budget_.address_space > 0 && size > budget_.address_space;
    const bool over_resident = budget_.resident > 0 && resident > budget_.resident;
    if (over_space || over_resident) {
      size_at_stop_.store(over_space ? size : resident);
      by_address_space_.store(over_space);
      fired_.store(true);
      raise_stop_flag();
      return;
    }
    std::this_thread::sleep_for(kPollInterval);
  }
}

std::string MemoryWatch::note() const {
  const bool space = by_address_space_.load();
  const long long budget = (space ? budget_.address_space : budget_.resident) >> 20;
  return "the search was stopped at " + std::to_string(size_at_stop_.load() >> 20) + " MiB of " +
         (space ? "address space" : "resident memory") + ", past " + std::to_string(budget) +
         " MiB, three quarters of what this process may use (" +
         (space ? "the address-space cap, ulimit -v" : "the machine's or the memory cgroup's memory") +
         "); a search of this size needs more memory for a better answer";
}

}  // namespace tessel::cli
