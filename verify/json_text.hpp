// The verifier's own JSON parsing. verify/ shares no code with model/, so it
// bounds what the model's reader bounds on its own: a document nested deeper
// than any tessel format (destroying or printing such a value recurses once
// per level and would overflow the stack), a number no double holds
// ("1e400"), and text that is not JSON at all. Each is a FormatError, never
// a crash or an internal error.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tessel::verify {

// Deeper than the deepest tessel document (a schedule nests 4 levels).
inline constexpr int kMaxJsonDepth = 64;

// Parses `text`; throws FormatError{"", reason} when it cannot be read.
nlohmann::json parse_document(const std::string& text);

}  // namespace tessel::verify
