// The verifier's tests' shared helpers: the "field: reason" of the format
// error a document raises, and a file of tests/data read as JSON. Kept
// here, not in tests/support.hpp, because the verifier's tests link the
// verifier alone.
#pragma once

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "verify/verify.hpp"

namespace tessel::verify::testing {

inline std::string format_error_of(const nlohmann::json& document) {
  try {
    check_schedule(document);
  } catch (const FormatError& error) {
    return error.field + ": " + error.reason;
  }
  return "";
}

// tests/data/NAME as JSON.
inline nlohmann::json data_json(const std::string& name) {
  std::ifstream file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/" + name);
  return nlohmann::json::parse(file);
}

}  // namespace tessel::verify::testing
