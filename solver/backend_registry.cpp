// The list of solver backends, and the one place that names them.
#include <stdexcept>

#include "solver/backend.hpp"

namespace tessel {

std::unique_ptr<Backend> make_z3_backend();       // solver/z3_backend.cpp
std::unique_ptr<Backend> make_cadical_backend(const BackendSettings& settings);  // solver/cadical_backend.cpp

std::vector<std::string> backend_names() { return {"cadical", "z3"}; }

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendSettings& settings) {
  if (name == "z3") return make_z3_backend();
  if (name == "cadical") return make_cadical_backend(settings);
  throw std::invalid_argument("unknown backend '" + name + "' (choose cadical or z3)");
}

}  // namespace tessel
