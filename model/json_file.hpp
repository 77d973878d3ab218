// Reading JSON files and typed fields with errors that name the file and the
// field path. Shared by every reader in model/ (verify/ has its own).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "model/input_error.hpp"

namespace tessel {

// Parses a whole file; a missing file or bad JSON is an InputError.
nlohmann::json read_json_file(const std::string& path);

// Writes pretty JSON; an unwritable path is an InputError.
void write_json_file(const std::string& path, const nlohmann::json& value);

// Where a value sits: the file, and the JSON path inside it.
struct JsonPlace {
  std::string file;
  std::string path;  // "" for the document root

  JsonPlace field(const std::string& key) const {
    return {file, path.empty() ? key : path + "." + key};
  }
  JsonPlace index(size_t i) const { return {file, path + "[" + std::to_string(i) + "]"}; }
  [[noreturn]] void fail(const std::string& reason) const { throw InputError(file, path, reason); }
};

// Typed access to object members; each fails with the field's place.
const nlohmann::json& require(const nlohmann::json& object, const std::string& key,
                              const JsonPlace& place);
long long require_integer(const nlohmann::json& object, const std::string& key,
                          const JsonPlace& place);
std::string require_string(const nlohmann::json& object, const std::string& key,
                           const JsonPlace& place);
const nlohmann::json& require_array(const nlohmann::json& object, const std::string& key,
                                    const JsonPlace& place);
long long as_integer(const nlohmann::json& value, const JsonPlace& place);

// Checks `"format": "<name>/<version>"` and fails naming both when it differs.
void require_format(const nlohmann::json& document, const std::string& expected,
                    const JsonPlace& place);

}  // namespace tessel
