// Ctrl-C and SIGTERM during a long command: the first one raises a stop
// flag that every deadline below the command watches, so the search stops
// at its next check and the command still writes its best result and
// exits 3; a second one ends the process at once (the default action).
#pragma once

#include "sat/deadline.hpp"

namespace tessel::cli {

// Installs the handlers (idempotent) and returns the flag they raise.
const StopFlag* install_interrupt_handlers();

// Raises the same flag from inside the process (the memory watch,
// tools/memory_watch.hpp): the search stops as on a signal.
void raise_stop_flag();

}  // namespace tessel::cli
