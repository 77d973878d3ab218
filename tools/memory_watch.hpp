// A search without a time limit must still end before memory does. Its
// encodings can grow past what the process may use (finetune on 1024
// devices under memory 4: the period question at the memory-rate bound
// built 4 GB in 30 s, then failed to allocate, exit 3 with nothing written,
// although a schedule one step above that bound was in hand after 4 s).
// The watch stops the search first: a thread reads the process's size every
// 50 ms and, past three quarters of what it may use (an address-space cap
// such as ulimit -v, the memory cgroup's limit, the machine's memory),
// raises the stop flag that Ctrl-C raises. The search then answers with its
// best schedule as on an interrupt (exit 3), in the quarter left.
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace tessel::cli {

// What the process may use and what the watch compares with it.
struct MemoryBudget {
  long long address_space = 0;  // bytes of virtual memory (0: no cap)
  long long resident = 0;       // bytes of resident memory (0: unknown)
};

// Three quarters of the smallest cap in force now.
MemoryBudget memory_budget();

class MemoryWatch {
 public:
  explicit MemoryWatch(MemoryBudget budget);
  ~MemoryWatch();
  MemoryWatch(const MemoryWatch&) = delete;
  MemoryWatch& operator=(const MemoryWatch&) = delete;

  // Whether it stopped the search, and a sentence saying at what size.
  bool fired() const { return fired_.load(); }
  std::string note() const;

 private:
  void watch();

  MemoryBudget budget_;
  std::atomic<bool> done_{false};
  std::atomic<bool> fired_{false};
  std::atomic<long long> size_at_stop_{0};
  std::atomic<bool> by_address_space_{false};
  std::thread thread_;
};

}  // namespace tessel::cli
