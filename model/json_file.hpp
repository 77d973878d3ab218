// Reading JSON files and typed fields with errors that name the file and the
// field path. Shared by every reader in model/ (verify/ has its own).
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/input_error.hpp"
#include "model/quantity.hpp"

namespace tessel {

// Parses a whole file; a missing file, bad JSON, a number no double holds,
// nesting deeper than any tessel format or a file over 1 GiB is an InputError.
nlohmann::json read_json_file(const std::string& path);
nlohmann::json parse_json_text(const std::string& text, const std::string& path);

// Writes pretty JSON through write_output_file (model/output_file.hpp): links
// followed, atomic replace, every write error an InputError.
void write_json_file(const std::string& path, const nlohmann::json& value);

// A value as an error message quotes it: its JSON text, cut to its first
// 40 characters when long (input_error.hpp, shown_token).
inline std::string shown_value(const nlohmann::json& value) { return shown_token(value.dump()); }

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

// A number read exactly as the file wrote it (model/quantity.hpp); fails on
// non-numbers and on numbers with more than kMaxDecimals decimals.
Decimal as_decimal(const nlohmann::json& value, const JsonPlace& place);
Decimal require_decimal(const nlohmann::json& object, const std::string& key, const JsonPlace& place);

// Ticks of `value` at `decimals`; fails naming the place when it does not fit.
long long decimal_ticks(const Decimal& value, int decimals, const JsonPlace& place);

// A typo must never change the meaning of a file: every key of `object`
// must be one of `known`, else the error names the nearest known key.
void require_known_keys(const nlohmann::json& object, std::initializer_list<const char*> known,
                        const JsonPlace& place);

// The candidate closest to `word` by edit distance (case-insensitive), or ""
// when none is close enough to be a plausible typo.
std::string nearest_name(const std::string& word, const std::vector<std::string>& candidates);

// Checks `"format": "<name>/<version>"` and fails naming both when it differs.
void require_format(const nlohmann::json& document, const std::string& expected,
                    const JsonPlace& place);

// A tick count as every tessel file writes it: an integer at 0 decimals,
// else the decimal number (3.712). Used for times and memory amounts alike.
nlohmann::json time_to_json(Time ticks, int decimals);

// Measured seconds as every tessel file writes them: rounded to the
// microsecond, so the file reads back (a raw double such as
// 0.7779350820000001 has more digits than read_json_file accepts).
nlohmann::json seconds_to_json(double seconds);

// Throws std::bad_alloc when `bytes` more would pass the process's
// address-space cap (ulimit -v), measured before a large document is built.
// Needed because nlohmann's destructors allocate (a stack of the children):
// a document that runs out of memory half-built may fail again inside a
// noexcept destructor, which ends the process instead of reporting it.
void require_address_space(size_t bytes);

// What building, holding and destroying one schedule instance's JSON object
// takes, with margin (tessel verify of 200,000 instances: 114 MiB).
inline constexpr size_t kDocumentBytesPerInstance = 1024;

}  // namespace tessel
