// The memory reserve and the new-handler that gives it back (see the header).
#include "tools/memory_reserve.hpp"

#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <new>

namespace tessel::cli {
namespace {

// An eighth of an address-space cap (ulimit -v), at most 64 MiB: unwinding
// the verifier's document of 2 million instances needs about 32 MiB.
constexpr size_t kLargestReserve = size_t{64} << 20;
constexpr size_t kSmallestReserve = size_t{1} << 20;

std::atomic<void*> reserve{nullptr};
size_t reserve_size = 0;

size_t wanted_size() {
  rlimit limit{};
  if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return kLargestReserve;
  return std::clamp(static_cast<size_t>(limit.rlim_cur / 8), kSmallestReserve, kLargestReserve);
}

// Called by operator new when an allocation fails: the reserve goes back to
// the system (once; any thread), and the allocation fails as it would have.
void on_allocation_failure() {
  void* held = reserve.exchange(nullptr);
  if (held) munmap(held, reserve_size);
  throw std::bad_alloc();
}

}  // namespace

void install_memory_reserve() {
  reserve_size = wanted_size();
  // Mapped, not allocated: its pages are never touched, so only the address
  // space counts (the cap that ulimit -v sets).
  void* mapped = mmap(nullptr, reserve_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped != MAP_FAILED) reserve.store(mapped);
  std::set_new_handler(on_allocation_failure);
}

}  // namespace tessel::cli
