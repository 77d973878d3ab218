// Typed errors for bad input: every reader below tools/ throws one of these,
// carrying the file, the field and what is wrong, and tools/ alone turns it
// into a message and exit code 2.
#pragma once

#include <stdexcept>
#include <string>

namespace tessel {

struct InputError : std::runtime_error {
  std::string file;   // path of the offending file, or "" for command-line input
  std::string field;  // JSON path like "blocks[3].span", or an option name
  std::string reason;

  InputError(std::string file_, std::string field_, std::string reason_)
      : std::runtime_error(compose(file_, field_, reason_)),
        file(std::move(file_)), field(std::move(field_)), reason(std::move(reason_)) {}

  static std::string compose(const std::string& file, const std::string& field,
                             const std::string& reason) {
    std::string text;
    if (!file.empty()) text += file + ": ";
    if (!field.empty()) text += "field '" + field + "': ";
    return text + reason;
  }
};

// A token from the input as an error message quotes it: whole when short,
// else its first `keep` characters, "..." and its length, so that a
// 200,000-character cell does not become a 200 KB message.
inline std::string shown_token(const std::string& token, size_t keep = 40) {
  if (token.size() <= keep + 20) return token;
  return token.substr(0, keep) + "... (" + std::to_string(token.size()) + " characters)";
}

}  // namespace tessel
