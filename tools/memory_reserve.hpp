// Running out of memory ends a command with a message and exit 3, never an
// abort. The catch is not enough on its own: unwinding a large JSON document
// allocates (nlohmann's destructor moves the children of an array onto a
// stack of its own, and a destructor that throws terminates the process),
// so the first failed allocation must leave memory for the unwinding. A
// reserve is taken at start-up (address space only: it is never touched, so
// it costs no resident memory) and given back by the new-handler at the
// first failure, which then throws std::bad_alloc as usual; tools/cli.cpp's
// guarded() turns that into the message.
#pragma once

namespace tessel::cli {

// Takes the reserve and installs the handler (call once, from main).
void install_memory_reserve();

}  // namespace tessel::cli
