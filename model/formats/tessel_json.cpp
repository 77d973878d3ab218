// PLACEHOLDER: lands with the foundation issue.
#include "model/formats/tessel_json.hpp"
#include "model/input_error.hpp"
namespace tessel {
Schedule import_tessel_json(const nlohmann::json&, const Placement&, const std::string& file) {
  throw InputError(file, "", "tessel-json import not implemented yet");
}
}  // namespace tessel
