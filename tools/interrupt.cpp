// The signal handlers: a lock-free atomic store is all a handler may do.
#include "tools/interrupt.hpp"

#include <csignal>

namespace tessel::cli {
namespace {

StopFlag stop_flag{false};

extern "C" void on_interrupt(int) {
  stop_flag.store(true);
}

}  // namespace

const StopFlag* install_interrupt_handlers() {
  static bool installed = false;
  if (!installed) {
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    // A second signal takes the default action: the user insists.
    action.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    installed = true;
  }
  return &stop_flag;
}

void raise_stop_flag() { stop_flag.store(true); }

}  // namespace tessel::cli
