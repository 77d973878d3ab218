// The verifier's tests' one shared helper: the "field: reason" of the format
// error a document raises, or "" when the verifier reads it. Kept here, not
// in tests/support.hpp, because the verifier's tests link the verifier alone.
#pragma once

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

}  // namespace tessel::verify::testing
