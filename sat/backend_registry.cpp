// The list of solver backends, the one place that names them, and how a
// spent one is let go.
#include <stdexcept>
#include <system_error>
#include <thread>

#include "sat/backend.hpp"

namespace tessel {

std::unique_ptr<Backend> make_z3_backend();       // sat/z3_backend.cpp
std::unique_ptr<Backend> make_cadical_backend(const BackendSettings& settings);  // sat/cadical_backend.cpp

std::vector<std::string> backend_names() { return {"cadical", "z3"}; }

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendSettings& settings) {
  if (name == "z3") return make_z3_backend();
  if (name == "cadical") return make_cadical_backend(settings);
  throw std::invalid_argument("unknown backend '" + name + "' (choose cadical or z3)");
}

void release_in_background(std::unique_ptr<Backend> backend) {
  if (!backend) return;
  try {
    std::thread([owned = std::move(backend)]() mutable { owned.reset(); }).detach();
  } catch (const std::exception&) {
    // No thread to be had (a cap), or no memory for its state: freed here
    // (the lambda's copy went with it). Callers include destructors.
  }
}

}  // namespace tessel
