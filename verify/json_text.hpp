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

// Parses `text`; throws FormatError{"", reason} when it cannot be read, and
// FormatError{field, reason} for a number literal that a double does not
// hold as written (0.99999999999999999, which would read as 1): every
// number the verifier judges is the number the file wrote.
nlohmann::json parse_document(const std::string& text);

// A token from the input as a message quotes it: whole when short, else its
// first 40 characters, "..." and its length.
std::string short_text(const std::string& text);

}  // namespace tessel::verify
