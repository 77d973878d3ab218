// Freeing a solver that gave up, off the critical path. A large CaDiCaL
// solver takes seconds to free (the period race's abandoned attempts on the
// 1024-device finetune case: several seconds after an interrupt had
// already stopped them), time that a --time-limit or a Ctrl-C has not got.
// The object is deleted on a detached thread instead, so its memory still
// comes back (a long-lived Python process leaks nothing); if no thread can
// be started, it is deleted here.
#pragma once

#include <memory>
#include <system_error>
#include <thread>

namespace tessel {

template <class T>
void free_in_background(std::unique_ptr<T> object) {
  T* raw = object.release();
  if (!raw) return;
  try {
    std::thread([raw] { delete raw; }).detach();
  } catch (const std::exception&) {  // no thread to be had (a cap), or no memory for its state
    delete raw;
  }
}

}  // namespace tessel
