// PLACEHOLDER: the CaDiCaL backend lands with the CaDiCaL issue.
#include <stdexcept>
#include "solver/backend.hpp"
namespace tessel {
std::unique_ptr<Backend> make_cadical_backend() { throw std::logic_error("cadical backend not implemented yet"); }
}  // namespace tessel
