// Reading /proc/self/statm into a stack buffer (see the header).
#include "model/process_memory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace tessel {

ProcessMemory process_memory() {
  char text[128] = {};
  const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  const ssize_t got = ::read(fd, text, sizeof text - 1);
  ::close(fd);
  long long size = 0, resident = 0;
  if (got <= 0 || std::sscanf(text, "%lld %lld", &size, &resident) != 2) return {};
  const long long page = sysconf(_SC_PAGESIZE);
  return {size * page, resident * page};
}

}  // namespace tessel
