// How much memory this process holds, read from /proc/self/statm without
// allocating: both readers run exactly when the process is near a memory
// cap (the search's memory watch, tools/memory_watch.hpp; the room check
// before a large JSON document, model/json_file.hpp), where an allocation
// that fails in the wrong place ends the process.
#pragma once

namespace tessel {

struct ProcessMemory {
  long long address_space = 0;  // bytes mapped (what ulimit -v caps)
  long long resident = 0;       // bytes in memory
};

// Zeros when /proc is not readable.
ProcessMemory process_memory();

}  // namespace tessel
